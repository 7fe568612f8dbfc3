"""The player aid: a phase chart (trains that start each phase, tile colours, train limits, operating rounds
per set, what rusts) with the trains and the player table, from the rulebook."""

from __future__ import annotations

from typing import Any

import svgwrite

from .cards import paragraph
from .geometry import fmt
from .inventory import counts as counts_of
from .inventory import tally_text
from .pages import MARGIN, Page, Paper
from .phases import phase_rows
from .style import INK, fit_size, money, phase_fill, wrap
from .svg import text
from .trains import distance_text, train_count

SIZE = 2.8
LEADING = 1.22
PAD = 1.2


def _cell_lines(value: str, width: float, bold: bool = False) -> list[str]:
    return wrap(value, SIZE, width - 2 * PAD, bold) if value else [""]


def _table(
    dwg: svgwrite.Drawing,
    parent: Any,
    x: float,
    y: float,
    widths: list[float],
    header: list[str],
    rows: list[list[str]],
) -> tuple[float, list[float]]:
    """A ruled table whose cells wrap, header shaded; returns the y below it and the top of each body row."""
    g = dwg.g()
    parent.add(g)
    tops: list[float] = []
    for r, row in enumerate([header, *rows]):
        if r:
            tops.append(y)
        bold = r == 0
        cells = [_cell_lines(v, w, bold) for v, w in zip(row, widths, strict=True)]
        h = max(len(c) for c in cells) * SIZE * LEADING + 2 * PAD
        cx = x
        for lines, w in zip(cells, widths, strict=True):
            fill = "#e8e8e8" if bold else "#ffffff"
            g.add(dwg.rect(insert=(fmt(cx), fmt(y)), size=(fmt(w), fmt(h)), fill=fill, stroke=INK, stroke_width="0.25"))
            for n, line in enumerate(lines):
                ly = y + PAD + SIZE * 0.5 + n * SIZE * LEADING
                text(dwg, g, cx + PAD, ly, line, SIZE, anchor="start", bold=bold)
            cx += w
        y += h
    return y, tops


def _tiles_cell(dwg: svgwrite.Drawing, parent: Any, x: float, y: float, colours: list[str]) -> None:
    for i, colour in enumerate(colours):
        parent.add(
            dwg.rect(
                insert=(fmt(x + i * 5.5), fmt(y)),
                size=("4.5", "3.2"),
                fill=phase_fill(colour),
                stroke=INK,
                stroke_width="0.2",
            )
        )


KEYED_BY = {
    "players": "{key}",
    "corporations": "{key} corporations in play",
    "corporations_and_closures": "{key} corporations in play or closed",
}
"""How a certificate-limit table's key reads, by ``cert_limit_by``."""


def cert_limit_rows(players: dict[str, Any], keyed_by: str) -> list[list[str]]:
    """The certificate limit by player count: one row, or one row per key of a limit table (largest first)."""
    counts = list(players)
    limits = {n: players[n].get("cert_limit", "") for n in counts}
    if not any(isinstance(v, dict) for v in limits.values()):
        return [["Certificate limit", *[str(limits[n]) for n in counts]]]
    keys = sorted({str(k) for v in limits.values() if isinstance(v, dict) for k in v}, key=_number, reverse=True)
    label = KEYED_BY.get(keyed_by, "{key}")
    rows = []
    for key in keys:
        cells = []
        for n in counts:
            value = limits[n]
            cells.append(
                str({str(k): v for k, v in value.items()}.get(key, "—")) if isinstance(value, dict) else str(value)
            )
        rows.append([f"Certificate limit, {label.format(key=key)}", *cells])
    return rows


def _number(value: str) -> float:
    try:
        return float(value)
    except ValueError:
        return 0.0


def render_aid(book: dict[str, Any], paper: Paper) -> list[Page]:
    """One landscape page per title (more only when the tables run over)."""
    p = paper.landscape()
    currency = book["meta"].get("currency", "${}")
    page = Page.new(p, caption="player aid: keep one by each player")
    dwg = page.dwg
    heading = f"{book['meta']['full_name']} — player aid"
    size = fit_size(heading, 4.2, p.inner_w, bold=True)
    text(dwg, dwg, MARGIN, MARGIN + 2.0, heading, size, anchor="start", bold=True)
    y = MARGIN + 7.0
    text(dwg, dwg, MARGIN, y + 1.5, "Phases", 3.4, anchor="start", bold=True)
    y += 4.5
    rows = phase_rows(book)
    widths = [16.0, 20.0, 26.0, 34.0, 14.0, 40.0]
    widths.append(p.inner_w - sum(widths))
    header = ["Phase", "Starts with", "Tiles", "Train limit", "ORs", "Rusts / obsolete", "Also"]
    body = []
    for row in rows:
        gone = [f"{n} rusts" for n in row.rusts] + [f"{n} obsolete" for n in row.obsolete]
        body.append(
            [
                row.name,
                f"first {row.on}" if row.on else "start",
                "",
                row.limits,
                row.rounds,
                ", ".join(gone) or "—",
                "; ".join(row.notes) or "—",
            ]
        )
    y, tops = _table(dwg, dwg, MARGIN, y, widths, header, body)
    swatches = dwg.g(id="tile-colours")
    dwg.add(swatches)
    for row, row_top in zip(rows, tops, strict=True):
        _tiles_cell(dwg, swatches, MARGIN + widths[0] + widths[1] + PAD, row_top + PAD, row.tiles)
    y += 6
    text(dwg, dwg, MARGIN, y + 1.5, "Trains", 3.4, anchor="start", bold=True)
    y += 4.5
    trains = book.get("trains", {})
    tw = [16.0, 20.0, 22.0, 70.0, 30.0]
    tw.append(p.inner_w - sum(tw))
    tbody = []
    for name in book.get("train_order", list(trains)):
        t = trains[name]
        count = "unlimited" if t.get("count") == "unlimited" else str(train_count(t.get("count", 0), 0))
        extra = [f"or {v['name']} {money(v['price'], currency)}" for v in t.get("variants", []) or []]
        extra += [f"from phase {t['available_on']}"] if t.get("available_on") else []
        rust = t.get("rusts_on") and f"rusts on first {t['rusts_on']}"
        obsolete = t.get("obsolete_on") and f"obsolete on first {t['obsolete_on']}"
        tbody.append(
            [
                name,
                count,
                money(t.get("price", 0), currency),
                distance_text(t.get("distance", []), bool(t.get("no_towns"))),
                "; ".join(v for v in (rust, obsolete) if v) or "permanent",
                "; ".join(extra) or "—",
            ]
        )
    header = ["Train", "Count", "Price", "Runs", "Leaves play", "Also"]
    y, _ = _table(dwg, dwg, MARGIN, y, tw, header, tbody)
    players = book.get("players", {})
    if players and y < p.height - MARGIN - 30:
        y += 6
        text(dwg, dwg, MARGIN, y + 1.5, "Players", 3.4, anchor="start", bold=True)
        y += 4.5
        counts = list(players)
        pw = [72.0] + [18.0] * len(counts)
        rows_p = [["Starting cash", *[money(players[n].get("cash", 0), currency) for n in counts]]]
        rows_p += cert_limit_rows(players, str(book.get("cert_limit_by", "players")))
        y, _ = _table(dwg, dwg, MARGIN, y, pw, ["Players", *counts], rows_p)
    if y < p.height - MARGIN - 16:
        summary = (
            f"The print of {book['meta'].get('title', book.get('title', ''))} holds {tally_text(counts_of(book))}."
        )
        y += 6
        text(dwg, dwg, MARGIN, y + 1.5, "Components", 3.4, anchor="start", bold=True)
        paragraph(dwg, dwg, MARGIN, y + 4.0, p.inner_w, summary, SIZE)
    return [page]
