"""Figures the benchmarks record, written by ``make bench`` to ``benchmarks/results.json`` (one run's figures, to
compare between commits)."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from railbook import compiled

RESULTS: dict[str, Any] = {}
PATH = Path(__file__).resolve().parent / "results.json"


def record(section: str, key: str, value: Any) -> None:
    """Keep one figure: ``results[section][key] = value``."""
    RESULTS.setdefault(section, {})[key] = value


def interpreter() -> str:
    """The interpreter the figures are measured on: implementation, executable and build."""
    return (
        f"{platform.python_implementation()} {platform.python_version()} {os.path.realpath(sys.executable)} "
        f"(built {platform.python_build()[1]}, {platform.python_compiler()})"
    )


def write() -> Path:
    """Write the figures with the commit and machine they were measured on."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=PATH.parent
        ).stdout.strip()
    except OSError:
        commit = ""
    meta = {
        "commit": commit,
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "python": platform.python_version(),
        "interpreter": interpreter(),
        "engine": compiled.status(),
        "machine": platform.machine(),
    }
    PATH.write_text(json.dumps({"meta": meta, **RESULTS}, indent=2, sort_keys=True) + "\n")
    return PATH
