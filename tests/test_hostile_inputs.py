"""Hostile and careless input, made by the tests, against every command that reads input.

Titles go to validate, compile, info and render; records (and 18xx-maker files) to replay, export-log,
routes and import; odd folders to new.

Each case must end with exit status 1 and one line (text: on stderr; ``--json``: a ``{"error", "where"}``
object on stdout), within a time limit and a cap on the address space, never an ``internal error``.
Cases alternate between text and ``--json`` so both paths meet every kind of input.
"""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from railbook.compiler.load import available_titles

MEMORY_CAP = 1024 * 1024 * 1024  # bytes of address space for each run
TIME_LIMIT = 60.0  # seconds for each run (most take well under 2)
CODE = "import sys; from railbook.cli import main; sys.argv = ['railbook', *sys.argv[1:]]; main()"


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    seconds: float


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run_capped(args: list[str], cwd: Path) -> Run:
    """The real entry point in a fresh interpreter, as a user runs it, capped."""
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", CODE, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=TIME_LIMIT,
        preexec_fn=_cap,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - start)


def run_forked(args: list[str], cwd: Path) -> Run:
    """``railbook ARGS`` in a forked child of this (already warmed-up) process, capped: fast enough for a corpus."""
    from railbook.cli import main

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            code = 99
            try:
                os.chdir(cwd)
                os.dup2(out.fileno(), 1)
                os.dup2(err.fileno(), 2)
                sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
                sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
                _cap()
                sys.argv = ["railbook", *args]
                main()
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.perf_counter() - start > TIME_LIMIT:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                pytest.fail(f"railbook {' '.join(args)[:200]} ran for more than {TIME_LIMIT} s")
            time.sleep(0.005)
        seconds = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        text_out, text_err = out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace")
    return Run(os.waitstatus_to_exitcode(status), text_out, text_err, seconds)


# ------------------------------------------------------------------------------------------ titles


def _title(base: Path, name: str, files: dict[str, str | bytes]) -> Path:
    folder = base / name
    folder.mkdir()
    for file, text in files.items():
        (folder / file).write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return folder


def _bomb(levels: int = 9) -> str:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


def _demo(base: Path, name: str, edits: list[tuple[str, str, str]], extra: dict[str, str] | None = None) -> Path:
    """The ``railbook new`` title with ``(file, old, new)`` text edits (each must apply) and extra files."""
    from railbook.compiler.scaffold import FILES

    files = {file: text.format(name="demo") for file, text in FILES.items()}
    for file, old, new in edits:
        assert old in files[file], (file, old)
        files[file] = files[file].replace(old, new, 1)
    return _title(base, name, {**files, **(extra or {})})


_CORP = '    tokens: [0, 40]\n    color: "#1f5fa8"\n'
# Titles that validated (or crashed) before issue 38: each is now a located error.
VALUE_CASES: dict[str, tuple[list[tuple[str, str, str]], dict[str, str]]] = {
    "title a relative path": ([("game.yaml", 'title: "demo"', 'title: "../../victim"')], {}),
    "title an absolute path": ([("game.yaml", 'title: "demo"', 'title: "/tmp/victim"')], {}),
    "title of 300 characters": ([("game.yaml", 'title: "demo"', f'title: "{"t" * 300}"')], {}),
    "train count 10^18": ([("trains.yaml", "count: 4,", "count: 1000000000000000000,")], {}),
    "pool_shares -10^9": ([], {"x.yaml": ""}),
    "dividend move 10^9": (
        [("game.yaml", "dividends: {kinds: [payout, withhold]}", "dividends: {movement: [{move: 1000000000}]}")],
        {},
    ),
    "movement sale: x": ([], {"x.yaml": ""}),
    "movement end_of_stock_round: x": ([], {"x.yaml": ""}),
    "movement sold_out: yyy": ([], {"x.yaml": ""}),
    "movement free text": ([], {"x.yaml": ""}),
    "movement unknown key": ([], {"x.yaml": ""}),
    "ability on an off-map hex": (
        [("companies.yaml", _CORP, _CORP + "    abilities: [{type: token, hexes: [Z99]}]\n")],
        {},
    ),
    "control character in text": ([("game.yaml", "designer: you", 'designer: "\\x07"')], {}),
    "lone surrogate in text": ([("game.yaml", "designer: you", 'designer: "\\ud800"')], {}),
    "control character in a key": ([("game.yaml", "designer: you", 'designer: you\n  "\\x1b[31m": 1')], {}),
    "boolean for a number": ([("game.yaml", "2: {cash: 600,", "2: {cash: true,")], {}),
    "a number for true or false": (
        [("companies.yaml", "owner: player, hexes: [B4]}", "owner: player, hexes: [B4], free: 1}")],
        {},
    ),
    "text for a number": ([("game.yaml", "2: {cash: 600,", '2: {cash: "600",')], {}),
    "unknown tag": ([("game.yaml", "designer: you", "designer: !foo you")], {}),
    "omap tag": ([("game.yaml", "sources: []", "sources: !!omap [a: 1]")], {}),
    "hex number past the digit limit": ([("game.yaml", "2: {cash: 600,", f"2: {{cash: 0x{'f' * 5000},")], {}),
    "hex number out of range": ([("game.yaml", "2: {cash: 600,", f"2: {{cash: 0x{'f' * 900},")], {}),
    "2,400 copies of tiles": (
        [
            ("tiles.yaml", '"7": 4', '"7": 800'),
            ("tiles.yaml", '"8": 8', '"8": 800'),
            ("tiles.yaml", '"9": 8', '"9": 800'),
        ],
        {},
    ),
    "65 options": (
        [("game.yaml", "options:\n", "options:\n" + "".join(f"  o{i}: {{description: x}}\n" for i in range(64)))],
        {},
    ),
    "a date that is not one": ([("game.yaml", "designer: you", "designer: 2021-13-45")], {}),
    "market of 10,000 cells in a row": ([("market.yaml", '"50 60 70 80 90 100"', '"' + "50 " * 10_000 + '"')], {}),
}
_MOVEMENT = {
    "pool_shares -10^9": "{end_of_stock_round: {pool_shares: -1000000000}}",
    "movement sale: x": "{sale: x}",
    "movement end_of_stock_round: x": "{end_of_stock_round: x}",
    "movement sold_out: yyy": "{end_of_stock_round: {sold_out: yyy}}",
    "movement free text": "{up: [Sold out]}",
    "movement unknown key": "{sold_out: 1}",
}


def hostile_values(base: Path) -> dict[str, Path]:
    """Title folders with one hostile value each (the ``railbook new`` title otherwise)."""
    out = {}
    for i, (case, (edits, extra)) in enumerate(VALUE_CASES.items()):
        if case in _MOVEMENT:
            edits = [("market.yaml", "  legend: {p: par}", f"  legend: {{p: par}}\n  movement: {_MOVEMENT[case]}")]
            extra = {}
        out[case] = _demo(base, f"v{i:02d}", edits, extra)
    folder = _demo(base, "loop", [])
    (folder / "loop.yaml").symlink_to("loop.yaml")
    out["a loop of links"] = folder
    return out


def hostile_titles(base: Path) -> dict[str, Path]:
    """Title folders that must all be refused."""
    outside = base / "outside.yaml"
    outside.write_text("meta: {title: stolen}\n", encoding="utf-8")
    t = {
        "alias bomb": _title(base, "bomb", {"game.yaml": _bomb()}),
        "merge-key bomb": _title(
            base,
            "mergebomb",
            {"game.yaml": "a: &a {x: 1, y: 2}\n" + "".join(f"k{i}: {{<<: *a}}\n" for i in range(1100))},
        ),
        "deep flow nesting": _title(base, "deepflow", {"game.yaml": "a: " + "[" * 10_000 + "]" * 10_000 + "\n"}),
        "deep block nesting": _title(
            base, "deepblock", {"game.yaml": "".join(" " * i + f"k{i}:\n" for i in range(600)) + " " * 600 + "v: 1\n"}
        ),
        "huge scalar": _title(base, "hugescalar", {"game.yaml": "meta:\n  title: " + "x" * 1_200_000 + "\n"}),
        "huge number": _title(base, "hugenumber", {"game.yaml": "players:\n  3: {cash: " + "9" * 5000 + "}\n"}),
        "infinite number": _title(base, "infinite", {"game.yaml": "players:\n  3: {cash: .inf}\n"}),
        "too many values": _title(base, "manyvalues", {"game.yaml": "a:\n" + "- 1\n" * 70_000}),
        "non-UTF-8": _title(base, "latin1", {"game.yaml": b"meta:\n  title: caf\xe9\n"}),
        "BOM then garbage": _title(base, "bom", {"game.yaml": b"\xef\xbb\xbfmeta: [unclosed\n"}),
        "UTF-16": _title(base, "utf16", {"game.yaml": "meta: {title: x}\n".encode("utf-16")}),
        "empty file": _title(base, "empty", {"game.yaml": ""}),
        "multi-document": _title(base, "multidoc", {"game.yaml": "meta: {title: a}\n---\nmeta: {title: b}\n"}),
        "python tag": _title(base, "pytag", {"game.yaml": "meta: !!python/object/apply:os.system ['true']\n"}),
        "complex key": _title(base, "complexkey", {"game.yaml": "? [a, b]\n: 1\n"}),
        "top-level list": _title(base, "toplist", {"game.yaml": "- a\n- b\n"}),
        "tab indentation": _title(base, "tabs", {"game.yaml": "meta:\n\ttitle: x\n"}),
        "no yaml files": _title(base, "noyaml", {"README.md": "nothing here\n"}),
        "too many files": _title(base, "manyfiles", {f"f{i:03d}.yaml": f"k{i}: 1\n" for i in range(70)}),
    }
    folder = _title(base, "dirfile", {})
    (folder / "game.yaml").mkdir()
    t["folder named game.yaml"] = folder
    folder = _title(base, "fifo", {})
    os.mkfifo(folder / "game.yaml")
    t["fifo named game.yaml"] = folder
    folder = _title(base, "escape", {})
    (folder / "game.yaml").symlink_to(outside)
    t["symlink out of the folder"] = folder
    folder = _title(base, "devzero", {})
    (folder / "game.yaml").symlink_to("/dev/zero")
    t["symlink to /dev/zero"] = folder
    folder = _title(base, "dangling", {})
    (folder / "game.yaml").symlink_to(base / "nowhere.yaml")
    t["dangling symlink"] = folder
    os.mkfifo(base / "fifo-title")
    t["a fifo as the title"] = base / "fifo-title"
    t["no such title"] = base / "does-not-exist"
    t["a name too long"] = base / ("n" * 300)
    bad_book = base / "bad-rulebook.json"
    bad_book.write_text('{"title": 3, "hexes": [' + "[" * 5000, encoding="utf-8")
    t["broken rulebook.json"] = bad_book
    for case, change in (
        ("rulebook.json whose title is a path", {"title": "../../victim"}),
        ("rulebook.json with a control character", {"meta": {"title": "x", "full_name": "a\x1b[2J"}}),
    ):
        from railbook.api import rulebook_for_title

        book = {**rulebook_for_title("1846"), **change} if "1846" in available_titles() else change
        t[case] = base / f"{len(t):02d}-rulebook.json"
        t[case].write_text(json.dumps(book), encoding="utf-8")
    if "1846" in available_titles():
        from railbook.api import rulebook_for_title

        book = json.loads(json.dumps(rulebook_for_title("1846")))
        book["trains"]["2"]["count"] = 10**18
        t["rulebook.json with 10^18 trains"] = base / "huge-rulebook.json"
        t["rulebook.json with 10^18 trains"].write_text(json.dumps(book), encoding="utf-8")
    else:
        t["rulebook.json with 10^18 trains"] = bad_book
    odd_book = base / "odd-rulebook.json"
    odd_book.write_text(json.dumps({"title": "x", "meta": [], "hexes": 7}), encoding="utf-8")
    t["rulebook.json of the wrong shape"] = odd_book
    return t


# ----------------------------------------------------------------------------------------- records


def _players(n: int = 4) -> list[dict[str, Any]]:
    return [{"id": i + 1, "name": f"p{i + 1}"} for i in range(n)]


def _record(actions: list[Any], **extra: Any) -> dict[str, Any]:
    return {"id": 1, "title": "1846", "players": _players(), "settings": {"seed": 7}, "actions": actions, **extra}


def _acting(record: dict[str, Any]) -> tuple[str, str]:
    """An acting player and one who may not act now, at the start of the record's game."""
    from railbook.engine.replay import start_from_record

    from railbook.api import record_rulebook

    g = start_from_record(record, record_rulebook(record))
    acting = g.acting()[0]
    other = next(str(p["id"]) for p in record["players"] if str(p["id"]) != acting)
    return acting, other


def hostile_records(base: Path) -> dict[str, Path]:
    """Record files that must all be refused."""
    out: dict[str, Path] = {}

    def put(name: str, data: str | bytes | dict[str, Any]) -> None:
        path = base / f"{len(out):02d}.json"
        if isinstance(data, dict):
            data = json.dumps(data)
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        out[name] = path

    acting, other = _acting(_record([]))
    move = {"type": "pass", "entity": acting, "entity_type": "player"}
    whole = json.dumps(_record([dict(move, id=1)]))
    put("truncated", whole[: len(whole) // 2])
    put("not JSON", "title: 1846\n")
    put("empty file", "")
    put("non-UTF-8", b'{"title": "caf\xe9", "actions": []}')
    put("BOM then garbage", b"\xef\xbb\xbf{'actions': []}")
    put("deep nesting", '{"actions": ' + "[" * 100_000 + "]" * 100_000 + "}")
    put("moderately deep nesting", '{"actions": [' + '{"a":' * 200 + "1" + "}" * 200 + "]}")
    put("NaN", '{"title": "1846", "actions": [], "result": {"1": NaN}}')
    put("huge exponent", '{"title": "1846", "actions": [], "settings": {"seed": 1e999}}')
    put("huge integer", '{"title": "1846", "actions": [], "settings": {"seed": ' + "9" * 5000 + "}}")
    put("top-level list", "[1, 2, 3]")
    put("actions not a list", _record({"a": 1}))  # type: ignore[arg-type]
    put("action not an object", _record([1, 2]))
    put("action without type", _record([{"id": 1, "entity": acting}]))
    put("auto_actions not a list", _record([dict(move, id=1, auto_actions="x")]))
    put("players not a list", _record([], players="abc"))
    put("settings a list", _record([], settings=[1]))
    put("optional rules of the wrong type", _record([], settings={"optional_rules": {"a": 1}}))
    put("result not numbers", _record([], result={"1": "lots"}))
    put("created_at 1e20", _record([], created_at=1e20))
    put("created_at before the year 1", _record([], created_at=-62135596801))
    put("title of the wrong type", _record([], title=["1846"]))
    put("unknown title", _record([], title="9999"))
    put("title not playable", _record([dict(move, id=1)], title="1817"))
    put("unknown action", _record([{"id": 1, "type": "teleport", "entity": acting, "entity_type": "player"}]))
    put("out-of-turn action", _record([{"id": 1, "type": "pass", "entity": other, "entity_type": "player"}]))
    put("unknown entity", _record([{"id": 1, "type": "pass", "entity": "nobody", "entity_type": "player"}]))
    put("field of the wrong type", _record([{"id": 1, "type": "bid", "entity": acting, "price": {"x": [1]}}]))
    put("entity a list", _record([{"id": 1, "type": "pass", "entity": [1, 2], "entity_type": "player"}]))
    put("missing id", _record([{"type": "pass", "entity": acting, "entity_type": "player"}]))
    put("id not a number", _record([{"id": "one", "type": "pass", "entity": acting, "entity_type": "player"}]))
    dup = [dict(move, id=1), dict(move, id=1), {"id": 2, "type": "undo", "action_id": 1}]
    put("duplicate id an undo targets", _record(dup))
    chain = [dict(move, id=1)] + [{"id": i + 2, "type": "undo"} for i in range(40_000)]
    chain.append({"id": 50_000, "type": "teleport", "entity": acting})
    put("undo chain 40,000 long", _record(chain))
    pingpong = [dict(move, id=i + 1) for i in range(2_000)]
    pingpong += [{"id": 3_000 + i, "type": "undo" if i % 2 == 0 else "redo", "action_id": 0} for i in range(4_000)]
    put("undo/redo ping-pong", _record(pingpong))
    put("too many actions", _record([{"id": i + 1, "type": "message"} for i in range(50_001)]))
    put("too big", '{"actions": [], "pad": "' + "x" * (17 * 1024 * 1024) + '"}')
    put("18xx-maker game of the wrong shape", {"info": {"title": "x"}, "map": {"hexes": "x"}, "trains": 7})
    copies = [{"hexes": ["A1"], "color": "plain"}] + [{"copy": "A1", "hexes": [f"Z{i}"]} for i in range(5_000)]
    put("18xx-maker map of 5,000 hexes", {"info": {"title": "x"}, "map": {"hexes": copies}})
    put("railbook log with a bad action", {"format": "railbook-log", "title": "1846", "players": [{"id": "a"}]})
    folder = base / "record-folder.json"
    folder.mkdir()
    out["a folder"] = folder
    fifo = base / "record-fifo.json"
    os.mkfifo(fifo)
    out["a fifo"] = fifo
    out["no such file"] = base / "missing.json"
    out["a name too long"] = base / ("n" * 300 + ".json")
    return out


# ------------------------------------------------------------------------------------------- tests


def _commands_for_title(path: Path, out: Path) -> dict[str, list[str]]:
    return {
        "validate": ["validate", str(path)],
        "compile": ["compile", str(path), "--out", str(out)],
        "info": ["info", str(path)],
        "render": ["render", str(path), "--only", "tiles", "--format", "svg", "--out", str(out)],
    }


def _commands_for_record(path: Path, out: Path) -> dict[str, list[str]]:
    return {
        "replay": ["replay", str(path)],
        "export-log": ["export-log", str(path), "--out", str(out / "log.json")],
        "routes": ["routes", str(path)],
        "import": ["import", "18xx-maker", str(path), "--out", str(out / "imported")],
    }


LOCATED = re.compile(r"^\S[^:]*(:\d+:\d+)?: \S")


def _check(run: Run, as_json: bool, what: str) -> None:
    """Exit 1; text: one located line per problem on stderr; JSON: one error object on stdout."""
    assert "Traceback" not in run.stderr, what
    assert "internal error" not in run.stderr + run.stdout, f"{what}: {run.stderr[-300:]} {run.stdout[-300:]}"
    assert run.returncode == 1, f"{what}: exit {run.returncode}: {run.stderr[-300:]} {run.stdout[-300:]}"
    assert run.seconds < TIME_LIMIT
    if as_json:
        lines = run.stdout.strip().splitlines()
        assert len(lines) == 1, f"{what}: {run.stdout[-500:]}"
        error = json.loads(lines[0])
        assert isinstance(error["error"], str) and error["error"], what
        assert "where" in error, what
    else:
        lines = run.stderr.strip().splitlines()
        assert 1 <= len(lines) <= 20, f"{what}: {run.stderr[-500:]}"
        for line in lines:
            assert LOCATED.match(line) and len(line) < 600, f"{what}: {line[:300]}"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Path], dict[str, Path], Path]:
    base = tmp_path_factory.mktemp("hostile")
    from railbook.cli import _register_optional

    _register_optional()  # import every command's module once, before the runs fork
    if "1846" in available_titles():
        from railbook.api import rulebook_for_title

        rulebook_for_title("1846")
    for sub in ("titles", "records", "out"):
        (base / sub).mkdir()
    titles = {**hostile_titles(base / "titles"), **hostile_values(base / "titles")}
    records = hostile_records(base / "records") if "1846" in available_titles() else {}
    out = base / "out"
    return titles, records, out


TITLE_CASES = [
    "alias bomb",
    "merge-key bomb",
    "deep flow nesting",
    "deep block nesting",
    "huge scalar",
    "huge number",
    "infinite number",
    "too many values",
    "non-UTF-8",
    "BOM then garbage",
    "UTF-16",
    "empty file",
    "multi-document",
    "python tag",
    "complex key",
    "top-level list",
    "tab indentation",
    "no yaml files",
    "too many files",
    "folder named game.yaml",
    "fifo named game.yaml",
    "symlink out of the folder",
    "symlink to /dev/zero",
    "dangling symlink",
    "a fifo as the title",
    "no such title",
    "a name too long",
    "broken rulebook.json",
    "rulebook.json of the wrong shape",
    "rulebook.json whose title is a path",
    "rulebook.json with a control character",
    "rulebook.json with 10^18 trains",
]


@pytest.mark.parametrize("case", TITLE_CASES)
def test_hostile_title(case: str, corpus: tuple[dict[str, Path], dict[str, Path], Path]) -> None:
    titles, _, out = corpus
    for i, (command, args) in enumerate(_commands_for_title(titles[case], out).items()):
        as_json = (i + TITLE_CASES.index(case)) % 2 == 0
        _check(run_forked([*args, "--json"] if as_json else args, out), as_json, f"{case} / {command}")


VALUE_CASE_NAMES = [*VALUE_CASES, "a loop of links"]


@pytest.mark.parametrize("case", VALUE_CASE_NAMES)
def test_hostile_value(case: str, corpus: tuple[dict[str, Path], dict[str, Path], Path]) -> None:
    """A located error from validate (naming the file of the title, line and column), compile and render; nothing
    written anywhere (a title that names a path must not reach outside ``--out``)."""
    titles, _, out = corpus
    around = out.parent
    before = sorted(p.name for p in around.iterdir())
    args = {
        "validate": ["validate", str(titles[case])],
        "compile": ["compile", str(titles[case]), "--out", str(out)],
        "render": ["render", str(titles[case]), "--only", "tiles", "--format", "svg", "--out", str(out)],
    }
    for i, (command, argv) in enumerate(args.items()):
        as_json = (i + VALUE_CASE_NAMES.index(case)) % 2 == 0
        run = run_forked([*argv, "--json"] if as_json else argv, out)
        _check(run, as_json, f"{case} / {command}")
        where = json.loads(run.stdout)["where"] if as_json else run.stderr.split(": ")[0]
        assert re.search(r"\.yaml:\d+:\d+$", where or ""), f"{case} / {command}: not located: {where}"
    assert sorted(p.name for p in around.iterdir()) == before, f"{case}: files written beside --out"
    assert not (around.parent / "victim").exists() and not (around.parent.parent / "victim").exists(), case
    assert not list(out.rglob("rulebook.json")), f"{case}: a rulebook was written"


RECORD_CASES = [
    "truncated",
    "not JSON",
    "empty file",
    "non-UTF-8",
    "BOM then garbage",
    "deep nesting",
    "moderately deep nesting",
    "NaN",
    "huge exponent",
    "huge integer",
    "top-level list",
    "actions not a list",
    "action not an object",
    "action without type",
    "auto_actions not a list",
    "players not a list",
    "settings a list",
    "optional rules of the wrong type",
    "result not numbers",
    "created_at 1e20",
    "created_at before the year 1",
    "title of the wrong type",
    "unknown title",
    "title not playable",
    "unknown action",
    "out-of-turn action",
    "unknown entity",
    "field of the wrong type",
    "entity a list",
    "missing id",
    "id not a number",
    "duplicate id an undo targets",
    "undo chain 40,000 long",
    "undo/redo ping-pong",
    "too many actions",
    "too big",
    "18xx-maker game of the wrong shape",
    "18xx-maker map of 5,000 hexes",
    "railbook log with a bad action",
    "a folder",
    "a fifo",
    "no such file",
    "a name too long",
]


@pytest.mark.skipif("1846" not in available_titles(), reason="games/1846 not written yet")
@pytest.mark.parametrize("case", RECORD_CASES)
def test_hostile_record(case: str, corpus: tuple[dict[str, Path], dict[str, Path], Path]) -> None:
    _, records, out = corpus
    for i, (command, args) in enumerate(_commands_for_record(records[case], out).items()):
        as_json = (i + RECORD_CASES.index(case)) % 2 == 0
        _check(run_forked([*args, "--json"] if as_json else args, out), as_json, f"{case} / {command}")
    assert not (out / "log.json").exists(), "export-log wrote a log for a record it refused"
    assert not (out / "imported").exists(), "import wrote a title from a file it refused"


NEW_CASES = {
    "name with a slash": ["new", "a/b", "--dir", "{base}"],
    "name '..'": ["new", "..", "--dir", "{base}"],
    "empty name": ["new", "", "--dir", "{base}"],
    "existing folder": ["new", "titles", "--dir", "{base}"],
    "folder is a file": ["new", "x", "--dir", "{base}/plain-file"],
    "folder below a file": ["new", "x", "--dir", "{base}/plain-file/sub"],
    "folder is a fifo": ["new", "x", "--dir", "{base}/a-fifo"],
    "folder under /dev/null": ["new", "x", "--dir", "/dev/null/sub"],
    "name of 300 characters": ["new", "n" * 300, "--dir", "{base}"],
    "name with a control character": ["new", "a\x07", "--dir", "{base}"],
}


@pytest.mark.parametrize("case", list(NEW_CASES))
def test_new_with_odd_paths(case: str, tmp_path: Path) -> None:
    (tmp_path / "titles").mkdir()
    (tmp_path / "plain-file").write_text("x", encoding="utf-8")
    os.mkfifo(tmp_path / "a-fifo")
    args = [a.format(base=tmp_path) for a in NEW_CASES[case]]
    before = sorted(p.name for p in tmp_path.iterdir())
    for as_json in (False, True):
        _check(run_forked([*args, "--json"] if as_json else args, tmp_path), as_json, case)
    assert sorted(p.name for p in tmp_path.iterdir()) == before, "a refused title left files behind"


@pytest.mark.parametrize(
    ("kind", "case", "command"),
    [
        ("title", "alias bomb", "validate"),
        ("title", "deep flow nesting", "render"),
        ("record", "deep nesting", "replay"),
    ]
    + [("record", "undo chain 40,000 long", c) for c in ("export-log", "routes")],
)
def test_entry_point_in_a_fresh_process(
    kind: str, case: str, command: str, corpus: tuple[dict[str, Path], dict[str, Path], Path]
) -> None:
    """A few cases through a real, separate interpreter (the corpus runs in forked children)."""
    titles, records, out = corpus
    if kind == "record" and not records:
        pytest.skip("games/1846 not written yet")
    table = _commands_for_title(titles[case], out) if kind == "title" else _commands_for_record(records[case], out)
    for as_json in (False, True):
        args = table[command]
        _check(run_capped([*args, "--json"] if as_json else args, out), as_json, f"{case} / {command}")
