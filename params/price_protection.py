"""The ``price_protection`` mechanic's parameters and declaration.

Its rules: ``engine/mechanics/price_protection.py``."""

from __future__ import annotations

from pydantic import Field
from railbook.params.base import Declaration
from railbook.params.base import Params as BaseParams


class Params(BaseParams):
    """Who may protect a company's share price after a sale, and what holding the protected shares allows."""

    needs_cash: bool = Field(True, description="the president must have the cash on hand to buy the shares")
    needs_cert_room: bool = Field(
        True, description="the president must have certificate-limit room for the shares (zones exempt as usual)"
    )
    may_exceed_share_limit: bool = Field(
        True, description="protection may take the president's holding above the share limit"
    )
    barred_if_president_sold_this_round: bool = Field(
        False, description="a president who sold shares of the company this stock round may not protect it"
    )
    cert_limit_assumes_unprotected: bool = Field(
        True,
        description="for the seller's certificate limit, a sale that would move the price into a zone exempt from "
        "the limit counts as if it will not be protected",
    )
    in_forced_sales: bool = Field(
        True, description="shares a president sells to raise money for a train (operating round) may be protected"
    )
    moves_priority: bool = Field(True, description="a protecting purchase counts as an action for the priority deal")
    unprotectable_sales_wait: bool = Field(
        False,
        description="the price move of a sale of the seller's own company (which nobody may protect) waits with the "
        "others and is made in the order of the sales, after the decisions on the sales before it",
    )
    operating_company_sales_at_once: bool = Field(
        False,
        description="with `unprotectable_sales_wait`: the operating corporation's own shares sold by its president "
        "(to buy its train) still move the price at once; only other companies' sales wait",
    )
    arrives_as_of_sale: bool = Field(
        False,
        description="a sale's price move that waits for the president's decision puts the marker in its new box as of "
        "the sale (below the markers there then and those of earlier sales, above those that arrived since: the "
        "marker moves as the shares are sold, unless protected); false: as of the decision",
    )


#: The names of the steps price_protection contributes (a round kind lists them in the rulebook).
PRICE_PROTECTION_STEP = "price_protection"


DECLARATION = Declaration(
    name="price_protection",
    description="a president buys shares another player sold",
    params=Params,
    steps=(PRICE_PROTECTION_STEP,),
)
