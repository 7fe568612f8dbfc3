"""Issue 38 outside the engine: where railbook writes, what it deletes, the modes of its files, its workers, its
import of hostile 18xx-maker files, and its command line (one result or one error, never both)."""

from __future__ import annotations

import copy
import json
import os
import random
import signal
import stat
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from railbook.compiler.load import available_titles
from railbook.interop.ingest import import_file
from railbook.render.build import MANIFEST, RenderOptions, render_title

from railbook.errors import RailbookError
from railbook.jsonio import write_atomic
from railbook.outputs import OutputError, inside, title_id_problem, write_inside
from railbook.workers import die_with_parent
from tests.conftest import fixture_files, run_cli
from tests.test_hostile_inputs import run_forked

HAS_1846 = "1846" in available_titles()

# ------------------------------------------------------------------------------------------- where it writes


@pytest.mark.parametrize("part", ["..", ".", "", "a/b", "/etc/passwd", "a\\b", "x\x00y", "n" * 300])
def test_inside_refuses_what_is_not_one_plain_name(tmp_path: Path, part: str) -> None:
    with pytest.raises(OutputError):
        inside(tmp_path, part, "rulebook.json")


def test_inside_refuses_links_and_files_on_the_way(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "linked").symlink_to(elsewhere)
    (out / "plain").write_text("x", encoding="utf-8")
    for parts in (("linked", "rulebook.json"), ("plain", "rulebook.json")):
        with pytest.raises(OutputError):
            write_inside(out, *parts, data="{}")
    assert not list(elsewhere.iterdir())
    assert write_inside(out, "t", "rulebook.json", data="{}") == out / "t" / "rulebook.json"


def test_title_ids() -> None:
    for good in ("1846", "18Chesapeake", "1825-U1", "a.b_c", "x" * 64):
        assert title_id_problem(good) is None, good
    for bad in ("", ".", "..", "../x", "/abs", "a/b", ".hidden", "-x", "x" * 65, "caf\u00e9", "a b", 7, None):
        assert title_id_problem(bad), bad


@pytest.mark.skipif(not HAS_1846, reason="games/1846 not written yet")
@pytest.mark.parametrize("command", ["compile", "export"])
def test_out_an_existing_file_or_an_unwritable_path(tmp_path: Path, command: str) -> None:
    afile = tmp_path / "afile"
    afile.write_text("keep", encoding="utf-8")
    loop = tmp_path / "loop"
    loop.symlink_to("loop")
    for i, out in enumerate((afile, Path("/dev/null/sub"), tmp_path / ("n" * 300), loop, loop / "sub")):
        as_json = i % 2 == 1
        run = run_forked([command, "1846", "--out", str(out), *(["--json"] if as_json else [])], tmp_path)
        assert run.returncode == 1, run.stderr
        assert "internal error" not in run.stdout + run.stderr and "Traceback" not in run.stderr
        if as_json:
            assert json.loads(run.stdout)["error"]
        else:
            assert len(run.stderr.strip().splitlines()) == 1 and run.stdout == ""
    assert afile.read_text(encoding="utf-8") == "keep"


@pytest.mark.skipif(not HAS_1846, reason="games/1846 not written yet")
def test_import_out_an_existing_file_a_long_name_or_an_unwritable_path(tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    assert run_cli("export", "1846", "--out", str(tmp_path)).returncode == 0
    (tmp_path / "1846.json").rename(game)
    afile = tmp_path / "afile"
    afile.write_text("keep", encoding="utf-8")
    loop = tmp_path / "loop"
    loop.symlink_to("loop")
    for out in (afile, tmp_path / ("n" * 300), Path("/dev/null/sub"), tmp_path, loop, loop / "sub"):
        run = run_forked(["import", "18xx-maker", str(game), "--out", str(out)], tmp_path)
        assert run.returncode == 1 and len(run.stderr.strip().splitlines()) == 1, run.stderr
        assert "internal error" not in run.stderr
    assert afile.read_text(encoding="utf-8") == "keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "g.json", "loop"]


# ------------------------------------------------------------------------------------------ what it deletes


def test_render_cleans_up_only_what_it_wrote(books: dict[str, Any], tmp_path: Path) -> None:
    folder = tmp_path / "rich"
    folder.mkdir()
    mine = folder / "tiles-99.svg"  # named like a page, but the user's
    mine.write_text("<svg/>", encoding="utf-8")
    render_title(books["rich"], tmp_path, ("tiles",), RenderOptions(formats=("svg",), tile_size=50))
    many = sorted(folder.glob("tiles-*.svg"))
    render_title(books["rich"], tmp_path, ("tiles",), RenderOptions(formats=("svg",), tile_size=20))
    few = sorted(folder.glob("tiles-*.svg"))
    assert len(few) < len(many) and mine.exists()
    made = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["files"]
    assert "tiles-99.svg" not in made and all(p.name in made for p in few if p != mine)


def test_render_of_a_title_that_names_a_path_writes_nothing_outside(books: dict[str, Any], tmp_path: Path) -> None:
    book = copy.deepcopy(books["demo"])
    book["title"] = "../escaped"
    out = tmp_path / "out"
    with pytest.raises(RailbookError):
        render_title(book, out, ("tiles",), RenderOptions(formats=("svg",)))
    assert sorted(p.name for p in tmp_path.iterdir()) in ([], ["out"])


# ----------------------------------------------------------------------------------------------- file modes


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)])
def test_written_files_get_the_umask_s_mode(tmp_path: Path, umask: int, mode: int) -> None:
    old = os.umask(umask)
    try:
        write_atomic(tmp_path / "f.json", "{}")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "f.json").stat().st_mode) == mode


# ---------------------------------------------------------------------------------------------- its workers


def test_a_worker_dies_with_its_parent(tmp_path: Path) -> None:
    """The initializer of render's workers: a worker whose parent is killed ends within a second or two."""
    pid_file = tmp_path / "worker.pid"
    parent = os.fork()
    if parent == 0:  # the "command": starts a worker, then waits to be killed
        try:
            me = os.getpid()
            worker = os.fork()
            if worker == 0:
                die_with_parent(me)
                pid_file.write_text(str(os.getpid()), encoding="utf-8")
                time.sleep(60)
                os._exit(0)
            time.sleep(60)
        finally:
            os._exit(0)
    deadline = time.monotonic() + 10
    while not pid_file.exists() or not pid_file.read_text(encoding="utf-8"):
        assert time.monotonic() < deadline, "the worker did not start"
        time.sleep(0.01)
    worker = int(pid_file.read_text(encoding="utf-8"))
    os.kill(parent, signal.SIGKILL)
    os.waitpid(parent, 0)
    deadline = time.monotonic() + 5
    while True:
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            break
        assert time.monotonic() < deadline, "the worker outlived its parent"
        time.sleep(0.05)


# ---------------------------------------------------------------------------------------------- its imports


@pytest.fixture(scope="module")
def maker_game(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    if not HAS_1846:
        pytest.skip("games/1846 not written yet")
    from railbook.interop.export import export_rulebook

    from railbook.api import rulebook_for_title

    return export_rulebook(rulebook_for_title("1846"))[0]


def _paths(x: Any, p: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [p]
    if isinstance(x, dict):
        for k, v in x.items():
            out += _paths(v, (*p, k))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            out += _paths(v, (*p, i))
    return out


MUTANTS = [None, 0, -1, 10**30, "x", "", [], {}, [1], {"a": 1}, True, 1.5, "\x07", "../x"]


def test_mutated_maker_files_import_or_give_one_plain_line(maker_game: dict[str, Any], tmp_path: Path) -> None:
    rng = random.Random(38)
    spots = [p for p in _paths(maker_game) if p]
    refused = 0
    for i in range(30):
        game = copy.deepcopy(maker_game)
        for _ in range(rng.randint(1, 3)):
            path = rng.choice(spots)
            node: Any = game
            try:
                for key in path[:-1]:
                    node = node[key]
                if isinstance(node, dict) and rng.random() < 0.3:
                    node.pop(path[-1], None)
                else:
                    node[path[-1]] = rng.choice(MUTANTS)
            except (KeyError, IndexError, TypeError):
                continue
        source = tmp_path / "g.json"
        source.write_text(json.dumps(game), encoding="utf-8")
        try:
            import_file(source, tmp_path / f"t{i}")
        except RailbookError as exc:
            refused += 1
            text = str(exc)
            assert len(text.splitlines()) == 1 and "Error" not in text and "object" not in text, text
    assert refused > 0


def test_a_broken_tiles_file_is_named(maker_game: dict[str, Any], tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    game.write_text(json.dumps(maker_game), encoding="utf-8")
    tiles = tmp_path / "tiles"
    tiles.mkdir()
    (tiles / "broken.json").write_text('{"7": [', encoding="utf-8")
    run = run_cli("import", "18xx-maker", str(game), "--tiles", str(tiles), "--out", str(tmp_path / "t"))
    assert run.returncode == 1 and run.stderr.startswith(str(tiles / "broken.json")), run.stderr
    assert not (tmp_path / "t").exists()


def test_the_input_file_name_is_escaped_in_the_header_comment(maker_game: dict[str, Any], tmp_path: Path) -> None:
    game = tmp_path / "x\ncash: 1\n#.json"
    game.write_text(json.dumps(maker_game), encoding="utf-8")
    import_file(game, tmp_path / "t")
    text = (tmp_path / "t" / "game.yaml").read_text(encoding="utf-8")
    header = text.split("\nmeta:")[0]
    assert all(line.startswith("#") for line in header.splitlines()), header
    assert run_cli("validate", str(tmp_path / "t")).returncode in (0, 1)  # loads: no stray key from the name
    assert "cash: 1\n" not in text


# ----------------------------------------------------------------------------------------- its command line


@pytest.mark.skipif(not fixture_files("1846"), reason="shared records not available (set RAILBOOK_SHARED)")
def test_replay_json_prints_one_object_when_the_result_differs(tmp_path: Path) -> None:
    path = min(fixture_files("1846"), key=lambda p: p.stat().st_size)
    record = json.loads(path.read_text(encoding="utf-8"))
    first = next(iter(record["result"]))
    record["result"][first] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    run = run_cli("replay", str(bad), "--json")
    assert run.returncode == 1
    lines = run.stdout.strip().splitlines()
    assert len(lines) == 1, run.stdout
    data = json.loads(lines[0])
    assert "differs from the recorded" in data["error"]
    assert {"result", "game_end_reason", "actions"} <= set(data)
    text = run_cli("replay", str(bad))
    assert text.returncode == 1 and text.stdout == "" and len(text.stderr.strip().splitlines()) == 1


def test_soak_reproduce_hint_names_the_title_as_given(capsys: pytest.CaptureFixture[str]) -> None:
    from railbook.cli import _print_soak

    failure = SimpleNamespace(seed=17, action=3, invariant="cash", message="went negative")
    summary = SimpleNamespace(
        playable=True,
        title="demo",
        games=1,
        finished=0,
        end_reasons={},
        rule_ends=0,
        unended={"failed": 1},
        title_failure=None,
        not_judged=None,
        actions=3,
        seconds=0.1,
        games_per_second=10.0,
        failures=[failure],
    )
    _print_soak(summary, "my titles/demo")
    out = capsys.readouterr().out
    assert "soak 'my titles/demo' --games 1 --seed 17" in out


def test_import_force_replaces_only_a_title_folder(maker_game: dict[str, Any], tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    game.write_text(json.dumps(maker_game), encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes.txt").write_text("precious", encoding="utf-8")
    with pytest.raises(RailbookError, match="replaces only a title folder"):
        import_file(game, home, force=True)
    assert (home / "notes.txt").read_text(encoding="utf-8") == "precious"
    title = tmp_path / "title"
    import_file(game, title)
    import_file(game, title, force=True)
    assert (title / "game.yaml").is_file()


@pytest.mark.parametrize("args", [["compile", "--bogus"], ["render", "--jobs", "-1"], ["info"]])
def test_usage_errors_are_one_line_and_exit_1(args: list[str], tmp_path: Path) -> None:
    for as_json in (False, True):
        run = run_forked([*args, *(["--json"] if as_json else [])], tmp_path)
        assert run.returncode == 1, (args, run.stderr)
        if as_json:
            assert json.loads(run.stdout)["where"] == "command line" and run.stderr == ""
        else:
            assert run.stdout == "" and len(run.stderr.strip().splitlines()) == 1
            assert run.stderr.startswith("command line: ")


@pytest.mark.skipif(not HAS_1846, reason="games/1846 not written yet")
@pytest.mark.parametrize("text", ["{", '{"type": 7}', '{"$ref": "other.json"}', "[1]"])
def test_export_schemas_that_are_broken_are_one_line(tmp_path: Path, text: str) -> None:
    schemas = tmp_path / "schemas"
    schemas.mkdir()
    (schemas / "game.schema.json").write_text(text, encoding="utf-8")
    run = run_forked(["export", "1846", "--out", str(tmp_path / "out"), "--schemas", str(schemas), "--json"], tmp_path)
    assert run.returncode == 1 and len(run.stdout.strip().splitlines()) == 1, run.stdout
    assert "internal error" not in run.stdout and json.loads(run.stdout)["error"]
    assert not (tmp_path / "out").exists()
