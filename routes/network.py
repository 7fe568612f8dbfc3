"""From a board (hex -> track + rotation, tokens) to the optimiser's graph of stops and links.

:class:`BoardState` is a small, engine-independent picture of the map: the game adapter fills it from
the interpreter's board, tests fill it by hand. Track is in the compiled rulebook shape
(``{"cities", "towns", "offboards", "junctions", "paths"}``, see ``compiler/track.py``).

Each tile's connectivity (which endpoints its paths join, junctions resolved) is computed once per
(track, rotation) and cached.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from railbook.engine.bonuses import PathHex, split

from railbook.hexgrid import opposite, rotate

from .gcpause import pause_collector, resume_collector
from .model import Kind, Link, Problem, Stop, TrainSpec

COLOUR_ORDER: tuple[str, ...] = ("yellow", "green", "brown", "gray")
Endpoint = int | str  # an edge 0-5, or a node "c0" / "t1" / "o0"


@dataclass
class HexState:
    """One hex as the router sees it: the track on it now, how it is turned, who has tokens where."""

    id: str
    track: Mapping[str, Any]
    rotation: int = 0
    neighbours: Mapping[int, str] = field(default_factory=dict)
    tags: frozenset[str] = frozenset()
    tokens: Mapping[int, Sequence[str]] = field(default_factory=dict)  # city index -> corporations
    slots: Mapping[int, int] = field(default_factory=dict)  # city index -> token spaces now, where not the tile's


@dataclass
class BoardState:
    """The map now, and which off-board revenue column is in force."""

    hexes: dict[str, HexState]
    phase: str = ""
    colour: str = "yellow"
    colour_order: tuple[str, ...] = COLOUR_ORDER
    revenue_of: Callable[[Any], int] | None = None  # the game's own rule for phase-dependent revenue


def resolve_revenue(value: Any, board: BoardState) -> int:
    """A revenue in force: a number, or ``{colour-or-phase: number}`` (latest colour reached wins)."""
    if isinstance(value, int):
        return value
    if board.revenue_of is not None:
        return int(board.revenue_of(value))
    if not isinstance(value, Mapping) or not value:
        return 0
    if board.phase in value:
        return int(value[board.phase])
    order = list(board.colour_order)
    reached = order.index(board.colour) if board.colour in order else len(order) - 1
    best: int | None = None
    best_rank = -1
    for key, v in value.items():
        if key in order and best_rank < order.index(key) <= reached:
            best, best_rank = int(v), order.index(key)
    if best is None:  # nothing reached yet: the earliest column
        ranked = sorted((order.index(k), int(v)) for k, v in value.items() if k in order)
        best = ranked[0][1] if ranked else int(next(iter(value.values())))
    return best


#: steps walked from one stop before :func:`build_graph` starts cutting dominated walks
CUT_AFTER = 256

MISSING: Any = object()

#: boards whose links are remembered (by their track: tiles, rotations, neighbours; and the marked hexes), most
#: recent last. The links do not depend on the corporation, its tokens or revenues, so every company on one map
#: shares them, and a bot trying lays meets the board it chose again at its next decision
GRAPH_CACHE = 8
_GRAPHS: dict[tuple[Any, ...], tuple[list[Link], dict[str, int]]] = {}
_TRACKS: dict[int, tuple[Mapping[str, Any], int]] = {}

_CONNECTIVITY: dict[tuple[int, int], tuple[Mapping[str, Any], dict[Endpoint, list[Endpoint]]]] = {}


def connectivity(track: Mapping[str, Any], rotation: int) -> dict[Endpoint, list[Endpoint]]:
    """Which endpoints each endpoint reaches along one path of the tile (junctions resolved)."""
    key = (id(track), rotation)
    hit = _CONNECTIVITY.get(key)
    if hit is not None and hit[0] is track:
        return hit[1]
    adj: dict[Endpoint, list[Endpoint]] = {}
    junctions: dict[str, list[Endpoint]] = {}

    def end(x: Any) -> Endpoint:
        s = str(x)
        return rotate(int(s), rotation) if s.isdigit() else s

    for p in track.get("paths", []):
        a, b = end(p["a"]), end(p["b"])
        for x, y in ((a, b), (b, a)):
            if isinstance(x, str) and x.startswith("j"):
                junctions.setdefault(x, []).append(y)
            elif not (isinstance(y, str) and y.startswith("j")):
                adj.setdefault(x, []).append(y)
    for ends in junctions.values():
        for x in ends:
            for y in ends:
                if x != y:
                    adj.setdefault(x, []).append(y)
    _CONNECTIVITY[key] = (track, adj)
    return adj


def _terminal_nodes(track: Mapping[str, Any]) -> set[str]:
    out: set[str] = set()
    for p in track.get("paths", []):
        if p.get("terminal"):
            for x in (str(p["a"]), str(p["b"])):
                if not x.isdigit():
                    out.add(x)
    return out


_KINDS: tuple[tuple[str, str, Kind], ...] = (
    ("c", "cities", "city"),
    ("t", "towns", "town"),
    ("o", "offboards", "offboard"),
)


def _stops_of(h: HexState, board: BoardState, corporation: str) -> list[tuple[str, Stop]]:
    out: list[tuple[str, Stop]] = []
    terminal = _terminal_nodes(h.track)
    label = h.track.get("label")
    base_tags = set(h.tags)
    if label:
        base_tags.add(str(label))
    for prefix, key, kind in _KINDS:
        for i, node in enumerate(h.track.get(key, []) or []):
            name = f"{prefix}{i}"
            group = node.get("group")
            tags = set(base_tags)
            if group:
                tags.add(str(group))
            token = False
            passable = kind != "offboard" or "pass_through" in h.tags
            if kind != "city" and not h.track.get("cities"):
                # a hex without cities holding a marker (a destination marker at an off-board's edge): its stops
                # are the company's token stops, as the interpreter's board.token_nodes has them
                token = any(corporation in holders for holders in h.tokens.values())
            if kind == "city":
                holders = list(h.tokens.get(i, ()))
                token = corporation in holders
                slots = h.slots.get(i, int(node.get("slots", 1)))
                if not token and slots > 0 and len(holders) >= slots:
                    passable = False
            if name in terminal:
                passable = False
            stop = Stop(
                key=f"{h.id}.{name}",
                hex=h.id,
                kind=kind,
                revenue=resolve_revenue(node.get("revenue", 0), board),
                group=str(group) if group else None,
                token=token,
                passable=passable,
                tags=frozenset(tags),
            )
            out.append((name, stop))
    return out


def build_graph(
    board: BoardState, corporation: str, marked: frozenset[str] = frozenset()
) -> tuple[list[Stop], list[Link], dict[str, int]]:
    """Stops reachable from the corporation's tokens, the links between them, and each hex's hexsides (bitset).

    A link over more track than another between the same stops is dropped, unless it passes a ``marked`` hex
    (a path bonus) the other does not.  The walks from a stop are cut as they are made: a walk that enters a hex
    by the same edge as an earlier walk from the same stop, over a superset of its hexsides (and past no marked hex
    it did not pass), can only end in links that the earlier walk's links dominate, so it is not followed.  (On a
    late map dense with plain track the number of walks grows exponentially; the links kept are the same.)  Walks
    are remembered only once a stop's walks pass ``CUT_AFTER`` steps: any walks may be remembered, as long as each
    one remembered is followed to its end, and most stops' walks are too few to be worth it.  Walks are made
    shortest first, and (without marked hexes) a walk leaving a hex by a way out it could have taken on an earlier
    visit is cut too: the walk that takes it is over fewer hexsides to the same ends.  The links are remembered for
    the last ``GRAPH_CACHE`` boards by their track (:func:`_geometry`): they do not depend on the corporation."""
    stops: list[Stop] = []
    index: dict[tuple[str, str], int] = {}
    for h in board.hexes.values():
        if not h.track:
            continue
        for name, stop in _stops_of(h, board, corporation):
            index[(h.id, name)] = len(stops)
            stops.append(stop)
    key = (marked, _geometry(board))
    hit = _GRAPHS.pop(key, None)
    if hit is None:
        hit = _links(board, index, marked)
        while _GRAPHS and len(_GRAPHS) >= GRAPH_CACHE:
            del _GRAPHS[next(iter(_GRAPHS))]
    if GRAPH_CACHE > 0:
        _GRAPHS[key] = hit  # the most recent last
    links, hex_sides = hit
    kept_stops, kept_links = _reachable(stops, links)
    return kept_stops, kept_links, dict(hex_sides)


def _geometry(board: BoardState) -> tuple[tuple[Any, ...], ...]:
    """What a board's links depend on: each hex with track, its tile (by identity), rotation and neighbours."""
    out = []
    for h in board.hexes.values():
        if h.track:
            serial = _TRACKS.get(id(h.track))
            if serial is None or serial[0] is not h.track:
                serial = _TRACKS[id(h.track)] = (h.track, len(_TRACKS))
            out.append((h.id, serial[1], h.rotation, tuple(h.neighbours.items())))
    return tuple(out)


def _links(
    board: BoardState, index: dict[tuple[str, str], int], marked: frozenset[str]
) -> tuple[list[Link], dict[str, int]]:
    """The undominated links between the stops ``index`` numbers, and each hex's hexsides (see :func:`build_graph`)."""
    side_ids: dict[tuple[str, int], int] = {}

    def side(hex_id: str, edge: int, other: str) -> int:
        k = (hex_id, edge)
        sid = side_ids.get(k)
        if sid is None:
            sid = side_ids[k] = side_ids[(other, opposite(edge))] = len(side_ids) // 2
        return sid

    for h in board.hexes.values():  # number every hexside first
        if h.track:
            for e, nb in h.neighbours.items():
                if nb in board.hexes and board.hexes[nb].track:
                    side(h.id, e, nb)
    n_sides = len(side_ids) // 2
    found: dict[tuple[int, int, int], Link] = {}

    def add(a: int, b: int, sides: int, hexes: list[str]) -> None:
        if a == b:
            return
        key = (a, b, sides) if a < b else (b, a, sides)
        if key not in found:  # the hexes are copied only for a new link
            found[key] = Link(key[0], key[1], sides, tuple(hexes) if a < b else tuple(reversed(hexes)))

    mark_bits = {h: 1 << i for i, h in enumerate(sorted(marked))}
    # per hex and edge entered: the hexsides of the walks from the current stop that entered there (with marked
    # hexes: (hexsides, marked hexes passed)), none dominated by another
    entered: dict[tuple[str, int], list[int]] = {}
    entered_marked: dict[tuple[str, int], list[tuple[int, int]]] = {}
    exit_ids: dict[tuple[str, int], int] = {}  # leaving a hex by an edge: its bit in a walk's ``avail``
    crossing: dict[tuple[str, int], tuple[str, int, int, int] | None] = {}
    inside: dict[tuple[str, Endpoint], tuple[tuple[int, ...], tuple[int, ...], int]] = {}

    def cross(at: str, edge: int) -> tuple[str, int, int, int] | None:
        """Crossing ``edge`` of ``at``: (the hex entered, its hexside's bit, the edge it is entered by, the bit of
        leaving ``at`` by ``edge``), or None where there is no track to enter."""
        nb = board.hexes[at].neighbours.get(edge)
        if nb is None or nb not in board.hexes or not board.hexes[nb].track:
            out = None
        else:
            out = (nb, 1 << side(at, edge, nb), opposite(edge), 1 << exit_ids.setdefault((at, edge), len(exit_ids)))
        crossing[(at, edge)] = out
        return out

    def within(hex_id: str, end: Endpoint) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """From ``end`` of ``hex_id`` along its tile: the stops reached, the edges to leave by, and the bits of
        leaving by them."""
        h = board.hexes[hex_id]
        reached: list[int] = []
        edges: list[int] = []
        mask = 0
        for y in connectivity(h.track, h.rotation).get(end, ()):
            if isinstance(y, str):
                j = index.get((hex_id, y))
                if j is not None:
                    reached.append(j)
            else:
                edges.append(y)
                mask |= 1 << exit_ids.setdefault((hex_id, y), len(exit_ids))
        out = inside[(hex_id, end)] = (tuple(reached), tuple(edges), mask)
        return out

    inner: dict[tuple[str, str, str], int] = {}  # track joining two stops inside one hex: its own "side"
    for (hex_id, name), a in index.items():
        entered.clear()
        entered_marked.clear()
        h = board.hexes[hex_id]
        for y in connectivity(h.track, h.rotation).get(name, ()):
            if isinstance(y, str):
                j = index.get((hex_id, y))
                if j is not None:
                    k = (hex_id, *sorted((name, y)))
                    if k not in inner:
                        inner[k] = n_sides + len(inner)
                    add(a, j, 1 << inner[k], [hex_id])
        # the walks of one length (hexsides crossed) from stop ``a``, each (hex, edge to leave it by, hexsides,
        # marked hexes passed, the walk's hexes as a chain (hex, earlier chain), ``avail``, ``here``); walks are
        # made shortest first, so a walk over a subset of another's hexsides is made before it.  ``avail`` has the
        # ways out of a hex the walk could have taken on its earlier visits, ``here`` those of the hex it is in.
        # A walk leaving a hex by a way it could have taken on an earlier visit is cut: skipping what lies between
        # is a walk over fewer hexsides to the same ends (without marked hexes only: the part skipped may pass one)
        _, edges, here = inside.get((hex_id, name)) or within(hex_id, name)
        start = (hex_id, ())
        level = [(hex_id, y, 0, mark_bits.get(hex_id, 0), start, 0, here) for y in edges]
        steps = 0
        while level:
            following: list[tuple[str, int, int, int, tuple[Any, ...], int, int]] = []
            for at, edge, sides, passed, chain, avail, here in level:
                c = crossing.get((at, edge), MISSING)
                if c is MISSING:
                    c = cross(at, edge)
                if c is None:
                    continue
                nb, bit, into, out = c
                if sides & bit:
                    continue
                sides |= bit
                if mark_bits:
                    passed |= mark_bits.get(nb, 0)
                elif avail & out:
                    continue
                avail |= here
                steps += 1
                if steps > CUT_AFTER:  # an earlier walk from this stop entered here over fewer hexsides: cut
                    if mark_bits:
                        marked_walks = entered_marked.get((nb, into))
                        if marked_walks is None:
                            entered_marked[(nb, into)] = [(sides, passed)]
                        else:
                            if any(s & sides == s and passed & m == passed for s, m in marked_walks):
                                continue
                            marked_walks.append((sides, passed))
                    else:
                        walks = entered.get((nb, into))
                        if walks is None:
                            entered[(nb, into)] = [sides]
                        else:
                            dominated = False
                            for s in walks:
                                if s & sides == s:
                                    dominated = True
                                    break
                            if dominated:
                                continue
                            walks.append(sides)
                here_chain = (nb, chain)
                reached, edges, mask = inside.get((nb, into)) or within(nb, into)
                for j in reached:
                    # a link to an earlier stop was found from that stop's walks (the same walks, reversed)
                    if j > a and (a, j, sides) not in found:  # the hexes are read off the chain only for a new link
                        found[(a, j, sides)] = Link(a, j, sides, tuple(_unchain(here_chain)))
                for y in edges:
                    following.append((nb, y, sides, passed, here_chain, avail, mask))
            level = following
    links = _undominated(list(found.values()), marked)
    hex_sides: dict[str, int] = {}
    for (hex_id, _edge), sid in side_ids.items():
        hex_sides[hex_id] = hex_sides.get(hex_id, 0) | (1 << sid)
    for (hex_id, _a, _b), sid in inner.items():
        hex_sides[hex_id] = hex_sides.get(hex_id, 0) | (1 << sid)
    return links, hex_sides


def _unchain(chain: tuple[Any, ...]) -> list[str]:
    """A walk's hexes, first to last, from its chain ``(last hex, (hex before, (...)))``."""
    out: list[str] = []
    while chain:
        out.append(chain[0])
        chain = chain[1]
    out.reverse()
    return out


def _undominated(links: list[Link], marked: frozenset[str] = frozenset()) -> list[Link]:
    """Drop a link when another joins the same stops over a subset of its hexsides (and passes every marked hex
    it passes)."""
    by_pair: dict[tuple[int, int], list[Link]] = {}
    for link in links:
        by_pair.setdefault((link.a, link.b), []).append(link)
    out: list[Link] = []
    for group in by_pair.values():
        group.sort(key=lambda lk: (lk.sides.bit_count(), lk.sides))
        kept: list[Link] = []
        if not marked:
            sets: list[int] = []
            for link in group:
                sides = link.sides
                for k in sets:
                    if k & sides == k:
                        break
                else:
                    sets.append(sides)
                    kept.append(link)
        else:
            for link in group:
                if not any(k.sides & link.sides == k.sides and marked & set(link.hexes) <= set(k.hexes) for k in kept):
                    kept.append(link)
        out.extend(kept)
    out.sort(key=lambda lk: (lk.a, lk.b, lk.sides))
    return out


def _reachable(stops: list[Stop], links: list[Link]) -> tuple[list[Stop], list[Link]]:
    """Keep the stops a route from a token stop can reach (only passable stops are passed through)."""
    adj: dict[int, list[int]] = {}
    for link in links:
        adj.setdefault(link.a, []).append(link.b)
        adj.setdefault(link.b, []).append(link.a)
    seen = {i for i, s in enumerate(stops) if s.token}
    todo = list(seen)
    while todo:
        i = todo.pop()
        if not (stops[i].passable or stops[i].token):
            continue
        for j in adj.get(i, ()):
            if j not in seen:
                seen.add(j)
                todo.append(j)
    keep = sorted(seen)
    renum = {old: new for new, old in enumerate(keep)}
    new_links = [Link(renum[lk.a], renum[lk.b], lk.sides, lk.hexes) for lk in links if lk.a in renum and lk.b in renum]
    return [stops[i] for i in keep], new_links


def build_problem(
    board: BoardState, corporation: str, trains: Sequence[TrainSpec], bonuses: Sequence[object] = ()
) -> Problem:
    """The optimisation problem for ``corporation`` running ``trains`` on ``board`` (built with the cycle collector
    paused: see :mod:`railbook.routes.gcpause`)."""
    was_on = pause_collector()
    try:
        route_bonuses, _ = split(bonuses)
        marked = frozenset(h for b in route_bonuses if isinstance(b, PathHex) for h in b.hexes)
        stops, links, hex_sides = build_graph(board, corporation, marked)
        return Problem(
            stops=stops,
            links=links,
            trains=list(trains),
            bonuses=list(bonuses),
            corporation=corporation,
            hex_sides=hex_sides,
            undominated=not marked,
        )
    finally:
        resume_collector(was_on)
