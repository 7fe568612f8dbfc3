"""18xx-maker interop: exports validate against 18xx-maker's schemas, titles survive a round trip, its games
import as titles that validate, compile and render, and `railbook diff` compares titles fact by fact."""

from __future__ import annotations

import functools
import io
import json
import tarfile
from pathlib import Path
from typing import Any

import pytest
from railbook.compiler.compile import build_rulebook
from railbook.interop.breadth import summary, sweep
from railbook.interop.encoding import decode, encode
from railbook.interop.export import export_rulebook
from railbook.interop.facts import compare, facts, track_facts
from railbook.interop.geometry import connectivity, edge_of_side, side_of_edge
from railbook.interop.ingest import import_game, track_of, write_title
from railbook.interop.npm import _extract, maker_packages

from railbook.api import load_rulebook
from railbook.errors import RailbookError
from tests.conftest import run_cli

TITLES = ["1817", "1846", "1850", "1856", "1870"]
# a sample of @18xx-maker/games: both layouts, maps with encodings, no map at all, tile variants
SAMPLE = ["1846", "1856", "18Chesapeake", "1825-U1", "1860"]


@pytest.fixture(scope="session")
def maker(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(games package, schemas folder) fetched with npm once per run; skipped where npm or the net is not."""
    import os

    cache = Path(os.environ["RAILBOOK_NPM_CACHE"]) if os.environ.get("RAILBOOK_NPM_CACHE") else None
    try:
        return maker_packages(cache or tmp_path_factory.mktemp("npm"))
    except RailbookError as exc:
        pytest.skip(f"18xx-maker packages unavailable: {exc}")


@functools.cache
def _exported(title: str) -> tuple[dict[str, Any], str, list[str]]:
    book = load_rulebook(title)
    game, losses = export_rulebook(book)
    return book, json.dumps(game), losses


def exported(title: str) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """A title's rulebook, its 18xx-maker export (a fresh copy) and the losses, computed once per run."""
    book, text, losses = _exported(title)
    return book, json.loads(text), losses


# --------------------------------------------------------------------------------------- pure pieces


def test_sides_and_edges_are_inverse() -> None:
    for layout in ("flat", "pointy"):
        assert sorted(edge_of_side(s, layout) for s in range(1, 7)) == list(range(6))
        assert all(side_of_edge(edge_of_side(s, layout), layout) == s for s in range(1, 7))
    assert edge_of_side(1, "flat") == 0  # bottom on both tools
    assert edge_of_side(1, "pointy") == 1  # the left edge once the frame is turned


@pytest.mark.parametrize(
    ("kind", "side", "other"), [("sharp", 1, 2), ("gentle", 1, 3), ("straight", 1, 4), ("gentle", 5, 1)]
)
def test_track_pieces_join_the_sides_18xx_maker_draws(kind: str, side: int, other: int) -> None:
    paths, junctions = connectivity([{"type": kind, "side": side}], [], "flat")
    assert junctions == 0
    assert {frozenset(p) for p in paths} == {frozenset((str(side - 1), str(other - 1)))}


def test_a_town_on_a_curve_splits_it_and_a_city_gathers_its_spokes() -> None:
    town_on_sharp = {"towns": [{"angle": 30, "percent": 0.57735}], "track": [{"type": "sharp", "side": 1}]}
    assert track_of(town_on_sharp, "flat")["paths"] == [{"a": "0", "b": "t0"}, {"a": "t0", "b": "1"}]
    city = {"cities": [{"size": 2}], "values": [{"value": 30}], "track": [{"side": 1}, {"side": 3}]}
    track = track_of(city, "pointy")
    assert track["cities"] == [{"revenue": 30, "slots": 2}]
    assert sorted(p["a"] for p in track["paths"]) == ["1", "3"]


@pytest.mark.parametrize("title", TITLES)
def test_encoding_round_trips_every_hex_and_tile_of_the_title(title: str) -> None:
    book, _, _ = exported(title)
    for item in [*book["hexes"].values(), *book["tiles"].values()]:
        assert track_facts(decode(encode(item))) == track_facts(item), item["id"]


# ------------------------------------------------------------------------------------------ export


@pytest.mark.parametrize("title", TITLES)
def test_export_validates_against_18xx_makers_schema(title: str, maker: tuple[Path, Path]) -> None:
    from railbook.interop.validate import validate_game

    _, game, _ = exported(title)
    assert validate_game(game, maker[1]) == []
    broken = json.loads(json.dumps(game))
    del broken["trains"][0]["color"]
    assert validate_game(broken, maker[1]), "the schema check must catch a train without a colour"


@pytest.mark.parametrize("title", TITLES)
def test_round_trip_keeps_every_fact_18xx_maker_holds(title: str, tmp_path: Path) -> None:
    book, game, losses = exported(title)
    imported = import_game(game, title, {}, source=f"{title}.json")
    back = build_rulebook(write_title(imported, tmp_path / title))
    assert compare(facts(book), facts(back)) == []
    tables = [t for t in book["trains"].values() if isinstance(t["count"], dict)]
    assert len([x for x in losses if "count by number of players" in x]) == len(tables)
    assert any(line.startswith("mechanics:") for line in losses)


def test_cli_export_writes_the_file_and_lists_losses(tmp_path: Path) -> None:
    done = run_cli("export", "1846", "--to", "18xx-maker", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "1846.json").read_text())["info"]["title"] == "1846"
    assert "not carried: mechanics" in done.stderr
    bad = run_cli("export", "1846", "--to", "rails", "--out", str(tmp_path))
    assert bad.returncode == 1 and bad.stderr.strip().count("\n") == 0 and "unknown format" in bad.stderr


# ------------------------------------------------------------------------------------------ import


def test_sample_of_18xx_maker_games_validates_compiles_and_renders(maker: tuple[Path, Path]) -> None:
    games, schemas = maker
    files = [games / "games" / f"{name}.json" for name in SAMPLE]
    outcomes = sweep(files, games / "tiles", schemas, render=False)
    counts, causes = summary(outcomes)
    assert counts["compiled"] == len(SAMPLE), causes
    rendered = sweep(files[:1], games / "tiles", schemas, render=True)
    assert rendered[0].reached == "rendered", rendered[0].cause


def test_imported_1846_has_the_maker_map_and_a_todo_list(maker: tuple[Path, Path], tmp_path: Path) -> None:
    games, _ = maker
    out = tmp_path / "m1846"
    done = run_cli(
        "import", "18xx-maker", str(games / "games" / "1846.json"), "--out", str(out), "--tiles", str(games / "tiles")
    )
    assert done.returncode == 0, done.stderr
    book = build_rulebook(out)
    assert len(book["hexes"]["D6"]["cities"]) == 4  # read from the hex's encoding
    assert sorted(int(p["a"]) for p in book["hexes"]["C15"]["paths"]) == [1, 3]  # drawn track, pointy
    assert book["corporations"]["NYC"]["home"] == {"hex": "D20", "city": 0, "whole_hex": False, "choose_city": False}
    assert "TODO" in (out / "NOTES.md").read_text()
    again = run_cli("import", "18xx-maker", str(games / "games" / "1846.json"), "--out", str(out))
    assert again.returncode == 1 and "already exists" in again.stderr


def test_import_rejects_what_is_not_an_18xx_maker_game(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    done = run_cli("import", "18xx-maker", str(bad), "--out", str(tmp_path / "x"))
    assert done.returncode == 1 and done.stderr.startswith(f"{bad}:1:2: not JSON")
    bad.write_text("[1, 2]", encoding="utf-8")
    done = run_cli("import", "18xx-maker", str(bad), "--out", str(tmp_path / "x"))
    assert done.returncode == 1 and "not an 18xx-maker game file" in done.stderr
    assert not (tmp_path / "x").exists()


# -------------------------------------------------------------------------------------------- diff


def test_diff_of_a_title_with_itself_is_empty_and_exits_0() -> None:
    done = run_cli("diff", "1846", "1846")
    assert done.returncode == 0 and done.stdout.strip() == "0 differences (none)"


def test_diff_reports_changed_facts_and_exits_1(tmp_path: Path) -> None:
    _, game, _ = exported("1870")
    game["trains"][0]["price"] += 5
    folder = write_title(import_game(game, "x1870", {}), tmp_path / "x1870")
    done = run_cli("diff", "1870", str(folder), "--section", "trains", "--json")
    assert done.returncode == 1
    found = json.loads(done.stdout)["differences"]["trains"]
    first = game["trains"][0]["name"]
    assert found == [f"trains.{first}.price: {game['trains'][0]['price'] - 5} != {game['trains'][0]['price']}"]


def _package_archive(path: Path, extra: tarfile.TarInfo | None = None) -> Path:
    """An npm-style package archive (``package/package.json``), with one more entry if given."""
    body = b'{"name": "x"}'
    with tarfile.open(path, "w:gz") as archive:
        info = tarfile.TarInfo("package/package.json")
        info.size = len(body)
        archive.addfile(info, io.BytesIO(body))
        if extra is not None:
            archive.addfile(extra, io.BytesIO(b"") if extra.isfile() else None)
    return path


@pytest.mark.parametrize("with_data_filter", [True, False])
def test_package_archives_unpack_only_inside_their_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, with_data_filter: bool
) -> None:
    if not with_data_filter:  # as on Python 3.11.0-3.11.3, which lack tarfile's extraction filters
        monkeypatch.delattr(tarfile, "data_filter", raising=False)
    elif not hasattr(tarfile, "data_filter"):
        pytest.skip("this Python has no tarfile extraction filters")
    with tarfile.open(_package_archive(tmp_path / "ok.tgz")) as archive:
        _extract(archive, tmp_path / "ok", "x")
    assert json.loads((tmp_path / "ok" / "package" / "package.json").read_text()) == {"name": "x"}

    escaping = tarfile.TarInfo("package/../../evil.txt")
    link = tarfile.TarInfo("package/link")
    link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
    for i, bad in enumerate([escaping, link]):
        with (
            tarfile.open(_package_archive(tmp_path / f"bad{i}.tgz", bad)) as archive,
            pytest.raises(RailbookError, match="unsafe entry"),
        ):
            _extract(archive, tmp_path / f"bad{i}", "x")
    assert not (tmp_path / "evil.txt").exists()
