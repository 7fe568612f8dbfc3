"""A run's records summed up: what ``--json`` prints and what the report and the comparison are drawn from."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from statistics import mean, median
from typing import Any


def proportion_ci(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson 95% confidence interval of a proportion ``hits / n``."""
    if n == 0:
        return 0.0, 1.0
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_ci(values: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """The mean and its normal 95% confidence interval."""
    if not values:
        return 0.0, 0.0, 0.0
    m = mean(values)
    if len(values) < 2:
        return m, m, m
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1))
    half = z * sd / math.sqrt(len(values))
    return m, m - half, m + half


def seat_of(record: dict[str, Any], player: str) -> int:
    return next(i for i, s in enumerate(record["seats"]) if s["player"] == player)


def bot_of(record: dict[str, Any], player: str) -> str:
    return next(s["bot"] for s in record["seats"] if s["player"] == player)


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The run's figures: length, ends, wins by seat and by bot, values, companies, privates, phases, the bank."""
    n = len(records)
    ends = Counter(r["end_reason"] for r in records)
    rule = sum(1 for r in records if r["rule_end"])
    seats = max((len(r["seats"]) for r in records), default=0)
    seat_wins = Counter(seat_of(r, r["ranking"][0]) for r in records if r["ranking"])
    bot_seats: Counter[str] = Counter()
    bot_wins: Counter[str] = Counter()
    values_by_bot: dict[str, list[int]] = defaultdict(list)
    for r in records:
        for s in r["seats"]:
            bot_seats[s["bot"]] += 1
            values_by_bot[s["bot"]].append(int(r["values"].get(s["player"], 0)))
        if r["ranking"]:
            bot_wins[bot_of(r, r["ranking"][0])] += 1
    games_with = Counter(b for r in records for b in {s["bot"] for s in r["seats"]})
    bots = {}
    for bot in sorted(bot_seats):
        lo, hi = proportion_ci(bot_wins[bot], games_with[bot])
        bots[bot] = {
            "seats": bot_seats[bot],
            "games": games_with[bot],
            "wins": bot_wins[bot],
            "win_rate": round(bot_wins[bot] / games_with[bot], 4) if games_with[bot] else 0.0,
            "win_rate_ci": [round(lo, 4), round(hi, 4)],
            "mean_value": round(mean(values_by_bot[bot]), 1) if values_by_bot[bot] else 0,
        }
    floated: Counter[str] = Counter()
    revenue_total: dict[str, list[int]] = defaultdict(list)
    for r in records:
        for sym, c in r["companies"].items():
            floated[sym] += c.get("floated_or") is not None
            revenue_total[sym].append(sum(c.get("revenue", {}).values()))
    companies = {
        sym: {
            "float_rate": round(floated[sym] / n, 4) if n else 0.0,
            "mean_total_revenue": round(sum(revenue_total[sym]) / n, 1) if n else 0.0,
        }
        for sym in sorted(revenue_total)
    }
    privates: dict[str, list[int]] = defaultdict(list)
    for r in records:
        for sym, p in r["privates"].items():
            privates[sym].append(int(p["price"]))
    phases: dict[str, list[int]] = defaultdict(list)
    for r in records:
        for p in r["phases"][1:]:
            phases[p["phase"]].append(int(p["or"]))
    broke = [int(r["bank_broken"]["or"]) for r in records if r.get("bank_broken")]
    secs = [float(r.get("cpu_seconds", r["seconds"])) for r in records]
    return {
        "games": n,
        "seats": seats,
        "rule_ends": rule,
        "rule_end_rate": round(rule / n, 4) if n else 0.0,
        "end_reasons": dict(ends.most_common()),
        "errors": sum(1 for r in records if r.get("error")),
        "invariant_failures": sum(len(r.get("invariant_failures") or []) for r in records),
        "actions": _stats([r["actions"] for r in records]),
        "rounds": _stats([r["rounds"] for r in records]),
        "operating_rounds": _stats([r["operating_rounds"] for r in records]),
        "cpu_seconds_per_game": round(mean(secs), 3) if secs else 0.0,
        "wins_by_seat": {str(i + 1): seat_wins.get(i, 0) for i in range(seats)},
        "bots": bots,
        "companies": companies,
        "privates": {s: {"bought": len(v), **_stats(v)} for s, v in sorted(privates.items())},
        "phases_at_or": {p: _stats(v) for p, v in phases.items()},
        "bank_broken": {"games": len(broke), **_stats(broke)},
    }


def _stats(values: list[int]) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "median": 0.0, "min": 0, "max": 0}
    return {"mean": round(mean(values), 2), "median": float(median(values)), "min": min(values), "max": max(values)}
