"""The map: every hex at true tile scale, tiled over pages with overlap and marks, plus a one-page overview.

Drawn: hex colours, preprinted track, cities and towns with revenue, off-board revenue by phase,
terrain symbols and costs, costed and impassable hexsides, rivers splitting hexes, names, labels,
home stations in company colours, reserved slots, blocked hexes and coordinates around the edge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import svgwrite

from .geometry import HexGeom, Point, fmt
from .icons import badge, company_colours, terrain_icon, token
from .pages import MARGIN, Page, Paper, poster_pages
from .style import (
    CONDENSED,
    IMPASSABLE,
    INK,
    MOUNTAIN,
    TEXT_MIN,
    WATER,
    fit_lines,
    fit_size,
    money,
    text_width,
    tile_fill,
    wrap,
)
from .svg import drawing, text
from .track import TrackArt

FRAME = 9.0
"""Border around the hexes that carries the coordinates (mm)."""

BORDER_STYLE: dict[str, tuple[str, float, str | None]] = {
    "impassable": (IMPASSABLE, 0.9, None),
    "water": (WATER, 0.7, None),
    "mountain": (MOUNTAIN, 0.7, None),
    "province": (INK, 0.45, "1.6,1.0"),
    "edge": (INK, 0.5, None),
}


@dataclass
class HexItem:
    """The drawing of one hex in three layers (so borders and text sit above neighbouring hexes)."""

    hex_id: str
    centre: Point
    base: Any
    over: Any
    top: Any


@dataclass
class MapArt:
    """The whole board, in map millimetres from its top-left corner."""

    geom: HexGeom
    width: float
    height: float
    items: list[HexItem] = field(default_factory=list)
    frame: list[Any] = field(default_factory=list)
    factory: svgwrite.Drawing | None = None

    def add_to(
        self, dwg: svgwrite.Drawing, parent: Any, window: tuple[float, float, float, float] | None = None
    ) -> None:
        """Add the hexes (those touching ``window`` = x, y, w, h, if given) and the frame to ``parent``."""
        g = self.geom
        pad = g.R + 2
        chosen = self.items
        if window:
            x, y, w, h = window
            chosen = [
                it
                for it in self.items
                if x - pad <= it.centre[0] <= x + w + pad and y - pad <= it.centre[1] <= y + h + pad
            ]
        for layer in ("base", "over", "top"):
            lg = dwg.g(id=f"map-{layer}")
            parent.add(lg)
            for it in chosen:
                lg.add(getattr(it, layer))
        for el in self.frame:
            parent.add(el)


def _home_cities(entity: dict[str, Any], hex_id: str) -> list[int]:
    home = entity.get("home")
    homes = home if isinstance(home, list) else [home] if home else []
    return [int(h.get("city", 0)) for h in homes if h and h.get("hex") == hex_id]


def _entity(book: dict[str, Any], sym: str) -> tuple[str, dict[str, Any]] | None:
    for table in ("corporations", "minors", "privates"):
        if sym in book.get(table, {}):
            return table, book[table][sym]
    return None


def coord_label(value: int, axis: str, axes: dict[str, str]) -> str:
    from railbook.hexgrid import index_letter

    return str(value + 1) if axes.get(axis) == "number" else index_letter(value)


def draw_hex(dwg: svgwrite.Drawing, book: dict[str, Any], hx: dict[str, Any], geom: HexGeom, centre: Point) -> HexItem:
    """The three layers of one map hex, drawn around ``centre``."""
    cx, cy = centre
    tr = f"translate({fmt(cx)},{fmt(cy)})"
    base = dwg.g(transform=tr, **{"data-hex": hx["id"]})
    over = dwg.g(transform=tr)
    top = dwg.g(transform=tr)
    colour = hx.get("color", "white")
    fill = tile_fill(colour)
    base.add(dwg.path(d=geom.path_d(), fill=fill, stroke="#333333", stroke_width="0.25"))
    art = TrackArt(hx, geom)
    track_colour = INK
    art.draw_track(dwg, base, colour=track_colour)
    ink = "#ffffff" if colour in ("red", "blue", "black") else INK
    r = geom.r
    _draw_homes(dwg, top, book, hx, art, geom)
    art.draw_revenues(dwg, top)
    if hx.get("label"):
        art.draw_label(dwg, top, hx["label"], fill=ink)
    _draw_borders(dwg, over, book, hx, geom)
    _draw_partitions(dwg, over, hx, geom)
    _draw_terrain(dwg, top, hx, art, geom)
    if hx.get("name"):
        _draw_name(dwg, top, str(hx["name"]), art, geom, ink, colour)
    if hx.get("blocked_by"):
        sym = str(hx["blocked_by"])
        size = 0.16 * r
        w = text_width(sym, size, bold=True, family=CONDENSED) + size
        pos = art.free_spot(w / 2, prefer=(0.0, 0.55 * r))
        art.reserve(pos, w / 2)
        badge(dwg, top, pos, sym, size, fill="#fff3b0")
    for icon in hx.get("icons", []) or []:
        name = str(icon.get("name", "?"))
        label = name[:4].upper()
        size = 0.14 * r
        w = text_width(label, size, bold=True, family=CONDENSED) + size
        pos = art.free_spot(w / 2, prefer=(0.4 * r, 0.4 * r))
        art.reserve(pos, w / 2)
        badge(dwg, top, pos, label, size, fill="#d9ecff")
    _draw_destinations(dwg, top, book, hx, art, geom)
    return HexItem(hx["id"], centre, base, over, top)


def _draw_homes(
    dwg: svgwrite.Drawing, parent: Any, book: dict[str, Any], hx: dict[str, Any], art: TrackArt, geom: HexGeom
) -> None:
    """Home stations (solid company tokens) and reserved slots (dashed rings) in the city circles."""
    used: dict[int, int] = {}
    ncity = len(hx.get("cities", []) or [])
    if not ncity:
        return

    def next_slot(city: int) -> Point | None:
        slots = art.slot_centres(city)
        k = used.get(city, 0)
        if k >= len(slots):
            return None
        used[city] = k + 1
        return slots[k]

    radius = art.s * 0.9
    for sym in hx.get("homes", []) or []:
        found = _entity(book, sym)
        if not found:
            continue
        _, ent = found
        for city in _home_cities(ent, hx["id"]) or [0]:
            pos = next_slot(min(city, ncity - 1))
            if pos is None:
                continue
            fill, ink = company_colours(ent)
            token(dwg, parent, pos, radius, fill, ink, sym)
    for sym in hx.get("reserved", []) or []:
        found = _entity(book, sym)
        pos = next_slot(0) or next_slot(min(1, ncity - 1))
        if pos is None or not found:
            continue
        _, ent = found
        fill, _ = company_colours(ent, "#bbbbbb")
        x, y = pos
        parent.add(
            dwg.circle(
                center=(fmt(x), fmt(y)),
                r=fmt(radius * 0.93),
                fill="#ffffff",
                stroke=fill,
                stroke_width=fmt(radius * 0.16),
                stroke_dasharray=f"{fmt(radius * 0.35)},{fmt(radius * 0.2)}",
            )
        )
        size = max(TEXT_MIN, fit_size(sym, radius * 0.5, radius * 1.4, bold=True, family=CONDENSED))
        word = radius * 0.26 >= TEXT_MIN
        text(dwg, parent, x, y - radius * 0.12 if word else y, sym, size, bold=True, family=CONDENSED)
        if word:  # at the usual tile sizes the overview's caption explains the dashed ring instead
            text(dwg, parent, x, y + radius * 0.42, "reserved", radius * 0.26, family=CONDENSED)


def _draw_borders(dwg: svgwrite.Drawing, parent: Any, book: dict[str, Any], hx: dict[str, Any], geom: HexGeom) -> None:
    """Costed or impassable hexsides: a thick coloured side with its cost on the side itself.

    A border both hexes declare is drawn once; a plain border between two red hexes is the seam of a
    two-hex off-board area and is painted over so the area reads as one.
    """
    for border in hx.get("borders", []) or []:
        edge = int(border["edge"])
        kind = border.get("type", "impassable")
        other_id = (hx.get("neighbours") or {}).get(str(edge))
        other = book["hexes"].get(other_id) if other_id else None
        if other is not None and other_id is not None and other_id < hx["id"]:
            twin = [b for b in other.get("borders", []) or [] if int(b["edge"]) == (edge + 3) % 6]
            if twin:
                continue
        a, b = geom.edge_ends(edge)
        if kind == "impassable" and other is not None and hx.get("color") == "red" == other.get("color"):
            fill = tile_fill("red")
            parent.add(dwg.line(_pt(a), _pt(b), stroke=fill, stroke_width=fmt(0.06 * geom.r)))
            continue
        colour, width, dash = BORDER_STYLE.get(kind, (INK, 0.5, None))
        shrink = 0.1
        p = (a[0] + (b[0] - a[0]) * shrink, a[1] + (b[1] - a[1]) * shrink)
        q = (b[0] + (a[0] - b[0]) * shrink, b[1] + (a[1] - b[1]) * shrink)
        w = width * geom.flats / 38.1 * 2.2
        parent.add(
            dwg.line(_pt(p), _pt(q), stroke=colour, stroke_width=fmt(w), stroke_linecap="round", stroke_dasharray=dash)
        )
        cost = int(border.get("cost", 0) or 0)
        if cost:
            m = geom.edge_mid(edge)
            label = str(cost)
            size = 0.15 * geom.r
            tw = text_width(label, size, bold=True) + size * 0.7
            parent.add(
                dwg.rect(
                    insert=(fmt(m[0] - tw / 2), fmt(m[1] - size * 0.72)),
                    size=(fmt(tw), fmt(size * 1.44)),
                    rx=fmt(size * 0.35),
                    fill="#ffffff",
                    stroke=colour,
                    stroke_width=fmt(size * 0.14),
                )
            )
            text(dwg, parent, m[0], m[1], label, size, bold=True, fill=colour)


def _pt(p: Point) -> tuple[str, str]:
    return fmt(p[0]), fmt(p[1])


def _draw_partitions(dwg: svgwrite.Drawing, parent: Any, hx: dict[str, Any], geom: HexGeom) -> None:
    """A river or boundary across the hex from corner ``a`` to corner ``b`` (gently curved).

    Corners are numbered as docs/FORMAT.md says: edge e lies between corners e and e + 1.
    """
    for part in hx.get("partitions", []) or []:
        a = geom.corner((int(part["a"]) - 1) % 6)
        b = geom.corner((int(part["b"]) - 1) % 6)
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        ctrl = (mid[0] * 0.4, mid[1] * 0.4)
        colour = WATER if part.get("type", "water") == "water" else INK
        parent.add(
            dwg.path(
                d=f"M{fmt(a[0])},{fmt(a[1])} Q{fmt(ctrl[0])},{fmt(ctrl[1])} {fmt(b[0])},{fmt(b[1])}",
                fill="none",
                stroke=colour,
                stroke_width=fmt(0.09 * geom.r),
                stroke_linecap="round",
                stroke_dasharray=None if colour == WATER else "1.5,1",
            )
        )


def _draw_terrain(dwg: svgwrite.Drawing, parent: Any, hx: dict[str, Any], art: TrackArt, geom: HexGeom) -> None:
    terrain = list(hx.get("terrain", []) or [])
    cost = int(hx.get("cost", 0) or 0)
    if not terrain and not cost:
        return
    r = geom.r
    size = 0.42 * r
    kinds = terrain or ["cost"]
    block = size * (1 + 0.55 * (len(kinds) - 1))
    pos = art.free_spot(block * 0.6, prefer=(0.0, 0.25 * r), pull=0.25)
    art.reserve(pos, block * 0.6)
    x0 = pos[0] - (len(kinds) - 1) * size * 0.55 / 2
    for i, kind in enumerate(kinds):
        if kind != "cost":
            terrain_icon(dwg, parent, kind, (x0 + i * size * 0.55 * 1.0, pos[1] - size * 0.18), size * 0.85)
    if cost:
        label = money(cost, "${}")
        fs = 0.2 * r
        text(dwg, parent, pos[0], pos[1] + size * 0.48, label, fs, bold=True, fill=INK)


def _draw_name(
    dwg: svgwrite.Drawing, parent: Any, name: str, art: TrackArt, geom: HexGeom, ink: str, colour: str
) -> None:
    r = geom.r
    size = 0.15 * r
    lines = wrap(name, size, 1.45 * r, bold=True)
    if len(lines) > 2:
        size *= 0.85
        lines = wrap(name, size, 1.5 * r, bold=True)[:3]
    width = max(text_width(line, size, bold=True) for line in lines)
    height = size * 1.15 * len(lines)
    pos = art.free_box(width, height, prefer=(0.0, -0.62 * r), pull=0.35)
    art.reserve_box(pos, width, height)
    halo = "#ffffff" if ink == INK else None
    for i, line in enumerate(lines):
        y = pos[1] + (i - (len(lines) - 1) / 2) * size * 1.15
        if halo and colour in ("white",):
            text(
                dwg,
                parent,
                pos[0],
                y,
                line,
                size,
                bold=True,
                fill="none",
                stroke=tile_fill(colour),
                stroke_width=fmt(size * 0.35),
                stroke_linejoin="round",
            )
        text(dwg, parent, pos[0], y, line, size, bold=True, fill=ink)


def _draw_destinations(
    dwg: svgwrite.Drawing, parent: Any, book: dict[str, Any], hx: dict[str, Any], art: TrackArt, geom: HexGeom
) -> None:
    for sym, corp in book.get("corporations", {}).items():
        if corp.get("destination") != hx["id"]:
            continue
        fill, ink = company_colours(corp)
        rad = art.s * 0.62
        pos = art.free_spot(rad, prefer=(0.45 * geom.r, -0.3 * geom.r))
        art.reserve(pos, rad)
        x, y = pos
        parent.add(
            dwg.rect(
                insert=(fmt(x - rad), fmt(y - rad)),
                size=(fmt(2 * rad), fmt(2 * rad)),
                fill=fill,
                stroke=INK,
                stroke_width=fmt(rad * 0.08),
                transform=f"rotate(45 {fmt(x)} {fmt(y)})",
            )
        )
        size = max(TEXT_MIN, fit_size(sym, rad * 0.8, rad * 1.5, bold=True, family=CONDENSED))
        text(dwg, parent, x, y, sym, size, bold=True, fill=ink, family=CONDENSED)


def build_map(book: dict[str, Any], tile_size: float) -> MapArt:
    """Lay out every hex of the rulebook and the coordinate frame."""
    geom = HexGeom(book["layout"], tile_size)
    dwg = drawing(10, 10)
    hexes = list(book["hexes"].values())
    if not hexes:
        return MapArt(geom, 2 * FRAME, 2 * FRAME, factory=dwg)
    raw = {h["id"]: geom.centre_of(int(h["x"]), int(h["y"])) for h in hexes}
    min_x = min(p[0] for p in raw.values()) - geom.width / 2
    min_y = min(p[1] for p in raw.values()) - geom.height / 2
    max_x = max(p[0] for p in raw.values()) + geom.width / 2
    max_y = max(p[1] for p in raw.values()) + geom.height / 2
    ox, oy = FRAME - min_x, FRAME - min_y
    art = MapArt(geom, max_x - min_x + 2 * FRAME, max_y - min_y + 2 * FRAME, factory=dwg)
    for h in sorted(hexes, key=lambda h: (h["y"], h["x"])):
        c = raw[h["id"]]
        art.items.append(draw_hex(dwg, book, h, geom, (c[0] + ox, c[1] + oy)))
    frame = dwg.g(id="coordinates", font_weight="bold")
    axes = book.get("axes", {"x": "number", "y": "letter"})
    xs = sorted({int(h["x"]) for h in hexes})
    ys = sorted({int(h["y"]) for h in hexes})
    size = 3.2 * tile_size / 38.1
    for x in xs:
        px = geom.centre_of(x, 0)[0] + ox
        label = coord_label(x, "x", axes)
        text(dwg, frame, px, FRAME / 2, label, size, fill="#555555")
        text(dwg, frame, px, art.height - FRAME / 2, label, size, fill="#555555")
    for y in ys:
        py = geom.centre_of(0, y)[1] + oy
        label = coord_label(y, "y", axes)
        text(dwg, frame, FRAME / 2, py, label, size, fill="#555555")
        text(dwg, frame, art.width - FRAME / 2, py, label, size, fill="#555555")
    art.frame.append(frame)
    return art


def render_map(book: dict[str, Any], paper: Paper, tile_size: float) -> list[Page]:
    """An overview page, then the map at true scale over as many pages as it needs."""
    art = build_map(book, tile_size)
    name = f"{book['meta']['full_name']} — map"
    caption = "true-scale map: trim a page on its dashed line, glue it over the next"
    return [overview_page(book, art, paper), *poster_pages(art, paper, name, caption)]


KEY_H = 16.0
"""Height of the key of companies under the overview (mm)."""


def overview_page(book: dict[str, Any], art: MapArt, paper: Paper) -> Page:
    """The whole map scaled to one page, with the title and a key of the companies and their homes."""
    companies = _key_entries(book)
    key_h = KEY_H if companies else 0.0
    best = None
    for p in (paper.portrait(), paper.landscape()):
        k = min(p.inner_w / art.width, (p.inner_h - 12 - key_h) / art.height)
        if best is None or k > best[1]:
            best = (p, k)
    assert best is not None
    p, k = best
    k = min(k, 1.0)
    page = Page.new(p, caption=f"overview at {k * 100:.0f} % · dashed ring: reserved spot · true scale follows")
    dwg = page.dwg
    meta = book["meta"]
    title = meta["full_name"]
    text(dwg, dwg, p.width / 2, MARGIN + 3, title, fit_size(title, 6.0, p.inner_w), bold=True)
    byline = " · ".join(str(meta[k2]) for k2 in ("designer", "publisher") if meta.get(k2))
    if byline:
        text(dwg, dwg, p.width / 2, MARGIN + 8, byline, fit_size(byline, 2.8, p.inner_w), fill="#555555")
    left = (p.width - art.width * k) / 2
    top = MARGIN + 11 + (p.inner_h - 12 - key_h - art.height * k) / 2
    holder = dwg.g(transform=f"translate({fmt(left)},{fmt(top)}) scale({k:.5f})")
    dwg.add(holder)
    art.add_to(dwg, holder)
    if companies:
        _draw_key(dwg, p, companies, p.height - MARGIN - key_h + 1)
    return page


def _key_entries(book: dict[str, Any]) -> list[tuple[str, dict[str, Any], str]]:
    out = []
    for table in ("corporations", "minors"):
        for sym, ent in book.get(table, {}).items():
            home = ent.get("home")
            homes = home if isinstance(home, list) else [home] if home else []
            out.append((sym, ent, ", ".join(h["hex"] for h in homes if h)))
    return out


def _draw_key(dwg: svgwrite.Drawing, paper: Paper, entries: list[tuple[str, dict[str, Any], str]], y: float) -> None:
    """Company tokens with their home hexes, in as many rows as they need (at most two)."""
    per_row = max(1, math.ceil(len(entries) / 2)) if len(entries) > 8 else len(entries)
    cell = min(34.0, paper.inner_w / max(1, per_row))
    rows = math.ceil(len(entries) / per_row)
    g = dwg.g(id="key")
    dwg.add(g)
    for i, (sym, ent, home) in enumerate(entries):
        r, c = divmod(i, per_row)
        count = min(per_row, len(entries) - r * per_row)
        x0 = paper.width / 2 - count * cell / 2 + c * cell
        cy = y + (r + 0.5) * (KEY_H - 2) / rows
        rad = min(3.2, (KEY_H - 2) / rows / 2 - 0.3)
        fill, ink = company_colours(ent)
        token(dwg, g, (x0 + rad + 0.5, cy), rad, fill, ink, sym)
        label = str(ent.get("name", sym)) + (f" ({home})" if home else "")
        lines, size = fit_lines(label, 2.2, cell - 2 * rad - 2, min_size=2.0)
        for n, line in enumerate(lines):
            ly = cy + (n - (len(lines) - 1) / 2) * size * 1.1
            text(dwg, g, x0 + 2 * rad + 1.5, ly, line, size, anchor="start")
