"""The engine's shape: no import cycles, no mechanic importing another, no compiler in the engine and no engine in
the compiler, one registry whose every parameter is typed and described, and generated docs that are current."""

from __future__ import annotations

import ast
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel
from railbook.compiler import mechanics_doc
from railbook.compiler.compile import build_rulebook
from railbook.compiler.load import available_titles
from railbook.compiler.schema import MECHANICS_DOC
from railbook.engine import interfaces
from railbook.engine.book import Book
from railbook.engine.contract import HOOKS, Hooks, Mechanic, check_priorities
from railbook.engine.install import installed
from railbook.engine.interfaces import INTERFACES
from railbook.engine.registry import REGISTRY
from railbook.params import declaration
from railbook.params.base import Declaration

ENGINE = Path(__file__).resolve().parent.parent / "engine"


def _module_name(path: Path) -> str:
    rel = path.relative_to(ENGINE).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _is_package(name: str) -> bool:
    return (ENGINE / name.replace(".", "/") / "__init__.py").exists() if name else True


def _imports(path: Path, name: str, modules: set[str]) -> set[str]:
    """Engine modules that ``name`` imports anywhere in the file: at load time, inside functions, and for type checking
    only (a type-only import is a dependency too: a compiled build or a reader follows it)."""
    out: set[str] = set()
    package = name if _is_package(name) else name.rpartition(".")[0]

    def resolve(level: int, module: str | None) -> str:
        base = package.split(".") if package else []
        if level > 1:
            base = base[: len(base) - (level - 1)]
        return ".".join([*base, *([module] if module else [])])

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                target = resolve(node.level, node.module)
            elif node.module and node.module.startswith("railbook.engine"):
                target = node.module.removeprefix("railbook.engine").lstrip(".")
            else:
                target = None
            if target is not None:
                found = {f"{target}.{a.name}".strip(".") for a in node.names} & modules
                if not found and target in modules:
                    found = {target}
                out.update(found - {name})
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("railbook.engine."):
                    target = a.name.removeprefix("railbook.engine.")
                    if target in modules:
                        out.add(target)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return out


def import_graph() -> dict[str, set[str]]:
    files = {_module_name(p): p for p in ENGINE.rglob("*.py")}
    modules = set(files)
    return {name: _imports(path, name, modules) for name, path in files.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in graph:
        if v not in index:
            strong(v)
    return found


def test_the_graph_sees_imports_inside_functions() -> None:
    graph = import_graph()
    assert "rounds" in graph["game"] and "registry" in graph["install"]
    assert {"contract", "state"} <= graph["mechanics.core"]
    assert "context" in graph["board"]  # (imported for type checking only)


def test_no_import_cycle_among_engine_modules_type_only_imports_included() -> None:
    assert _cycles(import_graph()) == []


def test_no_mechanic_imports_another() -> None:
    graph = import_graph()
    for name, deps in graph.items():
        if name.startswith("mechanics."):
            others = sorted(d for d in deps if d.startswith("mechanics"))
            assert others == [], f"{name} imports {others}"


def test_the_engine_never_imports_the_compiler_or_the_renderer() -> None:
    for path in ENGINE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for banned in ("railbook.compiler", "railbook.render", "ruamel"):
            assert banned not in text, f"{path.name} mentions {banned}"


def test_importing_the_engine_loads_no_compiler() -> None:
    code = (
        "import sys, railbook.engine.game, railbook.engine.replay;"
        "print(sorted(m for m in sys.modules if m.startswith(('railbook.compiler', 'ruamel', 'railbook.render'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_validating_a_title_loads_no_engine_module() -> None:
    """The compiler reads the mechanics' declarations (railbook.params) alone: ``railbook validate`` (its
    ``check``) imports nothing of the engine."""
    code = (
        "import sys\n"
        "from railbook.compiler.compile import check\n"
        "from railbook.compiler.load import load_title\n"
        "for title in ('1846', '1817'):\n"
        "    check(load_title(title), [])\n"
        "print(sorted(m for m in sys.modules if m.startswith('railbook.engine')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_declarations_never_import_the_engine() -> None:
    params = ENGINE.parent / "params"
    for path in params.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                assert node.level <= 1 and not (node.module or "").startswith("railbook.engine"), path.name
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("railbook.engine") for a in node.names), path.name


def test_every_rule_module_matches_its_declaration() -> None:
    for name, m in REGISTRY.items():
        d = declaration(name)
        assert (m.name, m.description, m.params, m.implemented) == (d.name, d.description, d.params, d.implemented)
        assert tuple(m.steps) == d.steps and tuple(m.round_types) == d.round_types, name
        assert {e: spec[0] for e, spec in m.events.items()} == d.events, name
    with pytest.raises(TypeError, match="steps \\['lay'\\] differ"):
        Mechanic.of(Declaration(name="x", description="x"), steps={"lay": object})


def test_rule_modules_read_their_parts_through_typed_accessors() -> None:
    """A rule module reads its parameters and state as ``PARAMS.of(g)`` / ``STATE.of(g)`` (``params_of`` /
    ``state_of``), never through a copy of an untyped helper."""
    for path in (ENGINE / "mechanics").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        assert not defined & {"_p", "_st"}, f"{path.name} defines {sorted(defined & {'_p', '_st'})}"
        assert "# type: ignore[return-value]" not in path.read_text(encoding="utf-8"), path.name


def test_steps_are_found_by_their_declared_constants() -> None:
    """Code finds a step by the constant its mechanic declares (``railbook.params.trains.BUY_TRAIN_STEP``), never
    by a string of its name."""
    steps = {s for m in REGISTRY.values() for s in m.steps}
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "steps_named":
                assert not any(isinstance(a, ast.Constant) for a in node.args), f"{path.name}:{node.lineno}"
            if isinstance(node, ast.Compare) and "name" in ast.unparse(node.left):
                names = {c.value for c in ast.walk(node) if isinstance(c, ast.Constant)}
                assert not names & steps, f"{path.name}:{node.lineno} compares a step's name with {names & steps}"
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.Assign) and ast.unparse(item.targets[0]) == "name":
                        assert not isinstance(item.value, ast.Constant) or item.value.value not in steps, (
                            f"{path.name}: step {node.name} names itself by a string"
                        )


# ------------------------------------------------------------------------------------------ contract


def _fields(model: type[BaseModel], seen: set[type]) -> list[tuple[str, Any]]:
    out = []
    for name, info in model.model_fields.items():
        out.append((f"{model.__name__}.{name}", info))
        for tp in _models_in(info.annotation):
            if tp not in seen:
                seen.add(tp)
                out.extend(_fields(tp, seen))
    return out


def _models_in(tp: Any) -> list[type[BaseModel]]:
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return [tp]
    return [m for arg in typing.get_args(tp) for m in _models_in(arg)]


@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_parameter_is_typed_and_described(name: str) -> None:
    m = REGISTRY[name]
    models = [m.params, *(spec[0] for spec in m.events.values())]
    seen: set[type] = set(models)
    for model in models:
        assert model.model_config.get("extra") == "forbid", f"{model.__name__} accepts unknown keys"
        for field, info in _fields(model, seen):
            assert info.description, f"{name}: {field} has no description"
            assert info.annotation is not Any, f"{name}: {field} is untyped"


def test_hooks_handled_are_known_and_a_misspelt_one_is_an_error() -> None:
    for m in REGISTRY.values():
        assert set(m.hooks) <= set(HOOKS)
    with pytest.raises(TypeError, match="unknown hooks corporation_closd"):
        Mechanic(name="x", description="x", hooks={"corporation_closd": lambda g, corp: None})


def test_first_hooks_have_one_handler_per_priority() -> None:
    """Of all mechanics (so of any title's), no two answer a ``FIRST`` hook at the same declared priority: the
    winner is declared, never the registry's order."""
    check_priorities(REGISTRY.values())
    for title in available_titles():
        book = Book(build_rulebook(title))
        check_priorities(installed(book).mechanics)


def test_a_priority_tie_is_refused() -> None:
    a = Mechanic(name="a", description="a", hooks={"holding_limit": lambda g, corp: 60})
    b = Mechanic(name="b", description="b", hooks={"holding_limit": lambda g, corp: 50})
    with pytest.raises(TypeError, match="a and b both answer hook holding_limit at priority 0"):
        check_priorities([a, b])
    with pytest.raises(TypeError, match="not a FIRST hook"):
        Mechanic(name="c", description="c", hooks={"setup": lambda g: None}, priorities={"setup": 1})


def test_the_highest_priority_answers_a_first_hook() -> None:
    low = Mechanic(name="low", description="x", hooks={"holding_limit": lambda g, corp: 60}, priorities={})
    high = Mechanic(
        name="high", description="x", hooks={"holding_limit": lambda g, corp: 50}, priorities={"holding_limit": 5}
    )
    for order in ([low, high], [high, low]):
        assert Hooks(object(), order)("holding_limit", "X") == 50  # type: ignore[arg-type]


def test_interfaces_are_declared_known_and_provided_once() -> None:
    providers: dict[str, list[str]] = {}
    for name in REGISTRY:
        d = declaration(name)
        for iface in (*d.provides, *d.requires, *d.uses):
            assert iface in INTERFACES, f"{name}: unknown interface {iface}"
        for iface in d.provides:
            providers.setdefault(iface, []).append(name)
    assert {i: len(p) for i, p in providers.items()} == dict.fromkeys(INTERFACES, 1), providers


def test_a_provider_must_have_every_method_and_be_declared() -> None:
    class Partial:
        outstanding = staticmethod(lambda g, corp: 0)

    with pytest.raises(TypeError, match="Partial does not provide Loans: no repay_price"):
        interfaces.LOANS.provided_by(Partial())
    with pytest.raises(TypeError, match=r"interfaces provided \['Reissue'\] differ"):
        Mechanic.of(Declaration(name="x", description="x"), provides=[("Reissue", object())])


def test_every_title_provides_what_its_mechanics_require() -> None:
    for title in available_titles():
        rules = installed(Book(build_rulebook(title)))
        for m in rules.mechanics:
            for iface in m.requires:
                assert iface in rules.interfaces, f"{title}: {m.name} requires {iface}"


def test_a_rule_module_calls_only_the_interfaces_it_declares() -> None:
    """``X.of(g)`` / ``X.get(g)`` of an interface in a rule module: declared as required or used (and every
    declared one called), so the declarations say who calls whom."""
    keys = {attr: key.name for attr, key in vars(interfaces).items() if isinstance(key, interfaces.Interface)}
    for name in REGISTRY:
        d = declaration(name)
        tree = ast.parse((ENGINE / "mechanics" / f"{name}.py").read_text(encoding="utf-8"))
        called = {
            keys[node.func.value.id]
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("of", "get")
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in keys
        }
        assert called == set(d.requires) | set(d.uses), f"{name} calls {sorted(called)}"


def test_no_mechanic_reads_parameters_by_name() -> None:
    """A rule module reads its own parameters through ``PARAMS.of(g)`` and another mechanic's rules through an
    interface, never ``g.params[...]``."""
    for path in (ENGINE / "mechanics").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("params", "mechanics"):
                assert not ast.unparse(node.value).endswith("g") and "state" not in ast.unparse(node.value), (
                    f"{path.name}:{node.lineno}: {ast.unparse(node)}"
                )


def test_steps_round_types_and_events_have_one_owner() -> None:
    seen: dict[str, str] = {}
    for m in REGISTRY.values():
        for key in [*(f"step:{s}" for s in m.steps), *(f"event:{e}" for e in m.events)]:
            assert key not in seen, f"{key} is declared by {seen[key]} and {m.name}"
            seen[key] = m.name


def test_mechanics_doc_is_current() -> None:
    assert MECHANICS_DOC.read_text(encoding="utf-8") == mechanics_doc.render(), "run `railbook schema`"
