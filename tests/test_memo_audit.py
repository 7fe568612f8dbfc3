"""Memoised answers stay true: replaying records with the memo audit on (every answer served from the memo is
recomputed and compared) finds no state change that forgot to bump the game's epoch."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from railbook.compiler.load import available_titles
from railbook.engine import flags, memo, setup
from railbook.engine import replay as engine_replay
from railbook.engine.book import book_for
from railbook.engine.context import Context
from railbook.engine.errors import EngineError
from railbook.engine.game import Game
from railbook.engine.replay import ReplayInternalError, load, replay
from railbook.engine.rng import seed_from

from railbook.api import rulebook_for_title
from tests.conftest import fixture_files


def _largest_records() -> list[Path]:
    out = []
    for title in available_titles():
        files = fixture_files(title)
        if files:
            out.append(max(files, key=lambda p: p.stat().st_size))
    return out


RECORDS = _largest_records()


@pytest.fixture
def audit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memo, "AUDIT", True)
    monkeypatch.setattr(flags, "AUDIT", True)


@pytest.mark.skipif(not RECORDS, reason="no shared records (set RAILBOOK_SHARED to the shared/ folder)")
@pytest.mark.parametrize("path", RECORDS, ids=[f"{p.parent.name}-{p.stem}" for p in RECORDS])
def test_replay_serves_no_stale_answer(path: Path, audit: None) -> None:
    record = load(path)
    with contextlib.suppress(EngineError):  # where a record stops is its title's tests' business (a stale answer is
        # an internal error, which is no EngineError)
        replay(record, rulebook=rulebook_for_title(record["title"]))  # a stale answer raises StaleMemo


@pytest.mark.skipif(not fixture_files("1846"), reason="no shared 1846 records (set RAILBOOK_SHARED)")
def test_audit_catches_a_change_that_does_not_bump(audit: None) -> None:
    class QuietContext(Context):
        """Spends without bumping the epoch (a subclass: a compiled ``Context`` is a native class, closed to
        patching)."""

        def spend(self, src: str, dst: str, amount: int, check_positive: bool = True) -> None:
            cash = self.state.cash
            cash[src] = cash.get(src, 0) - int(amount)
            cash[dst] = cash.get(dst, 0) + int(amount)

    caught = 0
    for path in fixture_files("1846")[:4]:
        record = load(path)
        rulebook = rulebook_for_title(record["title"])
        book = book_for(rulebook, tuple(engine_replay.record_options(record, rulebook)))
        game = Game(  # (as the replay starts a record's game, but with the quiet context)
            setup.new_game(
                QuietContext,
                book,
                engine_replay.players_of(record),
                seed_from(record.get("settings") or {}, record.get("id")),
            )
        )
        try:
            for action in engine_replay.filter_actions(record["actions"]):
                if action.get("type") in engine_replay.NON_MOVES or game.state.finished:
                    continue
                for a in [action, *(action.get("auto_actions") or [])]:
                    game.process(engine_replay.normalise(a), atomic=False)
        except memo.StaleMemo:
            caught += 1
        except EngineError:
            pass
    assert caught  # a purchase that does not bump leaves e.g. the trains on offer stale


@pytest.mark.skipif(not fixture_files("1846"), reason="no shared 1846 records (set RAILBOOK_SHARED)")
def test_audit_checks_the_steps_shortcut_answers(audit: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A step's cheap answers (``any_action``, ``allows``) are checked against its full list of actions: a
    shortcut that disagrees with ``actions`` is caught however the replay goes on."""
    from railbook.engine.mechanics.stock_round import BuySellParShares

    monkeypatch.setattr(BuySellParShares, "any_action", lambda self, entity: True)  # a shortcut that lies
    record = load(max(fixture_files("1846"), key=lambda p: p.stat().st_size))
    with pytest.raises(ReplayInternalError, match=r"StaleMemo.*any_action"):
        replay(record, rulebook=rulebook_for_title(record["title"]))


@pytest.mark.skipif(not fixture_files("1846"), reason="no shared 1846 records (set RAILBOOK_SHARED)")
def test_audit_checks_what_a_step_declares_it_offers(audit: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A step's ``offers`` (the action types it can ever list) lets the round machinery refuse other types unasked;
    a declaration that leaves out a type the step does list is caught."""
    from railbook.engine.mechanics.stock_round import BuySellParShares
    from railbook.engine.steps import base

    monkeypatch.setattr(BuySellParShares, "offers", frozenset({"sell_shares"}))  # but it offers purchases too
    monkeypatch.setattr(base, "_TRAITS", {})  # (what steps read of their class is kept per class: read it again)
    record = load(max(fixture_files("1846"), key=lambda p: p.stat().st_size))
    with pytest.raises(ReplayInternalError, match=r"StaleMemo.*allows"):
        replay(record, rulebook=rulebook_for_title(record["title"]))
