"""Models of the compiled rulebook: the JSON other engines consume (``schemas/rulebook.schema.json``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from .models import (
    FORMAT_VERSION,
    Corporation,
    EndTrigger,
    Hex,
    Meta,
    Minor,
    Phase,
    PlayerSetup,
    Private,
    Strict,
    Tile,
    Train,
)


class CompiledTile(Tile):
    id: str
    count: int | Literal["unlimited"]
    upgrades: list[str] = Field(description="tiles this one may be replaced by (before rotation checks)")
    origin: Literal["catalogue", "title"]


class CompiledHex(Hex):
    id: str
    x: int
    y: int
    neighbours: dict[str, str] = Field(description="edge (0-5) -> neighbouring hex id")
    tile_upgrades: list[str] = Field(description="tiles that may be laid on this hex's printed track")
    homes: list[str] = Field([], description="corporations or minors whose home is here")
    reserved: list[str] = Field([], description="companies holding a reserved slot here")


class MarketCell(Strict):
    price: int
    row: int
    col: int
    kinds: list[str]


class ParValue(Strict):
    price: int
    row: int
    col: int


class CompiledMarket(Strict):
    type: Literal["1d", "2d"]
    grid: list[list[MarketCell | None]]
    par: list[ParValue]
    movement: dict[str, Any]
    zone_colours: dict[str, str]


class CompiledOption(Strict):
    description: str
    default: bool
    patch: dict[str, Any] = Field(description="RFC 7386 JSON merge patch against this rulebook")


class Rulebook(Strict):
    format_version: str = FORMAT_VERSION
    title: str
    meta: Meta
    players: dict[int, PlayerSetup]
    cert_limit_by: str
    layout: Literal["pointy", "flat"]
    axes: dict[str, str]
    hexes: dict[str, CompiledHex]
    tiles: dict[str, CompiledTile]
    market: CompiledMarket
    trains: dict[str, Train]
    train_order: list[str]
    phases: list[Phase]
    corporations: dict[str, Corporation]
    minors: dict[str, Minor]
    privates: dict[str, Private]
    mechanics: dict[str, dict[str, Any]]
    end: list[EndTrigger]
    options: dict[str, CompiledOption]
