"""The designer's report: one self-contained HTML page of matplotlib figures (PNG, embedded) and tables, from a
run's records; the figures are also written beside it as PNG files."""

from __future__ import annotations

import base64
import html
import io
from collections import defaultdict
from pathlib import Path
from typing import Any

from .summary import seat_of, summarize

WIDTH, HEIGHT, DPI = 6.4, 3.4, 100


def _figure(cols: int = 1, **kwargs: Any) -> tuple[Any, Any]:
    """A new figure of ``cols`` plots side by side (the Agg backend: no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt.subplots(1, cols, figsize=(WIDTH, HEIGHT), dpi=DPI, layout="constrained", **kwargs)


def _png(fig: Any) -> bytes:
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def figures(records: list[dict[str, Any]]) -> dict[str, tuple[str, bytes]]:
    """name -> (caption, PNG) of every figure of the report."""
    out: dict[str, tuple[str, bytes]] = {}
    s = summarize(records)

    fig, (a1, a2) = _figure(2)
    a1.hist([r["operating_rounds"] for r in records], bins=15, color="#4c72b0")
    a1.set_xlabel("operating rounds")
    a1.set_ylabel("games")
    a2.hist([r["actions"] for r in records], bins=15, color="#55a868")
    a2.set_xlabel("actions")
    out["length"] = ("How long a game lasts", _png(fig))

    fig, ax = _figure()
    reasons = s["end_reasons"]
    ax.barh(list(reasons), list(reasons.values()), color="#8172b2")
    ax.set_xlabel("games")
    out["ends"] = ("How games end", _png(fig))

    fig, (a1, a2) = _figure(2)
    seats = s["wins_by_seat"]
    a1.bar(list(seats), [v / max(s["games"], 1) for v in seats.values()], color="#4c72b0")
    a1.set_xlabel("seat")
    a1.set_ylabel("win rate")
    bots = s["bots"]
    rates = [b["win_rate"] for b in bots.values()]
    errs = [
        [b["win_rate"] - b["win_rate_ci"][0] for b in bots.values()],
        [b["win_rate_ci"][1] - b["win_rate"] for b in bots.values()],
    ]
    a2.bar(list(bots), rates, yerr=errs, capsize=4, color="#c44e52")
    a2.set_xlabel("bot (wins per game it plays; 95% CI)")
    out["wins"] = ("Who wins: by seat and by bot", _png(fig))

    fig, ax = _figure()
    by_bot: dict[str, list[int]] = defaultdict(list)
    by_rank: dict[int, list[int]] = defaultdict(list)
    for r in records:
        for s_ in r["seats"]:
            by_bot[s_["bot"]].append(int(r["values"].get(s_["player"], 0)))
        for i, p in enumerate(r["ranking"]):
            by_rank[i + 1].append(int(r["values"].get(p, 0)))
    labels = [f"rank {k}" for k in sorted(by_rank)] + [f"bot {b}" for b in sorted(by_bot)]
    data = [by_rank[k] for k in sorted(by_rank)] + [by_bot[b] for b in sorted(by_bot)]
    if data:
        ax.boxplot(data, tick_labels=labels)
    ax.set_ylabel("final value")
    out["values"] = ("Final values, by rank and by bot", _png(fig))

    fig, (a1, a2) = _figure(2, gridspec_kw={"width_ratios": [2, 1]})
    revenue: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        for sym, c in r["companies"].items():
            for o, v in c.get("revenue", {}).items():
                revenue[sym][int(o)].append(int(v))
    n = max(len(records), 1)
    for sym in sorted(revenue):
        ors = sorted(revenue[sym])
        a1.plot(ors, [sum(revenue[sym][o]) / n for o in ors], label=sym, linewidth=1)
    a1.set_xlabel("operating round")
    a1.set_ylabel("mean revenue per game")
    if revenue:
        a1.legend(fontsize=6, ncol=2)
    comps = s["companies"]
    a2.barh(list(comps), [c["float_rate"] for c in comps.values()], color="#55a868")
    a2.set_xlabel("float rate")
    a2.tick_params(axis="y", labelsize=7)
    out["companies"] = ("Company performance: revenue by operating round, how often each floats", _png(fig))

    fig, ax = _figure()
    prices: dict[str, list[int]] = defaultdict(list)
    face: dict[str, int] = {}
    for r in records:
        for sym, p in r["privates"].items():
            prices[sym].append(int(p["price"]))
            face[sym] = int(p["value"])
    names = sorted(prices)
    if names:
        ax.boxplot([prices[k] for k in names], tick_labels=names)
        ax.scatter(
            range(1, len(names) + 1), [face[k] for k in names], marker="_", s=300, color="red", label="face value"
        )
        ax.legend(fontsize=7)
        ax.tick_params(axis="x", labelsize=7, rotation=45)
    ax.set_ylabel("price paid")
    out["privates"] = ("What players pay for the privates (red: face value)", _png(fig))

    fig, ax = _figure()
    phases: dict[str, list[int]] = defaultdict(list)
    order: list[str] = []
    for r in records:
        for p in r["phases"][1:]:
            phases[p["phase"]].append(int(p["or"]))
            if p["phase"] not in order:
                order.append(p["phase"])
    broke = [int(r["bank_broken"]["or"]) for r in records if r.get("bank_broken")]
    rows = [*order, "bank breaks"] if broke else order
    data = [phases[p] for p in order] + ([broke] if broke else [])
    if data:
        ax.boxplot(data, tick_labels=rows, orientation="horizontal")
    ax.set_xlabel("operating round")
    out["phases"] = ("When each phase arrives and when the bank breaks", _png(fig))
    return out


def render(records: list[dict[str, Any]], title: str, path: Path, figures_dir: bool = True) -> Path:
    """Write the report to ``path`` (and its figures as ``<stem>-<name>.png`` beside it)."""
    s = summarize(records)
    figs = figures(records)
    path.parent.mkdir(parents=True, exist_ok=True)
    if figures_dir:
        for name, (_, png) in figs.items():
            (path.parent / f"{path.stem}-{name}.png").write_bytes(png)
    body = [f"<h1>{html.escape(title)}: {s['games']} simulated games</h1>", _table_summary(s)]
    for name, (caption, png) in figs.items():
        data = base64.b64encode(png).decode()
        body.append(
            f'<figure id="{name}"><img alt="{html.escape(caption)}" src="data:image/png;base64,{data}">'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>"
        )
    body.append(_table_bots(s))
    page = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)} simulation report</title><style>{CSS}</style></head><body>"
        + "\n".join(body)
        + "</body></html>\n"
    )
    path.write_text(page, encoding="utf-8")
    return path


CSS = (
    "body{font-family:system-ui,sans-serif;max-width:980px;margin:2em auto;color:#222}"
    "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}"
    "th{background:#f3f3f3}figure{margin:1.5em 0}img{max-width:100%}figcaption{font-weight:600}"
)


def _row(cells: list[Any], head: bool = False) -> str:
    tag = "th" if head else "td"
    return "<tr>" + "".join(f"<{tag}>{html.escape(str(c))}</{tag}>" for c in cells) + "</tr>"


def _table_summary(s: dict[str, Any]) -> str:
    ends = ", ".join(f"{k} {v}" for k, v in s["end_reasons"].items())
    rows = [
        ("games", s["games"]),
        ("rule ends", f"{s['rule_ends']} ({100 * s['rule_end_rate']:.1f}%)"),
        ("end reasons", ends),
        ("operating rounds (mean, min-max)", _spread(s["operating_rounds"])),
        ("actions (mean, min-max)", _spread(s["actions"])),
        ("bank breaks in", f"{s['bank_broken']['games']} games, OR {_spread(s['bank_broken'])}"),
        ("CPU seconds per game (one core)", s["cpu_seconds_per_game"]),
    ]
    return "<table>" + "".join(_row(list(r)) for r in rows) + "</table>"


def _table_bots(s: dict[str, Any]) -> str:
    rows = [_row(["bot", "games", "wins", "win rate", "95% CI", "mean value"], head=True)]
    for name, b in s["bots"].items():
        lo, hi = b["win_rate_ci"]
        rows.append(_row([name, b["games"], b["wins"], f"{b['win_rate']:.3f}", f"{lo:.3f}-{hi:.3f}", b["mean_value"]]))
    return "<h2>Bots</h2><table>" + "".join(rows) + "</table>"


def _spread(st: dict[str, Any]) -> str:
    return f"{st['mean']}, {st['min']}-{st['max']}"


__all__ = ["figures", "render", "seat_of"]
