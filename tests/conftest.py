"""Shared fixtures: paths to ../shared material and small titles made on the fly."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from railbook.compiler.scaffold import scaffold

from tests.render_support import rich_book, scaffold_book, use_test_catalogue

ROOT = Path(__file__).resolve().parent.parent


def shared_dir() -> Path | None:
    """The shared material (rules, fixtures): $RAILBOOK_SHARED or ../shared beside the repo."""
    env = os.environ.get("RAILBOOK_SHARED")
    for candidate in ([Path(env)] if env else []) + [ROOT.parent / "shared"]:
        if candidate.is_dir():
            return candidate
    return None


def fixture_files(title: str) -> list[Path]:
    base = shared_dir()
    if base is None or not (base / "fixtures" / title).is_dir():
        return []
    return sorted((base / "fixtures" / title).glob("*.json"))


def rules_text(title: str) -> str:
    base = shared_dir()
    if base is None or not (base / "rules" / f"{title}.txt").is_file():
        pytest.skip(f"rulebook text for {title} not found (set RAILBOOK_SHARED to the shared/ folder)")
    return (base / "rules" / f"{title}.txt").read_text(encoding="utf-8")


@pytest.fixture
def demo_title(tmp_path: Path) -> Path:
    """A fresh copy of the scaffolded minimal title."""
    return scaffold("demo", tmp_path)


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real `railbook` entry point in a subprocess, as a user would."""
    code = "import sys; from railbook.cli import main; sys.argv = ['railbook', *sys.argv[1:]]; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=cwd or ROOT, timeout=300
    )


@pytest.fixture(scope="session")
def books(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, dict[str, Any]]]:
    """Compiled test rulebooks for the renderer: the scaffold, a rich pointy one and a rich flat one."""
    tmp = tmp_path_factory.mktemp("render-books")
    with pytest.MonkeyPatch.context() as mp:  # the test catalogue only while compiling them
        use_test_catalogue(mp)
        compiled = {"demo": scaffold_book(tmp), "rich": rich_book(tmp), "flat": rich_book(tmp, "richflat", "flat")}
    yield compiled
