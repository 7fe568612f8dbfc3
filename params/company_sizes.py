"""The ``company_sizes`` mechanic's parameters and declaration (its rules: ``engine/mechanics/company_sizes.py``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field
from railbook.params.base import Declaration, HexId, PhaseId
from railbook.params.base import Params as BaseParams

#: A company size, in shares.
CompanySize = Annotated[int, Field(ge=1)]


class Size(BaseParams):
    """One company size: its certificates, station markers and holding limits."""

    certificates: list[Annotated[int, Field(ge=1, le=100)]] = Field(
        description="percentages of its certificates, the president's first (they add up to 100)"
    )
    base_markers: int = Field(ge=0, description="station markers a company of this size has, its home included")
    player_share_cap: int | None = Field(
        None,
        ge=1,
        description="most shares of it one player may hold, the president's counting its shares (None: "
        "the title's percentage limit)",
    )
    sellable: bool = Field(True, description="its shares may be sold to the market")


class Conversion(BaseParams):
    """A company growing from one size to the next."""

    to: CompanySize = Field(description="size after the conversion")
    new_treasury_shares: int = Field(ge=0, description="shares added to its treasury")
    markers_bought: int = Field(
        0, ge=0, description="markers it must buy at `marker_price` each, fewer when `max_markers` would be exceeded"
    )


class IpoAuction(BaseParams):
    """Starting a company: its president's certificate is auctioned and the winner chooses its size."""

    min_bid: int = Field(ge=0, description="lowest opening bid, in $")
    max_bid: int = Field(ge=0, description="highest bid, in $")
    bid_step: int = Field(5, ge=1, description="bids are multiples of this, in $")
    bidding_power: Literal["cash", "cash_plus_own_privates_at_face"] = Field(
        "cash", description="what a bid may not exceed"
    )
    par_fraction_of_bid: float = Field(
        0.5, gt=0, description="the start price is the winning bid times this, rounded down to a market value"
    )
    privates_as_payment: bool = Field(
        False, description="the winner may pay with his privates at face value (cash + privates exactly the bid)"
    )
    home_anywhere: bool = Field(
        False, description="the starter places the home station in any open city space (not a printed home)"
    )
    forbidden_home_hexes: list[HexId] = Field(default_factory=list, description="hexes no home may be placed in")


class Params(BaseParams):
    """Company sizes, the sizes a new company may take by phase, station markers bought, conversions."""

    sizes: dict[CompanySize, Size] = Field(description="size (shares) -> its certificates, markers and limits")
    president_certificate_shares: int = Field(2, ge=1, description="shares the president's certificate counts as")
    ipo_sizes_by_phase: dict[PhaseId, list[CompanySize]] = Field(
        description="phase -> sizes a company started in it may choose (the IPO winner chooses)"
    )
    marker_price: int = Field(0, ge=0, description="price of each station marker a company buys, in $")
    max_markers: int | None = Field(None, ge=1, description="most station markers a company may own (None: no cap)")
    conversions: dict[CompanySize, Conversion] = Field(
        default_factory=dict, description="size -> its conversion to the next size"
    )
    conversion_needs_phase_size: bool = Field(
        False, description="a conversion needs the new size to be among the current phase's IPO sizes"
    )
    ipo_auction: IpoAuction | None = Field(
        None, description="auction of a new company's president's certificate (None: bought at a chosen par)"
    )
    unpaid_markers: Literal["kept_short", "due_by_end_of_stock_round"] = Field(
        "kept_short",
        description="a new company whose treasury cannot pay its size's markers at the start: keeps only the "
        "markers it has; or buys them as soon as its treasury covers them in the stock round (a loan, a share "
        "bought from it), and goes to the liquidation zone if it has not bought them when the stock round ends",
    )


#: The names of the steps company_sizes contributes (a round kind lists them in the rulebook).
IPO_AUCTION_STEP = "ipo_auction"


DECLARATION = Declaration(
    name="company_sizes",
    description="2/5/10-share companies, conversions",
    params=Params,
    steps=(IPO_AUCTION_STEP,),
    provides=("Conversions",),
    uses=("Liquidation",),
)
