"""Bad input gives one clear error line, and never a half-applied action."""

from __future__ import annotations

import json
from typing import Any

import pytest
from railbook.compiler.load import available_titles
from railbook.engine import Game, IllegalAction
from railbook.engine.errors import EngineError
from railbook.engine.replay import filter_actions, load, normalise

from railbook.api import record_rulebook, replay, rulebook_for_title
from tests.conftest import fixture_files

pytestmark = pytest.mark.skipif("1846" not in available_titles(), reason="games/1846 not written yet")

FILES = fixture_files("1846")


def fresh(players: int = 4, seed: int = 7) -> Game:
    return Game.start(rulebook_for_title("1846"), [f"p{i}" for i in range(players)], seed=seed)


def game_at(kind: str) -> Game:
    """A recorded game replayed until the first round of ``kind``."""
    if not FILES:
        pytest.skip("the shared 1846 records are not available")
    record = load(FILES[0])
    from railbook.engine.replay import start_from_record

    g = start_from_record(record, record_rulebook(record))
    for a in filter_actions(record["actions"]):
        if a["type"] in ("message", "log"):
            continue
        if g.state.round.kind == kind and (kind != "operating" or g.context.current_operator() is not None):
            break
        g.process(normalise(a), atomic=False)
    return g


def assert_rejected(g: Game, action: dict[str, Any], rule: str) -> None:
    before = json.dumps(g.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        g.process(action)
    assert info.value.rule.startswith(rule), str(info.value)
    assert "\n" not in str(info.value)
    assert json.dumps(g.to_json(), sort_keys=True) == before


def acting_player(g: Game) -> str:
    return g.acting()[0]


def test_not_a_dict_and_no_type() -> None:
    g = fresh()
    with pytest.raises(IllegalAction):
        g.process(["pass"])  # type: ignore[arg-type]
    assert_rejected(g, {"entity": "p0", "entity_type": "player"}, "action.malformed")


def test_unknown_ids() -> None:
    g = fresh()
    assert_rejected(g, {"type": "pass", "entity": "nobody", "entity_type": "player"}, "action.malformed")
    assert_rejected(g, {"type": "pass", "entity": "p0", "entity_type": "spaceship"}, "action.malformed")
    assert_rejected(g, {"type": "lay_tile", "entity": "XYZ", "entity_type": "corporation"}, "action.malformed")
    player = acting_player(g)
    assert_rejected(g, {"type": "bid", "entity": player, "entity_type": "player", "company": "NOPE"}, "draft.company")


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"type": "bid", "price": {"x": [1]}}, "'price'"),
        ({"type": "bid", "price": True}, "'price'"),
        ({"type": "buy_shares", "shares": 5}, "'shares'"),
        ({"type": "buy_shares", "shares": ["B&O_1", 2]}, "'shares'"),
        ({"type": "lay_tile", "hex": "B14", "tile": "7-0", "rotation": "0"}, "'rotation'"),
        ({"type": "run_routes", "routes": {"train": "2-0"}}, "'routes'"),
        ({"type": "run_routes", "routes": [{"train": "2-0", "connections": "B14"}]}, "routes[0]: field 'connections'"),
        ({"type": "run_routes", "routes": [{"connections": []}]}, "routes[0] has no train"),
        ({"type": 7}, "'type'"),
    ],
)
def test_fields_of_the_wrong_type_are_malformed(fields: dict, named: str) -> None:
    """A field of the wrong JSON type is named before any rule reads it; the state is untouched."""
    g = fresh()
    before = g.to_json()
    action = {"entity": acting_player(g), "entity_type": "player", **fields}
    with pytest.raises(IllegalAction) as caught:
        g.process(action)
    assert caught.value.rule == "action.malformed"
    assert named in caught.value.message
    assert g.to_json() == before


def test_out_of_turn() -> None:
    g = fresh()
    player = acting_player(g)
    other = next(p.id for p in g.state.players if p.id != player)
    offered = g.legal_descriptions()[0]["choices"][0]["company"]
    assert_rejected(g, {"type": "bid", "entity": other, "entity_type": "player", "company": offered}, "turn.order")


def test_draft_choice_must_be_offered() -> None:
    g = fresh()
    player = acting_player(g)
    offered = {c["company"] for c in g.legal_descriptions()[0]["choices"]}
    hidden = next(c for c in g.state.mechanics["draft"].deck if c not in offered)
    assert_rejected(g, {"type": "bid", "entity": player, "entity_type": "player", "company": hidden}, "draft.choice")


def test_illegal_tile_lays() -> None:
    g = game_at("operating")
    op = g.context.current_operator()
    assert op is not None
    sym = op[2:]
    etype = "minor" if op.startswith("M|") else "corporation"
    lay = {"type": "lay_tile", "entity": sym, "entity_type": etype}
    assert_rejected(g, {**lay, "hex": "Z99", "tile": "7-0", "rotation": 0}, "track.hex")
    assert_rejected(g, {**lay, "hex": "K3", "tile": "7-0", "rotation": 0}, "track.upgrade")
    assert_rejected(g, {**lay, "hex": "B14", "tile": "999-0", "rotation": 0}, "track.tile")
    assert_rejected(g, {**lay, "hex": "I9", "tile": "8-0", "rotation": 0}, "track.")  # far from its network
    assert_rejected(g, {**lay, "hex": "B14", "tile": "14-0", "rotation": 0}, "track.")  # green in phase I


def test_state_survives_json_after_errors() -> None:
    g = game_at("operating")
    snapshot = g.to_json()
    again = Game.from_json(rulebook_for_title("1846"), json.loads(json.dumps(snapshot)))
    assert again.to_json() == snapshot
    assert again.legal_descriptions() == g.legal_descriptions()


def test_malformed_records() -> None:
    with pytest.raises(EngineError):
        replay({"title": "1846", "players": "abc", "actions": []})
    with pytest.raises(EngineError):
        replay({"title": "no-such-title", "players": [{"name": "a"}], "actions": []})


def test_unsupported_player_count() -> None:
    with pytest.raises(EngineError):
        Game.start(rulebook_for_title("1846"), ["a", "b"])


def test_failed_action_after_many_leaves_state_and_play_unchanged() -> None:
    import random

    from railbook.engine.randomplay import random_action

    g = fresh(players=4, seed=11)
    twin = fresh(players=4, seed=11)
    rnd = random.Random(11)
    for _ in range(45):
        if g.state.finished:
            break
        action = random_action(g, rnd)
        assert action is not None
        g.process(action)
        twin.process(action)
    player = g.state.players[0].id
    assert_rejected(g, {"type": "par", "entity": player, "entity_type": "player", "corporation": "NOPE"}, "")
    assert_rejected(g, {"type": "lay_tile", "entity": "NYC", "entity_type": "corporation"}, "")
    assert g.to_json() == twin.to_json()
    action = random_action(g, random.Random(1))
    if action is not None:
        g.process(action)
        twin.process(action)
        assert g.to_json() == twin.to_json()


def test_little_miami_tiles_must_join_their_hexes() -> None:
    """A two-tile private lay that must join two hexes: a second tile that does not join them, or a
    pass after one tile, is refused (and the recorded lays are among the legal choices)."""
    path = next((p for p in FILES if "all_closed" in p.name), None)
    if path is None:
        pytest.skip("the shared 1846 record with a Little Miami lay is not available")
    from railbook.engine.replay import start_from_record

    record = load(path)
    g = start_from_record(record, record_rulebook(record))
    actions = [a for a in filter_actions(record["actions"]) if a["type"] not in ("message", "log")]
    first = next(i for i, a in enumerate(actions) if a.get("entity") == "LM")
    for a in actions[:first]:
        for x in [a, *(a.get("auto_actions") or [])]:
            g.process(normalise(x), atomic=False)
    lays = [d for d in g.legal_descriptions() if d["entity"] == "LM" and d["type"] == "lay_tile"]
    recorded = actions[first]
    assert {"hex": recorded["hex"], "tile": recorded["tile"], "rotation": recorded["rotation"]} in lays[0]["choices"]
    g.process(normalise(recorded))
    assert not any(d["entity"] == "LM" and d["type"] == "pass" for d in g.legal_descriptions())
    assert_rejected(g, {"type": "pass", "entity": "LM", "entity_type": "company"}, "track.ability")
    second = actions[first + 1]
    assert second.get("entity") == "LM"
    wrong = {**normalise(second), "rotation": (second["rotation"] + 1) % 6}
    assert_rejected(g, wrong, "track")
    g.process(normalise(second))


def test_record_without_title_is_named_clearly() -> None:
    with pytest.raises(EngineError, match="record has no 'title'"):
        replay({"actions": [{"type": "pass"}]})


@pytest.mark.skipif(not fixture_files("1846"), reason="no shared 1846 records (set RAILBOOK_SHARED)")
def test_an_engine_fault_in_a_replay_is_an_internal_error_not_a_bad_record(monkeypatch: pytest.MonkeyPatch) -> None:
    """A KeyError inside the rules is railbook's bug: the replay says so, where in the record and in the engine."""
    from railbook.engine.errors import EngineError, InternalError
    from railbook.engine.registry import mechanic
    from railbook.engine.replay import ReplayInternalError, load, replay

    hooks = mechanic("track").hooks  # (a mechanic's hook table: patchable in a compiled build too)
    original = hooks["action_processed"]
    calls = [0]

    def broken(*args: Any) -> Any:
        calls[0] += 1
        if calls[0] == 20:
            raise KeyError("lost")
        return original(*args)

    monkeypatch.setitem(hooks, "action_processed", broken)
    record = load(fixture_files("1846")[0])
    with pytest.raises(ReplayInternalError) as err:
        replay(record, rulebook=rulebook_for_title("1846"))
    assert isinstance(err.value, InternalError) and not isinstance(err.value, EngineError)
    assert err.value.exit_code == 2
    assert "internal error at action" in str(err.value) and ".py:" in str(err.value)
    assert "KeyError" in str(err.value) and "not a bad record" in str(err.value)


@pytest.mark.skipif(not fixture_files("1846"), reason="no shared 1846 records (set RAILBOOK_SHARED)")
def test_a_records_unknown_field_is_dropped_with_a_warning_but_the_api_refuses_it() -> None:
    from railbook.engine.replay import load, replay

    record = load(fixture_files("1846")[0])
    first = next(a for a in record["actions"] if a.get("type") == "bid")
    first["newer_site_field"] = {"anything": [1, 2]}
    outcome = replay(record, rulebook=rulebook_for_title("1846"))
    assert any("'newer_site_field' ignored" in w for w in outcome.warnings)
    g = Game.start(rulebook_for_title("1846"), ["a", "b", "c"], seed=1)
    with pytest.raises(IllegalAction, match="unknown field 'newer_site_field'"):
        g.process({"type": "pass", "entity": g.acting()[0], "entity_type": "player", "newer_site_field": 1})
