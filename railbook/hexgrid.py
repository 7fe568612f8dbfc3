"""Pure functions on hex geometry and tile track, shared by the compiler and the engine.

Track is handled in its compiled (JSON) shape: ``{"cities": [...], "towns": [...], "offboards": [...],
"junctions": n, "paths": [{"a": "0", "b": "c0"}, ...]}``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

DIRECTIONS: dict[str, dict[tuple[int, int], int]] = {
    "flat": {(0, 2): 0, (-1, 1): 1, (-1, -1): 2, (0, -2): 3, (1, -1): 4, (1, 1): 5},
    "pointy": {(-1, 1): 0, (-2, 0): 1, (-1, -1): 2, (1, -1): 3, (2, 0): 4, (1, 1): 5},
}
OFFSETS: dict[str, dict[int, tuple[int, int]]] = {
    layout: {edge: delta for delta, edge in table.items()} for layout, table in DIRECTIONS.items()
}
_COORD = re.compile(r"^([A-Z]+)(\d+)$")


def default_axes(layout: str) -> dict[str, str]:
    return {"x": "letter", "y": "number"} if layout == "flat" else {"x": "number", "y": "letter"}


def letter_index(letters: str) -> int:
    value = 0
    for ch in letters:
        value = value * 26 + (ord(ch) - ord("A") + 1)
    return value - 1


def index_letter(index: int) -> str:
    out = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        out = chr(ord("A") + rem) + out
    return out


def hex_xy(hex_id: str, axes: Mapping[str, str]) -> tuple[int, int]:
    """Doubled coordinates (x, y) of a hex id such as ``E11``."""
    m = _COORD.match(hex_id)
    if not m:
        raise ValueError(f"bad hex id {hex_id!r}")
    letter, number = letter_index(m.group(1)), int(m.group(2)) - 1
    x = letter if axes["x"] == "letter" else number
    y = letter if axes["y"] == "letter" else number
    return x, y


def xy_hex(x: int, y: int, axes: Mapping[str, str]) -> str:
    letter = x if axes["x"] == "letter" else y
    number = y if axes["y"] == "number" else x
    return f"{index_letter(letter)}{number + 1}"


def neighbours(hex_ids: Iterable[str], layout: str, axes: Mapping[str, str]) -> dict[str, dict[int, str]]:
    """For each hex, the hex beyond each of its edges (only hexes on the map)."""
    ids = list(hex_ids)
    by_xy = {hex_xy(h, axes): h for h in ids}
    out: dict[str, dict[int, str]] = {}
    for h in ids:
        x, y = hex_xy(h, axes)
        out[h] = {
            edge: by_xy[(x + dx, y + dy)] for edge, (dx, dy) in OFFSETS[layout].items() if (x + dx, y + dy) in by_xy
        }
    return out


def rotate(edge: int, rotation: int) -> int:
    return (edge + rotation) % 6


def opposite(edge: int) -> int:
    return (edge + 3) % 6


# ----------------------------------------------------------------------------------------- signatures

NodeSig = tuple[str, frozenset[int]]
Signature = tuple[frozenset[frozenset[int]], tuple[NodeSig, ...]]


def _is_edge(end: str) -> bool:
    return end.isdigit()


def signature(track: Mapping[str, Any], rotation: int = 0) -> Signature:
    """The connectivity of a tile: edge-to-edge links and, per stop node, the edges it reaches."""
    links: list[tuple[str, str]] = []
    for p in track.get("paths", []):
        a, b = str(p["a"]), str(p["b"])
        a = str(rotate(int(a), rotation)) if _is_edge(a) else a
        b = str(rotate(int(b), rotation)) if _is_edge(b) else b
        links.append((a, b))
    edge_pairs: set[frozenset[int]] = set()
    node_exits: dict[str, set[int]] = {}
    for kind, key in (("c", "cities"), ("t", "towns"), ("o", "offboards")):
        for i in range(len(track.get(key, []))):
            node_exits[f"{kind}{i}"] = set()
    junction_exits: dict[str, set[int]] = {}
    for a, b in links:
        for x, y in ((a, b), (b, a)):
            if x in node_exits and _is_edge(y):
                node_exits[x].add(int(y))
            if x.startswith("j") and _is_edge(y):
                junction_exits.setdefault(x, set()).add(int(y))
        if _is_edge(a) and _is_edge(b):
            edge_pairs.add(frozenset((int(a), int(b))))
    for exits in junction_exits.values():
        ordered = sorted(exits)
        for i, e1 in enumerate(ordered):
            for e2 in ordered[i + 1 :]:
                edge_pairs.add(frozenset((e1, e2)))
    nodes = tuple((name[0], frozenset(exits)) for name, exits in sorted(node_exits.items()))
    return frozenset(edge_pairs), nodes


def _node_match(old: tuple[NodeSig, ...], new: tuple[NodeSig, ...], town_to_city: bool, injective: bool) -> bool:
    """Can every old stop be mapped to a new stop of a fitting kind that keeps all its exits?"""

    def fits(o: NodeSig, n: NodeSig) -> bool:
        kind_ok = o[0] == n[0] or (town_to_city and o[0] == "t" and n[0] == "c")
        return kind_ok and o[1] <= n[1]

    def assign(i: int, used: frozenset[int]) -> bool:
        if i == len(old):
            return True
        for j, n in enumerate(new):
            if (not injective or j not in used) and fits(old[i], n):
                if assign(i + 1, used | {j}):
                    return True
        return False

    return assign(0, frozenset())


def upgrade_rotations(
    old: Mapping[str, Any],
    old_rotation: int,
    new: Mapping[str, Any],
    *,
    town_to_city: bool = False,
    injective: bool = True,
    drop_towns: bool = False,
) -> list[int]:
    """Rotations of ``new`` that keep all track of ``old`` (laid at ``old_rotation``); with ``drop_towns`` the
    old towns may go, plain track then joining their exits."""
    old_edges, old_nodes = signature(old, old_rotation)
    if drop_towns:
        joined = {frozenset((a, b)) for kind, exits in old_nodes if kind == "t" for a in exits for b in exits if a < b}
        old_edges = old_edges | joined
        old_nodes = tuple(n for n in old_nodes if n[0] != "t")
    result = []
    frozen = _freeze(new)  # the cache key, built once for the six rotations
    for r in range(6):
        new_edges, new_nodes = _signature_by_key(frozen, r)
        if not old_edges <= new_edges:
            # an old edge-to-edge link may also survive through a stop or junction of the new tile
            if not all(any(pair <= exits for _, exits in new_nodes) for pair in old_edges - new_edges):
                continue
        if _node_match(old_nodes, new_nodes, town_to_city, injective and len(old_nodes) <= len(new_nodes)):
            result.append(r)
    return result


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple) and all(isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str) for v in value):
        return {k: _thaw(v) for k, v in value}
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


@lru_cache(maxsize=65536)
def _signature_by_key(frozen: Any, rotation: int) -> Signature:
    return signature(_thaw(frozen), rotation)


def exits(track: Mapping[str, Any], rotation: int = 0) -> set[int]:
    """Every edge the track touches."""
    out: set[int] = set()
    for p in track.get("paths", []):
        for end in (str(p["a"]), str(p["b"])):
            if _is_edge(end):
                out.add(rotate(int(end), rotation))
    return out
