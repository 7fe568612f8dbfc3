"""The typed vocabulary of the public API: actions, outcomes and why a game ended."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NotRequired, TypedDict


class Action(TypedDict):
    """An action, as plain JSON in the 18xx.games shape: its ``type``, the acting ``entity`` and the type's fields
    (``shares``, ``corporation``, ``share_price``, ``hex``, ``tile``, ``rotation``, ``routes``, ``train``, ``price``...;
    docs/ACTION_LOG.md lists them)."""

    type: str
    entity: NotRequired[str]
    entity_type: NotRequired[str]


class EndReason(StrEnum):
    """Why a game ended (the 18xx.games ``game_end_reason`` values)."""

    BANK = "bank"
    BANKRUPT = "bankrupt"
    ALL_CLOSED = "all_closed"
    STOCK_MARKET = "stock_market"
    FINAL_PHASE = "final_phase"
    FINAL_TRAIN = "final_train"
    TURN_LIMIT = "turn_limit"
    MANUALLY_ENDED = "manually_ended"
    DNF = "dnf"
    STALLED = "stalled"  # rounds go by with no one able to act and nothing changing (railbook)


@dataclass(frozen=True)
class Outcome:
    """A game's standing: each player's value (final when ``finished``) and, at the end, why it ended."""

    finished: bool
    values: dict[str, int]
    reason: EndReason | None = None
    ranking: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "finished": self.finished,
            "values": dict(self.values),
            "reason": self.reason.value if self.reason else None,
            "ranking": list(self.ranking),
        }
