"""Interpreter speed: microseconds per kept action when replaying each recorded game (median of 5; wall clock,
and CPU time which a loaded machine disturbs less), and the start-up time of the command line."""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from railbook.compiler.load import available_titles

from benchmarks.results import record as note

REPEATS = 5
STARTUP_RUNS = 5
#: another installation's interpreter (its ``.venv/bin/python``) to compare with, record by record in the same run
BASELINE_ENV = "RAILBOOK_BENCH_BASELINE"
#: set (to anything): ``run`` times only the side-by-side comparison with the baseline (``make bench-replay``)
ONLY_COMPARE_ENV = "RAILBOOK_BENCH_ONLY_COMPARE"
#: comma-separated titles: ``run`` times only their records (e.g. ``RAILBOOK_BENCH_TITLES=1817,1846``)
TITLES_ENV = "RAILBOOK_BENCH_TITLES"
#: what each interpreter runs to time one record: the median CPU time of REPEATS replays (after one to warm up)
_TIMER = """
import statistics, sys, time
from railbook.api import rulebook_for_title
from railbook.engine.replay import load, replay
record = load(sys.argv[1])
rulebook = rulebook_for_title(str(record["title"]))
outcome = replay(record, rulebook=rulebook)
cpu = []
for _ in range(int(sys.argv[2])):
    start = time.process_time()
    replay(record, rulebook=rulebook)
    cpu.append(time.process_time() - start)
print(statistics.median(cpu), outcome.actions)
"""


def _times(args: list[str]) -> tuple[float, float]:
    """Median wall time and median CPU time (user + system) of a command, in seconds.  The CPU time is the
    figure to compare on a loaded machine: the wall time also counts waiting for a core.  Byte code is written
    (as an installed package has it), whatever ``PYTHONDONTWRITEBYTECODE`` says: the first run fills it."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(args, capture_output=True, check=False, env=env)
    walls, cpus = [], []
    for _ in range(STARTUP_RUNS):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(args, capture_output=True, check=False, env=env)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def startup(records: list[Path]) -> None:
    """``railbook --help`` and a replay of the smallest record, whole commands (the compiled rulebook cached)."""
    exe = str(Path(sys.executable).with_name("railbook"))
    commands = {"help": [exe, "--help"]}
    small = min((p for p in records if p.parent.name == "1846"), key=lambda p: p.stat().st_size, default=None)
    if small is not None:
        commands["replay_smallest_1846"] = [exe, "replay", str(small), "--json"]
    for name, args in commands.items():
        wall, cpu = _times(args)
        print(f"   start-up {name:28s} {wall:6.3f} s wall {cpu:6.3f} s CPU")
        note("startup", f"{name}_s", round(wall, 4))
        note("startup", f"{name}_cpu_s", round(cpu, 4))


def _records() -> list[Path]:
    from tests.conftest import fixture_files

    chosen = [t for t in os.environ.get(TITLES_ENV, "").split(",") if t]
    return [p for title in available_titles() if not chosen or title in chosen for p in fixture_files(title)]


def run() -> None:
    from railbook.engine.errors import UnsupportedTitle
    from railbook.engine.replay import EngineError, load, replay

    from railbook.api import rulebook_for_title

    records = _records()
    if not records:
        print("   no recorded games found (set RAILBOOK_SHARED to the shared/ folder)")
        return
    baseline = os.environ.get(BASELINE_ENV)
    if baseline and os.environ.get(ONLY_COMPARE_ENV):
        compare(records, baseline)
        return
    total_us = 0.0
    total_actions = 0
    by_title: dict[str, list[float]] = {}  # title -> [wall us, CPU us, actions]
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
        cpu_runs: list[float] = []
        outcome = None
        for _ in range(REPEATS):
            start, cpu_start = time.perf_counter(), time.process_time()
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
            cpu_runs.append(time.process_time() - cpu_start)
        if outcome is None or len(runs) < REPEATS:
            continue
        best = statistics.median(runs)
        per = 1e6 * best / max(outcome.actions, 1)
        per_cpu = 1e6 * statistics.median(cpu_runs) / max(outcome.actions, 1)
        total_us += 1e6 * best
        total_actions += outcome.actions
        flag = "match" if outcome.matches else "MISMATCH"
        print(
            f"   {record['title']:5s} {path.stem:40s} {outcome.actions:5d} actions {per:8.0f} us/action "
            f"({per_cpu:.0f} CPU)  {flag}"
        )
        sums = by_title.setdefault(str(record["title"]), [0.0, 0.0, 0])
        sums[0] += 1e6 * best
        sums[1] += per_cpu * outcome.actions
        sums[2] += outcome.actions
        note(
            "replay",
            f"{record['title']}/{path.stem}",
            {
                "actions": outcome.actions,
                "us_per_action": round(per, 1),
                "us_per_action_cpu": round(per_cpu, 1),
                "matches": outcome.matches,
            },
        )
    for title, (us, cpu_us, n) in sorted(by_title.items()):
        print(f"   {title:5s} {'(title)':40s} {n:5d} actions {us / n:8.0f} us/action ({cpu_us / n:.0f} CPU)")
        note(
            "replay_by_title",
            title,
            {"actions": n, "us_per_action": round(us / n, 1), "us_per_action_cpu": round(cpu_us / n, 1)},
        )
    if total_actions:
        print(f"   all   {'':40s} {total_actions:5d} actions {total_us / total_actions:8.0f} us/action")
        note("replay_by_title", "all", {"actions": total_actions, "us_per_action": round(total_us / total_actions, 1)})
    startup(records)
    if baseline:
        compare(records, baseline)


def _cpu_us(python: str, path: Path) -> tuple[float, int]:
    """(CPU seconds of one replay of ``path``, its kept actions) under interpreter ``python``."""
    out = subprocess.run(
        [python, "-I", "-c", _TIMER, str(path), str(REPEATS)], capture_output=True, text=True, check=True
    ).stdout.split()
    return float(out[0]), int(out[1])


def compare(records: list[Path], baseline: str) -> None:
    """CPU microseconds per kept action of this installation and of ``baseline`` (another interpreter), each record
    timed by both in turn, so that a busy machine disturbs both alike; per title, and the ratio."""
    print(f"   side by side with {baseline} (CPU us per kept action; each record timed by both in turn)")
    sums: dict[str, list[float]] = {}  # title -> [our CPU s, baseline CPU s, actions]
    for path in records:
        try:
            ours, n = _cpu_us(sys.executable, path)
            theirs, _ = _cpu_us(baseline, path)
        except subprocess.CalledProcessError:
            continue  # (a title one of them cannot play)
        row = sums.setdefault(path.parent.name, [0.0, 0.0, 0])
        row[0] += ours
        row[1] += theirs
        row[2] += n
    for title, (ours, theirs, n) in sorted(sums.items()):
        a, b = 1e6 * ours / n, 1e6 * theirs / n
        print(f"   {title:5s} {n:5d} actions  this {a:6.1f}  baseline {b:6.1f} us/action  ratio {a / b:5.2f}")
        note("replay_vs_baseline", title, {"us_per_action_cpu": round(a, 1), "baseline_cpu": round(b, 1)})
