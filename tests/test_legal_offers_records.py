"""Every move real players made in the shared 18xx.games records is among the engine's legal actions at that
moment: ``legal_actions()`` offers what the rules allow, not only what random play happens to need.

Each recorded action must fit one description of the same entity and type: its fields within the description's
fixed values, price ranges and (for descriptions with ``choices``) one of the choices.  Copies of one tile or train
name are the same choice (records number copies their own way), shares of one company, owner and size are
interchangeable, and city ids are compared by the city they name.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from railbook.compiler.load import available_titles
from railbook.engine.game import Game
from railbook.engine.replay import NON_MOVES, filter_actions, normalise, start_from_record
from railbook.engine.stations import parse_city

from railbook.api import rulebook_for_title
from tests.conftest import fixture_files

#: notices 18xx.games adds to records (programmed passes, a manual end, a destination reached): not moves
NOTICES = {"end_game", "destination_connection"}
RECORDS = [p for title in sorted(available_titles()) for p in fixture_files(title)]


def _share(game: Game, share_id: str) -> tuple[str, str, int]:
    """What makes shares interchangeable: their company, owner and size."""
    share = game.state.shares.get(str(share_id))
    return (share.corp, share.owner, share.percent) if share else (str(share_id), "", 0)


def _same(game: Game, key: str, offered: Any, taken: Any) -> bool:
    if isinstance(offered, dict) and "min" in offered and "max" in offered:
        return isinstance(taken, int) and offered["min"] <= taken <= offered["max"]
    if isinstance(offered, str) and not isinstance(taken, str | int):
        return True  # a free field the description only describes ("legal routes, one per train")
    if key == "city" and isinstance(offered, str) and isinstance(taken, str):
        return parse_city(game.context, offered) == parse_city(game.context, taken)
    if key in ("tile", "train", "exchange") and isinstance(offered, str) and isinstance(taken, str):
        return offered.rsplit("-", 1)[0] == taken.rsplit("-", 1)[0]
    if key == "shares" and isinstance(offered, list) and isinstance(taken, list):
        return sorted(map(lambda s: _share(game, s), offered)) == sorted(map(lambda s: _share(game, s), taken))
    if isinstance(offered, list) and isinstance(taken, list):
        return sorted(map(str, offered)) == sorted(map(str, taken))
    return bool(offered == taken)


def _fields_fit(game: Game, spec: dict[str, Any], action: dict[str, Any]) -> bool:
    skip = ("entity", "entity_type", "type", "choices")
    return all(_same(game, k, v, action[k]) for k, v in spec.items() if k not in skip and k in action)


def _fits(game: Game, desc: dict[str, Any], action: dict[str, Any]) -> bool:
    if desc["type"] != action["type"] or desc["entity"] != str(action.get("entity")):
        return False
    if not _fields_fit(game, desc, action):
        return False
    choices = desc.get("choices")
    if isinstance(choices, dict):
        choices = [choices]
    if isinstance(choices, list) and choices and all(isinstance(c, dict) for c in choices):
        return any(_fields_fit(game, c, action) for c in choices)
    return True


@pytest.mark.skipif(not RECORDS, reason="the shared records are not available (set RAILBOOK_SHARED)")
@pytest.mark.parametrize("path", RECORDS, ids=[f"{p.parent.name}-{p.stem}" for p in RECORDS])
def test_every_recorded_move_was_offered(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    game = start_from_record(record, rulebook_for_title(record["title"]))
    missing = []
    for index, step in enumerate(filter_actions(record["actions"])):
        if step.get("type") in NON_MOVES or game.state.finished:
            continue
        for raw in [step, *(step.get("auto_actions") or [])]:
            action = normalise(raw)
            move = action["type"] not in NOTICES and not action["type"].startswith("program_")
            if move and not any(_fits(game, d, action) for d in game.legal_descriptions()):
                missing.append(f"action {index} (id {step.get('id')}): {json.dumps(action)[:200]}")
            game.process(action)
    assert not missing, f"{len(missing)} recorded moves were not offered, first: {missing[:3]}"
