"""Small behaviours of the command line: version, help, info, new, routes errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import fixture_files, run_cli


def test_version_and_short_help() -> None:
    version = run_cli("--version")
    assert version.returncode == 0 and version.stdout.startswith("railbook ")
    assert version.stdout.split()[1][0].isdigit()
    short = run_cli("-h")
    assert short.returncode == 0 and "validate" in short.stdout
    assert run_cli("validate", "-h").returncode == 0


def test_info_prints_title_once_and_train_faces() -> None:
    proc = run_cli("info", "1846")
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.splitlines()[0]
    assert first.count("1846") == 1, first
    trains = next(line for line in proc.stdout.splitlines() if line.strip().startswith("trains"))
    assert "4 or 3/5 ($180/$160)" in trains and "6 or 7/8 ($800/$900)" in trains


def test_info_json_lists_variants(demo_title: Path) -> None:
    facts = json.loads(run_cli("info", "1846", "--json").stdout)
    four = next(t for t in facts["trains"] if t["name"] == "4")
    assert four["variants"] == [{"name": "3/5", "price": 160}]


def test_new_prints_a_command_that_works(tmp_path: Path) -> None:
    proc = run_cli("new", "mine", "--dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    command = proc.stdout.strip().split("check it with: ", 1)[1]
    assert command.endswith(f"validate {tmp_path / 'mine'}")
    assert run_cli(*command.split()[1:]).returncode == 0


@pytest.mark.skipif(not fixture_files("1846"), reason="shared 1846 records not found (set RAILBOOK_SHARED)")
def test_routes_unknown_action_has_no_stray_quotes() -> None:
    record = next(p for p in fixture_files("1846") if p.stem.isdigit())
    proc = run_cli("routes", str(record), "--at", "99999999")
    assert proc.returncode == 1
    assert proc.stderr.strip().endswith("no action with id 99999999 in the record"), proc.stderr
    assert "'" not in proc.stderr.split(": ", 1)[1]


@pytest.mark.skipif(not fixture_files("1846"), reason="shared 1846 records not found (set RAILBOOK_SHARED)")
def test_routes_names_the_face_each_train_ran() -> None:
    record = next((p for p in fixture_files("1846") if p.name == "3099.json"), None)
    if record is None:
        pytest.skip("record 3099 not in the shared fixtures")
    out = json.loads(run_cli("routes", str(record), "--at", "560", "--json").stdout)
    faces = {r["train"]: r["face"] for r in out["routes"]}
    assert faces and all(face in ("2", "4", "3/5", "5", "4/6", "6", "7/8") for face in faces.values())
    assert any(face != train.split("-")[0] for train, face in faces.items())
    text = run_cli("routes", str(record), "--at", "560").stdout
    assert all(f"{train} ({face})" in text for train, face in faces.items())


@pytest.mark.skipif(not fixture_files("1846"), reason="shared 1846 records not found (set RAILBOOK_SHARED)")
def test_routes_refuses_an_unknown_corporation() -> None:
    record = next(p for p in fixture_files("1846") if p.stem.isdigit())
    proc = run_cli("routes", str(record), "--corporation", "XYZ")
    assert proc.returncode == 1
    assert "--corporation: unknown corporation 'XYZ'" in proc.stderr and "B&O" in proc.stderr
