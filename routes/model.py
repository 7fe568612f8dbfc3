"""The route problem as plain data: stops, track links between them, trains, and the answer.

A :class:`Problem` is what the optimiser solves. It knows nothing about games: the board adapters
(``network.py``) and the game adapter (``adapter.py``) build it, and tests can write one by hand.

Track is counted in *hexsides*: a route that crosses the side between two hexes uses that side, and no
two routes of one corporation (nor one route twice) may use the same side. Each side is one bit of a
Python int, so "shares track" is ``a & b``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Literal

Kind = Literal["city", "town", "offboard"]
KINDS: tuple[Kind, ...] = ("city", "town", "offboard")
UNLIMITED = 10_000


@dataclass(frozen=True)
class Stop:
    """A revenue location: a city, a town or an off-board area (one node of one hex)."""

    key: str  # "E11.c0"
    hex: str
    kind: Kind
    revenue: int  # in force for the current phase
    group: str | None = None  # at most one stop of a group per route (Chicago, E off-boards)
    token: bool = False  # holds a token of the corporation that runs
    passable: bool = True  # may be passed through (False: off-board, or a city full of others' tokens)
    tags: frozenset[str] = frozenset()  # label, icons, hex tags, group: what bonuses select stops by


@dataclass(frozen=True)
class Link:
    """One stretch of track between two stops that passes no other stop."""

    a: int
    b: int
    sides: int  # bitset of hexsides used
    hexes: tuple[str, ...]  # hexes from a's hex to b's hex, both included


@dataclass(frozen=True)
class Row:
    """One line of a train's distance: how many stops of these kinds it may visit and count."""

    kinds: frozenset[str]
    visit: int
    pay: int


@dataclass(frozen=True)
class TrainSpec:
    """A train as the optimiser needs it: an id to report and its distance rows."""

    id: str
    name: str
    rows: tuple[Row, ...]
    multiplier: int = 1
    no_towns: bool = False
    requires_token: bool = True  # the counted stops must include a token city

    @property
    def kind_key(self) -> tuple[object, ...]:
        """Trains with the same key run the same routes for the same revenue."""
        return (self.rows, self.multiplier, self.no_towns, self.requires_token)

    @property
    def visit_total(self) -> int:
        return min(UNLIMITED, sum(r.visit for r in self.rows))

    @property
    def pay_total(self) -> int:
        return min(UNLIMITED, sum(r.pay for r in self.rows))

    def fits_visit(self, cities: int, towns: int, offboards: int) -> bool:
        """May a route visit this many stops of each kind?"""
        return _fits(tuple((r.kinds, r.visit) for r in self.rows), cities, 0 if self.no_towns else towns, offboards)

    def fits_pay(self, cities: int, towns: int, offboards: int) -> bool:
        """May this many stops of each kind all count?"""
        return _fits(tuple((r.kinds, r.pay) for r in self.rows), cities, 0 if self.no_towns else towns, offboards)


@lru_cache(maxsize=65536)
def _fits(rows: tuple[tuple[frozenset[str], int], ...], cities: int, towns: int, offboards: int) -> bool:
    """Hall's condition for assigning stops to rows with capacities (exact for this transport problem)."""
    need = {"city": cities, "town": towns, "offboard": offboards}
    kinds = [k for k in KINDS if need[k]]
    for size in range(1, len(kinds) + 1):
        for subset in combinations(kinds, size):
            demand = sum(need[k] for k in subset)
            capacity = sum(cap for ks, cap in rows if ks.intersection(subset))
            if demand > capacity:
                return False
    return True


@dataclass
class Problem:
    """Everything one optimisation needs. ``bonuses`` are objects from ``bonuses.py``."""

    stops: list[Stop]
    links: list[Link]
    trains: list[TrainSpec]
    bonuses: list[object] = field(default_factory=list)
    corporation: str = ""
    hex_sides: dict[str, int] = field(default_factory=dict)  # hex -> bitset of its hexsides (path bonuses)
    # no link's hexsides include another's between the same two stops (build_problem's links without marked hexes):
    # the solver need not look for dominated ones
    undominated: bool = False


@dataclass(frozen=True)
class Route:
    """A chosen route: its stops in order, the links between them, what it earns."""

    train: str
    stops: tuple[int, ...]
    links: tuple[int, ...]
    revenue: int
    counted: tuple[int, ...] = ()


@dataclass
class Solution:
    """The best route set: one route (or none) per train, and the total."""

    total: int
    routes: list[Route]
    stats: dict[str, float] = field(default_factory=dict)

    def describe(self, problem: Problem) -> list[dict[str, object]]:
        """The routes as plain data: ``{train, stops, nodes, hexes, connections, revenue}`` (``connections``: the hex
        chains between consecutive stops, as a ``run_routes`` action gives them)."""
        out: list[dict[str, object]] = []
        for route in self.routes:
            out.append(
                {
                    "train": route.train,
                    "stops": [problem.stops[s].hex for s in route.stops],
                    "nodes": [problem.stops[s].key for s in route.stops],
                    "hexes": route_hexes(problem, route),
                    "connections": route_connections(problem, route),
                    "revenue": route.revenue,
                }
            )
        return out


def route_connections(problem: Problem, route: Route) -> list[list[str]]:
    """The route as 18xx.games ``connections``: the hex chain between each pair of consecutive stops."""
    out = []
    for i, lid in enumerate(route.links):
        link = problem.links[lid]
        out.append(list(link.hexes) if link.a == route.stops[i] else list(reversed(link.hexes)))
    return out


def route_hexes(problem: Problem, route: Route) -> list[str]:
    """The hexes a route passes, in order, each once per visit."""
    hexes: list[str] = []
    for i, lid in enumerate(route.links):
        link = problem.links[lid]
        chain = list(link.hexes) if link.a == route.stops[i] else list(reversed(link.hexes))
        if hexes and chain and hexes[-1] == chain[0]:
            chain = chain[1:]
        hexes.extend(chain)
    if not route.links and route.stops:
        hexes = [problem.stops[route.stops[0]].hex]
    return hexes
