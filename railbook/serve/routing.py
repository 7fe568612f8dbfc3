"""The exact optimiser's best routes for the operating company, as the table shows them and ``run_routes`` takes
them."""

from __future__ import annotations

from typing import Any

from railbook.engine.game import Game


def best_routes(game: Game, corporation: str) -> dict[str, Any]:
    """``{total, ms, routes: [{train, stops, hexes, revenue, connections}]}`` (RouteError propagates)."""
    from railbook.routes import route_connections, solve
    from railbook.routes.adapter import problem_from_game

    problem = problem_from_game(game, corporation)
    found = solve(problem)
    described = found.describe(problem)
    for route, desc in zip(found.routes, described, strict=True):
        desc["connections"] = route_connections(problem, route)
    return {"total": found.total, "ms": round(found.stats.get("ms", 0.0), 1), "routes": described}


def chosen_routes(best: dict[str, Any], trains: list[str] | None) -> list[dict[str, Any]]:
    """The ``routes`` of a run_routes action: the best routes of the trains chosen (all when ``None``)."""
    return [
        {"train": r["train"], "connections": r["connections"]}
        for r in best["routes"]
        if trains is None or r["train"] in trains
    ]
