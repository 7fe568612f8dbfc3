"""``game_end``: game-end rules beyond the rulebook's ``end`` triggers (which the core checks: bank broken,
bankruptcy, all corporations closed, market end cell, final phase or train, each with its timing)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from ..contract import Mechanic
from ..contract import Params as BaseParams

if TYPE_CHECKING:
    from ..context import Context


class Params(BaseParams):
    """A limit on the game's length."""

    turn_limit: int | None = Field(
        None, ge=1, description="a game still running when this turn's stock round would start ends (reason dnf)"
    )


def _p(g: Context) -> Params:
    return g.params["game_end"]  # type: ignore[return-value]


def round_started(g: Context, kind: str) -> None:
    limit = _p(g).turn_limit
    if kind == "stock" and limit is not None and g.state.turn >= limit and not g.state.finished:
        g.hooks("end_game", "dnf", False)


MECHANIC = Mechanic(
    name="game_end",
    description="limits on the game's length beyond the end triggers",
    params=Params,
    hooks={"round_started": round_started},
)
