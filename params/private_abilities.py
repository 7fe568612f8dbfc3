"""The ``private_abilities`` mechanic's parameters and declaration.

Its rules: ``engine/mechanics/private_abilities.py``."""

from __future__ import annotations

from railbook.params.base import Declaration, NoParams

SOLD_TRACK_STEP = "sold_track"

DECLARATION = Declaration(
    name="private_abilities",
    description="abilities of private companies set off by an event (a train bought, the private sold)",
    params=NoParams,
    steps=(SOLD_TRACK_STEP,),
    requires=("TileLays",),
)
