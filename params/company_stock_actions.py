"""The ``company_stock_actions`` mechanic's parameters and declaration.

Its rules: ``engine/mechanics/company_stock_actions.py``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from railbook.params.base import Declaration
from railbook.params.base import Params as BaseParams


class Params(BaseParams):
    """Which company actions a president may take on his stock turn, and what they cost him."""

    actions: list[Literal["redeem", "reissue", "take_loans", "buy_own_shares"]] = Field(
        min_length=1,
        description="the company actions allowed: `redeem` (the company buys one of its shares, see "
        "issue_redeem), `reissue` (its redeemed shares go back on sale, see reissue), `take_loans` (one or "
        "more, up to its cap, see loans) or `buy_own_shares` (one or more from the market at the current "
        "price, paid to the bank)",
    )
    forbidden_zones: list[str] = Field(
        [], description="market cell kinds (market legend) in which the company may not act"
    )
    loans_in_forbidden_zones: bool = Field(
        False,
        description="a company in a `forbidden_zones` cell may still take loans (only its other actions are "
        "forbidden there)",
    )
    whole_turn: bool = Field(
        True, description="a company action is the president's whole stock turn (no buying or selling for himself)"
    )
    moves_priority: bool = Field(True, description="a company action counts as an action for passing the priority deal")


#: The names of the steps company_stock_actions contributes (a round kind lists them in the rulebook).
COMPANY_TURN_STEP = "company_turn"
COMPANY_STOCK_STEP = "company_stock"


DECLARATION = Declaration(
    name="company_stock_actions",
    description="corporations act in the stock round",
    params=Params,
    steps=(COMPANY_TURN_STEP, COMPANY_STOCK_STEP),
    uses=("Loans", "Redemption", "Reissue"),
)
