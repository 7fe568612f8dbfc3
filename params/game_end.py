"""The ``game_end`` mechanic's parameters and declaration (its rules: ``engine/mechanics/game_end.py``)."""

from __future__ import annotations

from pydantic import Field
from railbook.params.base import Declaration
from railbook.params.base import Params as BaseParams


class Params(BaseParams):
    """A limit on the game's length."""

    turn_limit: int | None = Field(
        None, ge=1, description="a game still running when this turn's stock round would start ends (reason dnf)"
    )


DECLARATION = Declaration(
    name="game_end",
    description="limits on the game's length beyond the end triggers",
    params=Params,
)
