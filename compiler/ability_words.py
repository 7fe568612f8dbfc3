"""What each private company does, in the engine's terms: for ``railbook validate --strict`` (a designer sees what will
be played, and by which mechanic)."""

from __future__ import annotations

from typing import Any

from .checks import needed_mechanic
from .models import Ability, GameSource

#: the mechanic (docs/MECHANICS.md) that plays each ability type unless :func:`needed_mechanic` names another
PLAYED_BY = {
    "tile_lay": "track",
    "teleport": "teleport",
    "token": "tokens",
    "reservation": "tokens",
    "blocks_hexes": "track",
    "close": "private_companies",
    "revenue_bonus": "routes",
    "assign_hexes": "private_companies",
    "tile_discount": "track",
    "exchange": "exchange",
    "shares": "bid_box_auction / stock_round (certificates handed over with the private)",
    "no_buy": "private_companies",
    "base": "capitalization",
    "mine": "mines",
    "description": "nothing (printed only)",
    "extra_token": "edge_tokens",
    "income_to_president": "private_companies",
    "purchase_range": "private_companies",
    "train": "private_abilities",
}

WHO = {"player": "its owning player", "corporation": "the corporation owning it", "any": "its owner"}
WHILE = {"player": "while a player owns it", "corporation": "while a corporation owns it", "any": "always"}


def ability_line(ab: Ability) -> str:
    """One ability, in the engine's terms."""
    parts = [ab.type]
    if ab.corporation:
        parts.append(f"corporation {ab.corporation}")
    if ab.shares:
        parts.append(f"certificates {', '.join(ab.shares)}")
    if ab.hexes:
        parts.append(f"hexes {', '.join(ab.hexes)}")
    if ab.tiles:
        parts.append(f"tiles {', '.join(ab.tiles)}")
    if ab.count is not None:
        parts.append(f"{ab.count} use(s)")
    for key in ("amount", "cost"):
        if getattr(ab, key) is not None:
            parts.append(f"{key} {getattr(ab, key)}")
    if ab.free:
        parts.append("free")
    if ab.connected is not None:
        parts.append("connected" if ab.connected else "unconnected")
    if ab.when:
        parts.append(f"by {WHO[ab.owner]} when {ab.when}")
    else:
        parts.append(WHILE[ab.owner])
    if ab.closes_on:
        parts.append(f"until {ab.closes_on}")
    params: dict[str, Any] = ab.params.model_dump(exclude_none=True, by_alias=True)
    if params:
        parts.append("; ".join(f"{k}={v}" for k, v in params.items()))
    mechanic = needed_mechanic(ab) or PLAYED_BY.get(ab.type, "?")
    return f"{', '.join(parts)} [played by {mechanic}]"


def private_lines(src: GameSource) -> list[str]:
    """Every private and what each of its abilities does."""
    out = []
    for sym, priv in src.privates.items():
        income = priv.revenue if isinstance(priv.revenue, int) else dict(priv.revenue)
        out.append(f"  {sym} {priv.name}: value {priv.value}, income {income}")
        if priv.closes_on:
            out.append(f"    closes on {priv.closes_on}")
        for ab in priv.abilities:
            out.append(f"    {ability_line(ab)}")
        if not priv.abilities:
            out.append("    no ability")
    return out
