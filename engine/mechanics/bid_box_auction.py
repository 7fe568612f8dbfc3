"""``bid_box_auction``: the initial round that sells the private companies in a fixed order (bid boxes).

The privates are offered in ``order`` (ascending face value).  From the priority holder clockwise, a player
buys the first unsold private at its face value, bids on a later one, or passes.  Bids go in that private's
bid box and (with ``bids_lock_cash``) the bid money is set aside until that private sells.  When a private is
bought, the next one is resolved: with one bid it goes to that bidder at the bid; with several, those
bidders alone auction it, starting left of the high bidder; the next private is then checked in turn.  Play
resumes left of the player whose purchase started the chain.  When every player passes while privates are
unsold, ``all_passed`` says what happens.  (Not yet played by the engine.)
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..contract import Mechanic, PrivateId
from ..contract import Params as BaseParams


class AllPassed(BaseParams):
    """What happens when all players pass in turn while privates are still unsold."""

    private_income_round: bool = Field(
        True, description="an operating round follows in which only the sold privates pay their income"
    )
    first_private_price_drop: int = Field(
        0,
        ge=0,
        description="the first private of `order`, while unsold, gets this much cheaper; at $0 the priority "
        "holder must take it free as his only action",
    )
    restart_with: Literal["priority_holder", "left_of_last_buyer_or_bidder"] = Field(
        "priority_holder",
        description="who starts the next initial round: the priority holder, or the player left of the last "
        "one to buy or bid (the same first player as before when nobody bought or bid)",
    )


class Params(BaseParams):
    """Initial round selling privates in order: buy the first at face or bid on a later one."""

    order: list[PrivateId] = Field(min_length=1, description="the privates in the order they are offered")
    min_bid_over_face: int = Field(
        5, ge=0, description="a first bid on a private exceeds its face value by at least this ($)"
    )
    min_raise: int = Field(5, ge=0, description="a bid exceeds the private's current high bid by at least this ($)")
    bids_lock_cash: bool = Field(True, description="a bidder's money stays set aside until that private is sold")
    may_raise_own_bid: bool = Field(True, description="a bidder may raise his own bid on a later turn")
    all_passed: AllPassed = Field(default_factory=AllPassed, description="when everyone passes with privates unsold")
    selling_allowed: bool = Field(
        False,
        description="players may sell certificates in the initial round (otherwise nothing bought in it may be "
        "sold before the next stock round)",
    )
    then: Literal["stock_round", "shares_in_same_round"] = Field(
        "stock_round",
        description="after the last private sells: a normal stock round starts, or the same initial round goes "
        "on with share purchases and company starts (still under `selling_allowed`)",
    )


MECHANIC = Mechanic(
    name="bid_box_auction",
    description="initial stock round with privates bought in order or bid on (bid boxes)",
    params=Params,
    implemented=False,
)
