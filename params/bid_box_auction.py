"""The ``bid_box_auction`` mechanic's parameters and declaration.

Its rules: ``engine/mechanics/bid_box_auction.py``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from railbook.params.base import Declaration, PrivateId
from railbook.params.base import Params as BaseParams


class AllPassed(BaseParams):
    """What happens when all players pass in turn while privates are still unsold."""

    private_income_round: bool = Field(
        True, description="an operating round follows in which only the sold privates pay their income"
    )
    income_round_ends_or_set: bool = Field(
        False,
        description="with `private_income_round`, once a private is sold: that round ends a set of operating rounds "
        "(what comes at a set's end comes, e.g. `train_export`)",
    )
    first_private_price_drop: int = Field(
        0,
        ge=0,
        description="the first private of `order`, while unsold, gets this much cheaper; at $0 the priority "
        "holder must take it free as his only action",
    )


class Params(BaseParams):
    """Initial round selling privates in order: buy the first at face or bid on a later one."""

    order: list[PrivateId] = Field(min_length=1, description="the privates in the order they are offered")
    min_bid_over_face: int = Field(
        5, ge=0, description="a first bid on a private exceeds its face value by at least this ($)"
    )
    min_raise: int = Field(5, ge=0, description="a bid exceeds the private's current high bid by at least this ($)")
    bid_step: int = Field(
        1, ge=1, description="a bid exceeds the least bid allowed by a multiple of this ($); 1: by any whole amount"
    )
    bids_lock_cash: bool = Field(True, description="a bidder's money stays set aside until that private is sold")
    locked_cash: Literal["all_bids", "leading_bids"] = Field(
        "all_bids",
        description="with `bids_lock_cash`, the money set aside: all the player's bids, or only those that are the "
        "highest bid on their private (an outbid bid frees its money)",
    )
    may_raise_own_bid: bool = Field(True, description="a bidder may raise his own bid on a later turn")
    all_passed: AllPassed = Field(default_factory=AllPassed, description="when everyone passes with privates unsold")


#: The names of the steps bid_box_auction contributes (a round kind lists them in the rulebook).
BID_BOX_STEP = "bid_box"
COMPANY_PENDING_PAR_STEP = "company_pending_par"


DECLARATION = Declaration(
    name="bid_box_auction",
    description="initial stock round with privates bought in order or bid on (bid boxes)",
    params=Params,
    steps=(BID_BOX_STEP, COMPANY_PENDING_PAR_STEP),
    round_types=("bid_box",),
)
