"""The ``private_payouts`` mechanic's parameters and declaration.

Its rules: ``engine/mechanics/private_payouts.py``."""

from __future__ import annotations

from railbook.params.base import Declaration, NoParams

DECLARATION = Declaration(
    name="private_payouts",
    description="privates whose owning company the bank pays or charges on events (first trains, rust, conversions)",
    params=NoParams,
)
