"""Compiled rulebooks kept between runs, so commands that play or draw a title do not re-validate its YAML each
time: a title is compiled once per change of its files, of the tile catalogue or of the code that compiles it.

The cache lives in ``$RAILBOOK_CACHE`` (else ``$XDG_CACHE_HOME/railbook``, else ``~/.cache/railbook``); set
``RAILBOOK_CACHE=off`` to compile every time.  Entries are written atomically and a damaged one is recompiled.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from railbook.jsonio import write_atomic
from railbook.paths import games_dir

_PACKAGE = Path(__file__).resolve().parent


def cache_dir() -> Path | None:
    """Where compiled rulebooks are kept (None: caching is off)."""
    setting = os.environ.get("RAILBOOK_CACHE")
    if setting == "off":
        return None
    if setting:
        return Path(setting)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "railbook"


@cache
def _code_stamp() -> str:
    """Sizes and modification times of the code a compiled rulebook depends on (compiler and mechanic models)."""
    import railbook.compiler
    import railbook.engine

    folders = [Path(railbook.compiler.__file__).parent, Path(railbook.engine.__file__).parent, _PACKAGE]
    parts = []
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            st = path.stat()
            parts.append(f"{path.name}:{st.st_size}:{st.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _key(title_dir: Path) -> str:
    digest = hashlib.sha256(_code_stamp().encode())
    for path in [*sorted(title_dir.glob("*.yaml")), games_dir() / "common" / "tiles.yaml"]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def cached_rulebook(title_dir: Path, compile_fn: Callable[[Path], dict[str, Any]]) -> dict[str, Any]:
    """The compiled rulebook of the title in ``title_dir``: from the cache when its sources are unchanged."""
    folder = cache_dir()
    if folder is None:
        return compile_fn(title_dir)
    path = folder / f"{title_dir.name}-{_key(title_dir)}.json"
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return data
    except (OSError, ValueError):
        pass
    book = compile_fn(title_dir)
    with contextlib.suppress(OSError):  # a read-only cache is no reason to fail
        write_atomic(path, json.dumps(book, ensure_ascii=False, separators=(",", ":")))
        ours = re.compile(rf"{re.escape(title_dir.name)}-[0-9a-f]{{32}}\.json")  # not another title's ("18-EU")
        for old in folder.glob(f"{title_dir.name}-*.json"):
            if old != path and ours.fullmatch(old.name):
                old.unlink(missing_ok=True)  # one entry per title: the older ones can never be hit again
    return book
