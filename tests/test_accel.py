"""Compiled builds (railbook.accel): served only while their sources are unchanged, and the engine as plain Python
replays every record to the same result as the compiled one."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from collections.abc import Callable

import pytest

from railbook import accel
from tests.conftest import fixture_files

BOARD = "railbook.engine.board"


def _built_entry(name: str) -> list:
    entries = accel._finder.entries if accel._finder is not None else {}
    if name not in entries:
        pytest.skip("no compiled builds here (make install makes them where Cython and a C compiler are present)")
    return list(entries[name])


GAME, STEP_BASE, ERRORS = "railbook.engine.game", "railbook.engine.steps.base", "railbook.engine.errors"
STATE = "railbook.engine.state"


def _with_deps(*names: str) -> dict[str, list]:
    """The built entries of ``names`` and of the modules they cimport, and theirs."""
    out: dict[str, list] = {}
    todo = list(names)
    while todo:
        name = todo.pop()
        if name not in out:
            out[name] = _built_entry(name)
            todo += out[name][5]
    return out


def test_a_build_is_served_while_its_source_is_unchanged() -> None:
    entries = _with_deps(BOARD)
    entry = entries[BOARD]
    spec = accel._CompiledFinder(entries).find_spec(BOARD)
    assert spec is not None and spec.origin == str(accel.BUILD / entry[3])
    stale_size = [entry[0], entry[1] + 1, *entry[2:]]
    stale_time = [*entry[:2], entry[2] + 1, *entry[3:]]
    gone = ["engine/no_such_module.py", *entry[1:]]
    for changed in (stale_size, stale_time, gone):
        assert accel._CompiledFinder({**entries, BOARD: changed}).find_spec(BOARD) is None
    assert accel._CompiledFinder({BOARD: entry}).find_spec("railbook.engine.game_that_is_not_listed") is None


def test_a_build_that_reads_native_classes_is_served_only_with_theirs() -> None:
    """Builds that cimport ``Game`` (``board``: its ``g`` arguments; ``steps.base``: ``StepBase`` holds a Game) are
    served only while ``game``'s build is, and while every ``.pxd`` they read is unchanged; a module that reads
    none (``errors``, loaded before ``Game`` exists) is served on its own."""
    game, base, board, errors = (_built_entry(n) for n in (GAME, STEP_BASE, BOARD, ERRORS))
    assert GAME in board[5] and GAME in base[5] and errors[5] == [] and STATE in game[5] and GAME not in game[5]
    assert "engine/game.pxd" in {path for path, _, _ in base[4]} and "engine/steps/base.pxd" in {
        p for p, _, _ in base[4]
    }
    entries = _with_deps(GAME, STEP_BASE, BOARD, ERRORS, STATE)
    assert all(accel._CompiledFinder(entries).find_spec(name) is not None for name in entries)
    stale_source = [game[0], game[1] + 1, *game[2:]]
    stale_pxd = [*game[:4], [[path, size + 1, mtime] for path, size, mtime in game[4]], *game[5:]]
    for stale in (stale_source, stale_pxd):
        finder = accel._CompiledFinder({**entries, GAME: stale})
        assert all(finder.find_spec(name) is None for name in (GAME, STEP_BASE, BOARD))
        assert finder.find_spec(ERRORS) is not None
    assert accel._CompiledFinder({n: e for n, e in entries.items() if n != GAME}).find_spec(BOARD) is None
    unread = [*base[:4], [e for e in base[4] if e[0] != "engine/steps/base.pxd"], *base[5:]]  # its .pxd came later
    assert accel._CompiledFinder({**entries, STEP_BASE: unread}).find_spec(STEP_BASE) is None


def test_a_build_that_reads_native_state_classes_waits_for_their_source() -> None:
    """The state's native classes are declared by a ``.pxd`` the build makes from ``state.py``: builds that read it
    record ``state.py`` as read, and are not served once it changes (their layout of the classes is then stale)."""
    game, state, errors = (_built_entry(n) for n in (GAME, STATE, ERRORS))
    assert "engine/state.py" in {path for path, _, _ in game[4]}
    assert "engine/state.py" not in {path for path, _, _ in errors[4]}
    entries = _with_deps(GAME, ERRORS)
    assert accel._CompiledFinder(entries).find_spec(GAME) is not None
    edited = [[path, size + (path == "engine/state.py"), mtime] for path, size, mtime in game[4]]
    assert accel._CompiledFinder({**entries, GAME: [*game[:4], edited, *game[5:]]}).find_spec(GAME) is None
    gone = {name: entry for name, entry in entries.items() if name != STATE}  # state's build is gone
    assert accel._CompiledFinder(gone).find_spec(GAME) is None
    # state's build made from another .pxd than the one game was compiled against: another layout of its classes
    other = [*state[:7], "0" * 16, *state[8:]]
    assert accel._CompiledFinder({**entries, STATE: other}).find_spec(GAME) is None
    assert accel._CompiledFinder({**entries, STATE: other}).find_spec(ERRORS) is not None


def test_unchanged_modules_are_imported_compiled() -> None:
    _built_entry(BOARD)
    import railbook.engine.board as board

    fresh = accel._finder is not None and accel._finder.find_spec(BOARD) is not None
    assert accel.compiled(board) == fresh


_REPLAY_ALL = """
import json, sys
import railbook.engine.board as board
from railbook import accel
from railbook.api import replay
from railbook.engine.replay import load
out = {"compiled": accel.compiled(board), "results": {}}
for path in sys.argv[1:]:
    r = replay(load(path))
    out["results"][path] = [r.matches, r.result, str(r.game_end_reason)]
print(json.dumps(out))
"""


def _run(script: str, args: list[str], pure: bool) -> dict:
    """What ``script`` prints (JSON), run in a fresh interpreter as Python (``pure``) or with the compiled builds."""
    env = {k: v for k, v in os.environ.items() if k != accel.PURE_ENV}
    if pure:
        env[accel.PURE_ENV] = "1"
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, env=env, check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_plain_python_and_compiled_engines_replay_every_record_alike() -> None:
    files = [f for title in ("1817", "1846", "1850", "1856", "1870") for f in fixture_files(title)]
    if not files:
        pytest.skip("no shared records (../shared or $RAILBOOK_SHARED)")
    pure = _run(_REPLAY_ALL, list(map(str, files)), pure=True)
    assert pure["compiled"] is False
    assert all(matches for matches, _, _ in pure["results"].values())
    if accel._finder is None:
        return  # no compiled builds here: the plain-Python run is the whole check
    compiled = _run(_REPLAY_ALL, list(map(str, files)), pure=False)
    assert compiled["compiled"] is True
    assert compiled["results"] == pure["results"]


def _bool_op_of_tests_compared(tree: ast.AST) -> list[int]:
    """Lines comparing the value of an ``and``/``or`` of tests: ``x != (a and b not in s and c is None)``.

    Cython (3.0 to 3.3 at least) compiles such an operand wrongly, and the compiled build crashes where it runs
    (the test values are C booleans it boxes too late).  Kept out of the compiled folders: name the value first.
    """
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        for operand in (node.left, *node.comparators):
            if isinstance(operand, ast.BoolOp) and any(
                isinstance(v, ast.Compare) or (isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.Not))
                for v in operand.values
            ):
                found.append(node.lineno)
    return found


def _compiled_lines_where(check: Callable[[ast.AST], list[int]]) -> list[str]:
    """``file:line`` of every line of the compiled modules that ``check`` finds."""
    return [
        f"{src.relative_to(accel.ROOT)}:{line}"
        for _, src in accel._sources()
        for line in check(ast.parse(src.read_text()))
    ]


def test_no_compiled_module_compares_a_boolean_operation_of_tests() -> None:
    offending = _compiled_lines_where(_bool_op_of_tests_compared)
    assert not offending, f"name the and/or value before comparing it (Cython miscompiles it): {offending}"


def test_the_check_finds_the_pattern() -> None:
    assert _bool_op_of_tests_compared(ast.parse("if was != (a and k not in s and None not in s): pass")) == [1]
    assert _bool_op_of_tests_compared(ast.parse("now = a and k not in s\nif was != now: pass")) == []


def _c_sized_shifts(tree: ast.AST) -> list[int]:
    """Lines shifting or raising by ``len(...)``: Cython computes ``1 << len(x)`` in C (both operands have C types),
    which wraps past 64 bits instead of growing as Python's integers do."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.LShift | ast.Pow):
            calls = [n for side in (node.left, node.right) for n in ast.walk(side) if isinstance(n, ast.Call)]
            if any(isinstance(c.func, ast.Name) and c.func.id == "len" for c in calls):
                found.append(node.lineno)
    return found


def test_no_compiled_module_shifts_by_a_length() -> None:
    offending = _compiled_lines_where(_c_sized_shifts)
    assert not offending, f"Cython computes these in C, where they wrap: {offending}"


def test_the_shift_check_finds_the_pattern() -> None:
    assert _c_sized_shifts(ast.parse("bit = 1 << len(sides)")) == [1]
    assert _c_sized_shifts(ast.parse("every = (1 << (len(nbrs) + 1)) - 1")) == [1]
    assert _c_sized_shifts(ast.parse("bit = 1 << i")) == []


_RANDOM_GAMES = """
import hashlib, json, sys
import railbook.engine.board as board
from railbook import accel
from railbook.api import rulebook_for_title
from railbook.engine.game import Game
from railbook.engine.randomplay import play
out = {"compiled": accel.compiled(board), "games": {}}
for title in sys.argv[1:]:
    for seed in (1, 2, 3):
        game = Game.start(rulebook_for_title(title), ["a", "b", "c", "d"], seed=seed)
        played = play(game, seed=seed, max_actions=600)
        out["games"][f"{title}/{seed}"] = [played, hashlib.sha256(game.dumps().encode()).hexdigest()]
print(json.dumps(out))
"""


def test_random_games_end_alike_as_python_and_compiled() -> None:
    """The same random legal games (legal-action lists, illegal tries undone) reach the same states both ways."""
    if accel._finder is None:
        pytest.skip("no compiled builds here (make install makes them where Cython and a C compiler are present)")
    titles = ["1817", "1846", "1850", "1856", "1870"]
    runs = {pure: _run(_RANDOM_GAMES, titles, pure) for pure in (True, False)}
    assert runs[True]["compiled"] is False and runs[False]["compiled"] is True
    assert runs[True]["games"] == runs[False]["games"]


_IMPORT_EACH = """
import importlib, json, subprocess, sys
failed = {}
for name in sys.argv[1:]:
    done = subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True, text=True)
    if done.returncode:
        failed[name] = done.stderr.strip().splitlines()[-1]
print(json.dumps(failed))
"""


def test_every_compiled_module_can_be_imported_first() -> None:
    """A build that cimports ``Game`` imports ``game`` as it starts loading, and ``game`` imports more modules:
    each module, imported first in a fresh interpreter, must still load (``accel_declare.early_modules`` keeps
    the modules that could not from declaring ``Game``)."""
    _built_entry(BOARD)
    names = sorted(accel._finder.entries) if accel._finder is not None else []
    assert _run(_IMPORT_EACH, names, pure=False) == {}


def test_the_compiled_state_is_native_and_round_trips() -> None:
    """Compiled builds make the state's dataclasses native classes (fields in the source's order, no
    ``__annotations__``): JSON and pickles carry them unchanged, and a wrong container type is refused."""
    _built_entry(STATE)
    import pickle

    import railbook.engine.state as state
    from railbook.engine.game import Game

    from railbook.api import rulebook_for_title

    if not accel.compiled(state):
        pytest.skip("the state module's build is not current")
    rulebook = rulebook_for_title("1846")
    g = Game.start(rulebook, ["a", "b", "c"], seed=3)
    assert "__annotations__" not in state.GameState.__dict__ and "__dict__" not in dir(g.state)
    assert [f for f in state.FIELD_TYPES["GameState"]][:3] == ["title", "options", "seed"]
    assert Game.from_json(rulebook, json.loads(json.dumps(g.to_json()))).state == g.state
    assert pickle.loads(pickle.dumps(g.state)) == g.state
    with pytest.raises(TypeError):
        g.state.depot = ("a",)  # type: ignore[assignment]


def test_modules_importing_the_state_helpers_call_them_as_c_functions() -> None:
    """``kind_of`` and ``sym_of`` are ``cpdef`` in ``engine/state.pxd``: a module that imports them by name cimports
    them (and so is served only with the state's build); one that does not, does not."""
    shares, errors = _built_entry("railbook.engine.shares"), _built_entry(ERRORS)
    assert STATE in shares[5] and "engine/state.pxd" in {path for path, _, _ in shares[4]}
    assert STATE not in errors[5]
    import railbook.engine.state as state

    assert state.kind_of("C|B&O") == "C" and state.sym_of("C|B&O") == "B&O" and state.kind_of(None) == ""
