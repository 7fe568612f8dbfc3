"""The ``operating_order`` mechanic's parameters and declaration.

Its rules: ``engine/mechanics/operating_order.py``."""

from __future__ import annotations

from pydantic import Field
from railbook.params.base import Declaration, MinorId
from railbook.params.base import Params as BaseParams


class Params(BaseParams):
    """The order of operation."""

    minors_order: list[MinorId] = Field(default_factory=list, description="minors operate first, in this order")
    first_or_ascending_price: bool = Field(
        False, description="the game's first operating round runs the corporations lowest price first"
    )
    skip_zones: list[str] = Field(
        default_factory=list,
        description="market cell kinds whose corporations do not operate (left out of the order, and skipped when "
        "they get there during the round)",
    )


DECLARATION = Declaration(
    name="operating_order",
    description="the order in which minors and corporations operate",
    params=Params,
)
