"""The bot interface and what every bot shares: its seeded random source and how it reads the game."""

from __future__ import annotations

import random
from typing import Any

from railbook.engine.legal import LegalAction

#: an action's entity_type -> the engine's key prefix
_PREFIX = {"player": "P|", "corporation": "C|", "minor": "M|", "company": "X|"}


class Bot:
    """A player that picks one legal action at a time; seeded, so the same game and seed give the same moves."""

    name = "bot"

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rnd = random.Random(f"{self.name}-{seed}")

    def choose(self, game: Any, player: str) -> LegalAction:
        """One complete legal action for ``player`` (who is among ``game.acting()``)."""
        raise NotImplementedError

    def agrees(self, game: Any, player: str, action: LegalAction) -> bool:
        """Whether ``player`` agrees to another player's offer ``action``: a corporation of theirs buying a train
        or a private that ``player`` controls, at the price in the action (:mod:`railbook.bots.consent`)."""
        return True


def entity_key(action: LegalAction) -> str:
    """The engine key (``C|PRR``, ``P|p1``, ...) of the entity acting in ``action``."""
    return _PREFIX.get(action.entity_type, "") + action.entity


def mine(game: Any, player: str, actions: list[LegalAction]) -> list[LegalAction]:
    """The actions ``player`` may take: its own and those of the entities it controls (all when none is)."""
    g = game.context
    key = f"P|{player}"
    own = [a for a in actions if a.entity_type == "player" and a.entity == player]
    own += [a for a in actions if a.entity_type != "player" and g.controller(entity_key(a)) == key]
    return own or actions


def from_dict(action: dict[str, Any]) -> LegalAction:
    """A complete :class:`LegalAction` of a plain action dict."""
    rest = {k: v for k, v in action.items() if k not in ("type", "entity", "entity_type")}
    return LegalAction(str(action["type"]), str(action["entity"]), str(action["entity_type"]), rest)
