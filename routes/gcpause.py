"""Pausing Python's cycle collector while the optimiser works.

Graph building and the search make many small objects and no cycles worth collecting, while a full collection
over a caller's large heap (a replayed game, a benchmark's positions) can cost more than the work itself.  The
collector is paused before anything is allocated (a collection that is due would otherwise start at the first
allocation) and resumed after, when it was on."""

from __future__ import annotations

import gc


def pause_collector() -> bool:
    """Turn the cycle collector off; returns whether it was on (give that to :func:`resume_collector`)."""
    was_on = gc.isenabled()
    gc.disable()
    return was_on


def resume_collector(was_on: bool) -> None:
    if was_on:
        gc.enable()
