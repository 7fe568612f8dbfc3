"""``game_end``: the triggers listed in the rulebook's ``end`` (bank broken, bankruptcy, all corporations
closed, market end cell, final phase/train) with their timing; see :mod:`railbook.engine.mechanics.core`.

Parameter ``turn_limit`` (number): a game still running when this turn's stock round would start ends
with reason ``dnf`` (18xx.games stops such games).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..game import Game


def round_started(g: Game, kind: str) -> None:
    limit = (g.book.mech("game_end") or {}).get("turn_limit")
    if kind == "stock" and isinstance(limit, int) and g.state.turn >= limit and not g.state.finished:
        from . import end_game

        end_game(g, "dnf")
