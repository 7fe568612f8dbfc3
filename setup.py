"""Builds the interpreter's hot modules (``engine/``) as C extensions with Cython; everything else is in pyproject.toml.

``pip install .``, ``pip wheel .``, ``pip install -e .`` and ``make install`` (``python setup.py build_ext --inplace``)
all compile :data:`COMPILED` from their unchanged sources, with the declarations of the ``.pxd`` file beside each
(README.md, "The compiled build").  Where Cython or a C compiler is missing, or a module fails to compile, one line
says so and the package is installed as plain Python: the same code, about 2.5 times slower per replayed action.
``RAILBOOK_BUILD_JOBS`` sets how many modules are compiled at once (default: one per core).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent

#: the modules compiled (under engine/, as package-dir maps them into railbook.engine): those that take at least 0.5%
#: of a pure-Python replay of some title's records (cProfile, 2026-11-28), and the few whose native classes or C
#: functions those read.  The rest (the setup, the registry, the rarely called mechanics: bankruptcy, draft, escrow,
#: mines, receivership...) runs as Python; a module's .pxd is read only if it is listed here.
COMPILED = (
    "abilities",
    "access",
    "action_shape",
    "board",
    "bonuses",
    "book",
    "closing",
    "context",
    "contract",
    "depot",
    "game",
    "install",
    "market",
    "memo",
    "replay",
    "rounds",
    "routes",
    "shares",
    "state",
    "stations",
    "steps/base",
    "undo",
    "mechanics/bid_box_auction",
    "mechanics/capitalization",
    "mechanics/certificate_limit",
    "mechanics/company_sizes",
    "mechanics/company_stock_actions",
    "mechanics/core",
    "mechanics/destinations",
    "mechanics/dividends",
    "mechanics/issue_redeem",
    "mechanics/loans",
    "mechanics/mergers",
    "mechanics/national_railway",
    "mechanics/nomination_auction",
    "mechanics/operating_order",
    "mechanics/price_protection",
    "mechanics/private_companies",
    "mechanics/routes",
    "mechanics/short_selling",
    "mechanics/stock_round",
    "mechanics/tokens",
    "mechanics/track",
    "mechanics/trains",
    # rarely called, but called from compiled code on every action of the titles that use them (a call into plain
    # Python costs more than the work it asks for)
    "interfaces",
    "rng",
    "setup",
    "mechanics/bankruptcy",
    "mechanics/draft",
    "mechanics/edge_tokens",
    "mechanics/escrow",
    "mechanics/game_end",
    "mechanics/independents",
    "mechanics/mines",
    "mechanics/private_payouts",
    "mechanics/receivership",
    "mechanics/reissue",
    "mechanics/river_companies",
)
#: Cython's options: Python 3 semantics; functions that behave as Python functions (introspection, methods);
#: annotations stay documentation (Cython would otherwise take ``x: int`` as a C-checked type and reject ``str``
#: subclasses): only the ``.pxd`` files declare types
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}
#: optimised, without debug information (which doubles the compile time) and without warnings (about Cython's C)
CFLAGS = ["-O3", "-g0", "-w"]


def _say(message: str) -> None:
    print(f"railbook: {message}", file=sys.stderr, flush=True)


def _jobs() -> int:
    return int(os.environ.get("RAILBOOK_BUILD_JOBS") or os.cpu_count() or 1)


class BuildExt(build_ext):  # type: ignore[misc]
    """build_ext that compiles in parallel, prints one line per module, and falls back to plain Python on failure."""

    def initialize_options(self) -> None:
        super().initialize_options()
        self.parallel = _jobs()

    def run(self) -> None:
        self._started = time.monotonic()
        self._done = 0
        try:
            super().run()
        except Exception as exc:  # a missing compiler or Python headers, an error in a module: many types
            self._fallback(exc)
            return
        if self._done:
            took = time.monotonic() - self._started
            _say(f"{self._done} engine modules compiled in {took:.0f} s")

    def build_extension(self, ext: Extension) -> None:
        path = Path(self.get_ext_fullpath(ext.name))
        before = path.stat().st_mtime_ns if path.exists() else None
        start = time.monotonic()
        super().build_extension(ext)  # (skips a module whose build is newer than its C file)
        if path.exists() and path.stat().st_mtime_ns != before:
            self._done += 1
            _say(f"compiled {ext.name} ({time.monotonic() - start:.0f} s)")

    def _fallback(self, exc: Exception) -> None:
        """No compiled module stays (they read each other's native classes): the engine runs as Python."""
        for ext in self.extensions:
            path = Path(self.get_ext_fullpath(ext.name))
            path.unlink(missing_ok=True)
        reason = str(exc).strip().splitlines()[-1][:100] if str(exc).strip() else type(exc).__name__
        _say(f"the engine could not be compiled ({reason}); it is installed as plain Python")


def _pxd_tree() -> None:
    """``build/pxd/railbook/engine`` -> ``engine/``: the ``.pxd`` files where ``cimport railbook.engine.x`` finds them
    (the repository's folders are mapped into the package by pyproject.toml, not laid out as it)."""
    package = ROOT / "build" / "pxd" / "railbook"
    package.mkdir(parents=True, exist_ok=True)
    (package / "__init__.pxd").touch()
    link = package / "engine"
    if not link.is_symlink():
        link.symlink_to(ROOT / "engine", target_is_directory=True)


def extensions() -> list[Extension]:
    """The extensions to build; none (and one line saying so) without Cython or with ``RAILBOOK_PURE_BUILD=1``."""
    if os.environ.get("RAILBOOK_PURE_BUILD"):
        _say("RAILBOOK_PURE_BUILD is set: the engine is installed as plain Python")
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        _say("Cython is not installed: the engine is installed as plain Python")
        return []
    _pxd_tree()
    exts = [
        Extension("railbook.engine." + name.replace("/", "."), [f"engine/{name}.py"], extra_compile_args=CFLAGS)
        for name in COMPILED
    ]
    try:
        return cythonize(  # type: ignore[no-any-return]
            exts,
            compiler_directives=DIRECTIVES,
            include_path=[str(ROOT / "build" / "pxd")],
            build_dir="build/cython",
            nthreads=_jobs(),
        )
    except Exception as exc:  # Cython's errors (printed above it)
        _say(f"Cython could not translate the engine ({type(exc).__name__}): it is installed as plain Python")
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExt})
