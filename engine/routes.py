"""Routes: rebuild a route from its hex chains, check it against the rules and compute its revenue.

A route is given as 18xx.games ``connections``: one hex chain per pair of consecutive stops (the chain's
direction is free).  :func:`rebuild` finds the track the chains describe; :func:`evaluate` checks a set
of routes run together by one corporation and scores them.  Pure functions of the board state — the
optimiser builds on :func:`stop_revenue`, :func:`score_stops` and :func:`check_distance`.

Rules checked (all generic, parameters from ``mechanics.routes``): at least two stops, one of them a city
holding the corporation's token; no stop twice; no track (hex edge) used twice by the corporation's
routes; no passing through an off-board or a city filled by other corporations' tokens; at most one stop
per stop group (``group`` of a city/off-board, e.g. Chicago, E); the train's distance.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import board
from .book import END_BITS, PATH_BITS, Node, Track
from .errors import illegal

if TYPE_CHECKING:
    from .cint import CInt
    from .context import Context
    from .state import HexState, Train

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from . import cython_shim as cython

NodeKey = tuple[str, str]
PathKey = tuple[str, int]


@dataclass
class Segment:
    """Track between two consecutive stops."""

    a: NodeKey
    b: NodeKey
    paths: list[PathKey]  # in order from a to b
    keys: frozenset[int] | None = None  # the track it occupies (filled by :func:`_edge_keys`)
    reverse: Segment | None = field(default=None, repr=False, compare=False)  # the same track from b to a


@dataclass
class Route:
    train: str
    stops: list[NodeKey]
    segments: list[Segment]
    counted: list[NodeKey] = field(default_factory=list)
    revenue: int = 0
    #: what the route bonuses see of its stops, with the board version it was read at (kept by whoever scores it)
    views: tuple[int, list[Any]] | None = field(default=None, repr=False, compare=False)

    def __init__(
        self,
        train: str,
        stops: list[NodeKey],
        segments: list[Segment],
        counted: list[NodeKey] | None = None,
        revenue: int = 0,
        views: tuple[int, list[Any]] | None = None,
    ) -> None:
        # (written out: the compiled build's generated __init__ would import the dataclasses module again for each
        # field with a default_factory, on every call)
        self.train = train
        self.stops = stops
        self.segments = segments
        self.counted = [] if counted is None else counted
        self.revenue = revenue
        self.views = views

    @property
    def paths(self) -> list[PathKey]:
        return [p for s in self.segments for p in s.paths]


# --------------------------------------------------------------------------------------- rebuild


def _segments(g: Context, chain: list[str]) -> list[Segment]:
    """Every node-to-node track walk that passes exactly the hexes of ``chain`` (cached while those hexes keep
    their tiles: the cache holds the hexes' states the walk read, and a lay puts a new state on its hex; treat the
    segments as read-only)."""
    state = g.state.hexes
    cache = g.table("route_segments")  # a chain as given -> (its hexes, their states when walked, the segments)
    key = tuple(chain)
    hit = cache.get(key)
    if hit is not None:
        hexes: list[str] = hit[0]
        seen: list[HexState] = hit[1]
        for i in range(len(hexes)):
            if state[hexes[i]] is not seen[i]:
                break
        else:
            return hit[2]  # type: ignore[no-any-return]
    book = g.book
    hexes = []
    for given in chain:
        h = str(given).split()[0]
        if h not in book.hexes:
            raise illegal("route.hex", f"no hex {h} on the map")
        hexes.append(h)
    found = _walk_segments(g, hexes)
    cache[key] = (hexes, [state[h] for h in hexes], found)
    return found


def _walk_segments(g: Context, hexes: list[str]) -> list[Segment]:
    out: list[Segment] = []
    tracks: list[Track] = [board.track(g, h) for h in hexes]
    t0: Track = tracks[0]
    first = hexes[0]
    for ni, name in enumerate(t0.node_list):
        if t0.nodes[name].kind == "junction":
            continue
        for pi in t0.node_paths_l[ni]:
            _extend(g, hexes, tracks, 0, (first, name), pi, 8 + ni, [], out, set())
    return out


def _extend(
    g: Context,
    hexes: list[str],
    tracks: list[Track],
    i: int,
    start: NodeKey,
    pi: int,
    entered: int,
    paths: list[PathKey],
    out: list[Segment],
    seen: set[int],
) -> None:
    """Walk on from path ``pi`` of ``hexes[i]`` entered at ``entered`` (an end of the track's compact tables: an
    edge 0-5 or 8 + a node's index); ``paths`` and ``seen`` hold the walk so far (extended on the way in, restored
    on the way out)."""
    h = hexes[i]
    t: Track = tracks[i]
    walked: list[PathKey] = paths
    barred: set[int] = seen
    # C integers in compiled builds (railbook.engine.cint); a state packed as the board's walk packs it, with the
    # hex's place in the chain for the hex's index
    at: CInt = i
    path: CInt = pi
    came: CInt = entered
    a: CInt
    b: CInt
    other: CInt
    pj: CInt
    back: CInt
    into: list[int]
    path_bits: CInt = PATH_BITS
    end_bits: CInt = END_BITS
    state: CInt = (((at << path_bits) | path) << end_bits) | came
    if state in barred:
        return
    a = t.end_a[path]
    b = t.end_b[path]
    other = b if came == a else a
    barred.add(state)
    walked.append((h, path))
    last: CInt = len(hexes) - 1
    if other >= 8:
        name = t.node_list[other - 8]
        if t.nodes[name].kind == "junction":
            into = t.node_paths_l[other - 8]
            for pj in into:
                if pj != path:
                    _extend(g, hexes, tracks, at, start, pj, other, walked, out, barred)
        elif at == last and (h, name) != start:
            out.append(Segment(start, (h, name), list(walked)))
    elif at != last:
        nbrs: dict[int, str] = g.book.neighbours[h]
        nb = nbrs.get(other)
        if nb is not None and nb == hexes[at + 1]:
            back = (other + 3) % 6
            following: Track = tracks[at + 1]
            into = following.edge_paths_l[back]
            for pj in into:
                _extend(g, hexes, tracks, at + 1, start, pj, back, walked, out, barred)
    walked.pop()
    barred.discard(state)  # (a state is barred only on the walk that holds it: another walk may pass it too)


def _reverse(s: Segment) -> Segment:
    """The segment walked the other way (made once: segments are cached with the board's tiles)."""
    rev = s.reverse
    if rev is None:
        rev = s.reverse = Segment(s.b, s.a, list(reversed(s.paths)), s.keys)
        rev.reverse = s
    return rev


def _edge_keys(g: Context, seg: Segment) -> frozenset[int]:
    """Keys of the track a segment occupies (two routes of one corporation may not share any)."""
    if seg.keys is None:
        seg.keys = frozenset(_track_keys(g, seg))
    return seg.keys


def _track_keys(g: Context, seg: Segment) -> list[int]:
    """The track a segment occupies, as numbers: per hex, each edge its paths leave by (``hex index << 7 | edge``)
    and each path with a stop at both ends (``hex index << 7 | 64 | path``: PATH_BITS keeps a path under 64)."""
    keys = []
    index: dict[str, int] = g.book.hex_index
    t: Track
    a: CInt
    b: CInt
    base: CInt
    for h, pi in seg.paths:
        t = board.track(g, h)
        a, b = t.ends[pi]  # (an edge 0-5, or 8 + a node's index)
        base = index[h] << 7
        if a < 8:
            keys.append(base | a)
        if b < 8:
            keys.append(base | b)
        if a >= 8 and b >= 8:
            keys.append(base | 64 | pi)
    return keys


def rebuild(g: Context, corp_key: str, train: str, chains: list[list[str]], used: set[int]) -> Route:
    """The route a train's connections describe, avoiding track in ``used`` (other routes' track)."""
    if not chains:
        raise illegal("route.empty", f"train {train} has no connections")
    options: list[list[Segment]] = []
    for chain in chains:
        if not isinstance(chain, list) or len(chain) < 1:
            raise illegal("route.malformed", f"bad connection {chain!r}")
        segs = [s for s in _segments(g, chain) if _edge_keys(g, s).isdisjoint(used)]
        if not segs:
            raise illegal("route.track", f"no track joins {'-'.join(map(str, chain))} for train {train}")
        options.append(segs)
    if len(options) == 1:
        segs = options[0]
        tokened = [s for s in segs if _tokened(g, s.a, corp_key) or _tokened(g, s.b, corp_key)]
        seg = (tokened or segs)[0]
        return Route(train, [seg.a, seg.b], [seg])
    found = _assemble(g, options, used)
    if found is None:
        raise illegal("route.track", f"the connections of train {train} do not form one route")
    stops = [found[0].a] + [s.b for s in found]
    return Route(train, stops, found)


#: the most hexes a walk between two stops of an older record's route may cross (see :func:`rebuild_from_stops`)
STOP_WALK_LIMIT = 16


@cython.locals(g="Context")
def rebuild_from_stops(g: Context, corp_key: str, train: str, stops: list[str], used: set[int]) -> Route:
    """The route through the stops in the hexes ``stops`` (older 18xx.games records give only these, in order):
    between each two, any track walk through hexes holding no other stop of the route, avoiding ``used``."""
    if len(stops) < 2:
        raise illegal("route.stops", f"train {train} has fewer than two stops")
    for h in stops:
        if h not in g.book.hexes:
            raise illegal("route.hex", f"no hex {h} on the map")
    options: list[list[Segment]] = []
    for a, b in itertools.pairwise(stops):
        segs = [
            seg
            for chain in _hex_walks(g, a, b, set(stops))
            for seg in _segments(g, chain)
            if _edge_keys(g, seg).isdisjoint(used)
        ]
        if not segs:
            raise illegal("route.track", f"no track joins {a}-{b} for train {train}")
        options.append(segs)
    if len(options) == 1:
        return _single(g, corp_key, train, options[0])
    found = _assemble(g, options, used)
    if found is None:
        raise illegal("route.track", f"the stops {'-'.join(stops)} of train {train} do not form one route")
    return Route(train, [found[0].a] + [s.b for s in found], found)


@cython.locals(g="Context")
def _single(g: Context, corp_key: str, train: str, segs: list[Segment]) -> Route:
    tokened = [s for s in segs if _tokened(g, s.a, corp_key) or _tokened(g, s.b, corp_key)]
    seg = (tokened or segs)[0]
    return Route(train, [seg.a, seg.b], [seg])


def _hex_walks(g: Context, a: str, b: str, stops: set[str]) -> list[list[str]]:
    """Every chain of hexes from ``a`` to ``b`` that track joins edge to edge, through no other hex of ``stops``."""
    if a == b:
        return [[a]]
    out: list[list[str]] = []
    nbrs = g.book.neighbours

    def walk(path: list[str]) -> None:
        h = path[-1]
        for e in sorted(board.track(g, h).exits):
            nb = nbrs[h].get(e)
            if nb is None or nb in path or (e + 3) % 6 not in board.track(g, nb).exits:
                continue
            if nb == b:
                out.append([*path, nb])
            elif nb not in stops and len(path) < STOP_WALK_LIMIT:
                path.append(nb)
                walk(path)
                path.pop()

    walk([a])
    return out


def _assemble(g: Context, options: list[list[Segment]], used: set[int]) -> list[Segment] | None:
    """One segment of each chain's ``options``, each oriented to start where the one before ends, using no track
    twice and no stop twice (the options already avoid ``used``, the track of the other routes)."""
    # each chain's segments both ways round, and the stops each chain's segments end at (built once, not per try)
    oriented = [[s for seg in segs for s in (seg, _reverse(seg))] for segs in options]
    ends = [{n for o in segs for n in (o.a, o.b)} for segs in options]
    acc: list[Segment] = []
    if _search(g, oriented, ends, 0, acc, set(), set()):
        return acc
    return None


def _search(
    g: Context,
    oriented: list[list[Segment]],
    ends: list[set[NodeKey]],
    i: int,
    acc: list[Segment],
    taken: set[int],
    nodes: set[NodeKey],
) -> bool:
    """Extend ``acc`` (segments of chains before ``i``, their track in ``taken`` and their stops in ``nodes``) to a
    whole route; on failure the three are as they were."""
    if i == len(oriented):
        return True
    last = i + 1 == len(oriented)
    for seg in oriented[i]:
        if acc and seg.a != acc[-1].b:
            continue
        if not last and seg.b not in ends[i + 1]:
            continue
        keys = _edge_keys(g, seg)
        if not keys.isdisjoint(taken):
            continue
        if seg.b in nodes:  # (``nodes`` is empty before the first segment)
            continue
        new_nodes = (seg.b,) if acc else (seg.a, seg.b)
        taken.update(keys)
        nodes.update(new_nodes)
        acc.append(seg)
        if _search(g, oriented, ends, i + 1, acc, taken, nodes):
            return True
        acc.pop()
        taken.difference_update(keys)
        nodes.difference_update(new_nodes)
    return False


def _tokened(g: Context, node: NodeKey, corp_key: str) -> bool:
    """A station of ``corp_key`` at this stop: a token in its city, or a marker on a hex without cities (a
    destination marker placed at an off-board's edge)."""
    h, n = node
    if not n.startswith("c"):
        return not board.track(g, h).cities and board.hex_tokened_by(g, h, corp_key)
    return board.tokened_by(g, h, board.city_index(n), corp_key)


# ----------------------------------------------------------------------------------------- checks


def node_info(g: Context, node: NodeKey) -> Node:
    t: Track = board.track(g, node[0])
    return t.nodes[node[1]]


def stop_revenue(g: Context, node: NodeKey, phase: int | None = None) -> int:
    info = node_info(g, node)
    return g.book.revenue_of(info.revenue, g.state.phase if phase is None else phase)


def distance_of(g: Context, train_id: str) -> list[dict[str, Any]]:
    t: Train = g.state.trains[train_id]
    spec = g.book.trains[t.sym]
    if t.name != t.sym:
        for v in spec.get("variants") or []:
            if v["name"] == t.name:
                return v["distance"]
    return spec["distance"]


def _is_simple(distance: list[dict[str, Any]]) -> bool:
    if len(distance) != 1:
        return False
    d = distance[0]
    return (
        set(d.get("nodes") or ["city", "town", "offboard"]) >= {"city", "town", "offboard"} and d["visit"] == d["pay"]
    )


def check_distance(distance: list[dict[str, Any]], kinds: list[str]) -> bool:
    """Whether stops of these kinds fit the train's visit limits."""
    rows = [{"nodes": d.get("nodes") or ["city", "town", "offboard"], "visit": d["visit"]} for d in distance]
    by_kind: dict[str, int] = {}
    for k in kinds:
        by_kind[k] = by_kind.get(k, 0) + 1
    covering = {k: [r for r in rows if k in r["nodes"]] for k in by_kind}
    for k in sorted(by_kind, key=lambda k: len(covering[k])):
        num = by_kind[k]
        for r in covering[k]:
            cap = r["visit"]
            if cap == "unlimited":
                num = 0
                break
            if cap <= 0:
                continue
            take = min(cap, num)
            r["visit"] = cap - take
            num -= take
            if num == 0:
                break
        if num > 0:
            return False
    return True


def _fits(distance: list[dict[str, Any]], kinds: list[str]) -> bool:
    rows = sorted(distance, key=lambda d: len(d.get("nodes") or ["city", "town", "offboard"]))
    used = [0] * len(rows)
    for k in kinds:
        for i, d in enumerate(rows):
            pay = d["pay"]
            if k in (d.get("nodes") or ["city", "town", "offboard"]) and (pay == "unlimited" or used[i] < pay):
                used[i] += 1
                break
        else:
            return False
    return True


def evaluate(g: Context, corp_key: str, specs: list[dict[str, Any]]) -> list[Route]:
    """Rebuild, check and score the routes a corporation runs in one turn."""
    routes: list[Route] = []
    used: set[int] = set()
    seen_trains = set()
    owner_trains = set(g.entity_trains(corp_key))
    for spec in specs:
        if not isinstance(spec, dict) or "train" not in spec:
            raise illegal("route.malformed", f"bad route {spec!r}")
        train = str(spec["train"])
        if train not in g.state.trains:
            raise illegal("route.train", f"no train {train}")
        if train not in owner_trains:
            raise illegal("route.train", f"train {train} does not belong to {corp_key[2:]}")
        if train in seen_trains:
            raise illegal("route.train", f"train {train} runs twice")
        seen_trains.add(train)
        if g.state.trains[train].operated:
            raise illegal("route.train", f"train {train} has already run")
        chains = spec.get("connections") or []
        if not chains and spec.get("hexes"):  # an older record: only the stops' hexes, in order
            route = rebuild_from_stops(g, corp_key, train, [str(h) for h in spec["hexes"]], used)
        else:
            route = rebuild(g, corp_key, train, chains, used)
        check_route(g, corp_key, route)
        for seg in route.segments:
            used.update(_edge_keys(g, seg))
        routes.append(route)
    for route in routes:
        score_route(g, corp_key, route, routes)
    return routes


def check_route(g: Context, corp_key: str, route: Route) -> None:
    stops = route.stops
    if len(stops) < 2:
        raise illegal("route.stops", "a route needs at least two stops")
    if len(set(stops)) != len(stops):
        raise illegal("route.repeat", f"train {route.train} visits a stop twice")
    for s in stops:
        if _tokened(g, s, corp_key):
            break
    else:
        raise illegal("route.token", f"train {route.train}'s route has no {corp_key[2:]} station")
    infos = [node_info(g, s) for s in stops]  # (each stop's node looked up once for the checks below)
    info: Node
    for i in range(1, len(stops) - 1):
        mid, info = stops[i], infos[i]
        if board.node_blocks(g, mid[0], mid[1], corp_key, info.kind):
            raise illegal("route.blocked", f"train {route.train} cannot pass through {mid[0]}")
    groups: dict[str, int] = {}
    for info in infos:
        grp = info.group
        if grp:
            groups[grp] = groups.get(grp, 0) + 1
            if groups[grp] > 1:
                raise illegal("route.group", f"train {route.train} visits {grp} more than once")
    g.hooks("check_route", corp_key, route)
    if not _distance_fits(g, route.train, tuple([info.kind for info in infos])):
        raise illegal("route.distance", f"train {route.train} ({g.state.trains[route.train].name}) is too short")
    for seg in route.segments:
        paths = seg.paths
        for k in range(1, len(paths) - 1):  # (a terminal may only be where a segment starts or ends)
            h, pi = paths[k]
            if board.track(g, h).paths[pi].terminal and paths[k] != paths[0] and paths[k] != paths[-1]:
                raise illegal("route.terminal", f"train {route.train} passes a terminal on {h}")


def _distance_fits(g: Context, train_id: str, kinds: tuple[str, ...]) -> bool:
    """:func:`check_distance` for a train of the game (answers kept per train type and face: they read the book
    alone)."""
    t: Train = g.state.trains[train_id]
    kept: dict[tuple, bool] = g.table("distance_fits")
    key = (t.sym, t.name, kinds)
    found = kept.get(key)
    if found is None:
        found = kept[key] = check_distance(_train_distance(g, train_id)[0], list(kinds))
    return found


# ----------------------------------------------------------------------------------------- revenue


def _train_distance(g: Context, train_id: str) -> tuple[list[dict[str, Any]], bool]:
    """:func:`distance_of` a train and whether it counts every stop it visits (kept per train type and face: both
    read the book alone)."""
    t: Train = g.state.trains[train_id]
    kept: dict[tuple[str, str], tuple[list[dict[str, Any]], bool]] = g.table("train_distances")
    found = kept.get((t.sym, t.name))
    if found is None:
        distance = distance_of(g, train_id)
        found = kept[(t.sym, t.name)] = (distance, _is_simple(distance))
    return found


@cython.locals(g="Context", route="Route")
def score_route(g: Context, corp_key: str, route: Route, routes: list[Route]) -> None:
    distance, simple = _train_distance(g, route.train)
    stops = route.stops
    if simple:
        route.counted = list(stops)
        route.revenue = score_stops(g, corp_key, route, stops, routes)
        return
    max_pay = sum(10**6 if d["pay"] == "unlimited" else d["pay"] for d in distance)
    kinds = {s: node_info(g, s).kind for s in stops}
    values = {s: stop_revenue(g, s) for s in stops}
    tokened = {s for s in stops if _tokened(g, s, corp_key)}
    fits: dict[tuple[str, ...], bool] = {}
    for k in range(min(max_pay, len(stops)), 0, -1):
        best = None
        best_rev = None
        for combo in itertools.combinations(stops, k):
            if tokened.isdisjoint(combo):
                continue
            combo_kinds = tuple(kinds[s] for s in combo)
            fit = fits.get(combo_kinds)
            if fit is None:
                fit = fits[combo_kinds] = _fits(distance, list(combo_kinds))
            if not fit:
                continue
            rev = score_stops(g, corp_key, route, list(combo), routes, values)
            if best_rev is None or rev > best_rev:
                best, best_rev = list(combo), rev
        if best is not None and best_rev and best_rev > 0:
            route.counted = best
            route.revenue = best_rev
            return
    route.counted = []
    route.revenue = 0


def score_stops(
    g: Context,
    corp_key: str,
    route: Route,
    stops: list[NodeKey],
    routes: list[Route],
    values: Mapping[NodeKey, int] | None = None,
) -> int:
    """Revenue of a train counting ``stops`` (stop values, read from ``values`` when given, plus the title's route
    bonuses)."""
    base = 0
    if values is not None:
        for s in stops:
            base += values[s]
    else:
        for s in stops:
            base += stop_revenue(g, s)
    return base + g.hooks("route_bonus", corp_key, route, stops, routes)


def round_revenue(g: Context) -> int:
    """The revenue of the routes run this turn (0 before the routes are run)."""
    total = 0
    for r in g.state.round.data.get("routes") or []:
        total += r["revenue"]
    return total
