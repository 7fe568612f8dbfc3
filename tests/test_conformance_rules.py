"""Rules where differential play against 18xx.games (tools/differential.py, docs/CONFORMANCE.md) found railbook
wrong, each fixed by its rulebook's text and checked here on a small game railbook plays itself."""

from __future__ import annotations

from railbook.engine.game import Game
from railbook.engine.replay import start_from_record

from railbook.api import rulebook_for_title
from railbook.soak import play_record


def _game_at(title: str, seed: int, actions: int) -> tuple[Game, dict]:
    """Random game ``seed`` of a title as ``railbook soak --records`` plays it, after its first ``actions``."""
    rulebook = rulebook_for_title(title)
    record, _ = play_record(rulebook, seed, max_actions=actions)
    game = start_from_record(record, rulebook)
    for action in record["actions"]:
        game.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
    return game, record


def _types(game: Game, entity: str) -> set[str]:
    return {d["type"] for d in game.legal_descriptions() if d["entity"] == entity}


def test_1846_no_private_is_bought_with_shares_issued_for_a_mandatory_train() -> None:
    """1846 §6.5 "Mandatory Train Purchase": a corporation without a train buys one "using all of its treasury with
    the remainder coming first from issuing as many of its shares as possible": once it has issued shares for the
    train, its next purchase is that train, not a private (18xx.games agrees)."""
    game, record = _game_at("1846", 200, 25)
    last = record["actions"][-1]
    assert (last["type"], last["entity"]) == ("sell_shares", "GT")  # GT's emergency issue
    assert not game.state.corporations["GT"].trains
    assert "buy_company" not in _types(game, "GT")
    assert "buy_train" in _types(game, "GT")
