"""The ``private_payouts`` mechanic's parameters and declaration.

Its rules: ``engine/mechanics/private_payouts.py``."""

from __future__ import annotations

from pydantic import Field
from railbook.params.base import Declaration
from railbook.params.base import Params as BaseParams


class Params(BaseParams):
    """How the privates' payouts are made."""

    conversion_payout_off_markers: bool = Field(
        False,
        description="a private's `per_conversion` payout is not paid to the company: it is taken off the station "
        "markers its conversion calls for, and is lost where it buys none (18xx.games)",
    )
    payout_on_rusting: bool = Field(
        False,
        description="a train rusted by a purchase of its rust type (a company's, or one the bank's depot still "
        "holds) counts for the `payouts` as an exported one: the first of its type to leave the game so pays, "
        "where no train of the type has paid yet (18xx.games)",
    )


DECLARATION = Declaration(
    name="private_payouts",
    description="privates whose owning company the bank pays or charges on events (first trains, rust, conversions)",
    params=Params,
)
