"""The public API's typed legal actions: every item ``Game.legal_actions()`` offers is accepted by ``Game.process``
once its open choices are filled, for every title; undo and redo step through the same states."""

from __future__ import annotations

import random

import pytest
from railbook.engine.errors import IllegalAction, SaveError
from railbook.engine.game import Game
from railbook.engine.legal import IntRange, LegalAction, RoutesChoice, from_descriptions
from railbook.routes import best_routes

from railbook.api import rulebook_for_title

TITLES = ("1846", "1850", "1856", "1870", "1817")
#: actions played per title: enough for private auctions, stock rounds and several operating rounds
ACTIONS = 260


def _routes(game: Game, option: LegalAction) -> list[dict[str, object]]:
    """The optimiser's best routes for the operating company, as a ``run_routes`` list."""
    return best_routes(game, option.entity).run()


def _fill(game: Game, option: LegalAction, rnd: random.Random) -> LegalAction:
    for name, allowed in option.open.items():
        if isinstance(allowed, IntRange):
            option = option.with_(**{name: rnd.choice(allowed.values())})
        elif isinstance(allowed, RoutesChoice):
            option = option.with_(**{name: _routes(game, option)})
    return option


def _play(title: str, seed: int, actions: int) -> Game:
    game = Game.start(rulebook_for_title(title), ["ann", "bob", "cy", "dee"], seed=seed)
    rnd = random.Random(seed)
    for _ in range(actions):
        if game.state.finished:
            break
        options = game.legal_actions()
        assert options, f"{title}: nobody can act but the game is not over"
        passes = [o for o in options if o.type == "pass"]
        others = [o for o in options if o.type != "pass"]
        pick = rnd.choice(passes if passes and (not others or rnd.random() < 0.35) else others)
        filled = _fill(game, pick, rnd)
        assert filled.complete
        try:
            game.process(filled)
        except IllegalAction as exc:  # pragma: no cover - the failure this test exists to find
            pytest.fail(f"{title} seed {seed}: offered {filled.to_action()} was refused: {exc}")
    return game


@pytest.mark.parametrize("title", TITLES)
def test_every_offered_action_is_accepted_once_filled(title: str) -> None:
    game = _play(title, seed=7, actions=ACTIONS)
    assert len(game.actions) > 0


def test_open_choices_are_checked_and_must_be_filled() -> None:
    option = LegalAction("bid", "ann", "player", {"company": "X"}, {"price": IntRange(20, 60, 5)})
    with pytest.raises(IllegalAction, match="choose 'price'"):
        option.to_action()
    with pytest.raises(IllegalAction, match="not allowed"):
        option.with_(price=22)
    with pytest.raises(IllegalAction, match="not an open choice"):
        option.with_(company="Y")
    assert option.with_(price=25).to_action() == {
        "type": "bid",
        "entity": "ann",
        "entity_type": "player",
        "company": "X",
        "price": 25,
    }
    assert list(IntRange(20, 30, 5).values()) == [20, 25, 30]


def test_descriptions_expand_to_one_action_per_choice_with_typed_ranges() -> None:
    descs = [
        {"type": "bid", "entity": "a", "entity_type": "player", "company": "X", "min": 23, "max": 40, "step": 5},
        {"type": "buy_company", "entity": "B", "entity_type": "corporation", "choices": [
            {"company": "P1", "price": {"min": 1, "max": 60}}, {"company": "P2", "price": {"min": 5, "max": 2}}]},
        {"type": "pass", "entity": "a", "entity_type": "player"},
        {"type": "run_routes", "entity": "B", "entity_type": "corporation", "trains": ["2-1"], "routes": "text"},
    ]  # fmt: skip
    bid, buy, passing, run = from_descriptions(descs)
    assert bid.open == {"price": IntRange(25, 40, 5)} and bid.fields == {"company": "X"}
    assert buy.fields == {"company": "P1"} and buy.open == {"price": IntRange(1, 60)}  # P2's empty range: no offer
    assert passing.complete and passing.to_action() == {"type": "pass", "entity": "a", "entity_type": "player"}
    assert run.open == {"routes": RoutesChoice(("2-1",))}


def test_undo_and_redo_return_to_the_same_states() -> None:
    game = _play("1846", seed=3, actions=150)
    states = []
    for _ in range(140):
        states.append(game.save())
        game.undo()
    assert not game.can_undo() or len(game.actions) == 150 - 140
    for saved in reversed(states):
        game.redo()
        assert game.save() == saved
    with pytest.raises(IllegalAction, match="no undone action"):
        game.redo()


def test_an_action_after_an_undo_drops_the_redo_list() -> None:
    game = _play("1846", seed=5, actions=12)
    game.undo()
    assert game.can_redo()
    game.process(_fill(game, game.legal_actions()[-1], random.Random(0)))
    assert not game.can_redo()


def test_load_refuses_another_titles_save_and_garbage() -> None:
    saved = Game.start(rulebook_for_title("1846"), ["a", "b", "c"], seed=1).save()
    with pytest.raises(SaveError, match="1846"):
        Game.load(rulebook_for_title("1850"), saved)
    for text in ("not json", "[]", '{"state": 3}', '{"rulebook": "1846", "state": {"players": 7}}'):
        with pytest.raises(SaveError):
            Game.load(rulebook_for_title("1846"), text)
    with pytest.raises(SaveError):
        Game.start(rulebook_for_title("1846"), ["a", "b", "c"], seed="x")  # type: ignore[arg-type]
