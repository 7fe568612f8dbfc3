"""The cycle collector during a run of actions: the heap from before the run is frozen, and handed back after."""

from __future__ import annotations

import gc

import pytest
from railbook.engine.collector import YOUNG_THRESHOLD, settled_heap


def test_heap_is_frozen_during_the_run_and_handed_back_after() -> None:
    before = gc.get_freeze_count()
    kept = [object() for _ in range(10)]  # something from before the run
    with settled_heap():
        assert gc.get_freeze_count() > before
    assert gc.get_freeze_count() == before
    assert kept


def test_young_objects_are_collected_less_often_during_the_run_only() -> None:
    before = gc.get_threshold()
    with settled_heap():
        assert gc.get_threshold()[0] >= YOUNG_THRESHOLD
        assert gc.get_threshold()[1:] == before[1:]
    assert gc.get_threshold() == before


def test_only_the_outermost_run_unfreezes() -> None:
    before = gc.get_freeze_count()
    with settled_heap():
        frozen = gc.get_freeze_count()
        with settled_heap():
            pass
        assert gc.get_freeze_count() == frozen
    assert gc.get_freeze_count() == before


def test_an_error_inside_the_run_still_unfreezes() -> None:
    before = gc.get_freeze_count()
    with pytest.raises(RuntimeError), settled_heap():
        raise RuntimeError("stop")
    assert gc.get_freeze_count() == before


def test_cycles_made_during_the_run_are_collected() -> None:
    class Node:
        def __init__(self) -> None:
            self.other: Node | None = None

    with settled_heap():
        a, b = Node(), Node()
        a.other, b.other = b, a
        del a, b
        assert gc.collect() >= 2
