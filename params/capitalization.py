"""The ``capitalization`` mechanic's parameters and declaration (its rules: ``engine/mechanics/capitalization.py``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from railbook.params.base import CorporationId, Declaration, TrainId
from railbook.params.base import Params as BaseParams


class Params(BaseParams):
    """When a corporation places its home token."""

    home_token: Literal["at_launch", "at_float", "at_first_operation"] = Field(
        "at_float",
        description="the home token goes down when the corporation is launched (par), when it floats, or free "
        "at its first operating turn",
    )
    full_capital_paid: Literal["at_float", "end_of_stock_round", "at_first_operation"] = Field(
        "at_float",
        description="when a fully capitalised corporation receives its treasury: as it floats, at the end of the "
        "round in which it floated (so it has no money to spend in that stock round), or at its first operating "
        "turn",
    )
    historical_order: list[CorporationId] = Field(
        default_factory=list,
        description="a corporation may not operate until every corporation before it in this list has floated "
        "(empty: no such order)",
    )
    kind_by_train_on_sale: dict[TrainId, Literal["incremental", "full", "escrow"]] = Field(
        default_factory=dict,
        description="cheapest train on sale from the bank when the president's certificate is bought -> the "
        "corporation's capital rule for the whole game (escrow: mechanics.escrow; empty: each corporation's "
        "`capitalization`)",
    )
    shares_to_operate_by_train_on_sale: dict[TrainId, int] = Field(
        default_factory=dict,
        description="cheapest train on sale when a corporation first tries to operate -> initial-offering shares "
        "that must be sold (to players or the market) for it to operate; short of that it skips the round and "
        "its price does not move (empty: it operates once floated)",
    )


#: The step in which a corporation chooses the city of its home token (a ``whole_hex`` home on a tile with track and
#: several cities); a round kind lists it where the choice is made (before the track step, as a rule).
HOME_TOKEN_STEP = "home_token"

DECLARATION = Declaration(
    name="capitalization",
    description="how a corporation receives its money and places its home token",
    params=Params,
    steps=(HOME_TOKEN_STEP,),
)
