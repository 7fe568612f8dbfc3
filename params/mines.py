"""The ``mines`` mechanic's parameters and declaration (its rules: ``engine/mechanics/mines.py``)."""

from __future__ import annotations

from pydantic import Field
from railbook.params.base import Declaration, HexId, PrivateId
from railbook.params.base import Params as BaseParams


class MineRights(BaseParams):
    """Rights to run to the mine hexes, bought by a company as a token."""

    cost: int = Field(ge=0, description="price of the rights ($), paid from the company's treasury")
    uses_yellow_lay: bool = Field(False, description="buying the rights takes the place of a yellow tile lay")
    tokens: int = Field(ge=1, description="mine tokens in the game: at most this many companies hold rights")
    private: PrivateId | None = Field(
        None, description="the private that owns the mine (see the module text); none when no private does"
    )
    fee_to_private_owner: int = Field(
        0, ge=0, description="part of each fee paid to the company owning `private` while it is open ($)"
    )


class Params(BaseParams):
    """Mine hexes, the rights to them, and mine tokens with their route bonus."""

    hexes: list[HexId] = Field([], description="mine hexes: stops only the holders of rights may use")
    rights: MineRights | None = Field(None, description="how companies get rights to the mine hexes")
    tokens_by_private: dict[PrivateId, int] = Field({}, description="private -> mine tokens its ability places")
    token_bonus: int = Field(0, ge=0, description="revenue a route earns for each hex with a mine token it passes ($)")
    tile_frozen: bool = Field(False, description="a tile holding a mine token may never be upgraded")
    record_choice: str | None = Field(
        None, description="the `choice` of the 18xx.games `choose` action that buys rights, for reading records"
    )


#: The names of the steps mines contributes (a round kind lists them in the rulebook).
MINE_STEP = "mine"
MINE_RIGHTS_STEP = "mine_rights"


DECLARATION = Declaration(
    name="mines",
    description="mine tokens and mine revenue",
    params=Params,
    steps=(MINE_STEP, MINE_RIGHTS_STEP),
    requires=("TileLays",),
)
