"""``price_protection``: a president buys the shares of his company another player sold (not yet played).

After a player's stock turn in which he sold shares, the president of each company sold is offered, in the
order of the sales, a special turn: he may buy *all* the shares of his company that player just sold, at the
market price before the sale, paid to the seller.  The price then does not move for that sale.  In the
special turn he may only buy (no selling for room or cash); declining costs nothing.  A new president made by
the sale itself may not protect it.  Play resumes left of the last president who protected, else left of the
seller (players in between lose their turn); in an operating round (forced sales) play continues with the
next company.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..contract import Mechanic
from ..contract import Params as BaseParams


class Params(BaseParams):
    """Who may protect a company's share price after a sale, and what holding the protected shares allows."""

    needs_cash: bool = Field(True, description="the president must have the cash on hand to buy the shares")
    needs_cert_room: bool = Field(
        True, description="the president must have certificate-limit room for the shares (zones exempt as usual)"
    )
    may_exceed_share_limit: bool = Field(
        True, description="protection may take the president's holding above the share limit"
    )
    later_sale_restores_share_limit: Literal["always", "outside_unlimited_holding_zones"] = Field(
        "always",
        description="once he sells any share of that company, a president over the share limit must sell down to "
        "it: always, or only while the price is outside the market zones that lift the share limit",
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


MECHANIC = Mechanic(
    name="price_protection",
    description="a president buys shares another player sold",
    params=Params,
    implemented=False,
)
