"""Tile sheets: every tile in its manifest count, packed in a honeycomb with cut lines and bleed."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import svgwrite

from railbook.hexgrid import exits

from .geometry import SQRT3, HexGeom, Point, fmt, polar
from .names import Die
from .pages import MARGIN, Page, Paper, registration_mark
from .style import CONDENSED, CUT, INK, TEXT_MIN, TRACK, contrast, tile_fill
from .svg import safe_id, text
from .track import TrackArt

COLOUR_ORDER = ("yellow", "green", "brown", "gray")


@dataclass(frozen=True)
class TileOptions:
    tile_size: float = 38.1
    bleed: float = 1.0
    unlimited_count: int = 6
    die: Die | None = None


def natural_key(tile_id: str) -> tuple[Any, ...]:
    """Sort 9 before 10 before 10a before X1."""
    parts = re.split(r"(\d+)", tile_id)
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts if p)


def tile_count(tile: dict[str, Any], unlimited: int) -> int:
    count = tile.get("count", 0)
    return unlimited if count == "unlimited" else int(count)


def ordered_tiles(book: dict[str, Any]) -> list[dict[str, Any]]:
    """Tiles by colour (yellow, green, brown, gray) then by number."""
    tiles = list(book["tiles"].values())

    def key(t: dict[str, Any]) -> tuple[Any, ...]:
        colour = t["color"]
        rank = COLOUR_ORDER.index(colour) if colour in COLOUR_ORDER else len(COLOUR_ORDER)
        return rank, natural_key(t["id"])

    return sorted(tiles, key=key)


def draw_tile_art(
    dwg: svgwrite.Drawing, parent: Any, tile: dict[str, Any], geom: HexGeom, bleed: float = 0.0, cut: bool = True
) -> TrackArt:
    """One tile around (0, 0): bleed background, track, stops, revenue, label, number and cut line."""
    fill = tile_fill(tile["color"])
    parent.add(dwg.path(d=geom.path_d(grow=bleed), fill=fill, stroke="none"))
    art = TrackArt(tile, geom)
    if bleed > 0:
        # track runs on into the bleed, so a cut a little outside the line still meets it
        for edge in sorted(exits(tile)):
            a = geom.edge_mid(edge)
            b = polar(geom.edge_angle(edge), geom.r + bleed)
            parent.add(dwg.line((fmt(a[0]), fmt(a[1])), (fmt(b[0]), fmt(b[1])), stroke=TRACK, stroke_width=fmt(art.tw)))
    art.draw_track(dwg, parent)
    ink = INK if contrast(fill) == "#000000" else "#ffffff"
    art.draw_number(dwg, parent, tile["id"], fill=ink)
    art.draw_revenues(dwg, parent)
    art.draw_label(dwg, parent, tile.get("label"), fill=ink)
    if tile.get("name"):
        name = str(tile["name"])
        size = min(0.11 * geom.flats, 0.9 * geom.r / max(1, len(name)) * 1.7)
        family = CONDENSED if size < TEXT_MIN else None  # a long name narrows rather than drops below 6 pt
        size = max(size, TEXT_MIN)
        pos = art.free_spot(size * 1.2, prefer=(0.0, -0.7 * geom.r))
        art.reserve(pos, size * 1.2)
        text(dwg, parent, pos[0], pos[1], name, size, fill=ink, bold=True, family=family)
    if cut:
        parent.add(dwg.path(d=geom.path_d(), fill="none", stroke=CUT, stroke_width="0.15"))
    return art


def _rows_of_hexes(x0: float, y0: float, w: float, h: float, half_w: float, half_h: float, step: float) -> list[Point]:
    """Centres of offset rows of hexes ``step`` apart along a row, rows ``step * sqrt(3) / 2`` apart."""
    row_step = step * SQRT3 / 2
    rows = max(1, math.floor((h - 2 * half_h) / row_step) + 1)
    used_h = (rows - 1) * row_step + 2 * half_h
    top = y0 + (h - used_h) / 2 + half_h
    cols_even = max(1, math.floor((w - 2 * half_w) / step) + 1)
    cols_odd = max(0, math.floor((w - 2 * half_w - step / 2) / step) + 1)
    used_w = max((cols_even - 1) * step, step / 2 + (cols_odd - 1) * step if cols_odd else 0.0) + 2 * half_w
    left = x0 + (w - used_w) / 2 + half_w
    centres: list[Point] = []
    for r in range(rows):
        odd = r % 2 == 1
        for c in range(cols_odd if odd else cols_even):
            centres.append((left + c * step + (step / 2 if odd else 0.0), top + r * row_step))
    return centres


def lattice(paper: Paper, geom: HexGeom, gap: float, bleed: float) -> list[Point]:
    """Centres of a honeycomb of hexes ``gap`` mm apart that fits the printable area."""
    step = geom.flats + gap
    x0, y0 = MARGIN, MARGIN + 4.0
    w, h = paper.inner_w, paper.inner_h - 4.0
    across, along = geom.flats / 2 + bleed, geom.R + bleed * 2 / SQRT3
    if geom.layout == "pointy":
        return _rows_of_hexes(x0, y0, w, h, across, along, step)
    # a flat-topped honeycomb is the pointy one with the axes swapped
    return [(x, y) for y, x in _rows_of_hexes(y0, x0, h, w, across, along, step)]


def best_lattice(paper: Paper, geom: HexGeom, gap: float, bleed: float) -> tuple[Paper, list[Point]]:
    """Portrait or landscape, whichever holds more tiles."""
    options = [(p, lattice(p, geom, gap, bleed)) for p in (paper.portrait(), paper.landscape())]
    return max(options, key=lambda o: len(o[1]))


def render_tiles(book: dict[str, Any], paper: Paper, opts: TileOptions) -> list[Page]:
    """Tile sheet pages; each laid tile is a ``<g data-tile="id">`` that uses the tile's drawing.

    With a die, tiles sit at the die's size and spacing with colour running nearly to the middle of the gaps, no cut
    lines, and corner targets to line the die up with the sheet."""
    die = opts.die
    size = die.tile_size if die else opts.tile_size
    geom = HexGeom(book["layout"], size)
    gap = die.gap if die else 2 * opts.bleed
    bleed = max(0.0, gap / 2 - 0.4) if die else opts.bleed
    page_paper, centres = best_lattice(paper, geom, gap, bleed)
    copies = [(t, i) for t in ordered_tiles(book) for i in range(tile_count(t, opts.unlimited_count))]
    per_page = max(1, len(centres))
    total = max(1, math.ceil(len(copies) / per_page))
    if die:
        caption = f"die layout: {die.note}; line the die up with the corner targets"
    else:
        caption = f"{fmt(size)} mm across flats, cut on the grey lines"
    pages: list[Page] = []
    for p in range(total):
        chunk = copies[p * per_page : (p + 1) * per_page]
        page = Page.new(page_paper, caption=caption)
        dwg = page.dwg
        defined: set[str] = set()
        for tile, _ in chunk:
            if tile["id"] in defined:
                continue
            defined.add(tile["id"])
            g = dwg.g(id=f"tile-{safe_id(tile['id'])}")
            draw_tile_art(dwg, g, tile, geom, bleed=bleed, cut=die is None)
            dwg.defs.add(g)
        sheet = dwg.g(id="tiles")
        dwg.add(sheet)
        for (tile, _), (x, y) in zip(chunk, centres, strict=False):
            copy = dwg.g(transform=f"translate({fmt(x)},{fmt(y)})", **{"data-tile": tile["id"]})
            copy.add(dwg.use(f"#tile-{safe_id(tile['id'])}"))
            sheet.add(copy)
        if die and centres:
            _die_targets(dwg, centres, geom, bleed)
        text(dwg, dwg, MARGIN, MARGIN + 1.5, f"{book['meta']['full_name']} — tiles", 3.2, anchor="start", bold=True)
        pages.append(page)
    return pages


def _die_targets(dwg: svgwrite.Drawing, centres: list[Point], geom: HexGeom, bleed: float) -> None:
    """Registration targets at the corners of the box around every die position (the same on every sheet)."""
    half_w, half_h = geom.width / 2 + bleed, geom.height / 2 + bleed
    x0 = min(x for x, _ in centres) - half_w
    x1 = max(x for x, _ in centres) + half_w
    y0 = min(y for _, y in centres) - half_h
    y1 = max(y for _, y in centres) + half_h
    marks = dwg.g(id="die-targets")
    dwg.add(marks)
    for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
        registration_mark(dwg, marks, x, y, r=1.6)


def tile_svg_fragment(tile: dict[str, Any], layout: str, tile_size: float = 38.1) -> str:
    """The SVG of one tile's drawing alone (used for snapshots and the README)."""
    from .svg import drawing

    geom = HexGeom(layout, tile_size)
    w, h = geom.width + 4, geom.height + 4
    dwg = drawing(w, h)
    g = dwg.g(transform=f"translate({fmt(w / 2)},{fmt(h / 2)})", **{"data-tile": tile["id"]})
    draw_tile_art(dwg, g, tile, geom, bleed=0.0)
    dwg.add(g)
    return str(dwg.tostring())
