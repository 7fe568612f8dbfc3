"""The compiled build (setup.py, railbook/compiled.py): compiled where expected, never stale, RAILBOOK_PURE."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from importlib import import_module
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from railbook import compiled

ROOT = Path(__file__).resolve().parent.parent
SUFFIX = EXTENSION_SUFFIXES[0]


def _compiled_list() -> list[str]:
    """setup.py's COMPILED, read without running setup.py."""
    for node in ast.parse((ROOT / "setup.py").read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "COMPILED" for t in node.targets):
            return list(ast.literal_eval(node.value))
    raise AssertionError("setup.py has no COMPILED")


def test_compiled_modules_exist() -> None:
    names = _compiled_list()
    assert len(names) == len(set(names))
    for name in names:
        assert (ROOT / "engine" / f"{name}.py").is_file(), name


def test_engine_compiled_where_built() -> None:
    """Where the build made extension modules (and they are current), the engine imports them, every one."""
    board = import_module("railbook.engine.board")
    if not (board.__file__ or "").endswith(SUFFIX):
        pytest.skip(f"engine not compiled here ({compiled.status()})")
    for name in _compiled_list():
        module = import_module("railbook.engine." + name.replace("/", "."))
        assert (module.__file__ or "").endswith(SUFFIX), module.__file__
    assert compiled.status() == "engine compiled"


def _tree(tmp_path: Path) -> Path:
    """A small engine folder: board.py compiled against board.pxd, which cimports context.pxd."""
    engine = tmp_path / "engine"
    for sub in ("", "steps", "mechanics"):
        (engine / sub).mkdir(parents=True, exist_ok=True)
    (engine / "board.py").write_text("x = 1\n")
    (engine / "board.pxd").write_text("from railbook.engine.context cimport Context\ncpdef object f(Context g)\n")
    (engine / "context.py").write_text("y = 2\n")
    (engine / "context.pxd").write_text("cdef class Context:\n    cdef public dict cache\n")
    (engine / "market.py").write_text("z = 3\n")
    for name in ("board", "context", "market"):
        (engine / f"{name}{SUFFIX}").write_bytes(b"")
    old, new = 1_000_000_000, 2_000_000_000
    for path in engine.rglob("*"):
        if path.is_file():
            os.utime(path, ns=(old, old if not path.name.endswith(SUFFIX) else new))
    return engine


def test_current_build_is_not_stale(tmp_path: Path) -> None:
    assert compiled.stale(_tree(tmp_path)) is None


@pytest.mark.parametrize("edited", ["board.py", "board.pxd", "context.pxd", "market.py"])
def test_an_edit_makes_the_build_stale(tmp_path: Path, edited: str) -> None:
    """A source newer than its build, or a .pxd it was compiled with (its own, or one it cimports)."""
    engine = _tree(tmp_path)
    (engine / edited).touch()
    assert compiled.stale(engine) == f"engine/{edited}"


def test_an_edit_elsewhere_is_not_stale(tmp_path: Path) -> None:
    engine = _tree(tmp_path)
    (engine / "notes.py").write_text("")
    assert compiled.stale(engine) is None


def _import_board(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = "import railbook, railbook.engine.board as b, railbook.compiled as c; print(b.__file__); print(c.status())"
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env={**os.environ, **env}, cwd=ROOT
    )


def test_pure_runs_sources() -> None:
    out = _import_board({"RAILBOOK_PURE": "1"})
    path, status = out.stdout.split("\n")[:2]
    assert path.endswith("board.py")
    assert status == "engine as Python (RAILBOOK_PURE is set)"
    assert out.stderr == ""


_PLAY = """
import json, sys
from railbook.api import rulebook_for_title
from railbook.engine.digest import digest
from railbook.engine.game import Game
from railbook.engine.randomplay import play
game = Game.start(rulebook_for_title("1850"), ["a", "b", "c", "d"], seed=7)
play(game, seed=7, max_actions=150)
print(json.dumps(digest(game), sort_keys=True))
"""


def test_pure_python_without_cython_plays_as_the_build() -> None:
    """Where Cython is not installed, the sources' pure-mode declarations (``@cython.locals``) read
    ``engine/cython_shim.py``: every compiled module imports as Python, and a game plays exactly as it does with
    the engine as built (compiled where ``make install`` compiled it)."""
    names = [n.replace("/", ".") for n in _compiled_list()]
    without = (
        "import importlib, sys\n"
        "sys.modules['cython'] = None  # (import cython raises ImportError)\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module('railbook.engine.' + name)\n"
        "assert 'railbook.engine.cython_shim' in sys.modules\n"
    )

    def run(code: str, env: dict[str, str]) -> str:
        return subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, **env},
            cwd=ROOT,
        ).stdout

    pure = run(without + _PLAY, {"RAILBOOK_PURE": "1"})
    assert pure.strip().startswith("{")
    assert run(_PLAY, {}) == pure


_CDEF_CLASS = re.compile(r"^cdef class (\w+)(?:\([\w.]+\))?:\n((?:[ \t]+.*\n|\n)*)", re.M)
_FIELD = re.compile(r"^\s+cdef\s+(?:public\s+|readonly\s+)?[\w.]+\s+([\w, ]+?)\s*(?:#.*)?$")


def _native_classes() -> list[tuple[Path, str, set[str]]]:
    """(source, class, the fields its .pxd declares) of every class a .pxd of a compiled module declares."""
    out = []
    for name in _compiled_list():
        pxd = ROOT / "engine" / f"{name}.pxd"
        if not pxd.is_file():
            continue
        for cls, body in _CDEF_CLASS.findall(pxd.read_text() + "\n"):
            declared = {f.strip() for line in body.splitlines() if (m := _FIELD.match(line)) for f in m[1].split(",")}
            out.append((pxd.with_suffix(".py"), cls, declared))
    return out


def test_native_classes_declare_every_field() -> None:
    """A native class has only the fields its .pxd declares (another raises AttributeError in the compiled build
    alone): every dataclass field and every ``self.x = ...`` of the class's methods is declared."""
    classes = _native_classes()
    assert {cls for _, cls, _ in classes} >= {"Context", "StepBase", "Book", "GameState", "HexState", "Track"}
    for source, cls, declared in classes:
        node = next(n for n in ast.walk(ast.parse(source.read_text())) if isinstance(n, ast.ClassDef) and n.name == cls)
        fields = {s.target.id for s in node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)}
        assigned = {
            t.attr
            for n in ast.walk(node)
            if isinstance(n, ast.Assign | ast.AnnAssign | ast.AugAssign)
            for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
        }
        is_dataclass = any("dataclass" in ast.unparse(d) for d in node.decorator_list)
        missing = ((fields if is_dataclass else set()) | assigned) - declared
        assert not missing, f"{source.name}: {cls} has fields its .pxd does not declare: {sorted(missing)}"
