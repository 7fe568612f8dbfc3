"""The ``escrow`` mechanic's parameters and declaration (its rules: ``engine/mechanics/escrow.py``)."""

from __future__ import annotations

from pydantic import Field
from railbook.params.base import Declaration
from railbook.params.base import Params as BaseParams


class Params(BaseParams):
    """Money from initial-offering sales held back until a condition releases it."""

    shares_paid_to_company: int = Field(
        ge=0,
        description="initial-offering shares (the president's certificate counting its shares) whose sale pays "
        "the company; money from later initial-offering sales is held in escrow",
    )
    later_sales_pay_company: bool = Field(
        True, description="once released, initial-offering sales pay the company directly (incremental capital)"
    )


DECLARATION = Declaration(
    name="escrow",
    description="money held until a destination is reached",
    params=Params,
)
