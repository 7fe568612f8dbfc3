"""Score given routes (as 18xx.games ``connections``) on a problem's graph, with the optimiser's rules.

Used to compare a recorded run with the optimum, and to explain where a recorded route breaks a rule of
the model. Each connection (a hex chain between two consecutive stops) is matched to a link of the
graph; a route's stops must then form a path the optimiser could have produced.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Any

from railbook.engine.bonuses import PathHex, split

from railbook.errors import RailbookError

from .model import Problem
from .revenue import best_counted, kind_counts


class RouteError(RailbookError, ValueError):
    """A recorded route that the model does not accept."""


def _candidates(problem: Problem, chain: Sequence[str]) -> list[tuple[int, int, int]]:
    """(link, from stop, to stop) for links whose hexes are exactly ``chain`` (either direction)."""
    chain = [str(h).split()[0] for h in chain]
    out = []
    for lid, link in enumerate(problem.links):
        if list(link.hexes) == chain:
            out.append((lid, link.a, link.b))
        elif list(reversed(link.hexes)) == chain:
            out.append((lid, link.b, link.a))
    return out


def route_stops(problem: Problem, connections: Sequence[Sequence[str]], used: int) -> tuple[list[int], int]:
    """The stop sequence and hexsides of one recorded route (avoiding hexsides in ``used``)."""
    options = [_candidates(problem, c) for c in connections]
    for i, opts in enumerate(options):
        if not opts:
            raise RouteError(f"no track of the model joins {'-'.join(map(str, connections[i]))}")
    for combo in product(*options):
        for flip in (False, True):
            seq: list[tuple[int, int]] = [(a, b) for _, a, b in combo]
            if flip:
                seq = [(b, a) for a, b in seq]
            # consecutive connections share a stop; find the orientation that chains them
            stops = _chain(seq)
            if stops is None:
                continue
            sides = 0
            ok = True
            for lid, _, _ in combo:
                s = problem.links[lid].sides
                if s & sides or s & used:
                    ok = False
                    break
                sides |= s
            if ok and len(set(stops)) == len(stops):
                return stops, sides
    raise RouteError(f"connections {connections} do not form one route in the model")


def _chain(pairs: list[tuple[int, int]]) -> list[int] | None:
    if len(pairs) == 1:
        return list(pairs[0])
    for start_flip in (False, True):
        a, b = pairs[0][::-1] if start_flip else pairs[0]
        stops = [a, b]
        ok = True
        for x, y in pairs[1:]:
            if x == stops[-1]:
                stops.append(y)
            elif y == stops[-1]:
                stops.append(x)
            elif len(stops) == 2 and x == stops[0]:
                stops = [stops[1], stops[0], y]
            elif len(stops) == 2 and y == stops[0]:
                stops = [stops[1], stops[0], x]
            else:
                ok = False
                break
        if ok:
            return stops
    return None


def score_recorded(problem: Problem, routes: Sequence[dict[str, Any]]) -> tuple[int, list[str]]:
    """Total the model gives the recorded routes, and one note per route it rejects or scores."""
    route_bonuses, set_bonuses = split(problem.bonuses)
    for b in route_bonuses:
        prepare = getattr(b, "prepare", None)
        if prepare:
            prepare(problem.stops)
    trains = {t.id: t for t in problem.trains}
    used = 0
    total = 0
    notes: list[str] = []
    extras: list[list[int]] = []
    for r in routes:
        train = trains.get(str(r["train"]))
        if train is None:
            notes.append(f"{r['train']}: not a train of the problem")
            continue
        try:
            stops, sides = route_stops(problem, r.get("connections") or [], used)
        except RouteError as exc:
            notes.append(f"{r['train']}: {exc}")
            continue
        used |= sides
        st = problem.stops
        problems = []
        if not any(st[s].token for s in stops):
            problems.append("no token city")
        for mid in stops[1:-1]:
            if not st[mid].passable:
                problems.append(f"passes {st[mid].key}")
        groups = [st[s].group for s in stops if st[s].group]
        if len(groups) != len(set(groups)):
            problems.append("group twice")
        if not train.fits_visit(*kind_counts([st[s] for s in stops], train.no_towns)):
            problems.append("too long")
        rev, counted = best_counted(train, stops, st, route_bonuses)
        passed = {h for h, mask in problem.hex_sides.items() if mask & sides}
        rev += sum(b.passed_value(passed) for b in route_bonuses if isinstance(b, PathHex))
        visited = [st[s] for s in stops]
        extras.append([b.route_value([st[s] for s in counted], visited) for b in set_bonuses])
        total += rev
        path = "-".join(st[s].key for s in stops)
        notes.append(f"{r['train']}: {path} = {rev}" + (f" ({', '.join(problems)})" if problems else ""))
    total += sum(max((e[b] for e in extras), default=0) for b in range(len(set_bonuses)))
    return total, notes
