"""The ``final_value`` mechanic's parameters and declaration (its rules: ``engine/mechanics/final_value.py``)."""

from __future__ import annotations

from railbook.params.base import Declaration, NoParams

DECLARATION = Declaration(
    name="final_value",
    description="how a player's final value is computed",
    params=NoParams,
)
