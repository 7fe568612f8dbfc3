"""Interpreter speed: microseconds per kept action when replaying each recorded game (median of 5), and the
start-up time of the command line."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

from railbook.compiler.load import available_titles

from benchmarks.results import record as note

REPEATS = 5
STARTUP_RUNS = 5


def _wall(args: list[str]) -> float:
    """Median wall time of a command, in seconds."""
    times = []
    for _ in range(STARTUP_RUNS):
        start = time.perf_counter()
        subprocess.run(args, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def startup(records: list[Path]) -> None:
    """``railbook --help`` and a replay of the smallest record, whole commands (the compiled rulebook cached)."""
    exe = str(Path(sys.executable).with_name("railbook"))
    figures = {"help_s": _wall([exe, "--help"])}
    small = min((p for p in records if p.parent.name == "1846"), key=lambda p: p.stat().st_size, default=None)
    if small is not None:
        subprocess.run([exe, "replay", str(small)], capture_output=True, check=False)  # fill the cache
        figures["replay_smallest_1846_s"] = _wall([exe, "replay", str(small), "--json"])
    for key, value in figures.items():
        print(f"   start-up {key:28s} {value:6.3f} s")
        note("startup", key, round(value, 4))


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
    by_title: dict[str, list[float]] = {}
    unsupported: set[str] = set()
    for path in records:
        record = load(path)
        if str(record.get("title")) in unsupported:
            continue
        try:
            rulebook = rulebook_for_title(str(record["title"]))
        except EngineError:
            continue
        runs: list[float] = []
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
            runs.append(time.perf_counter() - start)
        if outcome is None or len(runs) < REPEATS:
            continue
        best = statistics.median(runs)
        per = 1e6 * best / max(outcome.actions, 1)
        total_us += 1e6 * best
        total_actions += outcome.actions
        flag = "match" if outcome.matches else "MISMATCH"
        print(f"   {record['title']:5s} {path.stem:40s} {outcome.actions:5d} actions {per:8.0f} us/action  {flag}")
        by_title.setdefault(str(record["title"]), [0.0, 0])
        by_title[str(record["title"])][0] += 1e6 * best
        by_title[str(record["title"])][1] += outcome.actions
        note(
            "replay",
            f"{record['title']}/{path.stem}",
            {"actions": outcome.actions, "us_per_action": round(per, 1), "matches": outcome.matches},
        )
    for title, (us, n) in sorted(by_title.items()):
        note("replay_by_title", title, {"actions": n, "us_per_action": round(us / n, 1)})
    if total_actions:
        print(f"   all   {'':40s} {total_actions:5d} actions {total_us / total_actions:8.0f} us/action")
        note("replay_by_title", "all", {"actions": total_actions, "us_per_action": round(total_us / total_actions, 1)})
    startup(records)
