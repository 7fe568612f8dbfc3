"""railbook engine: a generic interpreter of compiled 18xx rulebooks.

``from railbook.engine import Game, IllegalAction``: ``Game.start(rulebook, players, seed=..., options=[...])``,
``game.acting()``, ``game.legal_actions()``, ``game.process(action)``.  See ``engine/game.py``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Game", "IllegalAction", "LegalAction"]


def __getattr__(name: str) -> Any:
    if name == "Game":
        from .game import Game

        return Game
    if name == "LegalAction":
        from .legal import LegalAction

        return LegalAction
    if name == "IllegalAction":
        from .errors import IllegalAction

        return IllegalAction
    raise AttributeError(name)
