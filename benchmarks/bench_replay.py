"""Interpreter speed: microseconds per kept action when replaying each recorded game."""

from __future__ import annotations

import time
from pathlib import Path

from railbook.compiler.load import available_titles

REPEATS = 3


def _records() -> list[Path]:
    from tests.conftest import fixture_files

    return [p for title in available_titles() for p in fixture_files(title)]


def run() -> None:
    from railbook.engine.errors import UnsupportedTitle
    from railbook.engine.replay import EngineError, load, replay

    from railbook.api import rulebook_for_title

    records = _records()
    if not records:
        print("   no recorded games found (set RAILBOOK_SHARED to the shared/ folder)")
        return
    total_us = 0.0
    total_actions = 0
    unsupported: set[str] = set()
    for path in records:
        record = load(path)
        if str(record.get("title")) in unsupported:
            continue
        try:
            rulebook = rulebook_for_title(str(record["title"]))
        except EngineError:
            continue
        best = None
        outcome = None
        for _ in range(REPEATS):
            start = time.perf_counter()
            try:
                outcome = replay(record, rulebook=rulebook)
            except UnsupportedTitle as exc:
                unsupported.add(str(record["title"]))
                print(f"   {record['title']:5s} {'(all records)':40s} skipped: {exc}")
                break
            except EngineError as exc:
                print(f"   {record['title']:5s} {path.stem:40s} stopped: {exc}")
                break
            elapsed = time.perf_counter() - start
            best = elapsed if best is None else min(best, elapsed)
        if outcome is None or best is None:
            continue
        per = 1e6 * best / max(outcome.actions, 1)
        total_us += 1e6 * best
        total_actions += outcome.actions
        flag = "match" if outcome.matches else "MISMATCH"
        print(f"   {record['title']:5s} {path.stem:40s} {outcome.actions:5d} actions {per:8.0f} us/action  {flag}")
    if total_actions:
        print(f"   all   {'':40s} {total_actions:5d} actions {total_us / total_actions:8.0f} us/action")
