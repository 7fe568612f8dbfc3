"""``river_companies``: a private company that holds the crossings of a river (not yet played by the engine).

While ``private`` is owned by a player, no tile may be laid or upgraded so that its track crosses the
river: a river border or partition of ``partition_type`` in ``hexes`` (map.yaml); track may run along the
river.  The restriction ends once a corporation owns the private or it closes.  The corporation owning it
may lay one tile in a river hex for ``discount`` less.  The private's other abilities (the home-tile lay of
``river_corporations``) and its purchase window are in the private's own data and ``private_companies``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..contract import CorporationId, HexId, Mechanic, PrivateId
from ..contract import Params as BaseParams


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


MECHANIC = Mechanic(
    name="river_companies",
    description="companies that own river crossings",
    params=Params,
    implemented=False,
)
