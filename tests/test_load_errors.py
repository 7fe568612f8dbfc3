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


def test_missing_key(demo_title: Path) -> None:
    _edit(demo_title / "trains.yaml", "price: 80, ", "")
    msg = _one_located_error(demo_title, "trains.yaml", line=2)
    assert "trains.2.price: required key is missing" in msg


def test_wrong_type(demo_title: Path) -> None:
    _edit(demo_title / "trains.yaml", "price: 180", "price: lots")
    msg = _one_located_error(demo_title, "trains.yaml", line=3)
    assert "trains.3.price" in msg


def test_unknown_tile_reference(demo_title: Path) -> None:
    _edit(demo_title / "tiles.yaml", '"57": 2', '"57x": 2')
    msg = _one_located_error(demo_title, "tiles.yaml", line=5)
    assert "unknown tile '57x'" in msg


def test_unknown_hex_reference(demo_title: Path) -> None:
    _edit(demo_title / "companies.yaml", "home: A5", "home: Z99")
    msg = _one_located_error(demo_title, "companies.yaml")
    assert "unknown hex 'Z99'" in msg


def test_duplicate_hex(demo_title: Path) -> None:
    _edit(demo_title / "map.yaml", "    B4:\n", "    B4:\n    B4:\n")
    msg = _one_located_error(demo_title, "map.yaml", line=9)
    assert "duplicate key 'B4' (first defined at line 8)" in msg


def test_bad_indentation(demo_title: Path) -> None:
    _edit(demo_title / "map.yaml", "    A3:\n", "      A3: x\n   A4:\n")
    _one_located_error(demo_title, "map.yaml")


def test_tab_characters(demo_title: Path) -> None:
    _edit(demo_title / "map.yaml", "    A3:\n", "\tA3:\n")
    msg = _one_located_error(demo_title, "map.yaml", line=5)
    assert "tab" in msg


def test_empty_file(demo_title: Path) -> None:
    (demo_title / "market.yaml").write_text("")
    msg = _one_located_error(demo_title, "market.yaml", line=1)
    assert "empty" in msg


def test_unknown_key_is_reported(demo_title: Path) -> None:
    _edit(demo_title / "trains.yaml", "rusts_on:", "rust_on:")
    msg = _one_located_error(demo_title, "trains.yaml", line=2)
    assert "unknown key" in msg


def test_shares_must_total_100(demo_title: Path) -> None:
    _edit(demo_title / "companies.yaml", "    tokens: [0, 40]\n", "    tokens: [0, 40]\n    shares: [20, 10]\n")
    msg = _one_located_error(demo_title, "companies.yaml")
    assert "100%" in msg


def test_off_grid_hex(demo_title: Path) -> None:
    _edit(demo_title / "map.yaml", "    B4:\n", "    B5:\n")
    msg = _one_located_error(demo_title, "map.yaml")
    assert "off the pointy grid" in msg


def test_market_cell_letter_not_in_legend(demo_title: Path) -> None:
    _edit(demo_title / "market.yaml", '"60 70p', '"60q 70p')
    msg = _one_located_error(demo_title, "market.yaml")
    assert "legend" in msg


@pytest.mark.parametrize("title", ["no-such-title"])
def test_unknown_title(title: str) -> None:
    proc = run_cli("validate", title)
    assert proc.returncode == 1
    assert proc.stderr.strip().count("\n") == 0 and "no such title" in proc.stderr
