"""A closed format: every field a compiled rulebook accepts is a rule some engine code reads (issue 36).

How it works.  The test walks the models of the compiled rulebook (``compiler/rulebook.py``: the hexes, tiles,
market, trains, phases, companies, rounds and end of a title) and, for every mechanic, its parameter model and its
events' parameter models (``railbook.params``), to the full list of accepted field paths, following nested models,
lists, mappings and unions.  For each path it asks whether engine code reads that field, by a static scan of the
engine's sources (``engine/``, ``routes/``, and the methods of the ``railbook.params`` models):

- a field of the rulebook proper is read when its name appears as a string constant in code (not in a docstring):
  the engine reads the rulebook as JSON data, ``spec["blocked_by"]`` or ``spec.get("salvage")``;
- a field of a mechanic's parameters (or of its events' parameters) is read when its name is an attribute read
  (``PARAMS.of(g).min_cost``, ``rule.move``) or a string constant anywhere in that code, the methods of the
  parameter models included.  (Not only in the mechanic's own module: a provider hands its parameters to other
  mechanics through an interface, and the route bonuses read ``mechanics.routes`` from the book.)

A static scan was chosen over instrumenting reads during play: it sees every branch, however rarely played, needs
no recorded games (the shared fixtures are optional), and runs in a second.  It is lenient where names are common
(a field called ``count`` is taken as read when any code reads some ``count``), so it finds fields that *no* code
reads, the accepted-and-ignored kind the issue is about; the behaviour tests of each mechanic check the rest.

A field meant only for print (a name, a colour, a note on a card) says so in its model: its metadata carries
``"x-print-only": true`` (``railbook.params.base.PRINT_ONLY``), which also appears in the JSON schema.  Such a field
is never looked for.  Two more marks in a field's metadata are honoured, each checked here: ``x-compiled-into``
names the compiled field the compiler turns it into (that one must be read), and ``x-typed-by`` says what validates
the keys of a free mapping (``events``: the model each mechanic declares for an event type, walked below;
``rulebook``: an option's merge patch, validated as the title it patches).  There is no list of exempt names: a
field is read, or its model says why not.
"""

from __future__ import annotations

import ast
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from railbook.compiler.rulebook import Rulebook
from railbook.params import declarations
from railbook.params.base import is_print_only

ROOT = Path(__file__).resolve().parent.parent
ENGINE_CODE = [*sorted((ROOT / "engine").rglob("*.py")), *sorted((ROOT / "routes").rglob("*.py"))]


def _models_in(tp: Any) -> list[type[BaseModel]]:
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return [tp]
    return [m for arg in typing.get_args(tp) for m in _models_in(arg)]


#: what an ``x-typed-by`` mark may name: the event models walked by :func:`accepted_fields`, and the title itself
#: (an option's overlay is validated as the title it patches, ``compiler/validate.py``)
TYPED_BY = {"events", "rulebook"}


def _is_open_mapping(tp: Any) -> bool:
    """A mapping of arbitrary keys to arbitrary values: it accepts any field name at all."""
    return typing.get_origin(tp) is dict and typing.get_args(tp)[1:] == (Any,)


def _walk(model: type[BaseModel], path: str, seen: frozenset[type]) -> Iterator[tuple[str, str, FieldInfo]]:
    for field, info in model.model_fields.items():
        name = info.alias or field
        here = f"{path}.{name}" if path else name
        yield here, field, info
        for sub in _models_in(info.annotation):
            if sub not in seen:
                yield from _walk(sub, here, seen | {sub})


def accepted_fields() -> Iterator[tuple[str, str | None, str, FieldInfo]]:
    """Every accepted field as (path, the mechanic whose parameters it is or None, its name in the model, its field
    info); a path names a field as it is written (its alias, where it has one)."""
    mechanic_models = {d.params for d in declarations().values()}
    for path, field, info in _walk(Rulebook, "", frozenset({Rulebook})):
        if path.startswith("mechanics.") or path == "mechanics":
            continue
        if any(m in mechanic_models for m in _models_in(info.annotation)):
            continue
        yield path, None, field, info
    for name, d in declarations().items():
        for path, field, info in _walk(d.params, f"mechanics.{name}", frozenset({d.params})):
            yield path, name, field, info
        for event, model in d.events.items():
            for path, field, info in _walk(model, f"events.{event}.params", frozenset({model})):
                yield path, name, field, info


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _reads(trees: list[ast.AST]) -> tuple[set[str], set[str]]:
    """The string constants (docstrings left out) and attribute names the code of ``trees`` reads."""
    strings: set[str] = set()
    attrs: set[str] = set()
    for tree in trees:
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
                strings.add(node.value)
            elif isinstance(node, ast.Attribute):
                attrs.add(node.attr)
    return strings, attrs


def _parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _methods(tree: ast.Module) -> list[ast.AST]:
    """The bodies of the functions defined in a params module (its classes' fields and descriptions left out)."""
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]


def unread_fields() -> list[str]:
    """Accepted field paths that no engine code reads and that are not marked print-only."""
    engine = [_parse(p) for p in ENGINE_CODE]
    rulebook_strings, _ = _reads(engine)
    methods = [m for p in sorted((ROOT / "params").glob("*.py")) for m in _methods(_parse(p))]
    strings, attrs = _reads([*engine, *methods])
    out = []
    fields = list(accepted_fields())
    paths = {p for p, _, _, _ in fields}
    for path, mechanic, field, info in fields:
        if is_print_only(info):
            continue
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        if "x-compiled-into" in extra:
            target = f"{path.rpartition('.')[0]}.{extra['x-compiled-into']}"
            assert target in paths, f"{path}: x-compiled-into names {target}, which the rulebook lacks"
            path = target
        name = path.rpartition(".")[2]
        if mechanic is None:
            read = name in rulebook_strings
        else:
            read = name in strings or field in attrs
        if not read:
            out.append(path)
        elif _is_open_mapping(info.annotation) and extra.get("x-typed-by") not in TYPED_BY:
            out.append(f"{path} (accepts any key)")
    return out


def test_every_accepted_field_is_read_by_the_engine_or_marked_print_only() -> None:
    """Issue 36, "a closed format": a field the format accepts and no engine code reads is a rule a designer would
    believe is played.  Play it, remove it from the format, or mark it print-only in its model."""
    unread = unread_fields()
    assert not unread, f"{len(unread)} accepted fields no engine code reads:\n  " + "\n  ".join(unread)


def test_the_walk_sees_nested_parameters_and_the_scan_sees_reads() -> None:
    """The test's own machinery: the walk reaches nested models of the rulebook and of a mechanic's parameters and
    events, and a field the engine reads is found while a made-up one is not."""
    paths = {p: m for p, m, _, _ in accepted_fields()}
    assert "hexes.cities.slots" in paths
    assert paths["mechanics.dividends.movement.move"] == "dividends"
    assert any(p.startswith("events.") for p in paths)
    strings, attrs = _reads([ast.parse('def f(spec, p):\n    """slots"""\n    return spec["cost"] + p.move\n')])
    assert "cost" in strings and "move" in attrs and "slots" not in strings


def test_every_ability_type_has_engine_code() -> None:
    """Each ability type the format accepts is named by engine code that plays it (a type is a branch of its own,
    never the fallback of another): an unplayed type is refused by validate with the valid types."""
    from railbook.compiler.models import Ability

    types = typing.get_args(Ability.model_fields["type"].annotation)
    strings, _ = _reads([_parse(p) for p in ENGINE_CODE])
    assert [t for t in types if t not in strings] == []


def test_every_field_a_title_writes_reaches_the_rulebook() -> None:
    """A field of the title's YAML (``GameSource``) that the rulebook does not carry is one the compiler reads
    and turns into others (``tile_rules``, the market's ``rows``, an option's ``overlay``...): the walk above then
    covers what it becomes.  None is dropped unread."""
    from railbook.compiler.models import GameSource

    carried = {p.rpartition(".")[2] for p, _, _ in _walk(Rulebook, "", frozenset({Rulebook}))}
    strings, attrs = _reads([_parse(p) for p in sorted((ROOT / "compiler").glob("*.py"))])
    dropped = [
        path
        for path, field, info in _walk(GameSource, "", frozenset({GameSource}))
        if not path.startswith("mechanics")
        and not is_print_only(info)
        and path.rpartition(".")[2] not in carried
        and field not in attrs
        and path.rpartition(".")[2] not in strings
    ]
    assert dropped == []
