"""The live map of railbook serve: laid tiles turned as the interpreter turns them, tokens and marks drawn from the
state, and only the changed hexes drawn again."""

from __future__ import annotations

import random

import pytest
from railbook.engine.book import build_track

import railbook
from railbook.api import rulebook_for_title
from railbook.serve.mapsvg import map_base, map_svg, rotated_tile


@pytest.mark.parametrize("rotation", range(6))
def test_a_tile_turns_as_the_interpreter_turns_it(rotation: int) -> None:
    book = rulebook_for_title("1846")
    for tile in book["tiles"].values():
        drawn = build_track(rotated_tile(tile, rotation), 0)
        assert drawn.exits == build_track(tile, rotation).exits, tile["id"]


def _played(title: str, actions: int) -> railbook.Game:
    game = railbook.Game.start(rulebook_for_title(title), ["ann", "bob", "cy"], seed=2)
    rnd = random.Random(2)
    for _ in range(actions):
        offered = [o for o in game.legal_actions() if o.complete]
        lays = [o for o in offered if o.type in ("lay_tile", "place_token", "buy_train", "par", "buy_shares")]
        if not offered:
            break
        game.process(rnd.choice(lays or offered))
    return game


def test_the_map_shows_laid_tiles_tokens_and_marks() -> None:
    game = _played("1846", 150)
    laid = {h: s for h, s in game.state.hexes.items() if s.tile}
    assert laid
    svg = map_svg(game.rulebook, game.state, {next(iter(laid)): "lay"}, [[*list(laid)[:2]]])
    assert svg.startswith("<svg") and svg.count('<path class="hit') == len(game.rulebook["hexes"])
    assert f'class="hit lay" data-hex="{next(iter(laid))}"' in svg and 'class="route"' in svg
    for state in laid.values():
        tile = game.rulebook["tiles"][state.tile]
        if tile.get("cities") and any(t for city in state.tokens for t in city):
            sym = next(t for city in state.tokens for t in city if t).split("|")[-1]
            assert f">{sym}<" in svg
    base = map_base(game.rulebook)
    before = len(base.drawn)
    map_svg(game.rulebook, game.state)
    assert len(base.drawn) == before  # (an unchanged board draws nothing again)
