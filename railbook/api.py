"""Entry points that span layers: compile a title, or get a compiled rulebook from anywhere."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def compile_title(title: str | Path, out: str | Path = "output") -> Path:
    """Compile a title (a name in the shipped titles, or a title folder) to ``out/<title>/rulebook.json``."""
    from railbook.compiler.compile import compile_title as _compile

    return _compile(title, Path(out))


def load_rulebook(source: str | Path) -> dict[str, Any]:
    """A compiled rulebook: read from a ``rulebook.json`` file, or compiled in memory from a title."""
    path = Path(source)
    if path.is_file() and path.suffix == ".json":
        from railbook.jsonio import read_json

        return read_json(path)
    from railbook.compiler.compile import build_rulebook

    return build_rulebook(source)
