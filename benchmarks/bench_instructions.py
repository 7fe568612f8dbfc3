"""Interpreter cost in machine instructions per kept action, undisturbed by a shared machine (opt-in; callgrind).

Run with ``python -m benchmarks instructions``.

Time per action on a shared virtual machine moves by ±30% from run to run, more than most single changes to the
engine gain or lose.  The instructions a replay executes barely move (±0.2%), so two commits can be compared
exactly.  Per title, one record of middling length (the median by size) is replayed in two processes under
callgrind, after a first run outside it has written byte code and caches: one loads everything and replays the
record once (imports, rulebook, first-use caches), the other does the same and then replays it ``EXTRA`` more
times; the difference over ``EXTRA`` replays is the steady cost.  The three runs share a rulebook cache of their
own: the user's cache is shared with every other checkout and process on the machine, whose different engine code
evicts the entries, so that one measured run could compile the rulebook and the other not.
With ``RAILBOOK_BENCH_BASELINE`` (another installation's python) the same is measured with it and the ratio printed
(``make bench-instructions BASELINE=...``).  Skipped where valgrind is missing.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.results import record as note

OPT_IN = True  # minutes under valgrind: run only when asked for by name
EXTRA = 2

_SCRIPT = """
import sys
from railbook.api import rulebook_for_title
from railbook.engine.replay import load, replay
record = load(sys.argv[2])
rulebook = rulebook_for_title(str(record["title"]))
result = replay(record, rulebook=rulebook)
for _ in range(int(sys.argv[1])):
    replay(record, rulebook=rulebook)
print(result.actions)
"""


def _instructions(python: str, script: Path, extra: int, record: Path, env: dict[str, str]) -> tuple[int, str]:
    """Instructions executed by the script (callgrind's total) and what it printed."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={tmp}/callgrind.out",
                python,
                str(script),
                str(extra),
                str(record),
            ],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        )
    found = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output: {out.stderr[-300:]}")
    return int(found.group(1)), out.stdout.strip()


def per_action(python: str, script: Path, record: Path, cache: Path) -> tuple[int, float]:
    """(kept actions, steady instructions per kept action) of ``record`` replayed by ``python``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    # set and dict orders follow string hashes: a fixed seed makes the work, and so the count, repeat exactly
    env["PYTHONHASHSEED"] = "0"
    env["RAILBOOK_CACHE"] = str(cache)
    # unmeasured first run: byte code and the rulebook cache written, so both measured runs only read them
    subprocess.run([python, str(script), "0", str(record)], capture_output=True, check=True, env=env)
    once, printed = _instructions(python, script, 0, record, env)
    more, _ = _instructions(python, script, EXTRA, record, env)
    actions = int(printed.split()[0])
    return actions, (more - once) / EXTRA / max(actions, 1)


def run() -> None:
    from benchmarks.bench_replay import BASELINE_ENV, _records

    if shutil.which("valgrind") is None:
        print("   valgrind not found: skipped")
        return
    by_title: dict[str, list[Path]] = {}
    for path in _records():
        by_title.setdefault(path.parent.name, []).append(path)
    if not by_title:
        print("   no recorded games found (set RAILBOOK_SHARED to the shared/ folder)")
        return
    baseline = os.environ.get(BASELINE_ENV)
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "replay_n.py"
        script.write_text(_SCRIPT)
        for title, paths in sorted(by_title.items()):
            path = sorted(paths, key=lambda p: p.stat().st_size)[len(paths) // 2]
            actions, per = per_action(sys.executable, script, path, Path(tmp) / "cache-this")
            figures: dict[str, float] = {"actions": actions, "instructions_per_action": round(per)}
            line = f"   {title:5s} {path.stem:32s} {actions:5d} actions {per:10,.0f} instructions/action"
            if baseline:
                _, base = per_action(baseline, script, path, Path(tmp) / "cache-baseline")
                figures["baseline_instructions_per_action"] = round(base)
                figures["ratio"] = round(per / base, 3)
                line += f"  baseline {base:10,.0f}  ratio {per / base:5.3f}"
            print(line)
            note("instructions", f"{title}/{path.stem}", figures)
