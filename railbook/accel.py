"""Compiled builds of the interpreter, used only while they match their sources.

``make install`` runs ``python -m railbook.accel_build``. Each module under ``engine/`` is turned into C by Cython
and compiled into ``build/accel/``; ``build/accel/manifest.json`` records the size and modification time of the
source each build was made from. The same Python code runs, with about half the machine instructions per replayed
action (docs/PERFORMANCE.md, "Compiled builds", "Fourth session" and "Fifth session").

:func:`enable`, called when ``railbook`` is imported, puts a finder first on ``sys.meta_path``. It serves a
module's compiled build only while the module's source still has the recorded size and time. An edited module is
imported from its source as usual until the next build.

Compiled builds know some types: ``Game``, ``StepBase`` and ``Book`` are native classes (``engine/game.pxd``,
``engine/steps/base.pxd``, ``engine/book.pxd``), so are the dataclasses of the state, the tracks, networks, routes,
bundles and installed rules (``.pxd`` files made from their sources), and every argument ``g: Game``, every
annotation naming one of those classes and every step method's ``self`` is declared one
(:mod:`railbook.accel_declare`). A build that reads another module's native classes (it ``cimport``-s it) is
served only while that module's build is served too, made from the ``.pxd`` it was compiled against, and while
every ``.pxd`` (or source of a made ``.pxd``) it read is unchanged. ``RAILBOOK_PURE=1`` in the environment turns
the compiled builds off (for profilers and debuggers, which see into Python code only).

Where Cython, a C compiler or Python's headers are missing, the build says so in one line and the package runs as
plain Python.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "accel"
MANIFEST = BUILD / "manifest.json"
#: the folders compiled, as (import prefix, folder under ROOT).  Not the route optimiser: its hexside sets are
#: integers wider than 64 bits, and Cython computes ``1 << len(x)`` in C (two C-typed operands), which wraps
#: (two recorded decisions came out 10 short; docs/PERFORMANCE.md, "Compiled builds")
PACKAGES = (("railbook.engine", "engine"),)
#: Cython's options: Python 3 semantics, functions that behave as Python functions (introspection, methods), and
#: annotations read as declarations -- of the copies the build compiles, where only ``g: Game`` is left
#: (:mod:`railbook.accel_declare`)
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": True}
#: C compiler options: optimised, without debug information (which doubles the compile time)
CFLAGS = ("-O3", "-g0", "-Wno-unused-function", "-Wno-unreachable-code")
PURE_ENV = "RAILBOOK_PURE"
#: the manifest's layout (see :class:`_CompiledFinder`) and the build's recipe (6: Cython's output patched, see
#: ``railbook.accel_build._patch_c``); builds listed in another layout are made again
MANIFEST_FORMAT = 6

_finder: _CompiledFinder | None = None


class _CompiledFinder:
    """Finds the compiled build of a listed module while its source is unchanged since the build (a meta path
    finder; not derived from ``importlib.abc``, whose import would cost every command a few milliseconds)."""

    def __init__(self, entries: dict[str, list[Any]]) -> None:
        # module -> [source under ROOT, size, mtime_ns, build file under BUILD, the .pxd files the build read (each
        # [path under ROOT, size, mtime_ns]), the modules whose native classes it reads (cimports), a digest of
        # what was compiled, a digest of its .pxd, the digest of each cimported module's .pxd it was compiled with]
        self.entries = entries

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not self._servable(fullname, ()):
            return None
        origin = str(BUILD / self.entries[fullname][3])
        loader = importlib.machinery.ExtensionFileLoader(fullname, origin)
        spec = importlib.machinery.ModuleSpec(fullname, loader, origin=origin)
        spec.has_location = True
        return spec

    def _servable(self, name: str, asking: tuple[str, ...]) -> bool:
        """Whether ``name``'s build is current, and so are the builds of the modules it cimports, made with the
        ``.pxd`` files it was compiled against (their native classes' layout)."""
        entry = self.entries.get(name)
        if entry is None or not _unchanged(entry):
            return False
        for dep in entry[5]:
            built = self.entries.get(dep)
            if built is None or built[7] != entry[8].get(dep):
                return False
        return all(dep in asking or self._servable(dep, (*asking, name)) for dep in entry[5])


def _unchanged(entry: list[Any]) -> bool:
    """Whether an entry's source and the ``.pxd`` files its build read still have the recorded sizes and times (and
    the module has no ``.pxd`` the build did not read)."""
    source = ROOT / entry[0]
    read = {path: (size, mtime_ns) for path, size, mtime_ns in entry[4]}
    own = source.with_suffix(".pxd")
    try:
        st = os.stat(source)
        if st.st_size != entry[1] or st.st_mtime_ns != entry[2]:
            return False
        if str(own.relative_to(ROOT)) not in read and own.exists():
            return False
        for path, (size, mtime_ns) in read.items():
            st = os.stat(ROOT / path)
            if st.st_size != size or st.st_mtime_ns != mtime_ns:
                return False
    except OSError:
        return False
    return True


def enable() -> bool:
    """Serve compiled builds of unchanged modules from now on (once; a no-op without builds or with
    ``RAILBOOK_PURE`` set). Whether a finder is in place."""
    global _finder
    if _finder is not None:
        return True
    if os.environ.get(PURE_ENV):
        return False
    entries = manifest_entries()
    if not entries:
        return False
    _finder = _CompiledFinder(entries)
    sys.meta_path.insert(0, _finder)
    return True


def manifest_entries() -> dict[str, list[Any]]:
    """The manifest's modules (see :class:`_CompiledFinder`), none where it is missing, unreadable, of an older
    layout, or made for another interpreter or other options."""
    try:
        data = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    modules = data.get("modules")
    if data.get("abi") != _abi() or data.get("format") != MANIFEST_FORMAT or not isinstance(modules, dict):
        return {}
    return modules


def compiled(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from a compiled build."""
    return isinstance(getattr(module, "__loader__", None), importlib.machinery.ExtensionFileLoader)


def _abi() -> str:
    """The interpreter the builds are for (an extension only loads into the interpreter it was built for) and the
    options they were built with."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    options = json.dumps([DIRECTIVES, CFLAGS], sort_keys=True)
    return f"{sys.implementation.cache_tag}{suffix} {options}"


def _sources() -> list[tuple[str, Path]]:
    """(module name, source) of every module compiled."""
    out = []
    for prefix, folder in PACKAGES:
        for src in sorted((ROOT / folder).rglob("*.py")):
            if src.name == "__init__.py" or "__pycache__" in src.parts:
                continue
            rel = src.relative_to(ROOT / folder).with_suffix("")
            out.append((".".join((prefix, *rel.parts)), src))
    return out


def status() -> str:
    """One line: whether the engine runs compiled here."""
    if os.environ.get(PURE_ENV):
        return f"engine as Python ({PURE_ENV} is set)"
    if not enable() or _finder is None:
        return "engine as Python (no compiled builds: make install makes them)"
    fresh = sum(_finder.find_spec(name) is not None for name in _finder.entries)
    return f"engine compiled: {fresh} of {len(_finder.entries)} modules current"
