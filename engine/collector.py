"""The cycle collector during a long run of actions (a replay, a soak game).

A full collection walks every container object the process holds: the loaded rulebooks, the game's book,
every imported module's objects.  Inside a replay in a process that holds all five titles, one such
collection took 30-150 ms, which is 4-150 µs on each action of the record it fell in.  The heap that exists
when a run starts is long-lived, so :func:`settled_heap` moves it out of the collector's sight
(``gc.freeze``) for the run; objects made during the run are collected as usual, and afterwards the frozen
heap is handed back to the oldest generation (``gc.unfreeze``).  Runs may nest: only the outermost one
freezes and unfreezes.

The youngest generation is also collected less often during a run (every ``YOUNG_THRESHOLD`` allocations rather
than Python's 700): an action's objects mostly die young by reference counting, so fewer, larger collections
find as little and cost half as much (2.7 → 1.3 µs per action over every record)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: allocations between collections of the youngest generation during a run (Python's default is 700)
YOUNG_THRESHOLD = 5000

_depth = 0


@contextmanager
def settled_heap() -> Iterator[None]:
    """Collections inside the ``with`` block skip every object that existed before it."""
    global _depth
    outermost = _depth == 0
    thresholds = gc.get_threshold()
    if outermost:
        gc.freeze()
        gc.set_threshold(max(thresholds[0], YOUNG_THRESHOLD), *thresholds[1:])
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if outermost:
            gc.set_threshold(*thresholds)
            gc.unfreeze()
