"""Small drawings of tiles turned as they may be laid (the hex panel's choices), drawn by render/tiles.py."""

from __future__ import annotations

import threading
from typing import Any

from railbook.render.geometry import HexGeom, fmt
from railbook.render.svg import drawing
from railbook.render.tiles import draw_tile_art

from .mapsvg import TILE, rotated_tile

_CACHE: dict[tuple[int, str, int], str] = {}
_LOCK = threading.Lock()


def tile_preview(book: dict[str, Any], name: str, rotation: int) -> str:
    """An inline ``<svg>`` of tile ``name`` turned ``rotation`` sixths (cached per rulebook)."""
    key = (id(book), name, rotation)
    found = _CACHE.get(key)
    if found is not None:
        return found
    tile = book["tiles"].get(name)
    if tile is None:
        return f"<b>{name}</b>"
    geom = HexGeom(book["layout"], TILE)
    with _LOCK:
        dwg = drawing(geom.width + 2, geom.height + 2)
        g = dwg.g()
        draw_tile_art(dwg, g, rotated_tile(tile, rotation), geom, cut=False)
        inner = g.tostring()
    w, h = geom.width + 2, geom.height + 2
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tile" viewBox="{fmt(-w / 2)} {fmt(-h / 2)} {fmt(w)} {fmt(h)}" '
        f'font-family="sans-serif">{inner}</svg>'
    )
    if len(_CACHE) > 5000:
        _CACHE.clear()
    _CACHE[key] = svg
    return svg
