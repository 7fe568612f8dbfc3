"""The ``mergers`` mechanic's parameters and declaration (its rules: ``engine/mechanics/mergers.py``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field
from railbook.params.base import Declaration
from railbook.params.base import Params as BaseParams

#: A company size, in shares.
CompanySize = Annotated[int, Field(ge=1)]


Stage = Literal["convert_or_merge", "liquidation", "acquisition", "friendly_sale"]


StageOrder = Literal["operating_order", "reverse_operating_order", "reverse_entry_order"]


class Merge(BaseParams):
    """Two companies of one size merging into one of a larger size."""

    size: CompanySize = Field(description="size of each merging company")
    to: CompanySize = Field(description="size of the merged company")
    old_shares_per_new: int = Field(ge=1, description="shares of the merging companies exchanged for one new share")
    new_treasury_shares: int = Field(0, ge=0, description="shares added to the survivor's treasury")
    price: Literal["sum", "average"] = Field(
        description="new price: the sum or the average of the two prices, rounded down to a market value"
    )
    president: Literal["initiator_buys_a_share", "most_shares_tie_initiator"] = Field(
        description="with different presidents: the initiating president buys one more share and takes the "
        "president's certificate (the other gets a share); or whoever of the two holds more shares, ties "
        "to the initiator"
    )


class Sale(BaseParams):
    """An auction of a company's assets to another company."""

    min_bid: int = Field(0, ge=0, description="lowest bid, in $")
    min_bid_is_market_value: bool = Field(
        False, description="the lowest bid is the share price times the company's size instead"
    )
    bank_bids_min: bool = Field(False, description="the bank holds the opening bid of `min_bid`")
    cash_and_loans_set_aside: bool = Field(
        False, description="the president first sets the company's cash and loans aside (they do not go to the buyer)"
    )
    unsold: Literal["continues", "assets_leave_game"] = Field(
        "continues",
        description="with no bid: the company carries on; or its markers are removed and its trains and "
        "privates leave the game",
    )


class Params(BaseParams):
    """The merger and acquisition round and its auctions."""

    inactive_zones: list[str] = Field(
        default_factory=list,
        description="market cell kinds (market legend) in which a company neither converts, merges nor bids",
    )
    changes_per_company_per_round: int = Field(1, ge=1, description="conversions or mergers per company per round")
    merges: list[Merge] = Field(default_factory=list, description="the mergers allowed")
    loans_after_change: bool = Field(True, description="the company may take loans after converting or merging")
    max_markers_after_merge: int | None = Field(
        None, ge=1, description="station markers the survivor keeps at most; the president picks which"
    )
    sales: dict[Literal["liquidation", "acquisition", "friendly"], Sale] = Field(
        default_factory=dict,
        description="liquidation (company in the liquidation zone), acquisition (in the acquisition zone) and "
        "friendly (offered) sales, each with its auction rules",
    )
    bid_step: int = Field(10, ge=1, description="bids are multiples of this above the previous bid, in $")
    seller_president_max_raise: int | None = Field(
        None, ge=0, description="most the seller's president may raise over the previous bid (None: no cap)"
    )
    buyer_must_afford_with_loans: bool = Field(
        True, description="a bid must be payable with the buyer's cash, the acquired cash and the loans it may take"
    )
    treasury_share_compensation: Literal["none", "current_price_outside_inactive_zones"] = Field(
        "none",
        description="what a sold company gets for its treasury shares: nothing, or the current price per share "
        "unless it is in an inactive zone",
    )
    kept_loan_price_steps: int = Field(0, description="price steps per acquired loan the buyer keeps (negative: left)")
    liquidation_deficit: Literal["president_pays"] = Field(
        "president_pays", description="who covers loans the liquidation money cannot repay"
    )
    liquidation_surplus: Literal["shareholders", "bank"] = Field(
        "shareholders", description="who gets liquidation money left after the loans"
    )
    entered_acquisition_this_round_offered: bool = Field(
        False,
        description="a company pushed into acquisition during this round is auctioned in it (off: it is skipped, "
        "also where a bankruptcy moves it during its own unsold auction)",
    )


#: The names of the steps mergers contributes (a round kind lists them in the rulebook).
REDUCE_TOKENS_STEP = "reduce_tokens"
CONVERT_MERGE_STEP = "convert_merge"
POST_CONVERSION_STEP = "post_conversion"
POST_CONVERSION_LOANS_STEP = "post_conversion_loans"
ACQUIRE_STEP = "acquire"


DECLARATION = Declaration(
    name="mergers",
    description="merger and acquisition rounds",
    params=Params,
    steps=(REDUCE_TOKENS_STEP, CONVERT_MERGE_STEP, POST_CONVERSION_STEP, POST_CONVERSION_LOANS_STEP, ACQUIRE_STEP),
    round_types=("merger", "acquisition"),
    provides=("Liquidation",),
    requires=("Loans", "Conversions"),
)
