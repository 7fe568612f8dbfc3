"""Comparing two designs played on the same seeds: for each figure, the mean per-game difference (B - A) with a
95% confidence interval (games are paired by seed, so the seats, bots and shuffles match game for game)."""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .summary import mean_ci

Metric = Callable[[dict[str, Any]], float | None]


def metrics(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> dict[str, Metric]:
    """The figures compared: per-game numbers (None where a game has none)."""
    out: dict[str, Metric] = {
        "operating rounds": lambda r: r["operating_rounds"],
        "actions": lambda r: r["actions"],
        "rule end (share of games)": lambda r: float(r["rule_end"]),
        "bank breaks (share of games)": lambda r: float(bool(r.get("bank_broken"))),
        "winner's value": lambda r: r["values"].get(r["ranking"][0]) if r["ranking"] else None,
        "seat 1 wins (share of games)": lambda r: float(
            bool(r["ranking"]) and r["ranking"][0] == r["seats"][0]["player"]
        ),
    }
    bots = sorted({s["bot"] for r in a + b for s in r["seats"]})
    for bot in bots if len(bots) > 1 else []:
        out[f"{bot} wins (share of games)"] = lambda r, bot=bot: float(r.get("winner_bot") == bot)
    syms = sorted({s for r in a + b for s in r["companies"]})
    for sym in syms:
        out[f"{sym} floats (share of games)"] = lambda r, sym=sym: float(
            (r["companies"].get(sym) or {}).get("floated_or") is not None
        )
        out[f"{sym} total revenue"] = lambda r, sym=sym: sum(
            ((r["companies"].get(sym) or {}).get("revenue") or {}).values()
        )
    for sym in sorted({s for r in a + b for s in r["privates"]}):
        out[f"private {sym} price"] = lambda r, sym=sym: (r["privates"].get(sym) or {}).get("price")
    return out


def compare(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows ``{metric, a, b, diff, ci, games, significant}``: means over the games both runs have a figure for."""
    by_seed = {r["seed"]: r for r in b}
    pairs = [(r, by_seed[r["seed"]]) for r in a if r["seed"] in by_seed]
    rows = []
    for name, f in metrics(a, b).items():
        both = [(f(x), f(y)) for x, y in pairs]
        kept = [(float(x), float(y)) for x, y in both if x is not None and y is not None]
        if not kept:
            continue
        diff, lo, hi = mean_ci([y - x for x, y in kept])
        rows.append(
            {
                "metric": name,
                "a": round(sum(x for x, _ in kept) / len(kept), 4),
                "b": round(sum(y for _, y in kept) / len(kept), 4),
                "diff": round(diff, 4),
                "ci": [round(lo, 4), round(hi, 4)],
                "games": len(kept),
                "significant": lo > 0 or hi < 0,
            }
        )
    return rows


def render(rows: list[dict[str, Any]], names: tuple[str, str], path: Path) -> Path:
    """An HTML page: the table of differences, the significant ones first, and a figure of them."""
    import base64

    from .report import CSS, _figure, _png, _row

    ranked = sorted(rows, key=lambda r: (not r["significant"], r["metric"]))
    body = [
        f"<h1>{html.escape(names[1])} against {html.escape(names[0])}</h1>",
        "<p>Same seeds, seats and bots; differences are B - A per game, with 95% confidence intervals.</p>",
        "<table>",
        _row(["figure", f"A: {names[0]}", f"B: {names[1]}", "B - A", "95% CI", "games", ""], head=True),
    ]
    for r in ranked:
        mark = "significant" if r["significant"] else ""
        body.append(_row([r["metric"], r["a"], r["b"], r["diff"], f"{r['ci'][0]} .. {r['ci'][1]}", r["games"], mark]))
    body.append("</table>")
    shares = [r for r in rows if "share of games" in r["metric"]]
    if shares:
        fig, ax = _figure()
        fig.set_size_inches(6.4, max(2.0, 0.22 * len(shares) + 0.8))
        ys = range(len(shares))
        ax.errorbar(
            [r["diff"] for r in shares],
            list(ys),
            xerr=[[r["diff"] - r["ci"][0] for r in shares], [r["ci"][1] - r["diff"] for r in shares]],
            fmt="o",
            capsize=3,
        )
        ax.axvline(0, color="grey", linewidth=0.8)
        ax.set_yticks(list(ys), [r["metric"].replace(" (share of games)", "") for r in shares], fontsize=7)
        ax.set_xlabel("difference in share of games (B - A)")
        data = base64.b64encode(_png(fig)).decode()
        body.append(f'<figure><img alt="differences" src="data:image/png;base64,{data}"></figure>')
    page = (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>compare</title><style>{CSS}</style>'
        "</head><body>" + "\n".join(body) + "</body></html>\n"
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, encoding="utf-8")
    return path
