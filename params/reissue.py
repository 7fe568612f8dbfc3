"""The ``reissue`` mechanic's parameters and declaration (its rules: ``engine/mechanics/reissue.py``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from railbook.params.base import Declaration
from railbook.params.base import Params as BaseParams


class Params(BaseParams):
    """When redeemed shares may be reissued and at which par."""

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


DECLARATION = Declaration(
    name="reissue",
    description="redeemed shares go back to the IPO at a new par",
    params=Params,
    provides=("Reissue",),
)
