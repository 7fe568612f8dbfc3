"""The ``teleport`` mechanic's parameters and declaration.

Its rules: ``engine/mechanics/teleport.py``."""

from __future__ import annotations

from railbook.params.base import Declaration, NoParams

TELEPORT_STEP = "teleport"

DECLARATION = Declaration(
    name="teleport",
    description="a private lays a tile and places a station token without a connection",
    params=NoParams,
    steps=(TELEPORT_STEP,),
    requires=("TileLays",),
)
