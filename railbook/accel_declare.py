"""What compiled builds are told about types: an argument ``g: Game`` is a native ``Game``, and nothing else.

``Game`` is a native class in compiled builds (``engine/game.pxd``); compiled code reads its fields directly where
it knows that a variable holds one.  Cython takes annotations as declarations (``annotation_typing``), but the
engine's other annotations must stay documentation: Cython would require exactly ``str`` or ``dict`` (no
subclass, no ``None``), turn ``bool`` into ``int`` and ``int`` into C doubles.  So the build compiles a copy of each
module whose annotations in functions are blanked out (replaced by spaces, so every line and column stays where it
is in the source), except each argument ``g: Game``, and whose ``.pxd`` cimports ``Game``.

A module that cimports ``Game`` imports ``railbook.engine.game`` when it loads, which some modules cannot afford
(:func:`early_modules`); they keep no annotation.

Builds record their sources, not this module: a change to what it writes needs ``accel.MANIFEST_FORMAT`` raised,
so that every module is compiled again.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Iterable

GAME_MODULE = "railbook.engine.game"
CIMPORT_GAME = f"from {GAME_MODULE} cimport Game\n"

Span = tuple[int, int, int, int]  # first line, column, last line, end column (lines from 1, as ast gives them)


def declared_source(text: str, game_known: bool) -> str:
    """``text`` with every annotation blanked out but ``g: Game`` arguments (those too unless ``game_known``) and
    those in class bodies (dataclass fields, class variables: Cython does not type a Python class's attributes)."""
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    arrows = [tok.start for tok in tokenize.generate_tokens(io.StringIO(text).readline) if tok.string == "->"]
    spans: list[Span] = []
    bare: list[Span] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        args = node.args
        for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
            if a is None or a.annotation is None or (game_known and _is_game(a)):
                continue
            ann = a.annotation
            spans.append((a.lineno, a.col_offset + len(a.arg), _end(ann)[0], _end(ann)[1]))
        if node.returns is not None:
            ret = node.returns
            row, col = max(p for p in arrows if p < (ret.lineno, _chars(lines, ret.lineno, ret.col_offset)))
            spans.append((row, len(lines[row - 1][:col].encode()), *_end(ret)))
    fields = {id(stmt) for cls in ast.walk(tree) if isinstance(cls, ast.ClassDef) for stmt in cls.body}
    for stmt in ast.walk(tree):
        if isinstance(stmt, ast.AnnAssign) and id(stmt) not in fields:
            if stmt.value is None:
                bare.append((stmt.lineno, stmt.col_offset, *_end(stmt)))
            else:
                spans.append((*_end(stmt.target), *_end(stmt.annotation)))
    original = list(lines)  # columns are found in the source (blanking may shorten a line's UTF-8)
    for span in spans:
        _blank(lines, original, span)
    for span in bare:  # ``x: int`` alone declares a name: it becomes ``pass`` (``...`` where that is too long)
        _blank(lines, original, span)
        first, col = span[0] - 1, _chars(original, span[0], span[1])
        word = "pass" if span[0] != span[2] or span[3] - span[1] >= 4 else "..."
        lines[first] = lines[first][:col] + word + lines[first][col + len(word) :]
    out = "".join(lines)
    ast.parse(out)  # still Python, line for line
    return out


def takes_game(text: str) -> bool:
    """Whether a function in ``text`` has an argument ``g: Game``."""
    return any(
        isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and any(_is_game(a) for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs))
        for node in ast.walk(ast.parse(text))
    )


def _is_game(arg: ast.arg) -> bool:
    ann = arg.annotation
    return arg.arg == "g" and (
        (isinstance(ann, ast.Name) and ann.id == "Game") or (isinstance(ann, ast.Constant) and ann.value == "Game")
    )


def _end(node: ast.expr | ast.stmt) -> tuple[int, int]:
    return node.end_lineno or 0, node.end_col_offset or 0


def _chars(lines: list[str], lineno: int, offset: int) -> int:
    """The character column of byte column ``offset`` (ast counts UTF-8 bytes) on line ``lineno``."""
    return len(lines[lineno - 1].encode()[:offset].decode())


def _blank(lines: list[str], original: list[str], span: Span) -> None:
    """Spaces over ``span`` (columns in UTF-8 bytes of the ``original`` lines, as ast gives them), each line but
    the last ended by a backslash; the line count stays."""
    first, last = span[0] - 1, span[2] - 1
    for i in range(first, last + 1):
        line = lines[i]
        body = line.rstrip("\r\n")
        start = _chars(original, i + 1, span[1]) if i == first else 0
        stop = _chars(original, i + 1, span[3]) if i == last else len(body)
        if i < last:  # the span goes on: a backslash joins the lines (a return annotation may span lines)
            lines[i] = body[:start] + " " * max(stop - start - 1, 0) + "\\" + line[len(body) :]
        else:
            lines[i] = body[:start] + " " * (stop - start) + body[stop:] + line[len(body) :]


def early_modules(sources: dict[str, str]) -> set[str]:
    """The modules that must not cimport ``Game`` (``sources`` maps module names to their text).

    A build that cimports ``Game`` imports ``railbook.engine.game`` as it starts loading, and ``game`` imports
    more modules.  That goes wrong for a module that is loaded, or read, before it is complete:

    - those ``game.py`` imports above its class ``Game``, and theirs: they load before the class exists;
    - those of which a module ``game`` loads takes names (``from .x import y``) or reads attributes while it loads
      (``x.y`` outside functions): imported first, such a module would be read while it is still waiting for
      ``game``.

    Imports under ``if TYPE_CHECKING`` or inside functions do not count."""
    out: set[str] = set()
    todo = [(GAME_MODULE, _before_class(sources[GAME_MODULE], "Game"))]
    while todo:
        name, statements = todo.pop()
        for dep in _imported(name, statements, sources):
            if dep not in out and dep != GAME_MODULE:
                out.add(dep)
                todo.append((dep, ast.parse(sources[dep]).body))
    loaded, todo2 = {GAME_MODULE}, [GAME_MODULE]
    while todo2:
        name = todo2.pop()
        body = ast.parse(sources[name]).body
        out |= _read_while_loading(name, body, sources)
        for dep in _imported(name, body, sources) - loaded:
            loaded.add(dep)
            todo2.append(dep)
    out.discard(GAME_MODULE)
    return out


def _read_while_loading(module: str, body: list[ast.stmt], sources: dict[str, str]) -> set[str]:
    """Modules among ``sources`` that ``module`` takes names from, or reads attributes of, as it loads."""
    out: set[str] = set()
    aliases: dict[str, str] = {}
    for stmt in body:
        if isinstance(stmt, ast.ImportFrom):
            target = _target(module, stmt)
            for a in stmt.names:
                if f"{target}.{a.name}" in sources:
                    aliases[a.asname or a.name] = f"{target}.{a.name}"
                elif target in sources:
                    out.add(target)  # a name taken from a module
    for node in _run_at_load(body):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            out.add(aliases[node.value.id])
    return out


def _run_at_load(body: list[ast.stmt]) -> Iterable[ast.AST]:
    """The nodes evaluated when a module loads: its statements, a class's body, but not a function's body (its
    decorators and defaults, yes)."""
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            todo += [*getattr(node, "decorator_list", []), *node.args.defaults]
            todo += [d for d in node.args.kw_defaults if d is not None]
            continue
        todo += ast.iter_child_nodes(node)


def _target(module: str, stmt: ast.ImportFrom) -> str:
    """The module an ``import from`` statement of ``module`` names."""
    if not stmt.level:
        return stmt.module or ""
    package = module.rsplit(".", 1)[0]
    base = package.rsplit(".", stmt.level - 1)[0] if stmt.level > 1 else package
    return f"{base}.{stmt.module}" if stmt.module else base


def _before_class(text: str, cls: str) -> list[ast.stmt]:
    body = ast.parse(text).body
    for i, stmt in enumerate(body):
        if isinstance(stmt, ast.ClassDef) and stmt.name == cls:
            return body[:i]
    return body


def _imported(module: str, statements: Iterable[ast.stmt], sources: dict[str, str]) -> set[str]:
    """Modules among ``sources`` that top-level ``statements`` of ``module`` import."""
    out: set[str] = set()
    for stmt in statements:
        if isinstance(stmt, ast.Import):
            out.update(a.name for a in stmt.names if a.name in sources)
        elif isinstance(stmt, ast.ImportFrom):
            target = _target(module, stmt)
            if target in sources:
                out.add(target)
            out.update(f"{target}.{a.name}" for a in stmt.names if f"{target}.{a.name}" in sources)
    return out
