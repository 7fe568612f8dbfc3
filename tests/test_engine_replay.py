"""Every recorded 1846 game replays, action by action, to exactly its recorded result and end reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from railbook.compiler.load import available_titles
from railbook.engine.replay import LOG_FORMAT, export_log, filter_actions, load, replay

from railbook.api import rulebook_for_title
from tests.conftest import fixture_files, run_cli, shared_dir

pytestmark = pytest.mark.skipif("1846" not in available_titles(), reason="games/1846 not written yet")

FILES = fixture_files("1846")
NO_FIXTURES = "the shared 1846 records are not available (set RAILBOOK_SHARED to the shared/ folder)"


def _ids(paths: list[Path]) -> list[str]:
    return [p.stem for p in paths]


@pytest.mark.skipif(not FILES, reason=NO_FIXTURES)
@pytest.mark.parametrize("path", FILES, ids=_ids(FILES))
def test_record_replays_to_its_result(path: Path) -> None:
    record = load(path)
    outcome = replay(record, rulebook=rulebook_for_title(record["title"]))
    expected = {str(k): int(v) for k, v in record["result"].items()}
    assert outcome.result == expected
    assert outcome.game_end_reason == record["game_end_reason"]
    assert outcome.game.state.finished
    assert not outcome.warnings, outcome.warnings


@pytest.mark.skipif(not FILES, reason=NO_FIXTURES)
def test_stored_revenues_are_checked_and_agree() -> None:
    checked = 0
    for path in FILES:
        record = load(path)
        outcome = replay(record, rulebook=rulebook_for_title("1846"), strict=True)
        checked += outcome.revenues_checked
    assert checked > 50  # newer records store each route's revenue; all of them agree with ours


def test_undo_and_redo_filtering() -> None:
    actions = [
        {"type": "pass", "id": 1},
        {"type": "bid", "id": 2},
        {"type": "undo", "id": 3},
        {"type": "redo", "id": 4},
        {"type": "par", "id": 5},
        {"type": "undo", "id": 6},
        {"type": "message", "id": 7},
        {"type": "undo", "id": 8, "action_id": 1},
        {"type": "buy_shares", "id": 9},
    ]
    kept = [a["id"] for a in filter_actions(actions)]
    assert kept == [1, 7, 9]


@pytest.mark.skipif(not FILES, reason=NO_FIXTURES)
def test_action_log_round_trip(tmp_path: Path) -> None:
    path = min(FILES, key=lambda p: p.stat().st_size)
    record = load(path)
    outcome = replay(record, rulebook=rulebook_for_title("1846"))
    log = export_log(record, rulebook_for_title("1846"), outcome.game)
    assert log["format"] == LOG_FORMAT
    again = replay(log, rulebook_for_title("1846"))
    assert again.result == outcome.result
    assert again.game_end_reason == outcome.game_end_reason
    target = tmp_path / "game.log.json"
    target.write_text(json.dumps(log))
    cli = run_cli("replay", str(target), "--json")
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout)["result"] == outcome.result


@pytest.mark.skipif(shared_dir() is None or not FILES, reason=NO_FIXTURES)
def test_cli_replay_json() -> None:
    path = min(FILES, key=lambda p: p.stat().st_size)
    record = load(path)
    cli = run_cli("replay", str(path), "--json", "--strict")
    assert cli.returncode == 0, cli.stderr
    out = json.loads(cli.stdout)
    assert out["result"] == {str(k): int(v) for k, v in record["result"].items()}
    assert out["game_end_reason"] == record["game_end_reason"]
    assert out["actions"] > 0


@pytest.mark.skipif(not FILES, reason=NO_FIXTURES)
def test_cli_replay_stops_at_an_illegal_action_with_one_line(tmp_path: Path) -> None:
    path = min(FILES, key=lambda p: p.stat().st_size)
    record = load(path)
    for action in record["actions"]:
        if action["type"] == "par":
            action["share_price"] = "35,0,3"
            break
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(record))
    cli = run_cli("replay", str(broken))
    assert cli.returncode == 1
    lines = cli.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"{broken}: action ") and "(id " in lines[0] and "stock.par" in lines[0]
