"""``destinations``: a company reaching its destination (``corporations.<X>.destination``) triggers an effect.

A company is connected when it can trace from its home station to its destination hex (see the tracing
switches); ``checked`` says when that is looked at, for every company.  The ``effect`` happens once per
company (with ``once_per_company``).

``connection_run``: the company at once runs its trains for a bonus income, one of them exactly from home to
destination, the others normally.  When several companies connect at the same time, the one that just
operated runs first, then the others in share price order; a connection made by a closure in a stock round
is run at the start of the next operating round.  Before the run the company gets its destination marker
(``marker``).  ``release_escrow``: money held for the company is released (see ``escrow``).
(Not yet played by the engine.)
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from ..contract import CorporationId, HexId, Mechanic
from ..contract import Params as BaseParams


class ConnectionRun(BaseParams):
    """The bonus run a company makes when it first connects home and destination."""

    dividend_options: list[Literal["full", "half", "withhold"]] = Field(
        ["full", "half", "withhold"], min_length=1, description="what the company may do with the run's income"
    )
    withhold_moves_price: bool = Field(True, description="withholding the run's income moves the share price left")


class CitySpaceMarkers(BaseParams):
    """Destinations whose marker takes an ordinary city space instead of the hex edge (a variant)."""

    hexes: list[HexId] = Field(min_length=1, description="destination hexes where the marker takes a city space")
    edge_if_full: bool = Field(True, description="with no free space the marker goes to the hex edge")
    moves_into_freed_space: bool = Field(
        True, description="a marker at the edge moves into a city space that frees later"
    )


class DestinationMarker(BaseParams):
    """The destination station marker a connected company receives."""

    free_at_hex_edge: bool = Field(
        True, description="it may be placed free at the destination hex's edge, using no city space"
    )
    otherwise_token_cost: int = Field(
        ge=0,
        description="if not placed there (or the company already has a station at the destination) it stays on "
        "the charter as one more station marker of this cost ($), placed by the normal rules",
    )
    doubles_destination_at_route_end: bool = Field(
        True,
        description="while at the hex edge, the destination's value counts twice for the company on a route "
        "that starts or ends there",
    )
    city_space: CitySpaceMarkers | None = Field(None, description="destinations where it takes a city space instead")


class Params(BaseParams):
    """When a company counts as having reached its destination, and what that does."""

    effect: Literal["connection_run", "release_escrow"] = Field(description="what reaching the destination does")
    checked: Literal["after_each_operator_turn", "after_every_tile_lay"] = Field(
        "after_each_operator_turn", description="when every company's connection is checked"
    )
    ignore_distance: bool = Field(
        False, description="any track path counts, however long (else one of its trains must be able to run it)"
    )
    ignore_station_markers: bool = Field(
        False, description="the path may pass cities full of other companies' stations"
    )
    once_per_company: bool = Field(True, description="the effect happens only the first time")
    start_hexes: dict[CorporationId, HexId] = Field(
        {}, description="company -> hex it traces from instead of its home station (e.g. an alternate destination)"
    )
    connection_run: ConnectionRun | None = Field(None, description="the bonus run (effect `connection_run`)")
    marker: DestinationMarker | None = Field(None, description="the destination marker (effect `connection_run`)")

    @model_validator(mode="after")
    def _run_needs_its_parts(self) -> Params:
        if self.effect == "connection_run" and self.connection_run is None:
            raise ValueError("effect connection_run needs `connection_run`")
        return self


MECHANIC = Mechanic(
    name="destinations",
    description="reaching a destination triggers an effect",
    params=Params,
    implemented=False,
)
