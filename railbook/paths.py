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
