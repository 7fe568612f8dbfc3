"""Models of the compiled rulebook: the JSON other engines consume (``schemas/rulebook.schema.json``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field
from railbook.params.base import PRINT_ONLY

from .models import (
    FORMAT_VERSION,
    Corporation,
    EndTrigger,
    Hex,
    Mechanics,
    Meta,
    Minor,
    Movement,
    Phase,
    PlayerSetup,
    Private,
    Rounds,
    Site,
    Strict,
    Tile,
    TitleId,
    Train,
    UpgradeException,
)


class CompiledTile(Tile):
    id: str = Field(description="tile id (as in records)")
    count: int | Literal["unlimited"] = Field(description="copies in the box, or unlimited")
    upgrades: list[str] = Field(description="tiles this one may be replaced by (before rotation checks)")
    origin: Literal["catalogue", "title"] = Field(
        description="where the tile is defined: the shared catalogue or the title", json_schema_extra=PRINT_ONLY
    )


class CompiledHex(Hex):
    id: str = Field(description="hex id (as in records)")
    x: int = Field(description="column on the doubled hex grid (see docs/FORMAT.md)", json_schema_extra=PRINT_ONLY)
    y: int = Field(description="row on the doubled hex grid", json_schema_extra=PRINT_ONLY)
    neighbours: dict[str, str] = Field(description="edge (0-5) -> neighbouring hex id")
    tile_upgrades: list[str] = Field(description="tiles that may be laid on this hex's printed track")
    homes: list[str] = Field(
        [],
        description="corporations or minors whose home is here (printed on the map; the engine reads each "
        "company's `home`)",
        json_schema_extra=PRINT_ONLY,
    )
    reserved: list[str] = Field(
        [],
        description="companies whose reserved spot is printed here (the engine reads the companies' abilities)",
        json_schema_extra=PRINT_ONLY,
    )


class MarketCell(Strict):
    price: int = Field(description="share price")
    row: int = Field(description="row index (as in records' share_price)")
    col: int = Field(description="column index")
    kinds: list[str] = Field(description="cell kinds from the legend (par, close, no_cert_limit, ...)")


class ParValue(Strict):
    price: int = Field(description="par price")
    row: int = Field(description="row of its market cell")
    col: int = Field(description="column of its market cell")


class CompiledMarket(Strict):
    type: Literal["1d", "2d"] = Field(description="1d: one row; 2d: a grid")
    grid: list[list[MarketCell | None]] = Field(description="rows of cells; null where there is no cell")
    par: list[ParValue] = Field(description="par values in increasing price, each with its cell")
    movement: Movement = Field(description="movement rule parameters")
    zone_colours: dict[str, str] = Field(description="cell kind -> colour for printing", json_schema_extra=PRINT_ONLY)


class CompiledOption(Strict):
    description: str = Field(description="what the option changes")
    default: bool = Field(description="on unless turned off")
    site_before: str | None = Field(
        None, description="ISO date: records of games created before it replay with this option on"
    )
    excludes: list[str] = Field(default_factory=list, description="options this one turns off")
    patch: dict[str, Any] = Field(
        description="RFC 7386 JSON merge patch against this rulebook", json_schema_extra={"x-typed-by": "rulebook"}
    )


class Rulebook(Strict):
    format_version: str = Field(FORMAT_VERSION, description="MAJOR.MINOR of this format (docs/RULEBOOK.md)")
    title: TitleId
    meta: Meta = Field(description="title, designer, sources")
    players: dict[int, PlayerSetup] = Field(description="player count -> starting cash, bank and certificate limit")
    cert_limit_by: str = Field(description="what a certificate-limit table is keyed by")
    layout: Literal["pointy", "flat"] = Field(description="pointy: hexes with a vertex up; flat: with a side up")
    axes: dict[str, str] = Field(description="which part of a hex id (letter or number) is x and which is y")
    hexes: dict[str, CompiledHex] = Field(description="hex id -> hex, with its resolved neighbours and upgrades")
    tiles: dict[str, CompiledTile] = Field(description="tile id -> tile of the manifest, with its upgrades")
    upgrade_exceptions: list[UpgradeException] = Field(
        [],
        description="upgrades added or forbidden only in some hexes or phases (tile_rules.exceptions with `hexes` "
        "or `phases`), applied at lay time on top of the tiles' and hexes' upgrades",
    )
    market: CompiledMarket = Field(description="the stock market as a grid of cells")
    trains: dict[str, Train] = Field(description="train name -> train")
    train_order: list[str] = Field(description="train names in the order the bank sells them")
    phases: list[Phase] = Field(description="phases in order")
    corporations: dict[str, Corporation] = Field(description="symbol -> corporation")
    minors: dict[str, Minor] = Field(description="symbol -> minor company")
    privates: dict[str, Private] = Field(description="symbol -> private company")
    mechanics: Mechanics  # type: ignore[valid-type]
    rounds: Rounds = Field(description="the round sequence: rounds played once at the start, then the repeating cycle")
    end: list[EndTrigger] = Field(description="what ends the game")
    options: dict[str, CompiledOption] = Field(description="option name -> option, as a merge patch")
    site: Site = Field(default_factory=Site, description="how 18xx.games represents the title (for comparisons)")
