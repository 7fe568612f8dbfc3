"""Random legal play: 3-5 players, both editions, until the game ends or an action budget runs out.

After every action: money is conserved, every corporation's certificates add up to 100%, no one but the
bank has negative cash, and the state survives JSON and back unchanged.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from railbook.compiler.load import available_titles
from railbook.engine import Game
from railbook.engine.randomplay import random_action
from railbook.engine.state import BANK

from railbook.api import rulebook_for_title

pytestmark = pytest.mark.skipif("1846" not in available_titles(), reason="games/1846 not written yet")


def check_invariants(g: Game, total: int) -> None:
    s = g.state
    assert sum(s.cash.values()) == total, "money was created or destroyed"
    for key, cash in s.cash.items():
        assert key == BANK or cash >= 0, f"{key} has negative cash {cash}"
    for sym, corp in s.corporations.items():
        if corp.closed:
            continue
        held = sum(s.shares[sid].percent for by_corp in s.holdings.values() for sid in by_corp.get(sym, []))
        assert held == 100, f"{sym}'s certificates add up to {held}%"
    data = g.to_json()
    text = json.dumps(data)
    again = Game.from_json(rulebook_for_title("1846"), json.loads(text))
    assert again.to_json() == data


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**31 - 1),
    players=st.integers(min_value=3, max_value=5),
    first_ed=st.booleans(),
)
def test_random_legal_games(seed: int, players: int, first_ed: bool) -> None:
    rb = rulebook_for_title("1846")
    g = Game.start(rb, [f"p{i}" for i in range(players)], seed=seed, options=["first_ed"] if first_ed else [])
    total = sum(g.state.cash.values())
    rnd = random.Random(seed)
    check_invariants(g, total)
    for _ in range(160):
        if g.state.finished:
            break
        assert g.acting() or g.acting_entities(), "nobody can act but the game is not over"
        action = random_action(g, rnd)
        assert action is not None, f"no legal action in a {g.state.round.kind} round"
        g.process(action)
        check_invariants(g, total)
