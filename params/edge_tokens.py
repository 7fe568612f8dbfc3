"""The ``edge_tokens`` mechanic's parameters and declaration (its rules: ``engine/mechanics/edge_tokens.py``)."""

from __future__ import annotations

from pydantic import Field
from railbook.params.base import CorporationId, Declaration, HexId
from railbook.params.base import Params as BaseParams


class Params(BaseParams):
    """Where edge tokens go, who owns them and what they are worth."""

    areas: dict[HexId, list[CorporationId]] = Field(
        min_length=1, description="off-board hex -> the companies that have an edge token for that area"
    )
    cost: int = Field(ge=0, description="price of an edge token ($)")
    counts_as_token_placement: bool = Field(
        True, description="placing it is the company's one station token placement of the operating round"
    )
    multiplier: int = Field(2, ge=1, description="how many times the area's value counts for the token's owner")
    record_choice: str | None = Field(
        None, description="the `choice` of the 18xx.games `choose` action that buys it, for reading records"
    )


#: The names of the steps edge_tokens contributes (a round kind lists them in the rulebook).
EDGE_TOKEN_STEP = "edge_token"


DECLARATION = Declaration(
    name="edge_tokens",
    description="tokens on off-board edges that double revenue",
    params=Params,
    steps=(EDGE_TOKEN_STEP,),
)
