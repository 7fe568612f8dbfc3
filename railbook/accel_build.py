"""``python -m railbook.accel_build``: compile the modules whose build is missing or stale (see :mod:`railbook.accel`).

Prints one line: what was compiled, or why nothing could be (the package then runs as plain Python). Always exits
0 unless ``--strict`` is given: a machine without a C compiler still gets a working install.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import re
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from railbook.accel import (
    BUILD,
    CFLAGS,
    DIRECTIVES,
    MANIFEST,
    MANIFEST_FORMAT,
    PACKAGES,
    ROOT,
    _abi,
    _sources,
    manifest_entries,
)
from railbook.accel_declare import (
    C_INT_DECLARATION,
    GAME_MODULE,
    NATIVE_DATACLASS_MODULES,
    STEP_BASE,
    STEP_BASE_MODULE,
    called_imports_dropped,
    declared_source,
    early_modules,
    module_functions,
    module_imports,
    native_annotations,
    native_classes,
    native_dataclasses,
    native_imports,
    step_classes,
    takes_game,
    typed_self,
    uses_c_int,
)
from railbook.jsonio import write_atomic


def build(jobs: int = 0) -> tuple[bool, str]:
    """Compile what is missing or stale; (whether every module has a current build, a one-line summary)."""
    try:
        from Cython.Build import cythonize
        from setuptools import Distribution, Extension  # type: ignore[import-untyped]
        from setuptools.command.build_ext import build_ext  # type: ignore[import-untyped]
    except ImportError as exc:
        return False, f"compiled builds skipped: {exc.name} is not installed; the engine runs as Python"
    jobs = jobs or os.cpu_count() or 1
    plans = _plans()
    kept = manifest_entries()
    entries = {name: plan.entry for name, plan in plans.items()}
    todo = [
        plan for name, plan in plans.items() if kept.get(name) != plan.entry or not (BUILD / plan.entry[3]).is_file()
    ]
    if not todo:
        return True, f"compiled builds: all {len(entries)} modules current"
    current = {name: entry for name, entry in entries.items() if kept.get(name) == entry}
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp, _output_to(Path(tmp) / "log") as log:
        try:
            tree = _tree(Path(tmp) / "tree", plans)
            exts = [Extension(p.name, [str(p.compiled)], extra_compile_args=list(CFLAGS)) for p in todo]
            with contextlib.chdir(tree / "railbook"):  # the builds name their sources engine/..., as the repository
                modules = cythonize(  # type: ignore[no-untyped-call]
                    exts,
                    build_dir=str(Path(tmp) / "c"),
                    include_path=[str(tree)],
                    compiler_directives=DIRECTIVES,
                    quiet=True,
                    nthreads=jobs,
                )
            for ext in modules:
                for c_file in ext.sources:
                    _patch_c(Path(c_file))
            cmd = build_ext(Distribution({"name": "railbook-accel", "ext_modules": modules}))
            cmd.build_lib = str(BUILD)
            cmd.build_temp = str(Path(tmp) / "o")
            cmd.parallel = jobs
            cmd.ensure_finalized()
            cmd.run()
        except BaseException as exc:  # the compiler's and Cython's own errors come in many types
            if isinstance(exc, KeyboardInterrupt):
                raise
            _write(current)
            reason = _last_error(log) or f"{type(exc).__name__}: {exc}"
            return False, f"compiled builds failed ({reason}); changed modules run as Python"
    _write(entries)
    took = time.perf_counter() - start
    return True, f"compiled builds: {len(todo)} of {len(entries)} modules compiled in {took:.0f} s"


#: Cython's helper that finds the ``dataclasses`` module, which a native dataclass's ``__init__`` calls once for every
#: field with a ``default_factory`` on every call (an import: about 1,700 machine instructions, 8,500 for each new
#: ``HexState``), and the same helper finding it once
_DATACLASSES_LOOKUP = (
    "static PyObject *__Pyx_Load_dataclasses_Module(void) {\n"
    "    return PyImport_Import(__pyx_mstate_global->__pyx_n_u_dataclasses);\n"
    "}\n"
)
_DATACLASSES_KEPT = (
    "static PyObject *__Pyx_Load_dataclasses_Module(void) {\n"
    "    static PyObject *found = NULL;  /* railbook.accel_build: looked up once */\n"
    "    if (found == NULL) {\n"
    "        found = PyImport_Import(__pyx_mstate_global->__pyx_n_u_dataclasses);\n"
    "        if (found == NULL) return NULL;\n"
    "    }\n"
    "    Py_INCREF(found);\n"
    "    return found;\n"
    "}\n"
)


def _patch_c(c_file: Path) -> None:
    """Cython's output with the ``dataclasses`` module looked up once (where Cython writes the helper as expected;
    elsewhere the output is compiled as it is)."""
    text = c_file.read_text()
    if _DATACLASSES_LOOKUP in text:
        c_file.write_text(text.replace(_DATACLASSES_LOOKUP, _DATACLASSES_KEPT))


@dataclass
class _Plan:
    """How one module is compiled: the text compiled, its ``.pxd`` (None: none; ``generated``: made from the source,
    see :func:`railbook.accel_declare.native_dataclasses`) and its manifest entry."""

    name: str
    source: Path
    text: str
    pxd: str | None
    entry: list[Any]
    generated: bool = False
    compiled: Path = Path()


_CIMPORT = re.compile(r"^(?:from (railbook\.[\w.]+) cimport |cimport (railbook\.[\w.]+) as )", re.MULTILINE)
_CPDEF = re.compile(r"^cpdef\s+\w+\s+(\w+)\s*\(", re.MULTILINE)


def _plans() -> dict[str, _Plan]:
    """Every module's plan.  A manifest entry is [source, size, mtime_ns, build file, the ``.pxd`` files its build
    read (each [path, size, mtime_ns]: its own and those of the modules it cimports; for a ``.pxd`` made from a
    module's source, that source), the modules it cimports, a digest of the text and ``.pxd`` compiled (what
    :mod:`railbook.accel_declare` makes of the source changes with it), a digest of the ``.pxd``, the digests of
    the cimported modules' ``.pxd`` files]."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    sources = dict(_sources())
    texts = {name: src.read_text(encoding="utf-8") for name, src in sources.items()}
    early = early_modules(texts)
    natives = {
        cls: module for module in NATIVE_DATACLASS_MODULES if module in texts for cls in native_classes(texts[module])
    }
    natives[STEP_BASE] = STEP_BASE_MODULE  # (its .pxd is written by hand) a loop over steps may declare ``s: StepBase``
    steps = step_classes(texts.values())
    own_pxds = {  # each module's own declarations
        name: src.with_suffix(".pxd").read_text(encoding="utf-8")
        for name, src in sources.items()
        if src.with_suffix(".pxd").is_file()
    }
    # C functions (``cpdef`` in a module's own .pxd): importers by name call them directly
    functions = {fn: name for name, pxd in own_pxds.items() for fn in _CPDEF.findall(pxd)}
    declarables: dict[str, dict[str, str]] = {}  # module -> the native classes its annotations may declare
    declared_functions: dict[str, str] = {}  # module -> the .pxd lines declaring its functions C functions
    for name in sources:
        declarable = native_imports(name, texts[name], natives)
        declarable.update({cls: module for cls, module in natives.items() if module == name})  # its own
        declarables[name] = declarable
        declared_functions[name] = module_functions(texts[name], own_pxds.get(name, ""), name not in early, declarable)
    # modules with C functions of their own, which modules importing them as modules cimport too (``board.track(g,
    # h)`` is then a C call); not where Game cannot be cimported, as a cimported module imports game as it loads
    with_functions = {
        name
        for name in sources
        if name not in early
        and name != GAME_MODULE
        and (_CPDEF.search(own_pxds.get(name, "")) or declared_functions[name])
    }
    plans: dict[str, _Plan] = {}
    for name, src in sources.items():
        body = own_pxds.get(name, "")
        known = name not in early  # Game can be cimported (or is defined) where the module loads
        declarable = declarables[name]
        calls = native_imports(name, texts[name], functions)
        text = called_imports_dropped(texts[name], calls) if calls else texts[name]
        text = declared_source(text, game_known=known, native=declarable)
        used = native_annotations(texts[name], declarable)
        cimports: dict[str, set[str]] = {}  # module -> names its native classes and C functions are read by
        for names in (used, calls):
            for item in names:
                module = declarable.get(item) or calls[item]
                if module != name:
                    cimports.setdefault(module, set()).add(item)
        generated = name in NATIVE_DATACLASS_MODULES
        if generated:
            text, native = native_dataclasses(text)
            body = native + body
        body += declared_functions[name]
        if uses_c_int(texts[name]):
            body = C_INT_DECLARATION + body
        stepping = typed_self(text, steps) if known else None
        if stepping is not None:
            text = stepping
            if name != STEP_BASE_MODULE:
                cimports.setdefault(STEP_BASE_MODULE, set()).add(STEP_BASE)
        if known and name != GAME_MODULE and takes_game(texts[name]) and "cimport Game" not in body:
            cimports.setdefault(GAME_MODULE, set()).add("Game")
        header = "".join(f"from {m} cimport {', '.join(sorted(cimports[m]))}\n" for m in sorted(cimports))
        if known and name != GAME_MODULE:
            for alias, module in sorted(module_imports(name, texts[name], with_functions - {name}).items()):
                header += f"cimport {module} as {alias}\n"
        pxd = (header + body) or None
        st = src.stat()
        entry: list[Any] = [str(src.relative_to(ROOT)), st.st_size, st.st_mtime_ns, name.replace(".", "/") + suffix]
        cimported = sorted({a or b for a, b in _CIMPORT.findall(pxd or "")})
        entry += [[], cimported, _digest(text, pxd or ""), _digest(pxd or ""), {}]
        plans[name] = _Plan(name, src, text, pxd, entry, generated)
    for plan in plans.values():  # the .pxd files read: its own and, through its cimports, theirs
        read, todo, seen = [], [plan.name], set()
        while todo:
            name = todo.pop()
            if name in seen or name not in plans:
                continue
            seen.add(name)
            own = plans[name].source.with_suffix(".pxd")
            for path in (own, plans[name].source if plans[name].generated and name != plan.name else None):
                if path is not None and path.is_file():
                    st = path.stat()
                    read.append([str(path.relative_to(ROOT)), st.st_size, st.st_mtime_ns])
            todo += plans[name].entry[5]
        plan.entry[4] = sorted(read)
        plan.entry[8] = {dep: plans[dep].entry[7] for dep in plan.entry[5] if dep in plans}
    return plans


def _digest(*texts: str) -> str:
    return hashlib.sha256("\0".join(texts).encode()).hexdigest()[:16]


def _tree(base: Path, plans: dict[str, _Plan]) -> Path:
    """The modules as compiled (annotations blanked out: :mod:`railbook.accel_declare`) and their ``.pxd`` files,
    laid out as they are imported (for ``cimport``), with the packages' ``__init__.py``."""
    for plan in plans.values():
        path = base.joinpath(*plan.name.split(".")).with_suffix(".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(plan.text, encoding="utf-8")
        if plan.pxd is not None:
            path.with_suffix(".pxd").write_text(plan.pxd, encoding="utf-8")
        plan.compiled = path
    for prefix, folder in PACKAGES:
        for init in (ROOT / folder).rglob("__init__.py"):
            if "__pycache__" not in init.parts:
                target = base.joinpath(*prefix.split("."), init.relative_to(ROOT / folder))
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text("")
    for parent in {
        base.joinpath(*prefix.split(".")[:i]) for prefix, _ in PACKAGES for i in range(1, len(prefix.split(".")))
    }:
        (parent / "__init__.py").touch()
    return base


def _write(entries: dict[str, list[Any]]) -> None:
    """The manifest, replaced whole (never half-written)."""
    write_atomic(
        MANIFEST,
        json.dumps({"abi": _abi(), "format": MANIFEST_FORMAT, "modules": dict(sorted(entries.items()))}, indent=1)
        + "\n",
    )


@contextlib.contextmanager
def _output_to(path: Path) -> Iterator[Path]:
    """Standard output and error (the compiler's too: it writes to the file descriptors) go to ``path``."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with open(path, "w") as f:
        os.dup2(f.fileno(), 1)
        os.dup2(f.fileno(), 2)
        try:
            yield path
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])


def _last_error(log: Path) -> str:
    try:
        lines = [ln.strip() for ln in log.read_text(errors="replace").splitlines() if "error" in ln.lower()]
    except OSError:
        return ""
    return lines[-1][:200] if lines else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m railbook.accel_build", description=__doc__)
    parser.add_argument("--jobs", type=int, default=0, help="compilers run at once (0: one per core)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a module could not be compiled")
    args = parser.parse_args(argv)
    ok, summary = build(args.jobs)
    print(summary)
    return 1 if args.strict and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
