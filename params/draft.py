"""The ``draft`` mechanic's parameters and declaration (its rules: ``engine/mechanics/draft.py``)."""

from __future__ import annotations

from pydantic import Field
from railbook.params.base import Declaration
from railbook.params.base import Params as BaseParams


class Params(BaseParams):
    """A draft of the privates (with blank cards) before the first stock round."""

    blanks: dict[int, int] = Field(
        default_factory=dict, description="player count -> blank cards added to the deck (default: one per player)"
    )
    hand_size_over_players: int = Field(
        2, ge=0, description="cards shown to the drafting player: the number of players plus this"
    )
    last_private_price_drop: int = Field(
        0, ge=0, description="$ the last private's price drops each time it is passed when it is the only card left"
    )


#: The names of the steps draft contributes (a round kind lists them in the rulebook).
DRAFT_STEP = "draft"


DECLARATION = Declaration(
    name="draft",
    description="private draft with blank cards and a last-card price drop",
    params=Params,
    steps=(DRAFT_STEP,),
    round_types=("draft",),
)
