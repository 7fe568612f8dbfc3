"""The ``destinations`` mechanic's parameters and declaration (its rules: ``engine/mechanics/destinations.py``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator
from railbook.params.base import CorporationId, Declaration, HexId
from railbook.params.base import Params as BaseParams


class ConnectionRun(BaseParams):
    """The bonus run a company makes when it first connects home and destination."""

    dividend_options: list[Literal["full", "half", "withhold"]] = Field(
        ["full", "half", "withhold"], min_length=1, description="what the company may do with the run's income"
    )
    withhold_moves_price: bool = Field(True, description="withholding the run's income moves the share price left")


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
    also_reached_at: dict[CorporationId, list[HexId]] = Field(
        {}, description="company -> other hexes whose connection to its home also counts as reaching its destination"
    )
    site_notices: bool = Field(
        False,
        description="a record's `destination_connection` notice counts for the companies it names even where these "
        "rules find no connection (18xx.games takes its players' notice as it stands)",
    )
    connection_run: ConnectionRun | None = Field(None, description="the bonus run (effect `connection_run`)")
    marker: DestinationMarker | None = Field(None, description="the destination marker (effect `connection_run`)")

    @model_validator(mode="after")
    def _run_needs_its_parts(self) -> Params:
        if self.effect == "connection_run" and self.connection_run is None:
            raise ValueError("effect connection_run needs `connection_run`")
        return self


#: The names of the steps destinations contributes (a round kind lists them in the rulebook).
CONNECTION_RUN_STEP = "connection_run"


DECLARATION = Declaration(
    name="destinations",
    description="reaching a destination triggers an effect",
    params=Params,
    steps=(CONNECTION_RUN_STEP,),
)
