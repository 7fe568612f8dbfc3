"""The map: tiles laid on hexes (with rotation), station tokens in city slots, and the track graph.

Static facts (each tile's connectivity under each rotation, passable neighbours) come from
:class:`engine.book.Book`; this module holds the operations on the mutable :class:`engine.state.HexState`
map and the graph queries the rules need:

* :func:`network` — what a corporation's tokens reach (hex edges where it may build, nodes where it may
  token, whether it can run a route), cached per board version;
* :func:`check_lay` / :func:`apply_lay` — tile-lay legality (colour, supply, upgrade path, rotation,
  connection, new-track use) and its cost (terrain, hexsides);
* city slot helpers used by token placement and route checks.

The graph is never rebuilt from scratch per action: tiles carry precomputed per-rotation path tables and a
network is recomputed lazily only after the board changed.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from compiler.track import opposite, upgrade_rotations

from .book import COLOUR_ORDER, EDGE, NODE, Track
from .errors import illegal
from .state import HexState

if TYPE_CHECKING:
    from .game import Game

NodeKey = tuple[str, str]  # (hex, node name)


# ------------------------------------------------------------------------------------------- setup


def init_hexes(g: Game) -> dict[str, HexState]:
    """The printed map as a fresh board state."""
    out = {}
    for hex_id, spec in g.book.hexes.items():
        cities = spec.get("cities") or []
        out[hex_id] = HexState(
            tile=None,
            tile_id=None,
            rotation=0,
            tokens=[[None] * int(c.get("slots", 1)) for c in cities],
            reservations=[[None] * int(c.get("slots", 1)) for c in cities],
            icons=[i["name"] for i in spec.get("icons") or []],
            borders=[int(b["edge"]) for b in spec.get("borders") or [] if b.get("cost")],
        )
    return out


def track(g: Game, hex_id: str) -> Track:
    hs = g.state.hexes[hex_id]
    return g.book.track(hs.tile, hex_id, hs.rotation)


def tile_spec(g: Game, hex_id: str) -> dict[str, Any]:
    return g.book.tile_spec(g.state.hexes[hex_id].tile, hex_id)


def colour(g: Game, hex_id: str) -> str:
    return tile_spec(g, hex_id).get("color", "white")


def label(g: Game, hex_id: str) -> str | None:
    return tile_spec(g, hex_id).get("label")


# ------------------------------------------------------------------------------------------ cities


def city_index(name: str) -> int:
    return int(name[1:])


def tokened_by(g: Game, hex_id: str, city: int, key: str) -> bool:
    return key in g.state.hexes[hex_id].tokens[city]


def hex_tokened_by(g: Game, hex_id: str, key: str) -> bool:
    return any(key in slots for slots in g.state.hexes[hex_id].tokens)


def city_blocks(g: Game, hex_id: str, city: int, key: str | None) -> bool:
    """A full city without a token of ``key`` cannot be passed through by ``key``'s routes."""
    if key is None:
        return False
    slots = g.state.hexes[hex_id].tokens[city]
    if key in slots:
        return False
    return None not in slots


def free_slot(g: Game, hex_id: str, city: int, key: str) -> int | None:
    """The slot ``key`` would fill: its reserved slot, else the first open unreserved slot."""
    hs = g.state.hexes[hex_id]
    slots, res = hs.tokens[city], hs.reservations[city]
    for i, r in enumerate(res):
        if r == key and slots[i] is None:
            return i
    for i, occupant in enumerate(slots):
        if occupant is None and (i >= len(res) or res[i] is None):
            return i
    return None


def reserved_for(g: Game, hex_id: str, city: int, key: str) -> bool:
    return key in g.state.hexes[hex_id].reservations[city]


# ----------------------------------------------------------------------------------------- network


@dataclass(slots=True)
class Network:
    """What one entity's station tokens reach on the current board."""

    hex_edges: dict[str, set[int]] = field(default_factory=dict)  # where it may build (18xx connected_hexes)
    nodes: set[NodeKey] = field(default_factory=set)  # nodes reached (it may token there)
    paths: set[tuple[str, int]] = field(default_factory=set)  # (hex, path index) reached
    route_available: bool = False


def node_blocks(g: Game, hex_id: str, node: str, key: str | None, kind: str) -> bool:
    if kind == "offboard":
        return True
    if kind == "city":
        return city_blocks(g, hex_id, city_index(node), key)
    return False


def token_nodes(g: Game, key: str) -> list[NodeKey]:
    out = []
    for hex_id, hs in g.state.hexes.items():
        for ci, slots in enumerate(hs.tokens):
            if key in slots:
                out.append((hex_id, f"c{ci}"))
    return out


def network(g: Game, key: str, extra_nodes: list[NodeKey] | None = None) -> Network:
    """The network of ``key`` (cached until the board changes)."""
    cache = g.cache.setdefault("network", {})
    version = g.board_version
    hit = cache.get(key)
    if hit is not None and hit[0] == version:
        return hit[1]
    net = compute_network(g, key)
    cache[key] = (version, net)
    return net


def compute_network(g: Game, key: str, starts: list[NodeKey] | None = None, blocking: bool = True) -> Network:
    """Walk the track from every token node of ``key`` (or from ``starts``)."""
    book = g.book
    hexes = g.state.hexes
    net = Network()
    tokens = starts if starts is not None else token_nodes(g, key)
    token_set = set(tokens)
    for hex_id, _ in tokens:
        edges = net.hex_edges.setdefault(hex_id, set())
        edges.update(book.neighbours[hex_id])
    net.nodes.update(tokens)
    walk_key = key if blocking else None
    seen_paths = net.paths
    tracks: dict[str, Track] = {}

    def trk(h: str) -> Track:
        t = tracks.get(h)
        if t is None:
            hs = hexes[h]
            t = book.track(hs.tile, h, hs.rotation)
            tracks[h] = t
        return t

    for start in tokens:
        local: set[NodeKey] = set()
        shex, sname = start
        t0 = trk(shex)
        queue: deque[tuple[str, int, tuple[int, Any]]] = deque()
        visited: set[tuple[str, int, tuple[int, Any]]] = set()
        for pi in t0.node_paths.get(sname, ()):
            queue.append((shex, pi, (NODE, sname)))
        while queue:
            state = queue.popleft()
            if state in visited:
                continue
            visited.add(state)
            h, pi, entered = state
            t = trk(h)
            path = t.paths[pi]
            pkey = (h, pi)
            fresh = pkey not in seen_paths
            if fresh:
                seen_paths.add(pkey)
                for end in (path.a, path.b):
                    if end[0] == NODE:
                        nk = (h, end[1])
                        net.nodes.add(nk)
                        local.add(nk)
                    else:
                        e = end[1]
                        net.hex_edges.setdefault(h, set()).add(e)
                        nb = book.neighbours[h].get(e)
                        if nb is not None:
                            net.hex_edges.setdefault(nb, set()).add(opposite(e))
            other = path.other(entered)
            if other[0] == EDGE:
                e = other[1]
                nb = book.neighbours[h].get(e)
                if nb is None:
                    continue
                back = opposite(e)
                for pj in trk(nb).edge_paths.get(back, ()):
                    queue.append((nb, pj, (EDGE, back)))
            else:
                name = other[1]
                nk = (h, name)
                if nk == start or nk in token_set or path.terminal:
                    continue
                node = t.nodes[name]
                if node_blocks(g, h, name, walk_key, node.kind):
                    continue
                for pj in t.node_paths.get(name, ()):
                    if pj != pi:
                        queue.append((h, pj, (NODE, name)))
        if not net.route_available:
            stops = sum(1 for (h, n) in local if trk(h).nodes[n].kind != "junction")
            if stops > 1:
                net.route_available = True
    return net


def invalidate(g: Game) -> None:
    """Call after any change of tiles or tokens."""
    g.board_version += 1


# ------------------------------------------------------------------------------------------ tiles


def tile_name_of(tile_id: str) -> str:
    """``"7-0"`` -> ``"7"`` (tile names may themselves contain no dash)."""
    return tile_id.rsplit("-", 1)[0] if "-" in tile_id else tile_id


def available_copies(g: Game, name: str) -> int | None:
    count = g.book.tiles[name]["count"]
    if count == "unlimited":
        return None
    return int(count) - len(g.state.tiles_out.get(name, []))


def next_copy_id(g: Game, name: str) -> str:
    out = set(g.state.tiles_out.get(name, []))
    i = 0
    while f"{name}-{i}" in out:
        i += 1
    return f"{name}-{i}"


def upgrade_options(g: Game, hex_id: str) -> list[str]:
    hs = g.state.hexes[hex_id]
    if hs.tile is None:
        return list(g.book.hexes[hex_id].get("tile_upgrades") or [])
    return list(g.book.tiles[hs.tile].get("upgrades") or [])


def rotations_keeping_track(g: Game, hex_id: str, new: str) -> list[int]:
    hs = g.state.hexes[hex_id]
    old_spec = g.book.tile_spec(hs.tile, hex_id)
    new_spec = g.book.tiles[new]
    key = ("keep", hs.tile or "@" + hex_id, hs.rotation, new)
    cached = g.book._tracks.get(key)  # type: ignore[arg-type]
    if cached is None:
        if not old_spec.get("paths"):
            cached = list(range(6))
        else:
            cached = upgrade_rotations(old_spec, hs.rotation, new_spec)
        g.book._tracks[key] = cached  # type: ignore[index]
    return cached  # type: ignore[return-value]


@dataclass(slots=True)
class LayPlan:
    """A checked tile lay: what :func:`apply_lay` will do."""

    hex: str
    tile: str
    tile_id: str
    rotation: int
    upgrade: bool
    terrain_cost: int
    border_edges: list[tuple[str, int, str, int, int, str]]  # (hex, edge, other hex, other edge, cost, type)
    city_map: dict[int, int]


def plan_lay(
    g: Game,
    hex_id: str,
    tile_id: str,
    rotation: int,
    *,
    key: str | None,
    check_phase: bool = True,
    check_connection: bool = True,
    allowed_tiles: list[str] | None = None,
) -> LayPlan:
    """Validate a tile lay for entity ``key`` and describe its effects (no mutation)."""
    book = g.book
    if hex_id not in book.hexes:
        raise illegal("track.hex", f"no hex {hex_id} on the map")
    if not isinstance(rotation, int) or not 0 <= rotation <= 5:
        raise illegal("track.rotation", f"rotation {rotation!r} is not 0-5")
    name = tile_name_of(str(tile_id))
    if name not in book.tiles:
        raise illegal("track.tile", f"tile {tile_id} is not in this title's manifest")
    if allowed_tiles is not None and name not in allowed_tiles:
        raise illegal("track.tile", f"tile {name} may not be laid here with this ability")
    hs = g.state.hexes[hex_id]
    old_colour = colour(g, hex_id)
    new_spec = book.tiles[name]
    new_colour = new_spec["color"]
    left = available_copies(g, name)
    if left is not None and left <= 0:
        raise illegal("track.supply", f"no tile {name} left in the supply")
    if str(tile_id) in g.state.tiles_out.get(name, []):
        raise illegal("track.supply", f"tile {tile_id} is already on the map")
    if check_phase and new_colour not in g.phase_spec()["tiles"]:
        raise illegal("track.phase", f"{new_colour} tiles are not available in phase {g.phase_spec()['name']}")
    if name not in upgrade_options(g, hex_id):
        raise illegal("track.upgrade", f"{hex_id} ({old_colour}) cannot be replaced by tile {name}")
    if COLOUR_ORDER.index(new_colour) != COLOUR_ORDER.index(old_colour) + 1 and old_colour in COLOUR_ORDER:
        raise illegal("track.upgrade", f"tile {name} ({new_colour}) does not follow {old_colour} on {hex_id}")
    if rotation not in rotations_keeping_track(g, hex_id, name):
        raise illegal("track.rotation", f"tile {name} at rotation {rotation} does not keep the track of {hex_id}")
    new_track = book.track(name, hex_id, rotation)
    nbrs = book.neighbours[hex_id]
    for e in new_track.exits:
        if e not in nbrs:
            raise illegal("track.rotation", f"tile {name} at rotation {rotation} points track off the map at {hex_id}")
    old_track = track(g, hex_id)
    # cities of the old tile map onto the new tile's cities that keep their exits
    city_map: dict[int, int] = {}
    used = set()
    for oc in old_track.cities:
        oex = old_track.node_exits[oc]
        for nc in new_track.cities:
            if nc not in used and oex <= new_track.node_exits[nc]:
                city_map[city_index(oc)] = city_index(nc)
                used.add(nc)
                break
        else:
            if old_track.cities and len(new_track.cities) >= len(old_track.cities):
                for nc in new_track.cities:
                    if nc not in used:
                        city_map[city_index(oc)] = city_index(nc)
                        used.add(nc)
                        break
    if check_connection and key is not None:
        net = network(g, key)
        edges = net.hex_edges.get(hex_id, set())
        if not (new_track.exits & edges):
            raise illegal("track.connection", f"tile {name} on {hex_id} does not connect to {key[2:]}'s network")
    upgrade = old_colour != "white"
    terrain_cost = 0
    if not hs.cost_paid:
        terrain_cost = int(book.hexes[hex_id].get("cost") or 0)
    borders = []
    spec_borders = {int(b["edge"]): b for b in book.hexes[hex_id].get("borders") or [] if b.get("cost")}
    for e in hs.borders:
        if e not in new_track.exits:
            continue
        nb = nbrs.get(e)
        if nb is None:
            continue
        back = opposite(e)
        if back not in track(g, nb).exits:
            continue
        b = spec_borders[e]
        borders.append((hex_id, e, nb, back, int(b.get("cost") or 0), b.get("type") or ""))
    return LayPlan(hex_id, name, str(tile_id), rotation, upgrade, terrain_cost, borders, city_map)


def apply_lay(g: Game, plan: LayPlan) -> None:
    """Put the tile on the map, moving tokens and reservations and paying off crossed hexsides."""
    hs = g.state.hexes[plan.hex]
    old_name = hs.tile
    new_track = g.book.track(plan.tile, plan.hex, plan.rotation)
    n_cities = len(new_track.cities)
    slots = [g.book.tiles[plan.tile]["cities"][i].get("slots", 1) for i in range(n_cities)]
    tokens: list[list[str | None]] = [[None] * s for s in slots]
    reservations: list[list[str | None]] = [[None] * s for s in slots]
    for old_ci, new_ci in plan.city_map.items():
        for si, tok in enumerate(hs.tokens[old_ci] if old_ci < len(hs.tokens) else []):
            if tok is not None:
                target = si if si < len(tokens[new_ci]) and tokens[new_ci][si] is None else None
                if target is None:
                    target = tokens[new_ci].index(None) if None in tokens[new_ci] else None
                if target is None:
                    tokens[new_ci].append(tok)
                else:
                    tokens[new_ci][target] = tok
        for si, res in enumerate(hs.reservations[old_ci] if old_ci < len(hs.reservations) else []):
            if res is not None:
                if si < len(reservations[new_ci]):
                    reservations[new_ci][si] = res
                else:
                    reservations[new_ci].append(res)
    if old_name is not None and hs.tile_id is not None:
        out = g.state.tiles_out.get(old_name, [])
        if hs.tile_id in out:
            out.remove(hs.tile_id)
    g.state.tiles_out.setdefault(plan.tile, []).append(plan.tile_id)
    hs.tile = plan.tile
    hs.tile_id = plan.tile_id
    hs.rotation = plan.rotation
    hs.tokens = tokens
    hs.reservations = reservations
    hs.cost_paid = True
    for h, e, nb, back, _, _ in plan.border_edges:
        if e in g.state.hexes[h].borders:
            g.state.hexes[h].borders.remove(e)
        if back in g.state.hexes[nb].borders:
            g.state.hexes[nb].borders.remove(back)
    invalidate(g)


def uses_new_track(g: Game, key: str, hex_id: str, old_track: Track, old_revenues: dict[str, Any]) -> bool:
    """18xx 'semi-restrictive' rule: some connected path of the new tile is new, or a city changed value."""
    net = network(g, key)
    t = track(g, hex_id)
    old_sigs = []
    for p in old_track.paths:
        old_sigs.append(_sig(old_track, p))
    for p in t.paths:
        if (hex_id, p.index) not in net.paths:
            continue
        sig = _sig(t, p)
        match = None
        for i, osig in enumerate(old_sigs):
            if _sub(osig, sig):
                match = old_track.paths[i]
                break
        if match is None:
            return True
        old_nodes = sorted(str(old_revenues.get(e[1])) for e in (match.a, match.b) if e[0] == NODE)
        new_nodes = sorted(str(t.nodes[e[1]].revenue) for e in (p.a, p.b) if e[0] == NODE)
        if old_nodes != new_nodes:
            return True
    return False


def _sig(t: Track, p: Any) -> tuple:
    def end(e: tuple[int, Any]) -> tuple:
        return ("e", e[1]) if e[0] == EDGE else ("n", t.nodes[e[1]].kind)

    return (end(p.a), end(p.b))


def _sub(old: tuple, new: tuple) -> bool:
    return (old[0] == new[0] and old[1] == new[1]) or (old[0] == new[1] and old[1] == new[0])
