"""The ``dividends`` mechanic's parameters and declaration (its rules: ``engine/mechanics/dividends.py``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from railbook.params.base import Declaration
from railbook.params.base import Params as BaseParams


class Movement(BaseParams):
    """A row of the price-move table: P = the total paid to the shares, S = the share price.  Every bound given
    must hold; the first row that holds decides the move."""

    payout_at_least_times_price: float | None = Field(None, ge=0, description="P >= this x S")
    payout_below_times_price: float | None = Field(None, ge=0, description="P < this x S")
    price_above: int | None = Field(None, ge=0, description="S > this")
    price_at_most: int | None = Field(None, ge=0, description="S <= this")
    move: int = Field(description="steps right (positive) or left (negative)")
    paid_at_least: int | None = Field(None, ge=0, description="P >= this, in $ (1: anything paid)")

    def holds(self, paid: int, price: int) -> bool:
        if self.payout_at_least_times_price is not None and paid < self.payout_at_least_times_price * price:
            return False
        if self.payout_below_times_price is not None and paid >= self.payout_below_times_price * price:
            return False
        if self.price_above is not None and price <= self.price_above:
            return False
        if self.paid_at_least is not None and paid < self.paid_at_least:
            return False
        return self.price_at_most is None or price <= self.price_at_most


class Params(BaseParams):
    """Dividend choices and share-price moves."""

    kinds: list[Literal["payout", "half", "withhold"]] = Field(
        default_factory=lambda: ["payout", "withhold"], description="the choices a corporation has"
    )
    movement: list[Movement] | None = Field(
        None, description="price moves by payout (None: one step right when anything is paid, else one left)"
    )
    half_per_share_rounding: Literal["up", "down"] = Field(
        "up",
        description="a half dividend pays each share half the earnings / shares, rounded up (the treasury keeps "
        "the rest; $130 -> $7 a share, $60 kept) or down ($6 a share, $70 kept)",
    )
    half_price_move: int | None = Field(
        None,
        description="steps right a half dividend moves the price (None: as `movement` says for the amount paid)",
    )
    minor_split: Literal["half", "all_to_owner"] = Field(
        "half",
        description="a minor's earnings: half to its treasury (the smaller half) and half to its owner, or all "
        "to its owner",
    )
    market_shares_pay: Literal["bank", "company"] = Field(
        "bank",
        description="who receives the dividend of shares in the market",
    )
    half_single_certificate_exact: bool = Field(
        False,
        description="a half payout of a corporation with one certificate is split exactly (otherwise the withheld "
        "half is rounded down to a multiple of the number of shares)",
    )
    per_share: Literal["whole", "exact"] = Field(
        "whole",
        description="the payout per share: whole dollars (the total divided by the shares, rounded down), or "
        "exact, each holder receiving his shares times the total divided by the shares, rounded up",
    )
    treasury_shares_pay: Literal["corporation", "nobody"] = Field(
        "corporation",
        description="who receives the dividend of the shares the corporation holds: its initial offering (IPO) "
        "and the shares it redeemed",
    )
    price_basis_in_zones: dict[str, int] = Field(
        default_factory=dict,
        description="market cell kind -> the price S counts as in `movement` while the share price is in such a cell",
    )


#: The names of the steps dividends contributes (a round kind lists them in the rulebook).
DIVIDEND_STEP = "dividend"


DECLARATION = Declaration(
    name="dividends",
    description="dividend choices and the share-price move",
    params=Params,
    steps=(DIVIDEND_STEP,),
    uses=("Receivership",),
)
