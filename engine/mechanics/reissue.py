"""``reissue``: a company puts its redeemed shares back on sale at a new par (not yet played by the engine).

A reissue is a company action in the stock round (see ``company_stock_actions``).  The shares go to the
initial offering and are sold there like initial shares at the new par; the company receives the money as
they sell (incremental capitalisation from then on), usable from ``cash_usable_from``.  The new par is the
value of ``par_values`` nearest ``market_fraction`` x the current market price (or the ``table`` entry for
that price, where given), never below the old par when ``never_below_old_par``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..contract import Mechanic
from ..contract import Params as BaseParams


class Params(BaseParams):
    """When redeemed shares may be reissued and at which par."""

    requires_empty_ipo: bool = Field(True, description="only when no share of the company is left in the IPO")
    per_stock_round: int = Field(1, ge=1, description="reissues a company may make per stock round")
    all_redeemed_shares: bool = Field(True, description="a reissue puts back all the shares the company holds")
    par_values: list[int] = Field(min_length=1, description="the par values a reissue may choose from, ascending ($)")
    market_fraction: float = Field(
        gt=0, le=1, description="the new par is the par value nearest this fraction of the current market price"
    )
    tie: Literal["higher", "lower"] = Field("higher", description="which par value wins when two are equally near")
    never_below_old_par: bool = Field(True, description="the new par is at least the company's old par")
    above_top_par: Literal["top_par", "nearest_top_row_cell"] = Field(
        "top_par",
        description="when the computed par is above the highest of `par_values`: use the highest, or the "
        "market's top-row cell nearest the computed value",
    )
    max_par: int | None = Field(None, gt=0, description="a cap on the new par ($); none when null")
    table: dict[int, int] = Field(
        {},
        description="market price -> new par as printed on the board; where a price is listed it replaces the "
        "computation (the old-par floor still applies)",
    )
    min_market_price: dict[int, int] = Field(
        {},
        description="par value -> the lowest market price at which a reissue may take that par (the small "
        "bracketed numbers on the par boxes)",
    )
    cash_usable_from: Literal["immediately", "end_of_stock_round", "next_operating_round"] = Field(
        "immediately", description="when the company may spend the money from the reissued shares"
    )


MECHANIC = Mechanic(
    name="reissue",
    description="redeemed shares go back to the IPO at a new par",
    params=Params,
    implemented=False,
)
