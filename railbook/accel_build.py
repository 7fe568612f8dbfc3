"""``python -m railbook.accel_build``: compile the modules whose build is missing or stale (see :mod:`railbook.accel`).

Prints one line: what was compiled, or why nothing could be (the package then runs as plain Python). Always exits
0 unless ``--strict`` is given: a machine without a C compiler still gets a working install.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator
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
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    kept = manifest_entries()
    entries: dict[str, list] = {}
    todo: list[tuple[str, Path, list]] = []
    for name, src in _sources():
        st = src.stat()
        pxd = src.with_suffix(".pxd")
        declared = [pxd.stat().st_size, pxd.stat().st_mtime_ns] if pxd.is_file() else None
        entry: list[Any] = [str(src.relative_to(ROOT)), st.st_size, st.st_mtime_ns, name.replace(".", "/") + suffix]
        entry.append(declared)
        old = kept.get(name)
        if old == entry and (BUILD / entry[3]).is_file():
            entries[name] = old
        else:
            todo.append((name, src, entry))
    if any(entry[4] is not None for _, _, entry in todo):
        # native classes: a changed .pxd or source changes what the others were compiled against
        for name, src in _sources():
            if name in entries and entries[name][4] is not None:
                todo.append((name, src, entries.pop(name)))
    if not todo:
        return True, f"compiled builds: all {len(entries)} modules current"
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp, _output_to(Path(tmp) / "log") as log:
        try:
            exts = [Extension(name, [str(src)], extra_compile_args=list(CFLAGS)) for name, src, _ in todo]
            modules = cythonize(
                exts,
                build_dir=str(Path(tmp) / "c"),
                include_path=[str(_layout(Path(tmp) / "tree"))],
                compiler_directives=DIRECTIVES,
                quiet=True,
                nthreads=jobs,
            )
            cmd = build_ext(Distribution({"name": "railbook-accel", "ext_modules": modules}))
            cmd.build_lib = str(BUILD)
            cmd.build_temp = str(Path(tmp) / "o")
            cmd.parallel = jobs
            cmd.ensure_finalized()
            cmd.run()
        except BaseException as exc:  # the compiler's and Cython's own errors come in many types
            if isinstance(exc, KeyboardInterrupt):
                raise
            _write(entries)
            reason = _last_error(log) or f"{type(exc).__name__}: {exc}"
            return False, f"compiled builds failed ({reason}); changed modules run as Python"
    entries.update((name, entry) for name, _, entry in todo)
    _write(entries)
    took = time.perf_counter() - start
    return True, f"compiled builds: {len(todo)} of {len(entries)} modules compiled in {took:.0f} s"


def _layout(base: Path) -> Path:
    """A folder where the compiled packages are laid out as they are imported, for Cython to find the ``.pxd``
    files that ``cimport`` names."""
    for prefix, folder in PACKAGES:
        where = base.joinpath(*prefix.split("."))
        where.parent.mkdir(parents=True, exist_ok=True)
        where.symlink_to(ROOT / folder, target_is_directory=True)
    return base


def _write(entries: dict[str, list]) -> None:
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
