"""1817 random legal games (the soak's player) to their end, with 1817's own accounting checked after every
action: money conserved with loans and shorts moving it, loans within the market's pool and each company's cap,
every short held by a player and within the company's short limit, certificates and shorts adding up to 100%,
debts only while a cash crisis is open, and the state surviving JSON and back."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from railbook.engine import Game

from railbook.api import rulebook_for_title
from railbook.soak import choose, patience, round_key, setup_for

#: (seed, end reason): short games covering the base game's train end, a bankruptcy end and the volatility variant
GAMES = [(15, "final_phase"), (7, "bankrupt"), (8, "bankrupt")]


def _check(game: Game, total: int) -> None:
    st = game.state
    assert sum(st.cash.values()) == total, "money is made or lost"
    assert all(v >= 0 for k, v in st.cash.items() if k != "bank"), "negative cash outside the bank"
    loans = st.mechanics["loans"]
    params = game.context.params["loans"]
    assert sum(loans.loans.values()) <= params.bank_total
    for corp, n in loans.loans.items():
        c = st.corporations[corp]
        assert n >= 0 and not c.closed
        size = st.mechanics["company_sizes"].sizes.get(corp, 2)
        assert n <= params.cap_by_size[size], f"{corp} ({size} shares) has {n} loans"
    assert all(v > 0 for v in loans.owed.values()), "a settled debt is still recorded"
    percent: dict[str, int] = {}
    for sid, share in st.shares.items():
        percent[share.corp] = percent.get(share.corp, 0) + share.percent
        if share.percent < 0:
            assert share.owner.startswith("P|") or share.owner == "pool", f"short {sid} held by {share.owner}"
    for sym, c in st.corporations.items():
        if not c.closed and not c.removed and sym in percent:
            assert percent[sym] == 100, f"{sym}'s certificates and shorts add up to {percent[sym]}%"


@pytest.mark.parametrize(("seed", "reason"), GAMES, ids=[f"seed{s}" for s, _ in GAMES])
def test_random_game_reaches_its_end_with_consistent_books(seed: int, reason: str) -> None:
    rb = rulebook_for_title("1817")
    players, options = setup_for(rb, seed)
    game = Game.start(rb, players, seed=seed, options=options)
    rnd = random.Random(seed)
    total = sum(game.state.cash.values())
    this_round: tuple[Any, ...] = ()
    in_round = 0
    for n in range(1500):
        if game.state.finished:
            break
        now = round_key(game)
        in_round = in_round + 1 if now == this_round else 0
        this_round = now
        action = choose(game, rnd, patience(in_round))
        assert action is not None, "no legal action, but the game is not over"
        game.process(action)
        _check(game, total)
        if n % 20 == 0:
            data = game.to_json()
            assert Game.from_json(rb, json.loads(json.dumps(data))).to_json() == data
    assert game.state.finished and game.state.game_end_reason == reason
    if reason == "bankrupt":
        assert sum(1 for p in game.state.players if not p.bankrupt) == 1
