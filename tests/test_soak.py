"""Soak: random legal games with invariants checked after every action (small numbers here; `make bench`
and `railbook soak TITLE --games 1000` for more)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from railbook.compiler.load import available_titles

from railbook.soak import Failure, GameReport, invariants, play_game, soak
from tests.conftest import run_cli

needs_1846 = pytest.mark.skipif("1846" not in available_titles(), reason="games/1846 not written yet")


@pytest.fixture(scope="module")
def rulebook() -> dict:
    from railbook.api import rulebook_for_title

    return rulebook_for_title("1846")


@needs_1846
def test_soak_plays_games_without_failures(rulebook: dict) -> None:
    summary = soak("1846", rulebook, games=3, seed=4242, jobs=1, max_actions=150)
    assert summary.playable and summary.games == 3
    assert summary.actions > 100
    assert summary.failures == [], [f"{f.seed}/{f.action}: {f.invariant}: {f.message}" for f in summary.failures]


@needs_1846
def test_a_game_is_reproduced_by_its_seed(rulebook: dict) -> None:
    first, again = play_game(rulebook, 77, max_actions=60), play_game(rulebook, 77, max_actions=60)
    assert (first.players, first.options, first.actions) == (again.players, again.options, again.actions)


@needs_1846
def test_invariants_catch_a_broken_state(rulebook: dict) -> None:
    from railbook.engine.game import Game

    state = Game.start(rulebook, ["a", "b", "c"], seed=3).to_json()["state"]
    total = sum(state["cash"].values())
    assert invariants(state, total) == []
    broken = copy.deepcopy(state)
    broken["cash"]["bank"] += 5
    assert [name for name, _ in invariants(broken, total)] == ["money.conserved"]
    broken = copy.deepcopy(state)
    broken["cash"]["bank"] += broken["cash"]["P|a"] + 10
    broken["cash"]["P|a"] = -10
    assert [name for name, _ in invariants(broken, total)] == ["money.negative"]
    broken = copy.deepcopy(state)
    live = [c for c, spec in broken["corporations"].items() if not (spec["closed"] or spec.get("removed"))]
    ids = next(ids for by_corp in broken["holdings"].values() for c, ids in by_corp.items() if c in live and ids)
    lost = ids.pop()
    assert {name for name, _ in invariants(broken, total)} == {"shares.100"}
    ids.extend([lost, lost])
    assert "shares.once" in {name for name, _ in invariants(broken, total)}
    broken = copy.deepcopy(state)
    broken["shares"][lost]["owner"] = "P|nobody"
    assert {name for name, _ in invariants(broken, total)} == {"shares.owner"}


@needs_1846
def test_soak_command_on_all_cores_as_json() -> None:
    cli = run_cli("soak", "1846", "--games", "2", "--seed", "9", "--jobs", "2", "--max-actions", "60", "--json")
    assert cli.returncode == 0, cli.stdout + cli.stderr
    out = json.loads(cli.stdout)
    (summary,) = out["titles"]
    assert out["failures"] == 0 and summary["games"] == 2 and summary["actions"] > 0


def test_every_title_soaks_or_says_why_not() -> None:
    cli = run_cli("soak", "--games", "1", "--max-actions", "25", "--jobs", "1")
    assert cli.returncode == 0, cli.stdout + cli.stderr
    lines = cli.stdout.strip().splitlines()
    for title in available_titles():
        line = next(x for x in lines if x.startswith(f"{title}: "))
        assert "not playable yet: " in line or line.endswith(" 0 failures"), line


def _broke(tmp_path: Path) -> dict:
    """The small title of ``test_base_vocabulary`` where no player can afford anything."""
    from tests.test_base_vocabulary import small_title

    def change(t: dict) -> None:
        for setup in t["players"].values():
            setup["cash"] = 1

    return small_title(tmp_path, change)


def test_a_title_whose_games_never_end_fails(tmp_path: Path) -> None:
    """Issue 36: a game that cannot go on is a failure with its seed, and a soak where no game reaches an end of
    the rules is a failure of the title, not "0 failures"; games cut short by a small ``--max-actions`` are too
    few to judge."""
    from tests.test_base_vocabulary import small_title

    summary = soak("vocab", _broke(tmp_path / "broke"), games=1, seed=1, jobs=1)
    assert [(f.seed, f.invariant) for f in summary.failures] == [(1, "game.stuck")]
    assert summary.rule_ends == 0 and summary.unended == {"failed": 1}
    assert summary.title_failure == "no game of 1 reached an end of the rules"
    short = soak("vocab", small_title(tmp_path / "short"), games=1, seed=1, jobs=1, max_actions=30)
    assert short.failures == [] and short.unended == {"capped": 1} and short.title_failure is None
    assert short.not_judged is not None and "30 actions" in short.not_judged


def test_a_game_ended_by_a_rule_or_not() -> None:
    """A stalled game (nobody can act, nothing changes) is no end of the rules, and neither is the action cap."""
    assert GameReport(1, 3, [], 10, True, "bank").rule_end
    stalled = GameReport(1, 3, [], 10, True, "stalled", [Failure(1, 10, "game.stalled", "")])
    assert not stalled.rule_end and stalled.unended_as == "failed"
    assert GameReport(1, 3, [], 10, False, None).unended_as == "capped"
    assert GameReport(1, 3, [], 10, True, "dnf").unended_as == "dnf"


@needs_1846
def test_bots_play_the_soak(rulebook: dict) -> None:
    """``--bots heuristic``: the heuristic bot plays every seat (stronger play than the random player's), under
    the same invariants; an unknown bot is a one-line error."""
    random_game = play_game(rulebook, 5, max_actions=40)
    bot_game = play_game(rulebook, 5, max_actions=40, bots="heuristic")
    assert bot_game.failures == [] and bot_game.actions == 40
    assert (bot_game.players, bot_game.options) == (random_game.players, random_game.options)
    cli = run_cli("soak", "1846", "--games", "1", "--bots", "nobody")
    assert cli.returncode == 1 and "no bot named 'nobody'" in cli.stderr


def test_a_record_is_played_with_the_options_its_replay_plays() -> None:
    """A game written as an 18xx.games record is replayed with the title's default options and the record's named
    ones (`record_options`: 1817's `increased_short_sales`, the site's default); railbook plays it so too, with any
    dated behaviours of the site (`also`) besides. Played without the default options, 1817 game 50009 skipped p1
    (no sixth short of WT for him) where its replay, with ten shorts, waits for him: the record stopped at its
    action 279 (differential runs: seeds 50004, 50009, 50020, 50026)."""
    from railbook.engine.replay import record_options, start_from_record

    from railbook.api import rulebook_for_title
    from railbook.soak import play_record

    rulebook = rulebook_for_title("1817")
    also = [o for o in record_options({"created_at": 1_795_000_000}, rulebook) if o.startswith("site_")]
    assert "site_crises_in_seat_order" in also
    record, report = play_record(rulebook, 50009, max_actions=285, also=also)
    assert not report.failures, report.failures
    record["created_at"] = 1_795_000_000  # (a record of the site's present: its dated behaviours on)
    assert "increased_short_sales" in record_options(record, rulebook)
    assert not record["settings"]["optional_rules"]
    game = start_from_record(record, rulebook)
    for action in record["actions"]:
        game.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
