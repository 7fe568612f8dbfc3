"""The ``receivership`` mechanic's parameters and declaration (its rules: ``engine/mechanics/receivership.py``)."""

from __future__ import annotations

from pydantic import Field
from railbook.params.base import Declaration
from railbook.params.base import Params as BaseParams


class Params(BaseParams):
    """How a corporation without a president operates."""

    trainless_withhold_extra_moves: int = Field(
        0,
        ge=0,
        description="extra steps left when a corporation in receivership that owned no train at its route step "
        "withholds (an obsolete train it ran counts as owned)",
    )
    buys_cheapest_train: bool = Field(
        False, description="a trainless corporation in receivership buys the cheapest bank train face it can afford"
    )
    president_certificate_as_one_share: bool = Field(
        False,
        description="a shareholder may buy the president's certificate out of the pool for the price of one share",
    )


DECLARATION = Declaration(
    name="receivership",
    description="a corporation with its president's certificate in the pool operates by itself",
    params=Params,
    uses=("Bankruptcy",),
    provides=("Receivership",),
)
