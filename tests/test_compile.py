"""The compiler: canonical, byte-identical, atomic output valid against the published schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from railbook.compiler.compile import build_rulebook, compile_title
from railbook.compiler.load import available_titles
from railbook.compiler.schema import SCHEMA_DIR, schema_texts

from railbook.jsonio import apply_merge_patch, merge_patch_diff
from tests.conftest import run_cli


def test_committed_schemas_are_current() -> None:
    for name, text in schema_texts().items():
        path = SCHEMA_DIR / name
        assert path.is_file(), f"{path} missing: run `railbook schema`"
        assert path.read_text(encoding="utf-8") == text, f"{path} is stale: run `railbook schema`"


def test_compile_is_byte_identical(demo_title: Path, tmp_path: Path) -> None:
    first = compile_title(demo_title, tmp_path / "a").read_bytes()
    second = compile_title(demo_title, tmp_path / "b").read_bytes()
    assert first == second
    assert first.endswith(b"\n")
    assert json.loads(first)["format_version"]


def test_failed_compile_keeps_earlier_output(demo_title: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    path = compile_title(demo_title, out)
    before = path.read_bytes()
    (demo_title / "trains.yaml").write_text("trains: [oops\n")
    proc = run_cli("compile", str(demo_title), "--out", str(out))
    assert proc.returncode == 1
    assert path.read_bytes() == before
    assert [p.name for p in path.parent.iterdir()] == ["rulebook.json"]


def test_resolved_upgrades_and_neighbours(demo_title: Path) -> None:
    book = build_rulebook(demo_title)
    assert book["tiles"]["57"]["upgrades"] == ["14", "15"]
    assert book["tiles"]["7"]["upgrades"] == []
    assert book["hexes"]["B2"]["tile_upgrades"] == ["57"]
    assert set(book["hexes"]["A3"]["tile_upgrades"]) == {"7", "8", "9"}
    # pointy layout: A3's neighbours are A1 (left), A5 (right), B2 (lower left), B4 (lower right)
    assert book["hexes"]["A3"]["neighbours"] == {"0": "B2", "1": "A1", "4": "A5", "5": "B4"}


def test_merge_patch_round_trip() -> None:
    base = {"a": 1, "b": {"c": 2, "d": 3}, "e": [1, 2]}
    target = {"a": 1, "b": {"c": 5}, "e": [3], "f": "new"}
    patch = merge_patch_diff(base, target)
    assert patch == {"b": {"c": 5, "d": None}, "e": [3], "f": "new"}
    assert apply_merge_patch(base, patch) == target


@pytest.mark.parametrize("title", available_titles())
def test_title_compiles_and_matches_schema(title: str) -> None:
    book = build_rulebook(title)
    schema = json.loads((SCHEMA_DIR / "rulebook.schema.json").read_text())
    jsonschema.validate(book, schema)
    for name, option in book["options"].items():
        variant = apply_merge_patch({**book, "options": {}}, option["patch"])
        jsonschema.validate(variant, schema), name


def test_info_json_keys(demo_title: Path) -> None:
    proc = run_cli("info", str(demo_title), "--json")
    assert proc.returncode == 0, proc.stderr
    facts = json.loads(proc.stdout)
    for key in ("title", "players", "hexes", "tiles", "trains", "corporations", "privates", "phases"):
        assert key in facts
    assert facts["players"] == {"min": 2, "max": 3}
    assert facts["corporations"] == ["WR", "ER"]
    assert facts["trains"][0] == {"name": "2", "price": 80, "count": 4, "variants": []}


def test_new_refuses_to_overwrite(demo_title: Path) -> None:
    proc = run_cli("new", "demo", "--dir", str(demo_title.parent))
    assert proc.returncode == 1
    assert "already exists" in proc.stderr
