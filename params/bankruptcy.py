"""The ``bankruptcy`` mechanic's parameters and declaration (its rules: ``engine/mechanics/bankruptcy.py``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from railbook.params.base import Declaration
from railbook.params.base import Params as BaseParams


class Params(BaseParams):
    """What a bankrupt player's estate does."""

    cash_to: Literal["bank", "operating_corporation", "corporation_owed_interest_else_bank"] = Field(
        "bank", description="who receives the bankrupt player's remaining cash"
    )
    shares_to_pool: bool = Field(
        True,
        description="the bankrupt player's remaining shares go to the pool (False: he keeps them and his privates, "
        "and they count for his final value)",
    )
    forced_sales_may_change_presidency: Literal["any", "not_of_corporation_in_need", "none"] = Field(
        "any",
        description="in a player's sales forced to pay a debt (loan interest or repayment, see loans), which "
        "presidencies may change hands: any; any but that of the corporation owed; none (then one share at a "
        "time). Sales to fund a forced train purchase never change the buying corporation's presidency",
    )
    president_certificate_in_market_liquidates: bool = Field(
        False,
        description="a corporation whose president's certificate goes to the market goes to liquidation",
    )
    sales_move_prices: bool = Field(
        True,
        description="the bankrupt president's sales move share prices down (False: the game ends before those "
        "moves are made, so the other players' shares count at the prices before the sales)",
    )
    operating_corporation_sales_move: bool = Field(
        False,
        description="with `sales_move_prices` off: the bankrupt's sale of shares of the corporation whose train he "
        "could not fund still moves its price down at once (no one but its president, the seller, could protect it)",
    )
    estate_order: Literal["first_held", "operating_order"] = Field(
        "first_held",
        description="order in which the estate's companies are sold and liquidated: the order he first held them, "
        "or the operating order of their share prices (taken again before the second pass, after the sales moved "
        "prices)",
    )


#: The names of the steps bankruptcy contributes (a round kind lists them in the rulebook).
BANKRUPT_STEP = "bankrupt"


DECLARATION = Declaration(
    name="bankruptcy",
    description="a president who cannot fund a required train goes bankrupt",
    params=Params,
    steps=(BANKRUPT_STEP,),
    provides=("Bankruptcy",),
    requires=("Trains",),
    uses=("Liquidation", "EmergencyIssue", "StockMarket", "Receivership"),
)
