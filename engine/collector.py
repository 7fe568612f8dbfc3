"""The cycle collector during a long run of actions (a replay, a soak game).

A full collection walks every container object the process holds: the loaded rulebooks, the game's book,
every imported module's objects.  Inside a replay in a process that holds all five titles, one such
collection took 30-150 ms, which is 4-150 µs on each action of the record it fell in.  The heap that exists
when a run starts is long-lived, so :func:`settled_heap` moves it out of the collector's sight
(``gc.freeze``) for the run; objects made during the run are collected as usual, and afterwards the frozen
heap is handed back to the oldest generation (``gc.unfreeze``).  Runs may nest: only the outermost one
freezes and unfreezes."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_depth = 0


@contextmanager
def settled_heap() -> Iterator[None]:
    """Collections inside the ``with`` block skip every object that existed before it."""
    global _depth
    outermost = _depth == 0
    if outermost:
        gc.freeze()
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if outermost:
            gc.unfreeze()
