"""A sheet of round counters: station tokens and a market token per company, destination and loan markers and
the markers of private companies."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import svgwrite

from .geometry import fmt
from .icons import company_colours, token
from .inventory import (
    counts,
    edge_markers,
    loan_count,
    private_markers,
    rights_markers,
    short_count,
    station_count,
    tally_text,
)
from .pages import MARGIN, Page, Paper
from .style import CUT, INK, TEXT_MIN, fit_size, money
from .svg import text

BLEED = 0.8
LABEL_W = 26.0


@dataclass(frozen=True)
class Counter:
    label: str
    fill: str
    ink: str
    kind: str  # station | market | destination | loan | short | edge | rights | marker
    sub: str = ""


def token_rows(book: dict[str, Any]) -> list[tuple[str, list[Counter]]]:
    """Per company its station tokens (at its largest size) and market token; then destination markers, loan
    markers and the markers private companies place, as ``inventory`` counts them."""
    rows: list[tuple[str, list[Counter]]] = []
    corps = book.get("corporations", {})
    for sym, corp in corps.items():
        fill, ink = company_colours(corp)
        counters = [Counter(sym, fill, ink, "station") for _ in range(station_count(book, sym))]
        counters.append(Counter(sym, fill, ink, "market"))
        rows.append((f"{sym}", counters))
    for sym, minor in book.get("minors", {}).items():
        fill, ink = company_colours(minor)
        rows.append((f"{sym}", [Counter(sym, fill, ink, "station") for _ in range(station_count(book, sym))]))
    destinations = []
    for sym, corp in corps.items():
        if corp.get("destination"):
            fill, ink = company_colours(corp)
            destinations.append(Counter(sym, fill, ink, "destination"))
    if destinations:
        rows.append(("destinations", destinations))
    shorts = short_count(book)
    if shorts:
        row = []
        for sym, corp in corps.items():
            fill, ink = company_colours(corp)
            row += [Counter(sym, fill, ink, "short", "short") for _ in range(shorts)]
        rows.append(("shorts", row))
    edges = []
    for sym in edge_markers(book):
        fill, ink = company_colours(corps.get(sym) or book.get("minors", {}).get(sym) or {})
        edges.append(Counter(sym, fill, ink, "edge", "edge"))
    if edges:
        rows.append(("edge tokens", edges))
    rights = rights_markers(book)
    if rights:
        rows.append(("mine rights", [Counter("mine", "#6b6b6b", "#ffffff", "rights", "rights") for _ in range(rights)]))
    loans = loan_count(book)
    if loans:
        amount = ((book.get("mechanics") or {}).get("loans") or {}).get("amount")
        sub = money(amount, book["meta"].get("currency", "${}")) if amount else ""
        rows.append(("loans", [Counter("loan", "#f3e3a3", INK, "loan", sub) for _ in range(loans)]))
    markers = []
    for sym, name in private_markers(book):
        fill, ink = company_colours(book["privates"][sym], "#5a4634")
        markers.append(Counter(sym, fill, ink, "marker", name))
    if markers:
        rows.append(("privates", markers))
    return rows


def _counter(dwg: svgwrite.Drawing, parent: Any, c: Counter, x: float, y: float, radius: float) -> None:
    """One counter in a group tagged with its kind (``data-counter``) and company, its bleed and grey cut circle."""
    g = dwg.g(**{"data-counter": c.kind, "data-label": c.label})
    parent.add(g)
    g.add(dwg.circle(center=(fmt(x), fmt(y)), r=fmt(radius + BLEED), fill=c.fill))
    if c.kind == "market":
        token(dwg, g, (x, y), radius, c.fill, c.ink, c.label, ring=True, dashed=True, outline=c.fill, sub="share")
    elif c.kind == "destination":
        token(dwg, g, (x, y), radius, "#ffffff", INK, c.label, ring=False, outline=c.fill)
        ring = dwg.circle(
            center=(fmt(x), fmt(y)), r=fmt(radius * 0.9), fill="none", stroke=c.fill, stroke_width=fmt(radius * 0.16)
        )
        g.add(ring)
    elif c.kind in ("loan", "marker", "edge", "rights", "short"):
        sub = c.sub if c.sub and c.sub != "marker" else None
        token(dwg, g, (x, y), radius, c.fill, c.ink, c.label, ring=False, outline=c.fill, sub=sub)
    else:
        token(dwg, g, (x, y), radius, c.fill, c.ink, c.label, outline=c.fill)
    g.add(dwg.circle(center=(fmt(x), fmt(y)), r=fmt(radius), fill="none", stroke=CUT, stroke_width="0.12"))


def render_tokens(book: dict[str, Any], paper: Paper, tile_size: float = 38.1) -> list[Page]:
    """Rows of counters per company, as many pages as needed; a grey circle is the cut line."""
    radius = 0.29 * tile_size / 2 * 0.95
    pitch = 2 * (radius + BLEED) + 1.6
    p = paper.portrait()
    per_row = max(1, math.floor((p.inner_w - LABEL_W) / pitch))
    lines: list[tuple[str, list[Counter]]] = []
    for label, counters in token_rows(book):
        for i in range(0, max(1, len(counters)), per_row):
            lines.append((label if i == 0 else "", counters[i : i + per_row]))
    top = MARGIN + 8
    per_page = max(1, math.floor((p.inner_h - 10) / pitch))
    total = max(1, math.ceil(len(lines) / per_page))
    pages = []
    heading = f"{book['meta']['full_name']} — tokens and markers"
    summary = "This sheet holds " + tally_text(counts(book, components=("tokens",))) + "."
    for n in range(total):
        page = Page.new(p, caption=f"tokens {2 * radius:.1f} mm across: cut on the grey circles")
        dwg = page.dwg
        text(dwg, dwg, MARGIN, MARGIN + 1.0, heading, fit_size(heading, 3.2, p.inner_w), anchor="start", bold=True)
        if n == 0:
            text(dwg, dwg, MARGIN, MARGIN + 5.0, summary, TEXT_MIN + 0.2, anchor="start", fill="#444444")
        for i, (label, counters) in enumerate(lines[n * per_page : (n + 1) * per_page]):
            y = top + i * pitch + pitch / 2
            if label:
                text(
                    dwg, dwg, MARGIN, y, label, fit_size(label, 3.6, LABEL_W - 3, bold=True), anchor="start", bold=True
                )
            for k, c in enumerate(counters):
                _counter(dwg, dwg, c, MARGIN + LABEL_W + pitch / 2 + k * pitch, y, radius)
        pages.append(page)
    return pages
