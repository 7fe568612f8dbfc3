"""The ``core`` mechanic's parameters and declaration (its rules: ``engine/mechanics/core.py``)."""

from __future__ import annotations

from railbook.params.base import Declaration, NoParams

DECLARATION = Declaration(
    name="core",
    description="rules every title has: stock and operating rounds, private income, phases, closures, game end",
    params=NoParams,
    round_types=("stock", "operating"),
    uses=("PrivateCompanies",),
)
