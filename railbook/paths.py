"""Where railbook's data lives: the titles (``games/``) and the JSON Schemas (``schemas/``).

Installed from a wheel they are package data (``railbook/games``, ``railbook/schemas``); in a source checkout
(and an editable install) they are the repository's top-level folders.  ``$RAILBOOK_GAMES`` overrides the
titles folder.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _data_dir(name: str, marker: str) -> Path:
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if (candidate / marker).exists():
            return candidate
    return _PACKAGE.parent / name


@cache
def games_dir() -> Path:
    """The folder holding one sub-folder per title, and ``common/`` (the tile catalogue)."""
    override = os.environ.get("RAILBOOK_GAMES")
    if override:
        return Path(override)
    return _data_dir("games", "common")


@cache
def schemas_dir() -> Path:
    """The folder of the generated JSON Schemas."""
    return _data_dir("schemas", "rulebook.schema.json")


def is_dir(path: Path) -> bool:
    """``path.is_dir()``, False where the system cannot even look (a name too long, a folder it may not search)."""
    try:
        return Path(path).is_dir()
    except (OSError, ValueError):
        return False


def is_file(path: Path) -> bool:
    """``path.is_file()``, False where the system cannot even look."""
    try:
        return Path(path).is_file()
    except (OSError, ValueError):
        return False


def exists(path: Path) -> bool:
    """``path.exists()``, False where the system cannot even look."""
    try:
        return Path(path).exists()
    except (OSError, ValueError):
        return False
