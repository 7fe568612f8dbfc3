"""The soak's state -> JSON -> state check: only changed entries of the large maps are read back, and yet a live
state that JSON would not carry is caught."""

from __future__ import annotations

import pytest
from railbook.engine.game import Game

from railbook.api import rulebook_for_title
from railbook.soak import RoundTrip


def _game() -> Game:
    return Game.start(rulebook_for_title("1846"), ["a", "b", "c"], seed=7)


def test_a_faithful_state_reads_back_the_same_action_after_action() -> None:
    import random

    from railbook.soak import choose

    g, check, rnd = _game(), RoundTrip(), random.Random(3)
    assert not check.differs(g, g.to_json())
    for _ in range(60):
        action = choose(g, rnd)
        assert action is not None
        g.process(action)
        assert not check.differs(g, g.to_json())


def test_a_change_json_cannot_carry_is_caught_in_an_unchanged_entry() -> None:
    g, check = _game(), RoundTrip()
    assert not check.differs(g, g.to_json())
    hex_id, hs = next((h, s) for h, s in g.state.hexes.items() if s.tokens)
    hs.tokens = [tuple(slots) for slots in hs.tokens]  # type: ignore[misc]  # same JSON, not the same state
    assert check.differs(g, g.to_json()), hex_id


def test_a_change_json_cannot_carry_is_caught_in_a_changed_entry() -> None:
    g, check = _game(), RoundTrip()
    assert not check.differs(g, g.to_json())
    hs = next(s for s in g.state.hexes.values() if s.tokens)
    hs.icons = [*hs.icons, ("x",)]  # type: ignore[list-item]  # a tuple comes back from JSON as a list
    assert check.differs(g, g.to_json())


@pytest.mark.parametrize("value", [{1: "a"}, {"a": {2}}])
def test_values_json_has_no_form_for_are_refused(value: object) -> None:
    g, check = _game(), RoundTrip()
    g.state.extra["x"] = value
    with pytest.raises(TypeError):
        check.differs(g, g.to_json())
