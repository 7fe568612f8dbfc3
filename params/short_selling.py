"""The ``short_selling`` mechanic's parameters and declaration (its rules: ``engine/mechanics/short_selling.py``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field
from railbook.params.base import Declaration, PhaseId
from railbook.params.base import Params as BaseParams

#: A company size, in shares (a 2-share, 5-share or 10-share company).
CompanySize = Annotated[int, Field(ge=1)]


class Params(BaseParams):
    """Short sales in the stock round: limits, price, dividend liability, closing and final value."""

    max_shorts_by_size: dict[CompanySize, Annotated[int, Field(ge=0)]] = Field(
        default_factory=dict,
        description="company size (shares) -> most shorts of one company that may be out at once; a size not "
        "listed may not be shorted",
    )
    per_turn: int = Field(1, ge=1, description="short sales a player may make in one stock-round turn")
    max_per_player: int | None = Field(None, ge=0, description="shorts of one company a player may hold (None: no cap)")
    not_in_ipo_round: bool = Field(True, description="no short sale of a company in the stock round of its IPO")
    not_while_holding_shares: bool = Field(
        True, description="no short sale of a company the player holds any share of (president's included)"
    )
    forbidden_zones: list[str] = Field(
        default_factory=list,
        description="market cell kinds (market legend) in which the company may not be shorted",
    )
    forbidden_phases: list[PhaseId] = Field(
        default_factory=list, description="phases in which no new short sale is allowed (shorts held remain)"
    )
    moves_price: bool = Field(False, description="a short sale moves the share price like a sale")
    counts_as_sale: bool = Field(
        True, description="a short sale counts as a sale of that company (no buying it for the rest of the round)"
    )
    buy_to_close_ignores_cert_limit: bool = Field(
        True, description="a player may buy a share to close his short even at or above the certificate limit"
    )
    counts_for_cert_limit: bool = Field(False, description="a short counts toward the certificate limit")
    pays_dividends: bool = Field(
        True, description="a short holder pays the bank the per-share dividend for each short (cash crisis if unable)"
    )
    pair_closes_at_once: bool = Field(
        True, description="a player holding a share and a short of one company returns the pair at once"
    )
    market_pairs_close: bool = Field(
        True, description="a share and a short of one company both in the open market return to the short interest"
    )
    bank_closes_market_shorts_at_stock_round_start: bool = Field(
        False,
        description="at the start of every stock round the bank buys treasury shares to close shorts in the market",
    )


#: The names of the steps short_selling contributes (a round kind lists them in the rulebook).
SHORT_STEP = "short"


DECLARATION = Declaration(
    name="short_selling",
    description="players sell shares they do not own",
    params=Params,
    steps=(SHORT_STEP,),
    uses=("Loans",),
)
