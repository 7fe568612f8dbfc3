"""Bots: the interface, determinism, legality of every move, and the heuristic bot's basic sense (short games;
`make bench` and `railbook simulate` measure strength over full games)."""

from __future__ import annotations

import pytest
from railbook.compiler.load import available_titles
from railbook.engine.legal import LegalAction

from railbook.bots import BOTS, Bot, HeuristicBot, RandomBot, make_bot

needs_1846 = pytest.mark.skipif("1846" not in available_titles(), reason="games/1846 not written yet")


@pytest.fixture(scope="module")
def rulebook() -> dict:
    from railbook.api import rulebook_for_title

    return rulebook_for_title("1846")


def _play(rulebook: dict, bots: list[str], seed: int, actions: int) -> list[dict]:
    from railbook.engine.game import Game

    players = [f"p{i + 1}" for i in range(len(bots))]
    seated = {p: make_bot(b, seed * 10 + i) for i, (p, b) in enumerate(zip(players, bots, strict=True))}
    game = Game.start(rulebook, players, seed=seed)
    log = []
    for _ in range(actions):
        if game.state.finished:
            break
        player = game.acting()[0]
        action = seated[player].choose(game, player)
        assert isinstance(action, LegalAction) and action.complete
        game.process(action)  # an IllegalAction here fails the test: bots only make legal moves
        log.append(action.to_action())
    return log


def test_bots_are_registered_and_made_by_name() -> None:
    assert {"random": RandomBot, "heuristic": HeuristicBot} == BOTS
    bot = make_bot("heuristic", 3)
    assert isinstance(bot, Bot) and bot.seed == 3
    with pytest.raises(ValueError, match="no bot named"):
        make_bot("grandmaster", 1)


@needs_1846
def test_the_same_seeds_give_the_same_moves(rulebook: dict) -> None:
    bots = ["heuristic", "random", "heuristic", "random"]
    assert _play(rulebook, bots, 11, 120) == _play(rulebook, bots, 11, 120)


@needs_1846
def test_heuristic_bots_start_companies_and_run_trains(rulebook: dict) -> None:
    log = _play(rulebook, ["heuristic"] * 4, 5, 200)
    kinds = {a["type"] for a in log}
    assert {"par", "buy_shares", "buy_train", "run_routes", "dividend", "lay_tile"} <= kinds
    runs = [a for a in log if a["type"] == "run_routes"]
    assert any(a["routes"] for a in runs), "a company with a train runs a route"
    assert not any(a["type"] == "sell_shares" and a["entity_type"] == "player" for a in log)


@needs_1846
def test_heuristic_lays_track_that_raises_revenue(rulebook: dict) -> None:
    from railbook.engine.game import Game

    from railbook.bots import trial

    bot = HeuristicBot(1)
    game = Game.start(rulebook, ["p1", "p2", "p3", "p4"], seed=5)
    for _ in range(400):
        lays = [a for a in game.legal_actions() if a.type == "lay_tile" and a.entity_type == "corporation"]
        if lays and game.context.entity_trains(f"C|{lays[0].entity}"):
            break
        player = game.acting()[0]
        game.process(bot.choose(game, player))
    else:
        pytest.skip("no corporation with a train laid track in 400 actions")
    sym = lays[0].entity
    chosen = bot.choose(game, game.acting()[0])
    if chosen.type == "lay_tile":
        gains = [trial.revenue_after(game, a, sym) or 0 for a in lays[:30]]
        after = trial.revenue_after(game, chosen, sym)
        assert after is not None and after >= trial.revenue(game, sym)
        assert after >= min(gains)
