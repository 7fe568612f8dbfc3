"""Decisions to optimise, taken from a recorded game as the interpreter replays it.

:func:`decisions` yields one :class:`Decision` per recorded ``run_routes`` (or the one at ``--at``),
each holding a ready :class:`Problem` (the interpreter's board, trains and bonuses just before it) and
what the record says was earned.  Where the interpreter cannot follow a record, the runs before that
point are kept and the reason is returned.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from railbook.errors import RailbookError

from .check import score_recorded
from .model import Problem
from .network import build_problem


class ReplayUnavailable(RailbookError, RuntimeError):
    """The interpreter cannot replay this record (yet)."""


@dataclass
class Decision:
    action_id: int
    corporation: str
    problem: Problem
    recorded: int | None  # what the record's routes earn (stored, or scored by the model)
    source: str  # "interpreter" or "record"
    notes: list[str]
    build_ms: float = 0.0  # time to build the graph from the board


def _recorded_revenue(problem: Problem, routes: list[dict[str, Any]], stored: int | None) -> tuple[int | None, list]:
    if stored is not None:
        return stored, []
    if not routes:
        return None, []
    total, notes = score_recorded(problem, routes)
    return total, notes


def _timed_build(board: Any, corp: str, trains: list, bonuses: list) -> tuple[Problem, float]:
    start = time.perf_counter()
    problem = build_problem(board, corp, trains, bonuses)
    return problem, (time.perf_counter() - start) * 1000


def start_game(record: Mapping[str, Any], rulebook: Mapping[str, Any]) -> Any:
    """A fresh interpreter game for the record's players, seed and options (via ``railbook.engine.replay``)."""
    try:
        from railbook.engine.replay import start_from_record
    except Exception as exc:  # the interpreter is not importable yet
        raise ReplayUnavailable(f"the interpreter cannot be loaded: {type(exc).__name__}: {exc}") from exc
    try:
        return start_from_record(dict(record), dict(rulebook))
    except Exception as exc:
        raise ReplayUnavailable(f"the interpreter cannot start this game: {type(exc).__name__}: {exc}") from exc


def _kept_actions(record: Mapping[str, Any]) -> tuple[list[dict[str, Any]], Any, set[str]]:
    """The replay's own action filter (undo/redo), its action normaliser and the non-move types."""
    from railbook.engine.replay import NON_MOVES, filter_actions, normalise

    return filter_actions(list(record.get("actions", []))), normalise, set(NON_MOVES)


def interpreter_decisions(
    record: Mapping[str, Any], rulebook: Mapping[str, Any], at: int | None = None, corporation: str | None = None
) -> Iterator[Decision]:
    """Decisions from the interpreter's replay; raises :class:`ReplayUnavailable` where it stops."""
    from .adapter import board_for, bonuses_of, operating_corporation, required_of, trains_of

    g = start_game(record, rulebook)
    try:
        actions, normalise, non_moves = _kept_actions(record)
    except Exception as exc:
        raise ReplayUnavailable(f"the interpreter's replay helpers are missing: {exc}") from exc
    for a in actions:
        if a.get("type") in non_moves:
            continue
        aid = int(a.get("id", -1))
        wanted = aid == at if at is not None else a.get("type") == "run_routes" and bool(a.get("routes"))
        if wanted:
            corp = corporation or (str(a["entity"]) if a.get("type") == "run_routes" else operating_corporation(g))
            if not corp:
                raise ReplayUnavailable(f"nobody operates before action {aid}; name a corporation")
            bonuses = [*bonuses_of(g, corp), *required_of(g, corp)]  # (a connection run's required route)
            problem, ms = _timed_build(board_for(g, corp), corp, trains_of(g, corp), bonuses)
            routes = list(a.get("routes") or []) if a.get("type") == "run_routes" else []
            stored = sum(int(r["revenue"]) for r in routes) if routes and all("revenue" in r for r in routes) else None
            recorded, notes = _recorded_revenue(problem, routes, stored)
            yield Decision(aid, corp, problem, recorded, "interpreter", notes, ms)
            if at is not None:
                return
        for step in [a, *(a.get("auto_actions") or [])]:
            try:
                g.process(normalise(step), atomic=False)
            except Exception as exc:
                raise ReplayUnavailable(
                    f"the interpreter stops at action {aid} ({a.get('type')}): {type(exc).__name__}: {exc}"
                ) from exc
    if at is not None:
        raise KeyError(f"no action with id {at} in the record")


def decisions(
    record: Mapping[str, Any],
    rulebook: Mapping[str, Any],
    at: int | None = None,
    corporation: str | None = None,
    source: str = "interpreter",
) -> tuple[list[Decision], str | None]:
    """All decisions (or the one at ``at``) and, where the interpreter stopped before the end, why.

    With ``at`` past the point where the interpreter stops, :class:`ReplayUnavailable` is raised."""
    if source not in ("auto", "interpreter"):
        raise ValueError(f"unknown source {source!r}: boards come from the interpreter")
    done: list[Decision] = []
    try:
        for d in interpreter_decisions(record, rulebook, at, corporation):
            done.append(d)
    except ReplayUnavailable as exc:
        if at is not None:
            raise
        return done, str(exc)
    return done, None
