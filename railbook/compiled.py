"""Whether the engine runs compiled, and running it from its sources where it must.

``setup.py`` compiles the engine's hot modules into extension modules beside their sources (``engine/board.py`` ->
``engine/board.cpython-311-x86_64-linux-gnu.so`` in a checkout); Python's own import system prefers an extension
to a source.  :func:`check`, called once when :mod:`railbook` is imported, makes the engine import its ``.py``
sources instead, all of them (never a mix), when

- ``RAILBOOK_PURE=1`` is set (profilers and debuggers see into Python code only), or
- in a source checkout, a compiled module is older than its source or than a ``.pxd`` file it was compiled with
  (an edit not yet compiled): one line on standard error says so and what to run (``make install``).

So an edit is never silently ignored, and results are the same either way, only slower from sources.
"""

from __future__ import annotations

import os
import re
import sys
from importlib.machinery import EXTENSION_SUFFIXES, SOURCE_SUFFIXES, FileFinder, ModuleSpec, SourceFileLoader
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

PURE_ENV = "RAILBOOK_PURE"
PACKAGE = "railbook.engine"
#: the engine's folder in a source checkout (pyproject.toml maps engine/ to railbook.engine)
CHECKOUT = Path(__file__).resolve().parent.parent
_CIMPORT = re.compile(r"^\s*(?:from\s+railbook\.engine\.([\w.]+)\s+cimport|cimport\s+railbook\.engine\.([\w.]+))", re.M)

_reason: str | None = None  # why the engine runs from its sources (None: it runs as installed)


class SourceFinder:
    """Finds the engine's modules as their ``.py`` sources, never as extension modules (a meta path finder)."""

    _finders: ClassVar[dict[str, FileFinder]] = {}

    @classmethod
    def find_spec(cls, fullname: str, path: Any = None, target: ModuleType | None = None) -> ModuleSpec | None:
        if not fullname.startswith(PACKAGE + ".") or not path:
            return None
        for entry in path:
            finder = cls._finders.get(entry)
            if finder is None:
                finder = cls._finders[entry] = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES))
            spec = finder.find_spec(fullname)
            if spec is not None:
                return spec
        return None


def stale(engine: Path = CHECKOUT / "engine") -> str | None:
    """The first compiled module of ``engine`` (a checkout's folder) older than its source or than a ``.pxd`` file it
    was compiled with (its own and those it cimports), as a path under the checkout; None if there is none."""
    suffix = EXTENSION_SUFFIXES[0]
    built = sorted(p for folder in (engine, engine / "steps", engine / "mechanics") for p in folder.glob(f"*{suffix}"))
    if not built:
        return None
    cimports: dict[Path, list[Path]] = {}

    def newest(pxd: Path, seen: set[Path]) -> tuple[int, Path] | None:
        if pxd in seen or not pxd.is_file():
            return None
        seen.add(pxd)
        if pxd not in cimports:
            found = _CIMPORT.findall(pxd.read_text(encoding="utf-8"))
            cimports[pxd] = [engine.joinpath(*(a or b).split(".")).with_suffix(".pxd") for a, b in found]
        out = (pxd.stat().st_mtime_ns, pxd)
        for dep in cimports[pxd]:
            got = newest(dep, seen)
            if got is not None and got > out:
                out = got
        return out

    for so in built:
        source = so.with_name(so.name[: -len(suffix)] + ".py")
        mtime = so.stat().st_mtime_ns
        if source.is_file() and source.stat().st_mtime_ns > mtime:
            return str(source.relative_to(engine.parent))
        got = newest(source.with_suffix(".pxd"), set())
        if got is not None and got[0] > mtime:
            return str(got[1].relative_to(engine.parent))
    return None


def check() -> None:
    """Run the engine from its sources where ``RAILBOOK_PURE`` is set or a compiled module is stale (once)."""
    global _reason
    if _reason is not None or any(isinstance(f, SourceFinder) for f in sys.meta_path):
        return
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        _reason = f"{PURE_ENV} is set"
    elif (CHECKOUT / "pyproject.toml").is_file() and (changed := stale()) is not None:
        _reason = f"{changed} changed since it was compiled"
        print(
            f"railbook: {changed} changed since the engine was compiled; the engine runs as Python (slower) until "
            "`make install` compiles it again",
            file=sys.stderr,
        )
    if _reason is not None:
        sys.meta_path.insert(0, SourceFinder())


def status() -> str:
    """One line: whether the engine runs compiled."""
    if _reason is not None:
        return f"engine as Python ({_reason})"
    from railbook.engine import board

    if board.__file__ and board.__file__.endswith(tuple(EXTENSION_SUFFIXES)):
        return "engine compiled"
    return "engine as Python (not compiled: `make install` compiles it, Cython and a C compiler permitting)"
