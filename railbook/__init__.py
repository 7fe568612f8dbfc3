"""railbook: validate, compile, render and play 18xx titles written as YAML.

The public API, imported lazily so that ``import railbook`` costs nothing:

* :func:`compile_title` — a title (name or folder) to ``<out>/<title>/rulebook.json``;
* :func:`load_rulebook` — a compiled rulebook, from a ``rulebook.json`` path or a title compiled in memory;
* :class:`Game`, :class:`IllegalAction` — the interpreter (``Game.start``, ``acting``, ``legal_actions``,
  ``process``, ``result``, ``dumps``/``loads``);
* :func:`replay` — an 18xx.games record replayed to its result;
* :func:`best_routes` — the optimal routes of a corporation in a game.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from railbook import compiled as _compiled

_compiled.check()  # the engine from its sources where RAILBOOK_PURE=1 or its compiled build is stale (compiled.py)

__version__ = "0.3.0"

_EXPORTS = {
    "compile_title": "railbook.api",
    "load_rulebook": "railbook.api",
    "Game": "railbook.engine.game",
    "LegalAction": "railbook.engine.legal",
    "IntRange": "railbook.engine.legal",
    "RoutesChoice": "railbook.engine.legal",
    "IllegalAction": "railbook.engine.errors",
    "SaveError": "railbook.engine.errors",
    "Action": "railbook.engine.types",
    "Outcome": "railbook.engine.types",
    "EndReason": "railbook.engine.types",
    "RouteSolution": "railbook.routes",
    "replay": "railbook.api",
    "best_routes": "railbook.routes",
    "RailbookError": "railbook.errors",
}

__all__ = [
    "Action",
    "EndReason",
    "Game",
    "IllegalAction",
    "IntRange",
    "LegalAction",
    "Outcome",
    "RailbookError",
    "RouteSolution",
    "RoutesChoice",
    "SaveError",
    "best_routes",
    "compile_title",
    "load_rulebook",
    "replay",
]

if TYPE_CHECKING:
    from railbook.api import compile_title, load_rulebook, replay
    from railbook.engine.errors import IllegalAction, SaveError
    from railbook.engine.game import Game
    from railbook.engine.legal import IntRange, LegalAction, RoutesChoice
    from railbook.engine.types import Action, EndReason, Outcome
    from railbook.errors import RailbookError
    from railbook.routes import RouteSolution, best_routes


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'railbook' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value
