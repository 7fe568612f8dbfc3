"""``railbook serve``: play any title in the browser and watch any record.

An ASGI app (Starlette) over the interpreter: server-rendered pages with an SVG map of the live state, a JSON
API beside them (``/api/games``...), games kept in SQLite and replayed from their actions on load.

* :mod:`.catalogue` — the titles a server offers (shipped ones and designers' folders);
* :mod:`.store` — SQLite persistence of games (their actions);
* :mod:`.tables` — live games in memory: one lock per game, seat tokens, live-update subscribers;
* :mod:`.requests` — size-bounded, validated request bodies;
* :mod:`.api` — the JSON API; :mod:`.record` — a game as an 18xx.games record;
* :mod:`.mapsvg`, :mod:`.tiles` — the live map and tile choices, drawn by render/;
* :mod:`.views`, :mod:`.controls`, :mod:`.routing`, :mod:`.pages` — the table page and its acting forms;
* :mod:`.watch` — stepping through a record;
* :mod:`.app` — the routes; :mod:`.cli` — the ``railbook serve`` command.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def create_app(*args: Any, **kwargs: Any) -> Any:
    """The ASGI app (:func:`railbook.serve.app.create_app`; Starlette is imported only when serving)."""
    from .app import create_app as _create

    return _create(*args, **kwargs)
