"""The map of a live game as SVG, drawn by railbook's print renderer (render/board.py) from the game's state.

The printed board of a rulebook is drawn once (``build_map``) and kept as text per hex; a hex whose state differs
from print (a tile laid, with its rotation; station tokens; reservations) is drawn again with ``draw_hex`` from
the hex merged with its tile, and kept by what it shows, so an action redraws only the hexes it changed.  A
transparent layer of hex outlines on top carries ``data-hex`` for clicks and marks the hexes with legal moves.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from railbook.engine.state import GameState, HexState, sym_of
from railbook.render.board import build_map, draw_hex
from railbook.render.geometry import fmt
from railbook.render.icons import badge, company_colours, token
from railbook.render.track import TrackArt

#: across flats of one hex, in the SVG's user units
TILE = 38.1
#: route colours, by train index
ROUTE_COLOURS = ("#d7191c", "#2c7bb6", "#1a9641", "#fdae61", "#7b3294", "#e66101")


def rotated_tile(tile: dict[str, Any], rotation: int) -> dict[str, Any]:
    """A tile's track turned ``rotation`` sixths clockwise (hexside numbers in paths shift), text kept upright."""
    rot = int(rotation) % 6

    def side(v: Any) -> Any:
        s = str(v)
        return str((int(s) + rot) % 6) if s.isdigit() else v

    out = dict(tile)
    out["paths"] = [{**p, "a": side(p["a"]), "b": side(p["b"])} for p in tile.get("paths", []) or []]
    return out


def merged_hex(hx: dict[str, Any], tile: dict[str, Any] | None, rotation: int, hs: HexState) -> dict[str, Any]:
    """The hex as it looks now: its printed data with the laid tile's track, colour and stops (turned), terrain
    gone once paid; homes and reservations are drawn from the state instead."""
    out = dict(hx)
    out["homes"] = []
    out["reserved"] = []
    if tile is not None:
        laid = rotated_tile(tile, rotation)
        for key in ("cities", "towns", "offboards", "junctions", "paths", "color"):
            out[key] = laid.get(key, [] if key != "junctions" else 0)
        out["label"] = tile.get("label") or hx.get("label")
        out["terrain"] = []
        out["cost"] = 0
        out["tile"] = tile["id"]
    if hs.cost_paid:
        out["terrain"] = []
        out["cost"] = 0
    out["icons"] = (
        [{"name": name} for name in hs.icons]
        if hs.icons != [i.get("name") for i in hx.get("icons", [])]
        else hx.get("icons", [])
    )
    return out


@dataclass
class MapBase:
    """The printed board of one rulebook: hex centres, size and each hex's three layers as SVG text."""

    width: float
    height: float
    centres: dict[str, tuple[float, float]]
    layers: dict[str, tuple[str, str, str]]
    frame: str
    outline: str  # one hex's outline path (around 0, 0)
    factory: Any
    geom: Any
    book: dict[str, Any]  # (held: the cache is keyed by its id, which must not be reused while it lives)
    drawn: dict[tuple[Any, ...], tuple[str, str, str]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


_BASES: dict[int, MapBase] = {}
_BASES_LOCK = threading.Lock()


def map_base(book: dict[str, Any]) -> MapBase:
    """The printed board of ``book`` (an option-merged rulebook), drawn once per process."""
    key = id(book)
    with _BASES_LOCK:
        found = _BASES.get(key)
        if found is not None and found.factory is not None:
            return found
        art = build_map(book, TILE)
        layers = {it.hex_id: (it.base.tostring(), it.over.tostring(), it.top.tostring()) for it in art.items}
        base = MapBase(
            width=art.width,
            height=art.height,
            centres={it.hex_id: it.centre for it in art.items},
            layers=layers,
            frame="".join(el.tostring() for el in art.frame),
            outline=art.geom.path_d(),
            factory=art.factory,
            geom=art.geom,
            book=book,
        )
        _BASES[key] = base
        return base


def _changed(hx: dict[str, Any], hs: HexState) -> bool:
    return bool(
        hs.tile
        or any(any(slot for slot in city) for city in hs.tokens)
        or any(any(slot for slot in city) for city in hs.reservations)
        or hs.cost_paid
        or hs.assigned
        or hx.get("homes")
        or hx.get("reserved")
    )


def _entity(book: dict[str, Any], key: str) -> dict[str, Any]:
    sym = sym_of(key)
    for table in ("corporations", "minors", "privates"):
        found = (book.get(table) or {}).get(sym)
        if found is not None:
            return dict(found)
    return {}


def _live_hex(base: MapBase, book: dict[str, Any], hx: dict[str, Any], hs: HexState) -> tuple[str, str, str]:
    """The three layers of a hex drawn from its state (cached by what it shows)."""
    tokens = tuple(tuple(city) for city in hs.tokens)
    reserved = tuple(tuple(city) for city in hs.reservations)
    homes = tuple(hx.get("homes") or ())
    key = (hx["id"], hs.tile, hs.rotation, tokens, reserved, homes, hs.cost_paid, tuple(hs.icons), tuple(hs.assigned))
    found = base.drawn.get(key)
    if found is not None:
        return found
    tile = book["tiles"].get(hs.tile) if hs.tile else None
    live = merged_hex(hx, tile, hs.rotation, hs)
    with base.lock:
        dwg = base.factory
        item = draw_hex(dwg, book, live, base.geom, (0.0, 0.0))
        art = TrackArt(live, base.geom)
        radius = art.s * 0.9
        placed: set[str] = set()
        for ci, city in enumerate(hs.tokens):
            slots = art.slot_centres(ci)
            for si, who in enumerate(city):
                if si >= len(slots):
                    break
                mark = who or (
                    hs.reservations[ci][si] if ci < len(hs.reservations) and si < len(hs.reservations[ci]) else None
                )
                if not mark:
                    continue
                fill, ink = company_colours(_entity(book, mark), "#bbbbbb")
                token(
                    dwg,
                    item.top,
                    slots[si],
                    radius,
                    fill if who else "#ffffff",
                    ink if who else fill,
                    sym_of(mark),
                    dashed=not who,
                )
                placed.add(sym_of(mark))
        for sym in homes:  # a home not yet tokened nor reserved in the state: a faded ring where it goes
            if sym in placed:
                continue
            ent = _entity(book, sym)
            home = ent.get("home")
            homes_of = home if isinstance(home, list) else [home] if home else []
            for h in homes_of:
                if not h or h.get("hex") != hx["id"]:
                    continue
                slots = art.slot_centres(int(h.get("city", 0) or 0))
                free = [i for i, s in enumerate(slots) if not _taken(hs, int(h.get("city", 0) or 0), i)]
                if free:
                    fill, _ = company_colours(ent, "#bbbbbb")
                    token(dwg, item.top, slots[free[-1]], radius, "#ffffff", fill, sym, dashed=True)
        size = 0.15 * base.geom.r
        for i, sym in enumerate(hs.assigned):  # markers: companies assigned to the hex (a private's ability...)
            fill, ink = company_colours(_entity(book, sym), "#fff3b0")
            pos = art.free_spot(size * 1.6, prefer=(0.5 * base.geom.r, (-0.5 + 0.35 * i) * base.geom.r))
            badge(dwg, item.top, pos, sym_of(sym), size, fill=fill, ink=ink)
        drawn = (item.base.tostring(), item.over.tostring(), item.top.tostring())
    if len(base.drawn) > 20_000:
        base.drawn.clear()
    base.drawn[key] = drawn
    return drawn


def _taken(hs: HexState, city: int, slot: int) -> bool:
    try:
        return bool(hs.tokens[city][slot] or hs.reservations[city][slot])
    except IndexError:
        return False


def _place(svg: str, x: float, y: float) -> str:
    """A hex layer (a ``<g transform="translate(0,0)">``) moved to its centre."""
    return svg.replace('transform="translate(0,0)"', f'transform="translate({fmt(x)},{fmt(y)})"', 1)


def map_svg(
    book: dict[str, Any],
    state: GameState,
    marks: dict[str, str] | None = None,
    routes: list[list[str]] | None = None,
    offboard_now: dict[str, int] | None = None,
) -> str:
    """The live map as one ``<svg>``: ``marks`` gives CSS classes of the click layer per hex (legal moves);
    ``routes`` are hex-id paths drawn as coloured lines (the optimiser's routes); ``offboard_now`` the revenue of
    off-board areas in the current phase, shown under their printed values."""
    base = map_base(book)
    layers: tuple[list[str], list[str], list[str]] = ([], [], [])
    for hex_id, (cx, cy) in base.centres.items():
        hx = book["hexes"][hex_id]
        hs = state.hexes.get(hex_id)
        if hs is not None and _changed(hx, hs):
            b, o, t = _live_hex(base, book, hx, hs)
            layers[0].append(_place(b, cx, cy))
            layers[1].append(_place(o, cx, cy))
            layers[2].append(_place(t, cx, cy))
        else:
            b, o, t = base.layers[hex_id]
            layers[0].append(b)
            layers[1].append(o)
            layers[2].append(t)
    marks = marks or {}
    hits = []
    for hex_id, (cx, cy) in base.centres.items():
        cls = "hit " + marks[hex_id] if hex_id in marks else "hit"
        focus = f' tabindex="0" role="button" aria-label="{hex_id}"' if hex_id in marks else ""
        hits.append(
            f'<path class="{cls}" data-hex="{hex_id}"{focus} fill="#fff" fill-opacity="0" '
            f'transform="translate({fmt(cx)},{fmt(cy)})" d="{base.outline}"/>'
        )
    lines = []
    for i, hexes in enumerate(routes or []):
        pts = " ".join(f"{fmt(base.centres[h][0])},{fmt(base.centres[h][1])}" for h in hexes if h in base.centres)
        colour = ROUTE_COLOURS[i % len(ROUTE_COLOURS)]
        lines.append(
            f'<polyline class="route" points="{pts}" fill="none" stroke="{colour}" stroke-width="3.2" '
            'stroke-linejoin="round" stroke-linecap="round" stroke-opacity="0.8"/>'
        )
    r = base.geom.r
    now = []
    for hex_id, value in (offboard_now or {}).items():
        if hex_id not in base.centres:
            continue
        cx, cy = base.centres[hex_id]
        label = f"now {value}"
        w = 0.11 * r * len(label) + 0.2 * r
        now.append(
            f'<g class="now"><rect x="{fmt(cx - w / 2)}" y="{fmt(cy + 0.52 * r)}" width="{fmt(w)}" '
            f'height="{fmt(0.3 * r)}" rx="{fmt(0.08 * r)}" fill="#ffffff" stroke="#222222" stroke-width="0.3"/>'
            f'<text x="{fmt(cx)}" y="{fmt(cy + 0.73 * r)}" font-size="{fmt(0.2 * r)}" font-weight="bold" '
            f'text-anchor="middle">{label}</text></g>'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="map" viewBox="0 0 {fmt(base.width)} {fmt(base.height)}" '
        f'font-family="sans-serif"><g>{"".join(layers[0])}</g><g>{"".join(layers[1])}</g>'
        f'<g>{"".join(layers[2])}</g>{base.frame}<g class="offboard-now">{"".join(now)}</g>'
        f'<g class="routes">{"".join(lines)}</g>'
        f'<g class="hits">{"".join(hits)}</g></svg>'
    )
