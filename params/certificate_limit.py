"""The ``certificate_limit`` mechanic's parameters and declaration.

Its rules: ``engine/mechanics/certificate_limit.py``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from railbook.params.base import Declaration
from railbook.params.base import Params as BaseParams


class Params(BaseParams):
    """What counts toward the certificate limit."""

    player_privates_count: bool = Field(True, description="private companies a player owns count as certificates")
    by_companies: dict[int, dict[int, int]] = Field(
        default_factory=dict,
        description="corporations not closed (started or not, a national railway included) -> players -> "
        "limit, in force from `by_companies_from`; fewer corporations than the smallest key use that row",
    )
    by_companies_from: Literal["start", "national_railway_formation"] = Field(
        "start", description="when `by_companies` replaces the players table"
    )
    by_companies_without_national: bool = Field(
        True,
        description="with `by_companies_from: national_railway_formation`: the `by_companies` limit also replaces "
        "the players table when the national railway does not form (false: the players table stays)",
    )
    exempt_zones: list[str] = Field(
        default_factory=list,
        description="market cell kinds whose corporations' certificates do not count toward the limit (besides "
        "`no_cert_limit` and `unlimited_holding`)",
    )
    purchase_may_exceed: bool = Field(
        True,
        description="a player below the limit may buy a certificate that takes him above it by less than a whole one "
        "(where some count half: 1856 [852], 'Players may hold one half certificate above the current stock limits'); "
        "off: no purchase takes him above it",
    )
    follows_players_left: bool = Field(
        False,
        description="when a player leaves the game (bankrupt) the limit becomes the players table's for the players "
        "left (kept where the table has no such row)",
    )


DECLARATION = Declaration(
    name="certificate_limit",
    description="what counts toward the certificate limit",
    params=Params,
    uses=("NationalRailway",),
)
