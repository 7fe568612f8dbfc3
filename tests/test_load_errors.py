"""Broken YAML gives one located error line and exit status 1, never a traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import run_cli

LOCATED = re.compile(r"^(?P<file>[^:]+\.yaml):(?P<line>\d+):(?P<col>\d+): .+")


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1))


def _one_located_error(title: Path, file: str, line: int | None = None) -> str:
    proc = run_cli("validate", str(title))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    m = LOCATED.match(lines[0])
    assert m, lines[0]
    assert m["file"].endswith(file)
    if line is not None:
        assert int(m["line"]) == line, lines[0]
    return lines[0]


def test_scaffold_is_valid(demo_title: Path) -> None:
    proc = run_cli("validate", str(demo_title))
    assert proc.returncode == 0, proc.stderr
    assert "demo: ok" in proc.stdout or "ok" in proc.stdout


# (file, text to replace, replacement, expected line or None, expected text in the error)
BROKEN = {
    "missing_key": ("trains.yaml", "price: 80, ", "", 2, "trains.2.price: required key is missing"),
    "wrong_type": ("trains.yaml", "price: 180", "price: lots", 3, "trains.3.price"),
    "unknown_tile": ("tiles.yaml", '"57": 2', '"57x": 2', 5, "unknown tile '57x'"),
    "unknown_hex": ("companies.yaml", "home: B6", "home: Z99", None, "unknown hex 'Z99'"),
    "duplicate_hex": ("map.yaml", "    A3:\n", "    A3:\n    A3:\n", 6, "duplicate key 'A3' (first defined at line 5)"),
    "bad_indentation": ("map.yaml", "    A3:\n", "      A3: x\n   A4:\n", None, ""),
    "tab_characters": ("map.yaml", "    A3:\n", "\tA3:\n", 5, "tab"),
    "unknown_key": ("trains.yaml", "rusts_on:", "rust_on:", 2, "unknown key"),
    "shares_not_100": (
        "companies.yaml",
        "    tokens: [0, 40]\n",
        "    tokens: [0, 40]\n    shares: [20, 10]\n",
        None,
        "100%",
    ),
    "off_grid_hex": ("map.yaml", "    A3:\n", "    B5:\n", None, "off the pointy grid"),
    "cell_letter_not_in_legend": ("market.yaml", '"60 70p', '"60q 70p', None, "legend"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_title_gives_one_located_line(demo_title: Path, case: str) -> None:
    file, old, new, line, expected = BROKEN[case]
    _edit(demo_title / file, old, new)
    msg = _one_located_error(demo_title, file, line=line)
    assert expected in msg


def test_empty_file(demo_title: Path) -> None:
    (demo_title / "market.yaml").write_text("")
    msg = _one_located_error(demo_title, "market.yaml", line=1)
    assert "empty" in msg


@pytest.mark.parametrize("title", ["no-such-title"])
def test_unknown_title(title: str) -> None:
    proc = run_cli("validate", title)
    assert proc.returncode == 1
    assert proc.stderr.strip().count("\n") == 0 and "no such title" in proc.stderr


def test_an_option_excluding_an_unknown_option_is_located(demo_title: Path) -> None:
    _edit(
        demo_title / "game.yaml",
        "    description: A shorter game",
        "    excludes: [long_game]\n    description: A shorter game",
    )
    msg = _one_located_error(demo_title, "game.yaml")
    assert "options.short_game.excludes" in msg and "unknown option 'long_game'" in msg
