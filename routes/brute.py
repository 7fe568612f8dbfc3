"""An obviously-correct (and slow) reference: every route, every subset, every combination.

It walks tile paths on the :class:`~railbook.routes.network.BoardState` directly (not the optimiser's
link graph), counts stops by trying every subset and every assignment to distance rows, and tries
every combination of routes. Only for small boards in tests.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations, product
from typing import Any

from railbook.engine.bonuses import RouteBonus, SetBonus, split

from railbook.hexgrid import opposite

from .model import Stop, TrainSpec
from .network import BoardState, _stops_of, connectivity

BruteRoute = tuple[tuple[str, ...], frozenset[tuple[str, Any]]]  # stop keys in order, hexsides used


def all_routes(board: BoardState, corporation: str) -> tuple[dict[str, Stop], list[BruteRoute]]:
    """Every walk along track from stop to stop: no hexside twice, no stop twice, pass only passable stops."""
    stops: dict[str, Stop] = {}
    for h in board.hexes.values():
        if h.track:
            for _name, stop in _stops_of(h, board, corporation):
                stops[stop.key] = stop
    routes: set[BruteRoute] = set()

    def side(hex_id: str, edge: int) -> tuple[str, int]:
        other = board.hexes[hex_id].neighbours[edge]
        return min((hex_id, edge), (other, opposite(edge)))

    def at_stop(key: str, seq: tuple[str, ...], used: frozenset[tuple[str, int]]) -> None:
        seq = (*seq, key)
        if len(seq) >= 2:
            canon = min(seq, seq[::-1])
            routes.add((canon, used))
        if len(seq) >= 2 and not stops[key].passable:
            return
        hex_id, node = key.split(".")
        h = board.hexes[hex_id]
        for y in connectivity(h.track, h.rotation).get(node, ()):
            if isinstance(y, str):  # track joining two stops of one hex is used like a hexside
                inner = (hex_id, "|".join(sorted((node, y))))
                if inner in used:
                    continue
                step(hex_id, y, seq, used | {inner})
            else:
                step(hex_id, y, seq, used)

    def step(hex_id: str, y: Any, seq: tuple[str, ...], used: frozenset[tuple[str, int]]) -> None:
        if isinstance(y, str):
            key = f"{hex_id}.{y}"
            if key in stops and key not in seq:
                at_stop(key, seq, used)
            return
        h = board.hexes[hex_id]
        nb = h.neighbours.get(y)
        if nb is None or nb not in board.hexes or not board.hexes[nb].track:
            return
        s = side(hex_id, y)
        if s in used:
            return
        n = board.hexes[nb]
        for z in connectivity(n.track, n.rotation).get(opposite(y), ()):
            step(nb, z, seq, used | {s})

    for key in stops:
        at_stop(key, (), frozenset())
    return stops, sorted(routes, key=lambda r: (r[0], sorted(r[1])))


def _assignable(train: TrainSpec, chosen: Sequence[Stop], cap: str) -> bool:
    """Try every assignment of the stops to the train's rows."""
    rows = train.rows
    for choice in product(range(len(rows)), repeat=len(chosen)):
        load = [0] * len(rows)
        ok = True
        for stop, r in zip(chosen, choice, strict=True):
            if stop.kind not in rows[r].kinds:
                ok = False
                break
            load[r] += 1
        if ok and all(load[i] <= getattr(rows[i], cap) for i in range(len(rows))):
            return True
    return False


def route_value(
    train: TrainSpec, visited: Sequence[Stop], route_bonuses: Sequence[RouteBonus], corporation_has_token: bool
) -> int | None:
    """Best revenue of one route for one train, or None when the train may not run it."""
    groups = [s.group for s in visited if s.group]
    if len(groups) != len(set(groups)) or not corporation_has_token:
        return None
    eligible = [s for s in visited if not (train.no_towns and s.kind == "town")]
    if not _assignable(train, eligible, "visit"):
        return None
    best: int | None = None
    for size in range(len(eligible), 0, -1):
        for chosen in combinations(eligible, size):
            if train.requires_token and not any(s.token for s in chosen):
                continue
            if not _assignable(train, chosen, "pay"):
                continue
            v = sum(s.revenue for s in chosen) * train.multiplier
            v += sum(b.value(list(chosen), list(visited)) for b in route_bonuses)
            best = v if best is None else max(best, v)
    return best if best is not None else 0


def brute_force(
    board: BoardState, corporation: str, trains: Sequence[TrainSpec], bonuses: Sequence[Mapping[str, Any] | object] = ()
) -> int:
    """The best total by trying everything."""
    route_bonuses, set_bonuses = split(bonuses)
    stops, routes = all_routes(board, corporation)
    for b in route_bonuses:
        prepare = getattr(b, "prepare", None)
        if prepare:
            prepare(list(stops.values()))
    per_train: list[list[tuple[int, frozenset[tuple[str, int]], tuple[int, ...]]]] = []
    for train in trains:
        options = []
        for seq, used in routes:
            visited = [stops[k] for k in seq]
            token = any(s.token and s.kind == "city" for s in visited)
            v = route_value(train, visited, route_bonuses, token)
            if v is None:
                continue
            extra = tuple(_set_value(b, train, visited, route_bonuses) for b in set_bonuses)
            options.append((v, used, extra))
        per_train.append(options)
    best = 0

    def rec(i: int, used: frozenset[tuple[str, int]], total: int, extras: list[tuple[int, ...]]) -> None:
        nonlocal best
        if i == len(trains):
            value = total + sum(max((e[b] for e in extras), default=0) for b in range(len(set_bonuses)))
            best = max(best, value)
            return
        rec(i + 1, used, total, extras)
        for v, sides, extra in per_train[i]:
            if not (sides & used):
                rec(i + 1, used | sides, total + v, [*extras, extra])

    rec(0, frozenset(), 0, [])
    return best


def _set_value(b: SetBonus, train: TrainSpec, visited: Sequence[Stop], route_bonuses: Sequence[RouteBonus]) -> int:
    return b.route_value([], list(visited))
