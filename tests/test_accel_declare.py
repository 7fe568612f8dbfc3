"""What compiled builds are told about types (railbook.accel_declare): only ``g: Game``, with every line and column
of the source kept."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from railbook.accel import _sources
from railbook.accel_declare import (
    C_INT_DECLARATION,
    FIELD_TYPES,
    called_imports_dropped,
    declared_source,
    early_modules,
    module_functions,
    module_imports,
    native_annotations,
    native_dataclasses,
    native_imports,
    step_classes,
    takes_game,
    typed_self,
    uses_c_int,
)

SOURCE = """from __future__ import annotations
from dataclasses import dataclass

TABLE: dict[str, int] = {}


@dataclass
class Row:
    count: int = 1
    names: list[str] | None = None


def f(g: Game, label: str = "µs é", *rest: int, **more: dict[str, int]) -> dict[
    str, int
]:
    declared: int
    kept: list[int] = []
    each: dict[str, int]

    def inner(g: Game, q: int) -> None:
        w: str = "µ"; v: int = 2

    return {label: len(kept)}
"""


def _annotations(text: str) -> list[str]:
    """The annotations of function arguments and returns, and of assignments outside class bodies."""
    tree = ast.parse(text)
    fields = {id(s) for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for s in c.body}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.annotation is not None:
            out.append(f"{node.arg}: {ast.unparse(node.annotation)}")
        elif isinstance(node, ast.FunctionDef) and node.returns is not None:
            out.append(f"-> {ast.unparse(node.returns)}")
        elif isinstance(node, ast.AnnAssign) and id(node) not in fields:
            out.append(f"{ast.unparse(node.target)}: {ast.unparse(node.annotation)}")
    return out


def test_only_g_game_and_local_containers_are_left_and_every_line_stays_where_it_was() -> None:
    out = declared_source(SOURCE, game_known=True)
    # (not TABLE: a module global)
    assert sorted(_annotations(out)) == ["each: dict[str, int]", "g: Game", "g: Game", "kept: list[int]"]
    assert len(out.splitlines()) == len(SOURCE.splitlines())
    for before, after in zip(SOURCE.splitlines(), out.splitlines(), strict=True):
        assert len(after) == len(before) or after.endswith("\\")  # blanked, not removed (a backslash goes on)
    assert "    def inner(g: Game, q     )        :" in out.splitlines()
    assert "count: int = 1" in out and "names: list[str] | None = None" in out  # dataclass fields stay
    assert '"µs é"' in out and 'w      = "µ"; v      = 2' in out  # columns found in UTF-8 bytes
    assert out.splitlines()[15].strip() == "pass"  # ``declared: int`` names nothing at run time


def test_without_game_known_only_local_containers_are_left() -> None:
    assert _annotations(declared_source(SOURCE, game_known=False)) == ["kept: list[int]", "each: dict[str, int]"]


def test_the_declared_copy_runs_as_the_source_does() -> None:
    code = declared_source(SOURCE + "\nprint(f(None, 'x'), Row())\n", game_known=True)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "{'x': 0} Row(count=1, names=None)"


C_INT_SOURCE = """from __future__ import annotations
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .cint import CInt


def packed(xs: list[int]) -> int:
    total: CInt = 0
    x: CInt
    for x in xs:
        total = (total << 4) | (x % 16)
    return total
"""


def test_c_int_locals_are_kept_and_their_import_goes() -> None:
    out = declared_source(C_INT_SOURCE, game_known=True)
    assert sorted(_annotations(out)) == ["total: CInt", "x: CInt"]
    assert out.splitlines()[4] == "    pass"  # the .pxd declares the name: nothing is imported
    assert len(out.splitlines()) == len(C_INT_SOURCE.splitlines())
    assert uses_c_int(C_INT_SOURCE) and not uses_c_int(SOURCE)
    code = out + "\nprint(packed([1, 2, 19]))\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == str(0x123)


def test_c_int_locals_compile_to_c_longs(tmp_path: Path) -> None:
    cython = pytest.importorskip("Cython.Compiler.Main")
    (tmp_path / "packed.py").write_text(declared_source(C_INT_SOURCE, game_known=True))
    (tmp_path / "packed.pxd").write_text(C_INT_DECLARATION)
    cython.compile(str(tmp_path / "packed.py"), language_level=3, compiler_directives={"annotation_typing": True})
    c = (tmp_path / "packed.c").read_text()
    assert "CInt __pyx_v_total;" in c and "CInt __pyx_v_x;" in c


def test_functions_taking_g_game_are_found() -> None:
    assert takes_game(SOURCE)
    assert not takes_game("def f(g, game: Game) -> None: ...\n")


def test_every_engine_module_can_be_declared() -> None:
    for name, path in _sources():
        text = path.read_text()
        out = declared_source(text, game_known=True)
        assert len(out.splitlines()) == len(text.splitlines()), name


def test_early_modules_are_those_loaded_before_game_or_read_while_it_loads() -> None:
    sources = {
        "railbook.engine.game": "from . import rounds\nfrom .memo import memo\nclass Game: ...\nfrom . import board\n",
        "railbook.engine.memo": "import os\nfrom .state import X\nif False:\n    from . import shares\n",
        "railbook.engine.state": "def f():\n    from . import rounds\n",
        "railbook.engine.rounds": "from .steps.base import Step\n",
        "railbook.engine.steps.base": "from .. import errors\n",
        "railbook.engine.errors": "",
        # loaded after the class: takes a name from depot, reads market at load, reads trains only in a function
        "railbook.engine.board": (
            "from . import market, trains\nfrom .depot import room\n"
            "keep = market.keep\ndef f(x=market.y):\n    return trains.z\n"
        ),
        "railbook.engine.market": "",
        "railbook.engine.depot": "",
        "railbook.engine.trains": "",
        "railbook.engine.shares": "",
    }
    expected = {"memo", "state", "rounds", "steps.base", "errors", "market", "depot"}
    assert early_modules(sources) == {f"railbook.engine.{m}" for m in expected}


def test_the_engine_loads_few_modules_before_game() -> None:
    early = early_modules({name: path.read_text() for name, path in _sources()})
    assert "railbook.engine.rounds" not in early and "railbook.engine.board" not in early
    assert "railbook.engine.state" in early


STATE_SOURCE = """from __future__ import annotations
from dataclasses import dataclass, field


@dataclass(slots=True)
class Token:
    price: int
    hex: str | None = None


@dataclass(slots=True)
class Holder:
    name: str
    tokens: list[Token] = field(default_factory=list)
    cash: dict[str, int] = field(default_factory=dict)
    first: Token | None = None
    last: "Token | None" = None
"""


def test_native_dataclasses_are_declared_in_the_order_of_their_fields() -> None:
    text, pxd = native_dataclasses(STATE_SOURCE)
    assert pxd.splitlines()[:2] == ["cdef class Token", "cdef class Holder"]  # declared before either is used
    holder = pxd.split("cdef class Holder:\n")[1].splitlines()
    assert holder == [
        "    cdef public object name",
        "    cdef public list tokens",
        "    cdef public dict cash",
        "    cdef public Token first",
        "    cdef public Token last",
    ]
    assert "@dataclass(slots=True)" not in text and text.count("@dataclass") == 2
    assert len(text.splitlines()[4]) == len("@dataclass(slots=True)")  # blanked: every column stays
    namespace: dict[str, object] = {}
    exec(text, namespace)
    assert namespace[FIELD_TYPES] == {
        "Token": {"price": "int", "hex": "str | None"},
        "Holder": {
            "name": "str",
            "tokens": "list[Token]",
            "cash": "dict[str, int]",
            "first": "Token | None",
            "last": "'Token | None'",
        },
    }


def test_a_frozen_native_dataclass_has_read_only_fields_and_keeps_its_options() -> None:
    text, pxd = native_dataclasses("@dataclass(frozen=True, slots=True)\nclass A:\n    x: int\n")
    assert text.splitlines()[0] == "@dataclass(frozen=True)" + " " * len(", slots=True")
    assert "    cdef readonly object x" in pxd.splitlines()
    with pytest.raises(ValueError, match="line 1"):
        native_dataclasses("@dataclass(True)\nclass A:\n    x: int\n")


USES_STATE = """from __future__ import annotations
from typing import TYPE_CHECKING
from .state import Token
if TYPE_CHECKING:
    from .other import Holder


def f(t: Token, u: Token | None, v: "Token", w: list[Token], h: Holder) -> Token:
    seen: Token
    count: int = 0
    for seen in [t]:
        count += 1
    return t
"""


def test_annotations_naming_native_classes_are_kept() -> None:
    natives = native_imports("railbook.engine.x", USES_STATE, {"Token": "railbook.engine.state", "Holder": "m"})
    assert natives == {"Token": "railbook.engine.state"}  # Holder comes from elsewhere
    out = declared_source(USES_STATE, game_known=True, native=natives)
    assert sorted(_annotations(out)) == ["seen: Token", "t: Token", "u: Token | None", "v: 'Token'"]
    assert native_annotations(USES_STATE, natives) == {"Token"}
    assert native_annotations(USES_STATE, {}) == set()


STEPS = """class Step(StepBase):
    def __init_subclass__(cls) -> None: ...


class Buy(Step):
    def actions(self, entity: str) -> list[str]:
        return []

    @staticmethod
    def helper(x: int) -> int:
        return x

    @classmethod
    def make(cls) -> None: ...


class BuyMore(Buy):
    def process(self, action): ...


class Other:
    def process(self, action): ...
"""


def test_the_methods_of_steps_know_self_is_a_step() -> None:
    steps = step_classes([STEPS])
    assert steps == {"Step", "Buy", "BuyMore"}
    out = typed_self(STEPS, steps)
    assert out is not None and len(out.splitlines()) == len(STEPS.splitlines())
    typed = [line.strip() for line in out.splitlines() if "self: StepBase" in line]
    assert typed == [
        "def actions(self: StepBase, entity: str) -> list[str]:",
        "def process(self: StepBase, action): ...",
    ]
    assert typed_self(STEPS, set()) is None


def test_imports_of_c_functions_only_called_are_left_out() -> None:
    """A cimported C function that is only called needs no name bound at load; one read as a value keeps its
    import.  Lines stay where they were."""
    source = (
        "from .state import RoundState, kind_of, sym_of\n"
        "from .steps.base import (\n"
        "    step_active,\n"
        "    step_blocking,\n"
        ")\n"
        "def f(s, k):\n"
        "    return step_active(s) and step_blocking(s) and kind_of(k) and sorted([k], key=sym_of)\n"
    )
    out = called_imports_dropped(source, {"kind_of", "sym_of", "step_active", "step_blocking"})
    lines = out.splitlines()
    assert len(lines) == len(source.splitlines())
    assert lines[0] == "from .state import RoundState, sym_of"
    assert lines[1] == "pass"
    assert lines[5:] == source.splitlines()[5:]
    tree = ast.parse(out)
    imported = {a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for a in node.names}
    assert imported == {"RoundState", "sym_of"}
    assert called_imports_dropped(source, set()) == source
    reexport = "from .state import kind_of  # for importers\n"
    assert called_imports_dropped(reexport, {"kind_of"}) == reexport


def test_module_functions_are_declared_c_functions_where_cython_can_take_them() -> None:
    """Module-level functions become ``cpdef`` (typed as the compiled copy keeps their arguments); those with
    closures, generators, star or keyword-only arguments, decorators, a rebound name or a declaration of their
    own are left alone."""
    source = (
        "from __future__ import annotations\n"
        "def _plain(g: Game, x: int, y: Train | None = None) -> int:\n"
        "    return [v for v in (x, 1)][0]\n"
        "def _closure(g: Game) -> object:\n"
        "    return lambda: g\n"
        "def _gen(xs):\n"
        "    return sum(x for x in xs)\n"
        "def _star(*xs):\n"
        "    return xs\n"
        "def _kw(x, *, y=1):\n"
        "    return x\n"
        "@memo\n"
        "def _decorated(x):\n"
        "    return x\n"
        "def _rebound(x):\n"
        "    return x\n"
        "_rebound = _plain\n"
        "def _declared(x):\n"
        "    return x\n"
        "def public(x):\n"
        "    return x\n"
    )
    out = module_functions(source, "cdef object _declared(x)\n", True, {"Train"})
    assert out == "cpdef object _plain(Game g, x, Train y=*)\ncpdef object public(x)\n"
    assert module_functions(source, "", False, ()).startswith("cpdef object _plain(g, x, y=*)\n")


def test_modules_imported_as_modules_at_the_top_level_are_found() -> None:
    """``from .. import board`` binds a module the build may cimport too; an import under ``TYPE_CHECKING``, inside a
    function, or of a name from a module is no such import."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "from .. import board, market as mk\n"
        "from ..state import kind_of\n"
        "if TYPE_CHECKING:\n"
        "    from .. import rounds\n"
        "def f():\n"
        "    from .. import depot\n"
    )
    modules = {f"railbook.engine.{m}" for m in ("board", "market", "rounds", "depot", "state")}
    found = module_imports("railbook.engine.mechanics.track", source, modules)
    assert found == {"board": "railbook.engine.board", "mk": "railbook.engine.market"}
