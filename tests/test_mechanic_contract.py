"""The mechanic contract seen from a title: unknown mechanics, parameters, ids, phase events and round steps are
errors at compile time with file and line; a rulebook asking for what the engine lacks is refused clearly."""

from __future__ import annotations

import copy
import re
import shutil
from pathlib import Path

import pytest
from railbook.compiler.compile import check
from railbook.compiler.errors import TitleError
from railbook.compiler.load import GAMES_DIR, load_title
from railbook.engine.errors import UnsupportedTitle
from railbook.engine.game import Game

from railbook.api import rulebook_for_title

LOCATED = re.compile(r"^(?P<file>[^:]+\.yaml):(?P<line>\d+):(?P<col>\d+): (?P<message>.+)$")


@pytest.fixture
def title(tmp_path: Path) -> Path:
    target = tmp_path / "t1846"
    shutil.copytree(GAMES_DIR / "1846", target)
    return target


def edit(path: Path, old: str, new: str) -> int:
    """Replace the first ``old`` by ``new``; the 1-based line of the change."""
    text = path.read_text()
    assert old in text, f"{old!r} not in {path.name}"
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new, 1))
    return line


def errors(title: Path) -> list[str]:
    with pytest.raises(TitleError) as info:
        check(load_title(title))
    return info.value.problems


CASES = [
    # (file, old, new, text of the error)
    ("game.yaml", "  stock_round:\n", "  stock_rounds:\n", "stock_rounds"),
    ("game.yaml", "    sell_in_blocks: true", "    sell_in_block: true", "sell_in_block"),
    ("game.yaml", "    min_cost: 20", "    min_cost: twenty", "min_cost"),
    ("game.yaml", "    close_on_phase: III", "    close_on_phase: IIII", "no phase 'IIII'"),
    ("game.yaml", "      MS: {private: MS, debt: 80}", "      MS: {private: MSX, debt: 80}", "no private 'MSX'"),
    ("game.yaml", "    minors_order: [MS, BIG4]", "    minors_order: [MS, BIG5]", "no minor 'BIG5'"),
    ("game.yaml", "      - {payout_below_times_price: 0.5, move: -1}", "      - {when: P < S/2, move: -1}", "when"),
    ("trains.yaml", "      - type: remove_reservations", "      - type: remove_reservationz", "remove_reservationz"),
    ("trains.yaml", "        params: {privates: [MPC, SC, BT]}", "        params: {privates: [MPC], x: 1}", "x"),
    ("game.yaml", "        - special_token", "        - special_tokens", "special_tokens"),
    ("game.yaml", "      type: draft", "      type: drafting", "drafting"),
]


@pytest.mark.parametrize(("file", "old", "new", "needle"), CASES, ids=[c[3] for c in CASES])
def test_contract_errors_are_located(title: Path, file: str, old: str, new: str, needle: str) -> None:
    line = edit(title / file, old, new)
    found = errors(title)
    assert len(found) == 1, found
    m = LOCATED.match(found[0])
    assert m, found[0]
    assert Path(m["file"]).name == file
    assert int(m["line"]) in range(line - 1, line + 2), (found[0], line)
    assert needle in m["message"]


def test_switching_off_a_mechanic_leaves_its_event_unhandled(title: Path) -> None:
    """An event needs its mechanic switched on: without `tokens`, `remove_reservations` has no handler."""
    edit(title / "game.yaml", "  tokens: {}\n", "")
    found = errors(title)
    assert any("remove_reservations" in p and "switch on" in p for p in found), found


def test_defaults_are_spelled_out_in_the_compiled_rulebook() -> None:
    rb = rulebook_for_title("1846")
    assert rb["mechanics"]["stock_round"]["pool_max_percent"] == 50
    assert rb["mechanics"]["track"]["new_track_must_be_usable"] is True
    assert rb["rounds"]["kinds"]["operating"]["steps"][-1] == {"step": "buy_company", "blocks": True}


def test_the_engine_refuses_what_it_cannot_play() -> None:
    rb = copy.deepcopy(rulebook_for_title("1846"))
    rb["mechanics"]["teleportation"] = {}
    with pytest.raises(UnsupportedTitle, match="unknown mechanics teleportation"):
        Game.start(rb, ["a", "b", "c"])
    rb = copy.deepcopy(rulebook_for_title("1846"))
    rb["mechanics"]["stock_round"]["sell_after"] = "never"
    with pytest.raises(UnsupportedTitle, match=r"mechanics\.stock_round\.sell_after"):
        Game.start(rb, ["a", "b", "c"])
    rb = copy.deepcopy(rulebook_for_title("1846"))
    rb["rounds"]["kinds"]["stock"]["steps"].append({"step": "auction", "blocks": None})
    with pytest.raises(UnsupportedTitle, match="no mechanic contributes step 'auction'"):
        Game.start(rb, ["a", "b", "c"])


def test_a_required_interface_left_unprovided_is_a_located_error(tmp_path: Path) -> None:
    """`mines` requires the tile lays `track` provides: 1850 without `track` is refused at `mechanics.mines`."""
    target = tmp_path / "t1850"
    shutil.copytree(GAMES_DIR / "1850", target)
    text = (target / "game.yaml").read_text()
    start = text.index("\n  track:\n") + 1
    end = text.index("\n  ", text.index("\n", start) + 1)
    while text[end + 3] == " ":  # the block's own lines are indented deeper
        end = text.index("\n  ", end + 1)
    (target / "game.yaml").write_text(text[:start] + text[end + 1 :])
    mines_line = (target / "game.yaml").read_text().splitlines().index("  mines:") + 1
    found = [p for p in errors(target) if "requires interface TileLays" in p]
    assert len(found) == 1, errors(target)
    m = LOCATED.match(found[0])
    assert m and Path(m["file"]).name == "game.yaml" and int(m["line"]) == mines_line, found[0]
    assert (
        "mechanic mines requires interface TileLays, which no switched-on mechanic provides (switch on track)"
        in (m["message"])
    )
    rb = copy.deepcopy(rulebook_for_title("1850"))
    del rb["mechanics"]["track"]
    with pytest.raises(UnsupportedTitle, match="mechanic mines requires interface TileLays"):
        Game.start(rb, ["a", "b", "c"])
