"""The ``nomination_auction`` mechanic's parameters and declaration.

Its rules: ``engine/mechanics/nomination_auction.py``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from railbook.params.base import Declaration, PrivateId
from railbook.params.base import Params as BaseParams


class Pyramid(BaseParams):
    """Lots laid out in tiers (a pyramid): only the bottom tier may be nominated."""

    tier_sizes: list[int] = Field(
        description="number of lots in each tier, top tier first (e.g. [1, 2, 3] is a 6-lot pyramid)"
    )
    shuffle: Literal["seeded"] = Field(
        "seeded", description="how the lots are placed: shuffled with the game's seeded random generator"
    )
    top_lot_drawn_from: list[PrivateId] = Field(
        default_factory=list,
        description="privates of which `top_lots_kept` are drawn at random for the top of the pyramid; the "
        "rest of them leave the game (empty: every lot is shuffled in)",
    )
    top_lots_kept: int = Field(0, ge=0, description="privates drawn from `top_lot_drawn_from` and kept")
    sold_lot_removes_isolated_neighbours: bool = Field(
        False,
        description="when a lot is sold, a neighbour in its tier left with no lot on either side leaves the game",
    )
    empty_tier_opens_tier_above: bool = Field(
        True, description="once the bottom tier is empty the tier above becomes nominable"
    )


class Params(BaseParams):
    """Nomination auction of the privates before the first stock round (optionally with seed money)."""

    seed_money: int = Field(
        0, ge=0, description="money the bank sets aside; it pays the bank (face value - winning bid) of each lot sold"
    )
    bid_step: int = Field(5, ge=1, description="every bid is a multiple of this and a raise is at least this, in $")
    min_opening_bid: Literal["face", "face_minus_remaining_seed", "zero"] = Field(
        "face",
        description="lowest opening bid: the face value; the face value minus the seed money left (never "
        "below 0); or 0",
    )
    max_bid: Literal["cash", "face"] = Field(
        "cash", description="highest bid: the bidder's cash, or the lot's face value (and the bidder's cash)"
    )
    may_pass_instead_of_nominating: bool = Field(
        True, description="the player to nominate may pass (false: must nominate while lots remain)"
    )
    next_nominator: Literal["left_of_last_nominator", "left_of_last_winner"] = Field(
        "left_of_last_nominator", description="who nominates after an auction ends"
    )
    unsold_lots: Literal["removed", "kept_by_bank"] = Field(
        "removed", description="what happens to lots unsold when the round ends"
    )
    pyramid: Pyramid | None = Field(None, description="tiered lot layout (None: every lot may be nominated)")


#: The names of the steps nomination_auction contributes (a round kind lists them in the rulebook).
NOMINATION_AUCTION_STEP = "nomination_auction"


DECLARATION = Declaration(
    name="nomination_auction",
    description="a player nominates a private and all bid; seed money",
    params=Params,
    steps=(NOMINATION_AUCTION_STEP,),
    round_types=("nomination",),
)
