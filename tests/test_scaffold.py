"""The `railbook new` scaffold is a working start: it compiles, renders and plays a short random game to its end."""

from __future__ import annotations

import random
from pathlib import Path

from railbook.compiler.compile import build_rulebook
from railbook.engine.game import Game
from railbook.engine.randomplay import random_action
from railbook.render.build import COMPONENTS, RenderOptions, render_svgs

ACTIONS = 600


def test_scaffold_has_a_private_and_an_option(demo_title: Path) -> None:
    book = build_rulebook(demo_title)
    assert book["privates"] and book["options"]
    private = next(iter(book["privates"].values()))
    assert private["value"] > 0 and private["abilities"]


def test_scaffold_renders_every_component(demo_title: Path) -> None:
    book = build_rulebook(demo_title)
    for component in COMPONENTS:
        pages = render_svgs(book, component, RenderOptions(formats=("svg",)))
        assert pages and all(page.startswith(b"<?xml") or b"<svg" in page[:400] for page in pages), component


def test_scaffold_plays_a_short_random_game(demo_title: Path) -> None:
    book = build_rulebook(demo_title)
    for options in ((), tuple(book["options"])):
        game = Game.start(book, ["ann", "bob", "cy"], seed=3, options=options)
        rnd = random.Random(3)
        kinds: set[str] = set()
        types: set[str] = set()
        for _ in range(ACTIONS):
            if game.state.finished:
                break
            action = random_action(game, rnd, pass_weight=0.7)
            assert action is not None, f"no legal action in a {game.state.round.kind} round"
            game.process(action)
            kinds.add(game.state.round.kind)
            types.add(action["type"])
        assert {"stock", "operating"} <= kinds, kinds
        assert {"par", "buy_shares", "buy_train", "lay_tile", "run_routes", "dividend"} <= types, types
        assert game.state.finished and game.state.game_end_reason == "bank", "a short game plays to its end"
        assert sum(game.result().values()) > 0
