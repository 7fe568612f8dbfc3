"""The stock market (zone colours, par cells, ledges, legend) and the par chart, at token-friendly size."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import svgwrite

from .geometry import fmt
from .pages import MARGIN, Page, Paper, plan_tiling, poster_pages
from .style import INK, MARKET_DEFAULTS, ZONE_ORDER, contrast, fit_size, money, rgb, safe_colour, wrap
from .svg import drawing, text

CELL_W = 19.0
CELL_H = 19.0
PAR_W = 21.0
PAR_H = 21.0
PAD = 4.0
PAR_RED = "#b3261e"

SOFT: dict[str, str] = {
    "yellow": "#fff36b",
    "orange": "#f7a93b",
    "brown": "#c9773f",
    "red": "#e4575a",
    "gray": "#bcbdc0",
    "grey": "#bcbdc0",
    "green": "#a7d59a",
    "blue": "#8fbde6",
    "black": "#4a4a4a",
    "white": "#ffffff",
    "purple": "#c5b4e3",
    "pink": "#f4b6c8",
}

KIND_TEXT: dict[str, str] = {
    "par": "par value",
    "no_cert_limit": "shares here do not count against the certificate limit",
    "unlimited_holding": "a player may hold more than 60 % here",
    "multiple_buy": "several shares may be bought in one turn",
    "ledge": "ledge: the price does not fall below this row",
    "hard_ledge": "hard ledge",
    "close": "the company closes",
    "end_game": "reaching this space ends the game",
    "liquidation": "liquidation",
    "acquisition": "may be acquired",
    "safe_par": "safe par value",
    "max_price": "maximum price",
    "up_arrow": "moves up",
    "down_arrow": "moves down",
    "par_reissue": "re-issue par value",
    "repar": "new par value",
    "ignore_one_sale": "(dashed line) one sale does not move the price",
}


def _colour_word(value: str) -> str | None:
    value = value.strip().lower()
    if value in SOFT:
        return SOFT[value]
    return safe_colour(value, "") or None if rgb(value) else None


def zone_style(kind: str, zone_colours: dict[str, str]) -> tuple[str | None, str | None]:
    """(fill, outline) of a cell kind from ``market.zone_colours`` (``red``, ``#c00``, ``red_outline``).

    Words that are not colours (``below_ledge``) fall back to the default palette.
    """
    value = str(zone_colours.get(kind, "")).strip().lower()
    if value.endswith("_outline"):
        return None, _colour_word(value[: -len("_outline")])
    if value and _colour_word(value):
        return _colour_word(value), None
    return MARKET_DEFAULTS.get(kind), None


def cell_fill(kinds: list[str], zone_colours: dict[str, str]) -> str:
    """The fill of a cell: the first of its kinds (in ZONE_ORDER, then par) that has a colour."""
    rank = {k: i for i, k in enumerate(ZONE_ORDER)}
    ordered = sorted(kinds, key=lambda k: rank.get(k, len(ZONE_ORDER)))
    for kind in ordered:
        fill, _ = zone_style(kind, zone_colours)
        if fill:
            return fill
    return "#ffffff"


def paint_cell(
    dwg: svgwrite.Drawing, g: Any, x: float, y: float, w: float, h: float, kinds: list[str], zones: dict[str, str]
) -> str:
    """Fill, par frame, ledge bar and one-sale mark of a cell (or a legend swatch); returns the text colour."""
    fill = cell_fill(kinds, zones)
    g.add(dwg.rect(insert=(fmt(x), fmt(y)), size=(fmt(w), fmt(h)), fill=fill, stroke=INK, stroke_width="0.3"))
    k = w / CELL_W
    if "par" in kinds:
        pfill, outline = zone_style("par", zones)
        if pfill is None or fill != pfill:
            g.add(
                dwg.rect(
                    insert=(fmt(x + 0.9 * k), fmt(y + 0.9 * k)),
                    size=(fmt(w - 1.8 * k), fmt(h - 1.8 * k)),
                    fill="none",
                    stroke=outline or PAR_RED,
                    stroke_width=fmt(0.9 * k),
                )
            )
    if "close" in kinds:
        _hatch(dwg, g, x, y, w, h, "#d9d9d9" if contrast(fill) == "#ffffff" else "#6e6e6e", max(0.3, 0.4 * k))
    if "ledge" in kinds or "hard_ledge" in kinds:
        bar = (1.4 if "ledge" in kinds else 2.2) * k
        g.add(dwg.line((fmt(x), fmt(y + h)), (fmt(x + w), fmt(y + h)), stroke=PAR_RED, stroke_width=fmt(bar)))
    if "ignore_one_sale" in kinds:
        g.add(
            dwg.line(
                (fmt(x + 1.2 * k), fmt(y + h - 1.4 * k)),
                (fmt(x + w - 1.2 * k), fmt(y + h - 1.4 * k)),
                stroke=contrast(fill),
                stroke_width=fmt(0.4 * k),
                stroke_dasharray=f"{fmt(1.2 * k)},{fmt(0.8 * k)}",
            )
        )
    return contrast(fill)


def _hatch(dwg: svgwrite.Drawing, g: Any, x: float, y: float, w: float, h: float, colour: str, width: float) -> None:
    """Diagonal stripes over a cell: closing cells read as closing whatever their colour."""
    step = max(1.1, min(w, h) / 6)
    lines = dwg.g(stroke=colour, stroke_width=fmt(width), stroke_linecap="butt")
    g.add(lines)
    t = step
    while t < w + h:
        # the line x + y = t inside the box, clipped to its sides
        x1, y1 = x + min(t, w), y + max(0.0, t - w)
        x2, y2 = x + max(0.0, t - h), y + min(t, h)
        lines.add(dwg.line((fmt(x1), fmt(y1)), (fmt(x2), fmt(y2))))
        t += step


@dataclass
class MarketArt:
    """The stock market grid, legend and par chart in their own millimetres."""

    width: float = 0.0
    height: float = 0.0
    elements: list[Any] = field(default_factory=list)

    def add_to(
        self, dwg: svgwrite.Drawing, parent: Any, window: tuple[float, float, float, float] | None = None
    ) -> None:
        for el in self.elements:
            parent.add(el)


def _rows(market: dict[str, Any], max_cols: int) -> list[list[dict[str, Any] | None]]:
    """The grid as drawn: a long one-row market is wrapped into several lines."""
    grid = market["grid"]
    if market["type"] == "1d" and grid and len(grid[0]) > max_cols:
        cells = grid[0]
        return [cells[i : i + max_cols] for i in range(0, len(cells), max_cols)]
    return grid


def build_market(book: dict[str, Any], paper: Paper, with_key: bool = True) -> MarketArt:
    """The grid, and below it (``with_key``) the legend and the par chart."""
    market = book["market"]
    currency = book["meta"].get("currency", "${}")
    zones = market.get("zone_colours", {}) or {}
    dwg = drawing(10, 10)
    art = MarketArt()
    max_cols = max(4, math.floor((paper.portrait().inner_w - 2 * PAD - 6) / CELL_W))
    rows = _rows(market, max_cols)
    wrapped = market["type"] == "1d" and len(rows) > 1
    ncols = max((len(r) for r in rows), default=0)
    g = dwg.g(id="market")
    art.elements.append(g)
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell is None:
                continue
            x, y = PAD + c * CELL_W, PAD + r * CELL_H
            _draw_cell(dwg, g, x, y, cell, list(cell.get("kinds", [])), zones, currency)
        if wrapped and r + 1 < len(rows):
            ex = PAD + len(row) * CELL_W + 1.5
            ey = PAD + r * CELL_H + CELL_H / 2
            g.add(
                dwg.path(
                    d=f"M{fmt(ex)},{fmt(ey - 2.5)} L{fmt(ex + 3)},{fmt(ey)} L{fmt(ex)},{fmt(ey + 2.5)} Z", fill=INK
                )
            )
            g.add(
                dwg.path(
                    d=f"M1,{fmt(ey + CELL_H - 2.5)} L4,{fmt(ey + CELL_H)} L1,{fmt(ey + CELL_H + 2.5)} Z",
                    fill=INK,
                )
            )
    y = PAD + len(rows) * CELL_H
    art.width = ncols * CELL_W + 2 * PAD + 6
    if with_key:
        key_w = min(max(ncols * CELL_W, 6 * PAR_W), KEY_W)
        y = _draw_key(dwg, g, PAD, y + 5, book, key_w)
        art.width = max(art.width, key_w + 2 * PAD)
    art.height = y + PAD
    return art


KEY_W = 185.0
"""Widest the legend and par chart are laid out (fits A4 and Letter portrait)."""


def market_kinds(market: dict[str, Any]) -> list[str]:
    """Cell kinds used in the market, in the order first met."""
    seen: list[str] = []
    for row in market.get("grid", []):
        for cell in row:
            for kind in (cell or {}).get("kinds", []):
                if kind not in seen:
                    seen.append(kind)
    return seen


def _draw_key(dwg: svgwrite.Drawing, g: Any, x: float, y: float, book: dict[str, Any], width: float) -> float:
    """The legend then the par chart; returns the y below them."""
    market = book["market"]
    zones = market.get("zone_colours", {}) or {}
    y = _draw_legend(dwg, g, x, y, market_kinds(market), zones, width)
    return _draw_par_chart(dwg, g, x, y + 4, market, book["meta"].get("currency", "${}"), width)


def _draw_cell(
    dwg: svgwrite.Drawing,
    g: Any,
    x: float,
    y: float,
    cell: dict[str, Any],
    kinds: list[str],
    zones: dict[str, str],
    currency: str,
) -> None:
    ink = paint_cell(dwg, g, x, y, CELL_W, CELL_H, kinds, zones)
    price = str(cell["price"])
    text(dwg, g, x + CELL_W / 2, y + 3.6, price, fit_size(price, 4.2, CELL_W - 2, bold=True), bold=True, fill=ink)
    if "par" in kinds:
        pfill, outline = zone_style("par", zones)
        colour = ink if pfill and cell_fill(kinds, zones) == pfill else (outline or PAR_RED)
        text(dwg, g, x + CELL_W / 2, y + CELL_H - 2.6, "PAR", 2.2, bold=True, fill=colour)
    if "close" in kinds:
        text(dwg, g, x + CELL_W / 2, y + CELL_H - 2.6, "closes", 2.2, bold=True, fill=ink)
    if "end_game" in kinds:
        text(dwg, g, x + CELL_W / 2, y + CELL_H - 2.6, "END", 2.2, bold=True, fill=ink)
    for kind, sign in (("up_arrow", -1), ("down_arrow", 1)):
        if kind in kinds:
            cx, cy = x + CELL_W - 3, y + CELL_H / 2
            g.add(
                dwg.path(
                    d=f"M{fmt(cx - 1.5)},{fmt(cy - sign * 1.2)} L{fmt(cx)},{fmt(cy + sign * 1.4)} "
                    f"L{fmt(cx + 1.5)},{fmt(cy - sign * 1.2)} Z",
                    fill=ink,
                )
            )


def _draw_legend(
    dwg: svgwrite.Drawing, g: Any, x: float, y: float, kinds: list[str], zones: dict[str, str], width: float
) -> float:
    """One swatch and sentence per cell kind used (sentences wrap); returns the y below it."""
    shown = [k for k in kinds if k in KIND_TEXT]
    if not shown:
        return y
    col_w = 92.0
    per_row = max(1, math.floor(min(width, KEY_W) / col_w))
    size = 2.8
    for start in range(0, len(shown), per_row):
        line_h = 6.0
        for i, kind in enumerate(shown[start : start + per_row]):
            cx = x + i * col_w
            paint_cell(dwg, g, cx, y, 5.0, 4.0, [kind], zones)
            lines = wrap(KIND_TEXT[kind], size, col_w - 10)
            for n, line in enumerate(lines):
                text(dwg, g, cx + 7, y + 2 + n * size * 1.2, line, size, anchor="start")
            line_h = max(line_h, 2 + len(lines) * size * 1.2)
        y += line_h
    return y


def _draw_par_chart(
    dwg: svgwrite.Drawing, g: Any, x: float, y: float, market: dict[str, Any], currency: str, width: float
) -> float:
    """Par values in boxes big enough to stack several market tokens; returns the y below it."""
    pars = sorted({p["price"] for p in market.get("par", [])}, reverse=True)
    if not pars:
        return y
    text(dwg, g, x, y + 2.5, "Par values", 4.0, anchor="start", bold=True)
    y += 6
    per_row = max(1, math.floor(min(width, KEY_W) / PAR_W))
    for i, price in enumerate(pars):
        px = x + (i % per_row) * PAR_W
        py = y + (i // per_row) * PAR_H
        g.add(
            dwg.rect(
                insert=(fmt(px), fmt(py)), size=(fmt(PAR_W), fmt(PAR_H)), fill="#fdf6e3", stroke=INK, stroke_width="0.3"
            )
        )
        label = money(price, currency)
        text(dwg, g, px + PAR_W / 2, py + 3.6, label, fit_size(label, 4.2, PAR_W - 2, bold=True), bold=True)
    return y + math.ceil(len(pars) / per_row) * PAR_H


def render_market(book: dict[str, Any], paper: Paper) -> list[Page]:
    """The market with its legend and par chart; when the market needs several pages, the legend and par
    chart get a page of their own so that neither is split."""
    name = f"{book['meta']['full_name']} — stock market"
    caption = "market at true size: trim on a dashed line, glue over the next page"
    art = build_market(book, paper)
    whole = plan_tiling(art.width, art.height, paper)
    if whole.cols * whole.rows == 1:
        return poster_pages(art, paper, name, caption)
    pages = poster_pages(build_market(book, paper, with_key=False), paper, name, caption)
    return [*pages, key_page(book, paper)]


def key_page(book: dict[str, Any], paper: Paper) -> Page:
    """The legend and the par chart on a portrait page of their own."""
    p = paper.portrait()
    page = Page.new(p, caption="par values at true size: room for the market tokens")
    dwg = page.dwg
    heading = f"{book['meta']['full_name']} — stock market legend and par values"
    text(dwg, dwg, MARGIN, MARGIN + 2.5, heading, fit_size(heading, 3.2, p.inner_w), anchor="start", bold=True)
    g = dwg.g(id="market-key")
    dwg.add(g)
    _draw_key(dwg, g, MARGIN, MARGIN + 9, book, min(p.inner_w, KEY_W))
    return page
