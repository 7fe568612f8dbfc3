"""Trying an action on a copy of the game and reading the best route revenue the optimiser finds."""

from __future__ import annotations

import pickle
from typing import Any

from railbook.engine.legal import LegalAction


def copy_game(game: Any) -> Any:
    """An independent copy of ``game`` (its state pickled and read back; no undo history)."""
    from railbook.engine.game import Game

    ctx = game.context
    return Game(type(ctx)(ctx.book, pickle.loads(pickle.dumps(ctx.state, protocol=pickle.HIGHEST_PROTOCOL))))


def problem(game: Any, sym: str, imagine: bool = True) -> Any:
    """The optimiser's problem for the operator ``sym`` now, its trains that ran this turn included (None when
    there is none); with ``imagine``, an operator without a train is given the depot's next one (what its track
    would be worth)."""
    from railbook.routes.adapter import board_for, bonuses_of, trains_of
    from railbook.routes.network import build_problem
    from railbook.routes.trains import train_spec

    from .reading import next_depot_train

    try:
        found = build_problem(board_for(game, sym), sym, trains_of(game, sym, True), bonuses_of(game, sym))
    except (KeyError, ValueError):
        return None
    if not found.trains and imagine:
        nxt = next_depot_train(game)
        if nxt is not None:
            found.trains = [train_spec("imagined-0", nxt[0], game.context.book.trains.get(nxt[0]))]
    return found


def solve_total(found: Any, extra: list[Any] | None = None) -> int:
    """The best total of a problem (with ``extra`` trains added); 0 for no problem or no train."""
    import dataclasses

    from railbook.routes import solve

    if found is None:
        return 0
    trains = [*found.trains, *(extra or [])]
    if not trains:
        return 0
    try:
        return int(solve(dataclasses.replace(found, trains=trains)).total)
    except (KeyError, ValueError):
        return 0


def problem_key(found: Any, trains: list[Any]) -> tuple[Any, ...]:
    """What the optimiser's best total of ``found`` run by ``trains`` depends on: its stops (with their revenue now),
    links, hexsides and bonuses, and each train's name and distance rows (not its id)."""
    return (
        found.corporation,
        tuple(found.stops),
        tuple(found.links),
        tuple(sorted(found.hex_sides.items())),
        repr(found.bonuses),
        tuple((t.name, t.kind_key) for t in trains),
    )


class Totals:
    """The best totals of route problems already solved, by :func:`problem_key` (a bot meets the same problem
    again and again: the lay it took was tried the decision before, a lay elsewhere leaves a company's routes as
    they were).  The same totals as :func:`solve_total`, the optimiser run once per problem."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._memo: dict[tuple[Any, ...], int] = {}

    def total(self, found: Any, extra: list[Any] | None = None) -> int:
        if found is None:
            return 0
        trains = [*found.trains, *(extra or [])]
        if not trains:
            return 0
        key = problem_key(found, trains)
        hit = self._memo.get(key)
        if hit is None:
            if len(self._memo) >= self.size:
                self._memo.clear()
            hit = self._memo[key] = solve_total(found, extra)
        return hit


def revenue(game: Any, sym: str, imagine: bool = True) -> int:
    """The best total the operator ``sym``'s trains can run for now (see :func:`problem` for ``imagine``)."""
    return solve_total(problem(game, sym, imagine))


def extra_train(game: Any, train: str, face: str) -> Any:
    """The optimiser's spec of one more train of base name ``train`` run as ``face`` (a variant name)."""
    from railbook.routes.trains import train_spec

    return train_spec("extra-0", face, game.context.book.trains.get(train))


class Sandbox:
    """One copy of a game on which actions are tried one at a time, each taken back before the next (the copy is
    made on the first try: a pickled state is read back once per try, not written and read)."""

    def __init__(self, game: Any, totals: Totals | None = None) -> None:
        self.game = game
        self.totals = totals
        self._copy: Any = None

    def revenue_after(self, action: LegalAction, sym: str) -> int | None:
        """The operator's best revenue once ``action`` is taken (None when the game refuses it)."""
        tried = self.try_(action, sym)
        return None if tried is None else tried[0]

    def try_(self, action: LegalAction, sym: str, routes: bool = True) -> tuple[int, int] | None:
        """(the operator's best revenue, what the action cost it) once ``action`` is taken; None when the game
        refuses it.  ``routes=False`` leaves the revenue out (0): the optimiser is the costly part."""
        from railbook.engine.errors import IllegalAction

        from .reading import operator_key

        if self._copy is None:
            self._copy = copy_game(self.game)
        key = operator_key(self._copy, sym)
        before = self._copy.context.cash(key)
        try:
            self._copy.process(action)
        except IllegalAction:
            return None
        try:
            if not routes:
                total = 0
            elif self.totals is not None:
                total = self.totals.total(problem(self._copy, sym))
            else:
                total = revenue(self._copy, sym)
            return total, before - self._copy.context.cash(key)
        finally:
            self._copy.undo()


def revenue_after(game: Any, action: LegalAction, sym: str) -> int | None:
    """The operator's best revenue once ``action`` is taken (None when the game refuses it)."""
    return Sandbox(game).revenue_after(action, sym)


def best_routes(game: Any, sym: str, between: list[list[str]] | None = None) -> list[dict[str, Any]]:
    """The optimiser's best routes as a ``run_routes`` list (``between``: a required route's two hex lists)."""
    from railbook.soak import _routes

    return _routes(game, sym, between)


def accepted_routes(game: Any, action: LegalAction, routes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The routes, else one of them alone, else none, that the game accepts (tried on copies)."""
    from railbook.engine.errors import IllegalAction

    for candidate in [routes, *([r] for r in routes), []]:
        try:
            copy_game(game).process(action.with_(routes=candidate), atomic=False)
        except IllegalAction:
            continue
        return candidate
    return routes
