"""The ``river_companies`` mechanic's parameters and declaration.

Its rules: ``engine/mechanics/river_companies.py``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from railbook.params.base import CorporationId, Declaration, HexId, PhaseId, PrivateId
from railbook.params.base import Params as BaseParams


class Params(BaseParams):
    """The river, the private that controls its crossings, and who benefits."""

    private: PrivateId = Field(description="the private that holds the river crossings")
    partition_type: Literal["water", "province"] = Field(
        "water", description="the map's border/partition type that marks the river"
    )
    hexes: list[HexId] = Field(min_length=1, description="the hexes the river runs through")
    discount: int = Field(0, ge=0, description="amount off one river-hex lay for the corporation owning it ($)")
    river_corporations: list[CorporationId] = Field(
        [], description="corporations based on the river, which may buy the private early and lay their home tile"
    )
    early_phases: list[PhaseId] = Field(
        [], description="phases before corporations may buy privates in which the river corporations may buy it"
    )
    early_price: tuple[int, int] = Field(
        (0, 0), description="(lowest, highest) $ a river corporation pays for it in `early_phases`"
    )


DECLARATION = Declaration(
    name="river_companies",
    description="companies that own river crossings",
    params=Params,
)
