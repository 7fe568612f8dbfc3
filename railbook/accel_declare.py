"""What compiled builds are told about types: ``g: Game``, the native classes, local containers, and nothing else.

``Game`` is a native class in compiled builds (``engine/game.pxd``); compiled code reads its fields directly where
it knows that a variable holds one.  Cython takes annotations as declarations (``annotation_typing``), but the
engine's other annotations must stay documentation: Cython would require exactly ``str`` or ``dict`` (no
subclass, no ``None``), turn ``bool`` into ``int`` and ``int`` into C doubles.  So the build compiles a copy of each
module whose annotations in functions are blanked out (replaced by spaces, so every line and column stays where it
is in the source), except each argument ``g: Game``, and whose ``.pxd`` cimports ``Game``.

The dataclasses of :data:`NATIVE_DATACLASS_MODULES` (the state, tracks, networks, routes, bundles, installed rules)
become native classes too (:func:`native_dataclasses` writes their ``.pxd``), and annotations naming them are kept
(:func:`native_annotations`), as is ``self: StepBase`` added to every method of a step (:func:`typed_self`).  So are
the annotations of local variables that name a built-in container (``nbrs: dict[int, str] =
book.neighbours[h]``): a hot loop declares them where it knows the value is exactly a ``dict``, ``list`` or ``set``.

A module that cimports ``Game`` imports ``railbook.engine.game`` when it loads, which some modules cannot afford
(:func:`early_modules`); they keep no ``g: Game``.

Builds record a digest of what they compiled, so a change to what this module writes compiles the modules it
changes again.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Collection, Iterable
from typing import Any

GAME_MODULE = "railbook.engine.game"
#: the modules whose dataclasses compiled builds make native classes (the game's state: ``Game.state`` and the
#: objects it holds are read everywhere; tracks, networks, routes and bundles; the installed rules)
NATIVE_DATACLASS_MODULES = (
    "railbook.engine.state",
    "railbook.engine.book",
    "railbook.engine.board",
    "railbook.engine.routes",
    "railbook.engine.shares",
    "railbook.engine.install",
)
#: the native class steps derive from: the methods of its subclasses know that ``self`` is one
STEP_BASE_MODULE, STEP_BASE = "railbook.engine.steps.base", "StepBase"
#: the name under which a module with native dataclasses finds their field annotations in compiled builds (a native
#: class has no ``__annotations__``): class name -> field name -> the annotation's text
FIELD_TYPES = "FIELD_TYPES"

#: the built-in containers a local variable may be declared as (``x: dict[str, int] = ...``): Cython then calls
#: their methods and reads their items directly; the value must be exactly of that type (or None)
CONTAINERS = ("dict", "list", "set", "bytearray")
#: the annotation of a local integer kept in a C ``long`` (railbook.engine.cint): kept, its import dropped, and
#: declared in the module's ``.pxd`` (:data:`C_INT_DECLARATION`)
C_INT = "CInt"
C_INT_DECLARATION = f"ctypedef long {C_INT}\n"

Span = tuple[int, int, int, int]  # first line, column, last line, end column (lines from 1, as ast gives them)


def declared_source(text: str, game_known: bool, native: Collection[str] = ()) -> str:
    """``text`` with every annotation blanked out but ``g: Game`` arguments (those too unless ``game_known``), those
    of arguments and variables that name one of the ``native`` classes (``x: Train``, ``x: Train | None``), those
    of local variables that name one of :data:`CONTAINERS` (``x: dict[str, int] = d[k]``, or ``x: dict[str, int]``
    before a loop: every value is then checked to be exactly a dict, or None), and those in class bodies
    (dataclass fields, class variables: Cython does not type a Python class's attributes)."""
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
            if _native_name(a.annotation, native):
                continue
            ann = a.annotation
            spans.append((a.lineno, a.col_offset + len(a.arg), _end(ann)[0], _end(ann)[1]))
        if node.returns is not None:
            ret = node.returns
            row, col = max(p for p in arrows if p < (ret.lineno, _chars(lines, ret.lineno, ret.col_offset)))
            spans.append((row, len(lines[row - 1][:col].encode()), *_end(ret)))
    fields = _class_body_ids(tree)
    functions = [f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)]
    local = {id(s) for f in functions for s in ast.walk(f)}
    for stmt in ast.walk(tree):
        if isinstance(stmt, ast.AnnAssign) and id(stmt) not in fields:
            if _native_name(stmt.annotation, native):
                continue
            if id(stmt) in local and isinstance(stmt.target, ast.Name) and _container(stmt.annotation):
                continue
            if id(stmt) in local and isinstance(stmt.target, ast.Name) and _is_c_int(stmt.annotation):
                continue
            if stmt.value is None:
                bare.append((stmt.lineno, stmt.col_offset, *_end(stmt)))
            else:
                spans.append((*_end(stmt.target), *_end(stmt.annotation)))
    original = list(lines)  # columns are found in the source (blanking may shorten a line's UTF-8)
    for node in ast.walk(tree):  # the ``.pxd`` declares CInt: its import goes (it stays Python, line for line)
        if isinstance(node, ast.ImportFrom) and node.names and all(a.name == C_INT for a in node.names):
            _replace_statement(lines, node, "pass")
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


def native_annotations(text: str, native: Collection[str]) -> set[str]:
    """The ``native`` classes that annotations :func:`declared_source` keeps in ``text`` name."""
    tree = ast.parse(text)
    fields = _class_body_ids(tree)
    annotations = [
        node.annotation
        for node in ast.walk(tree)
        if (isinstance(node, ast.arg) and node.annotation is not None)
        or (isinstance(node, ast.AnnAssign) and id(node) not in fields)
    ]
    return {name for ann in annotations if ann is not None and (name := _native_name(ann, native))}


def native_imports(module: str, text: str, natives: dict[str, str]) -> dict[str, str]:
    """Of ``natives`` (class name -> its module), those ``module`` imports by their name (under ``TYPE_CHECKING``
    too): the classes its annotations may declare."""
    out: dict[str, str] = {}
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom):
            target = _target(module, node)
            out.update({a.name: target for a in node.names if a.asname is None and natives.get(a.name) == target})
    return out


def _native_name(ann: ast.expr, native: Collection[str]) -> str | None:
    """``N`` where annotation ``ann`` is ``N``, ``N | None`` or one of them quoted, and ``N`` is one of ``native``."""
    bare = _bare(ann)
    return bare.id if isinstance(bare, ast.Name) and bare.id in native else None


def _container(ann: ast.expr) -> bool:
    """Whether annotation ``ann`` is one of :data:`CONTAINERS`, bare or subscripted (no union, no quotes)."""
    base = ann.value if isinstance(ann, ast.Subscript) else ann
    return isinstance(base, ast.Name) and base.id in CONTAINERS


def _is_c_int(ann: ast.expr) -> bool:
    return isinstance(ann, ast.Name) and ann.id == C_INT


def uses_c_int(text: str) -> bool:
    """Whether a local variable in ``text`` is annotated :data:`C_INT` (its ``.pxd`` must declare the name)."""
    tree = ast.parse(text)
    fields = _class_body_ids(tree)
    return any(
        isinstance(node, ast.AnnAssign) and id(node) not in fields and _is_c_int(node.annotation)
        for node in ast.walk(tree)
    )


def _class_body_ids(tree: ast.AST) -> set[int]:
    """The ids of the statements directly in a class body (dataclass fields, class variables)."""
    return {id(stmt) for cls in ast.walk(tree) if isinstance(cls, ast.ClassDef) for stmt in cls.body}


def _bare(ann: ast.expr) -> ast.expr | None:
    """Annotation ``ann`` unquoted and without ``| None``; None for another union or a quote that is no expression."""
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            ann = ast.parse(ann.value, mode="eval").body
        except SyntaxError:
            return None
    if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):
        rest = [x for x in (ann.left, ann.right) if not (isinstance(x, ast.Constant) and x.value is None)]
        return _bare(rest[0]) if len(rest) == 1 else None
    return ann


def called_imports_dropped(text: str, functions: Collection[str]) -> str:
    """``text`` without the imports by name of ``functions`` (C functions it cimports) that it only ever calls (an
    import it never uses may be there for others to import from it, and stays).

    A call of a cimported function is a C call, which needs no name bound when the module loads.  Leaving the
    import out matters where the compiled builds' own imports close a cycle: a module whose ``.pxd`` cimports
    ``Game`` imports ``game`` as it starts loading, so a module that ``game`` imports in turn could not yet take names
    from it.  The line count stays."""
    tree = ast.parse(text)
    loads: dict[str, list[ast.Name]] = {}
    called: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            loads.setdefault(node.id, []).append(node)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            called.add(id(node.func))
    droppable = {name for name in functions if loads.get(name) and all(id(n) in called for n in loads[name])}
    lines = text.splitlines(keepends=True)
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom):
            continue
        kept = [a for a in node.names if not (a.name in droppable and a.asname is None)]
        if len(kept) == len(node.names):
            continue
        names = ", ".join(a.name if a.asname is None else f"{a.name} as {a.asname}" for a in kept)
        statement = f"from {'.' * node.level}{node.module or ''} import {names}" if kept else "pass"
        _replace_statement(lines, node, statement)
    return "".join(lines)


def _replace_statement(lines: list[str], node: ast.stmt, statement: str) -> None:
    """``statement`` in place of ``node`` on its first line, its other lines left empty (the line count stays)."""
    first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
    ending = lines[first][len(lines[first].rstrip("\r\n")) :]
    lines[first] = " " * node.col_offset + statement + ending
    for i in range(first + 1, last + 1):
        lines[i] = lines[i][len(lines[i].rstrip("\r\n")) :]


def module_functions(text: str, declared: str, game_known: bool, native: Collection[str] = ()) -> str:
    """``.pxd`` lines declaring the module's functions (at module level) ``cpdef``, so the module's own calls of
    them are C calls; each stays a Python function for everyone else.  A function is left as it is where Cython's
    ``cpdef`` cannot take it (closures, generators, ``*args``, keyword-only arguments, decorators) or where the
    module binds its name again; so is one ``declared`` (the module's own ``.pxd``) already names.  Arguments are
    declared as :func:`declared_source` leaves them (``g: Game``, native classes)."""
    tree = ast.parse(text)
    stored = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del)}
    lines = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or node.name.startswith("__"):
            continue
        args = node.args
        if node.decorator_list or args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
            continue
        if node.name in stored or re.search(rf"\b{re.escape(node.name)}\s*\(", declared):
            continue
        inner = (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.GeneratorExp)
        if any(
            isinstance(n, (*inner, ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal, ast.Await))
            for n in ast.walk(node)
            if n is not node
        ):
            continue
        first_default = len(args.args) - len(args.defaults)
        params = []
        for i, a in enumerate(args.args):
            kind = "Game " if game_known and _is_game(a) else ""
            named = _native_name(a.annotation, native) if a.annotation is not None else None
            if named and not kind:
                kind = f"{named} "
            params.append(f"{kind}{a.arg}{'=*' if i >= first_default else ''}")
        lines.append(f"cpdef object {node.name}({', '.join(params)})\n")
    return "".join(lines)


def module_imports(module: str, text: str, modules: Collection[str]) -> dict[str, str]:
    """The ``modules`` that ``module`` imports as modules at its top level (``from . import board``): the name each
    is bound to -> the module.  Imports under ``if TYPE_CHECKING`` or inside functions do not count."""
    out: dict[str, str] = {}
    for stmt in ast.parse(text).body:
        if isinstance(stmt, ast.ImportFrom):
            target = _target(module, stmt)
            for a in stmt.names:
                if f"{target}.{a.name}" in modules:
                    out[a.asname or a.name] = f"{target}.{a.name}"
    return out


def native_classes(text: str) -> list[str]:
    """The classes :func:`native_dataclasses` makes native in a module's ``text``."""
    return [
        node.name
        for node in ast.parse(text).body
        if isinstance(node, ast.ClassDef) and any(_is_dataclass(d) for d in node.decorator_list)
    ]


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


def native_dataclasses(text: str) -> tuple[str, str]:
    """(the text compiled, its ``.pxd``) of a module whose ``@dataclass`` classes become native classes.

    The ``.pxd`` declares each class's fields in the order of the class body (the order of ``__init__``'s
    arguments): a field of a native class of the module (or ``None``) as that class, a ``list``, ``dict`` or ``set``
    field as one, anything else as an object; those of a frozen class read-only.  The copy's decorators lose
    ``slots=True`` (Cython's dataclasses take no ``slots``; a native class has fixed fields anyway) and its end records
    the annotations as :data:`FIELD_TYPES`.
    """
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    original = list(lines)
    classes: dict[str, list[tuple[str, ast.expr]]] = {}
    readonly: dict[str, bool] = {}  # frozen: fields readable only
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        deco = next((d for d in node.decorator_list if _is_dataclass(d)), None)
        if deco is None:
            continue
        frozen = False
        if isinstance(deco, ast.Call):
            options = {k.arg: k.value for k in deco.keywords}
            if deco.args or None in options or deco.lineno != deco.end_lineno:
                raise ValueError(f"line {deco.lineno}: a native dataclass's options are keywords on one line")
            flag = options.get("frozen")
            frozen = isinstance(flag, ast.Constant) and flag.value is True
            kept = ", ".join(f"{k}={ast.unparse(v)}" for k, v in options.items() if k != "slots")
            _blank(lines, original, (*_end(deco.func), *_end(deco)))
            row, col = deco.lineno - 1, _chars(original, deco.lineno, _end(deco.func)[1])
            lines[row] = f"{lines[row][:col]}({kept}){lines[row][col + len(kept) + 2 :]}"
        readonly[node.name] = frozen
        classes[node.name] = [
            (stmt.target.id, stmt.annotation)
            for stmt in node.body
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
        ]
    pxd = [f"cdef class {name}\n" for name in classes]
    for name, fields in classes.items():
        pxd.append(f"\ncdef class {name}:\n")
        access = "readonly" if readonly[name] else "public"
        pxd += [f"    cdef {access} {_native_type(ann, classes)} {field}\n" for field, ann in fields]
        if not fields:
            pxd.append("    pass\n")
    table = {name: {field: ast.unparse(ann) for field, ann in fields} for name, fields in classes.items()}
    out = "".join(lines).rstrip("\n") + f"\n\n{FIELD_TYPES} = {table!r}\n"
    ast.parse(out)
    return out, "".join(pxd)


def _is_dataclass(deco: ast.expr) -> bool:
    func = deco.func if isinstance(deco, ast.Call) else deco
    return (isinstance(func, ast.Name) and func.id == "dataclass") or (
        isinstance(func, ast.Attribute) and func.attr == "dataclass"
    )


def _native_type(ann: ast.expr, classes: dict[str, Any]) -> str:
    """The C-level type of a field annotated ``ann``: a native class, ``list``, ``dict``, ``set`` or ``object``."""
    bare = _bare(ann)
    if isinstance(bare, ast.Name) and bare.id in classes:
        return bare.id
    base = bare.value if isinstance(bare, ast.Subscript) else bare
    return base.id if isinstance(base, ast.Name) and base.id in ("list", "dict", "set") else "object"


def step_classes(sources: Iterable[str]) -> set[str]:
    """The names of the classes in ``sources`` (module texts) that derive from :data:`STEP_BASE` (class names are
    told apart by name alone: a step class's name is used by no other class of the engine)."""
    bases: dict[str, set[str]] = {}
    for text in sources:
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                names = {
                    b.id if isinstance(b, ast.Name) else b.attr
                    for b in node.bases
                    if isinstance(b, ast.Name | ast.Attribute)
                }
                bases.setdefault(node.name, set()).update(names)
    found = {STEP_BASE}
    grown = True
    while grown:
        more = {name for name, of in bases.items() if of & found} - found
        found |= more
        grown = bool(more)
    return found - {STEP_BASE}


_NOT_ON_INSTANCES = {"staticmethod", "classmethod"}
_CLASS_LEVEL = {"__init_subclass__", "__new__", "__class_getitem__"}


def typed_self(text: str, steps: Collection[str]) -> str | None:
    """``text`` with the ``self`` of every method of the ``steps`` classes in it declared a :data:`STEP_BASE`
    (``self: StepBase``; that line's later columns move), or None where it has no such method."""
    lines = text.splitlines(keepends=True)
    at: list[tuple[int, int]] = []
    for cls in ast.walk(ast.parse(text)):
        if not isinstance(cls, ast.ClassDef) or cls.name not in steps:
            continue
        for fn in cls.body:
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) or fn.name in _CLASS_LEVEL:
                continue
            decorators = {d.id for d in fn.decorator_list if isinstance(d, ast.Name)}
            first = (*fn.args.posonlyargs, *fn.args.args)[:1]
            if decorators & _NOT_ON_INSTANCES or not first or first[0].arg != "self" or first[0].annotation:
                continue
            at.append((first[0].lineno, _chars(lines, first[0].lineno, first[0].col_offset) + len("self")))
    if not at:
        return None
    for lineno, col in sorted(at, reverse=True):
        line = lines[lineno - 1]
        lines[lineno - 1] = f"{line[:col]}: {STEP_BASE}{line[col:]}"
    out = "".join(lines)
    ast.parse(out)
    return out
