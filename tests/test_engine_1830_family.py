"""Every recorded 1830 and 18Chesapeake game replays with --strict to its recorded result and end reason: two titles
of the 1830 family written as YAML only, played by the base rule vocabulary (issue 36)."""

from __future__ import annotations

from pathlib import Path

import pytest
from railbook.compiler.load import available_titles
from railbook.engine.replay import load, replay

from railbook.api import rulebook_for_title
from tests.conftest import fixture_files

TITLES = ("1830", "18Chesapeake")
FILES = [p for t in TITLES for p in fixture_files(t)]
NO_FIXTURES = "the shared 1830 / 18Chesapeake records are not available (set RAILBOOK_SHARED to the shared/ folder)"


@pytest.mark.skipif(not FILES, reason=NO_FIXTURES)
@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}-{p.stem}" for p in FILES])
def test_record_replays_strictly_to_its_result(path: Path) -> None:
    record = load(path)
    assert record["title"] in available_titles()
    outcome = replay(record, rulebook=rulebook_for_title(record["title"]), strict=True)
    assert outcome.result == {str(k): int(v) for k, v in record["result"].items()}
    assert outcome.game_end_reason == record["game_end_reason"]
    assert outcome.game.state.finished
    assert not outcome.warnings, outcome.warnings


@pytest.mark.parametrize("title", TITLES)
def test_title_compiles_without_title_code(title: str) -> None:
    book = rulebook_for_title(title)
    assert book["title"] == title and book["privates"] and book["corporations"]
