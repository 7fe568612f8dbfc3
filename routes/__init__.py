"""Exact route optimiser: the best revenue for a corporation's trains.

``best_routes(game, corporation)`` reads the interpreter's game; :func:`solve` works on a plain
:class:`Problem` (stops, links, trains, bonuses) so it can be tested without a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from railbook.engine.context import Context
    from railbook.engine.game import Game

    from .model import Link, Problem, Route, Row, Solution, Stop, TrainSpec, route_connections
    from .network import BoardState, HexState, build_problem
    from .search import Solver, solve
    from .trains import train_spec

#: Public names and the submodule each lives in (imported on first use, so commands that find no routes do not
#: pay for the optimiser's import).
_LAZY = {
    **dict.fromkeys(("Link", "Problem", "Route", "Row", "Solution", "Stop", "TrainSpec", "route_connections"), "model"),
    **dict.fromkeys(("BoardState", "HexState", "build_problem"), "network"),
    **dict.fromkeys(("Solver", "solve"), "search"),
    "train_spec": "trains",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "BoardState",
    "HexState",
    "Link",
    "Problem",
    "Route",
    "RouteSolution",
    "Row",
    "Solution",
    "Solver",
    "Stop",
    "TrainSpec",
    "best_routes",
    "build_problem",
    "can_run_between",
    "required_route",
    "route_connections",
    "solve",
    "train_spec",
]


@dataclass(frozen=True)
class RouteSolution:
    """The best routes of a corporation: the total and, per train, ``{train, stops, nodes, hexes, connections,
    revenue}``."""

    corporation: str
    total: int
    routes: list[dict[str, object]]
    ms: float

    def to_json(self) -> dict[str, object]:
        return {"corporation": self.corporation, "total": self.total, "routes": self.routes, "ms": self.ms}

    def run(self) -> list[dict[str, object]]:
        """The routes as a ``run_routes`` action's ``routes`` (train and connections): fill a run's open choice with
        them, ``game.process(option.with_(routes=solution.run()))``."""
        return [{"train": r["train"], "connections": r["connections"]} for r in self.routes]


def best_routes(game: Game | Context, corporation: str | None = None) -> RouteSolution:
    """The best routes of ``corporation`` (default: the one operating) in ``game`` (a :class:`Game`, or the context
    rule code holds).  Each route has its ``train`` and ``connections``: a ``run_routes`` action takes them as they
    are."""
    from .adapter import problem_from_game
    from .search import solve

    problem = problem_from_game(game, corporation)
    solution = solve(problem)
    return RouteSolution(
        corporation=problem.corporation,
        total=solution.total,
        routes=solution.describe(problem),
        ms=round(solution.stats.get("ms", 0.0), 3),
    )


REQUIRED = 10**9  # a route bonus no set of real routes earns: the best set includes such a route whenever one exists


def required_route(ends: list[list[str]]) -> dict[str, object]:
    """The bonus spec that makes the optimiser's best set include a route from a hex of ``ends[0]`` to a hex of
    ``ends[1]`` whenever there is one, counted once for the set (the other trains run freely); the solver takes
    its weight off the total and the route again (``solve``: a total under :data:`REQUIRED` before that means no
    such route exists)."""
    return {"type": "route_between_once", "ends": ends, "amount": REQUIRED, "required": True}


def can_run_between(game: Game | Context, corporation: str, ends: list[list[str]]) -> bool:
    """Whether one of ``corporation``'s trains (run this turn or not, rusted ones aside) has a legal route from a
    hex of ``ends[0]`` to a hex of ``ends[1]`` on the board of ``game`` (exact: the optimiser with that route
    required)."""
    from .adapter import board_for, bonuses_of, trains_of
    from .network import build_problem
    from .search import solve

    board = board_for(game, corporation)
    required = required_route(ends)
    kinds: dict[object, TrainSpec] = {}
    for train in trains_of(game, corporation, operated_too=True):
        kinds.setdefault(train.kind_key, train)
    for train in kinds.values():
        problem = build_problem(board, corporation, [train], [*bonuses_of(game, corporation), required])
        if solve(problem).stats.get("required_met"):
            return True
    return False
