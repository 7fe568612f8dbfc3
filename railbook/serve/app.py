"""The ASGI app: pages, live updates, the JSON API and the package's static assets."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from . import api, pages, watch
from .catalogue import Catalogue
from .store import Store
from .tables import Tables

STATIC = Path(__file__).parent / "static"


def create_app(
    db: str | Path = ":memory:", titles: list[str] | None = None, catalogue: Catalogue | None = None
) -> Starlette:
    """The app over the games of SQLite file ``db``, offering the shipped titles plus ``titles`` (folders)."""
    store = Store(db)
    cat = catalogue or Catalogue.build(titles)
    routes = [
        Route("/", pages.home),
        Route("/games", pages.new_game, methods=["POST"]),
        Route("/games/{game_id}", pages.table_page),
        Route("/games/{game_id}/table", pages.table_fragment),
        Route("/games/{game_id}/hex/{hex_id}", pages.hex_panel),
        Route("/games/{game_id}/events", pages.events),
        Route("/games/{game_id}/seat/{token}", pages.take_seat),
        Route("/games/{game_id}/act", pages.act, methods=["POST"]),
        Route("/watch", watch.watch_home, methods=["GET"]),
        Route("/watch", watch.open_record, methods=["POST"]),
        Route("/watch/{watch_id}", watch.watch_page),
        Route("/watch/{watch_id}/play", watch.play_on, methods=["POST"]),
        Route("/games/{game_id}/watch", watch.watch_game),
        Route("/api/games", api.post_games, methods=["POST"]),
        Route("/api/games/{game_id}", api.get_game),
        Route("/api/games/{game_id}/legal", api.get_legal),
        Route("/api/games/{game_id}/actions", api.post_action, methods=["POST"]),
        Route("/api/games/{game_id}/record", api.get_record),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        store.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.tables = Tables(store, cat)
    app.state.watches = watch.Watches()
    return app
