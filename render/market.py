"""The stock market (zone colours, par cells, ledges, legend) and the par chart, at token-friendly size."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import svgwrite

from .geometry import fmt
from .pages import Page, Paper, poster_pages
from .style import INK, MARKET_DEFAULTS, ZONE_ORDER, contrast, fit_size, money, rgb, safe_colour
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


def build_market(book: dict[str, Any], paper: Paper) -> MarketArt:
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
    kinds_seen: list[str] = []
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell is None:
                continue
            x, y = PAD + c * CELL_W, PAD + r * CELL_H
            kinds = list(cell.get("kinds", []))
            for k in kinds:
                if k not in kinds_seen:
                    kinds_seen.append(k)
            _draw_cell(dwg, g, x, y, cell, kinds, zones, currency)
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
    y = PAD + len(rows) * CELL_H + 5
    y = _draw_legend(dwg, g, PAD, y, kinds_seen, zones, ncols * CELL_W)
    y = _draw_par_chart(dwg, g, PAD, y + 4, market, currency, max(ncols * CELL_W, 6 * PAR_W))
    art.width = max(ncols * CELL_W, 6 * PAR_W) + 2 * PAD + 6
    art.height = y + PAD
    return art


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
    """One swatch and sentence per cell kind used; returns the y below it."""
    shown = [k for k in kinds if k in KIND_TEXT]
    if not shown:
        return y
    col_w = 92.0
    per_row = max(1, math.floor(min(width, 185.0) / col_w))
    for i, kind in enumerate(shown):
        cx = x + (i % per_row) * col_w
        cy = y + (i // per_row) * 6.0
        paint_cell(dwg, g, cx, cy, 5.0, 4.0, [kind], zones)
        label = KIND_TEXT[kind]
        text(dwg, g, cx + 7, cy + 2, label, fit_size(label, 2.8, col_w - 10), anchor="start")
    return y + math.ceil(len(shown) / per_row) * 6.0


def _draw_par_chart(
    dwg: svgwrite.Drawing, g: Any, x: float, y: float, market: dict[str, Any], currency: str, width: float
) -> float:
    """Par values in boxes big enough to stack several market tokens; returns the y below it."""
    pars = sorted({p["price"] for p in market.get("par", [])}, reverse=True)
    if not pars:
        return y
    text(dwg, g, x, y + 2.5, "Par values", 4.0, anchor="start", bold=True)
    y += 6
    per_row = max(1, math.floor(min(width, 185.0) / PAR_W))
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
    """The market with its legend and par chart, split over pages when it does not fit one."""
    art = build_market(book, paper)
    name = f"{book['meta']['full_name']} — stock market"
    return poster_pages(
        art, paper, name, "stock market at true size: trim along a dashed line and glue over the next page"
    )
