"""Facts about the 18xx-maker format shared by the exporter and the importer."""

from __future__ import annotations

import re
from typing import Any

TILE_COLOURS = ("yellow", "green", "brown", "gray")

# 18xx-maker hex colours -> railbook hex colours
HEX_COLOURS = {
    "plain": "white",
    "white": "white",
    "land": "white",
    "offboard": "red",
    "offboard2": "red",
    "water": "blue",
    "river": "blue",
    "yellow": "yellow",
    "green": "green",
    "brown": "brown",
    "gray": "gray",
    "grey": "gray",
}
RAILBOOK_TO_MAKER_HEX = {"white": "plain", "red": "offboard", "blue": "water", "black": "gray"}

# railbook market cell kinds <-> 18xx-maker legend descriptions (the words railbook writes and reads back,
# plus the phrases 18xx-maker's own games use for the same zones)
KIND_PHRASES: list[tuple[str, str]] = [
    ("no_cert_limit", "not count toward the certificate limit"),
    ("no_cert_limit", "do not count"),
    ("unlimited_holding", "more than 60%"),
    ("unlimited_holding", "any number of shares"),
    ("multiple_buy", "purchase any number"),
    ("close", "close"),
    ("liquidation", "liquidation"),
    ("acquisition", "acquisition"),
    ("end_game", "game end"),
    ("end_game", "ends the game"),
]

# 18xx-maker's named colours as RGB, for corporations and tokens (the Rails-on-Board palette it prints)
PALETTE = {
    "black": "#37383a",
    "blue": "#0189d1",
    "brightGreen": "#76a042",
    "brown": "#7b352a",
    "gold": "#e09001",
    "gray": "#9a9a9d",
    "green": "#237333",
    "lavender": "#baa4cb",
    "lightBlue": "#37b2e2",
    "lightBrown": "#b58168",
    "lime": "#bdbd00",
    "natural": "#fbf4de",
    "navy": "#004d95",
    "orange": "#f48221",
    "pink": "#c13c7d",
    "red": "#d81e3e",
    "turquoise": "#00a99e",
    "violet": "#7f528b",
    "white": "#ffffff",
    "yellow": "#f8c200",
}

_DIGITS = re.compile(r"-?\d+")


def first_int(value: Any, default: int = 0) -> int:
    """The first whole number in a value (``80``, ``"$80*"``, ``"20/10"``), or ``default``."""
    if isinstance(value, bool):
        return default
    if isinstance(value, int | float):
        return int(value)
    if isinstance(value, str):
        m = _DIGITS.search(value.replace(",", ""))
        if m:
            return int(m.group(0))
    if isinstance(value, list) and value:
        return first_int(value[0], default)
    return default


def kind_of_phrase(text: str) -> str | None:
    """The railbook cell kind an 18xx-maker legend description names, if any."""
    low = text.lower().strip()
    if re.fullmatch(r"[a-z_]+", low):
        return low
    for kind, phrase in KIND_PHRASES:
        if phrase in low:
            return kind
    return None


def train_item(value: Any) -> str | None:
    """The train named by an 18xx-maker train event (``"4"``, ``["4", "5"]``, ``{"on": "4"}``)."""
    if isinstance(value, list):
        return train_item(value[0]) if value else None
    if isinstance(value, dict):
        return str(value["on"]) if value.get("on") is not None else None
    return str(value) if value not in (None, "") else None
