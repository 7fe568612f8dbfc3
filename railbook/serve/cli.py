"""``railbook serve``: registered on the Typer app of :mod:`railbook.cli` at start-up."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from railbook.cli import JsonOpt, app, emit, fail


@app.command()
def serve(
    titles: Annotated[
        list[str] | None, typer.Argument(help="designers' title folders to offer besides the shipped titles")
    ] = None,
    host: Annotated[str, typer.Option("--host", help="address to listen on (127.0.0.1: this computer only)")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option("--port", help="port to listen on")] = 8018,
    db: Annotated[
        Path | None, typer.Option("--db", help="SQLite file of the games (default: user data folder)")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Play any title in the browser (hotseat or a secret link per seat) and watch any record."""
    try:
        import uvicorn
    except ModuleNotFoundError:
        fail("railbook serve needs uvicorn and starlette: pip install starlette uvicorn")
        return
    from .app import create_app
    from .catalogue import TitleError
    from .store import default_db

    path = db or default_db()
    try:
        asgi = create_app(path, titles)
    except TitleError as exc:
        fail(str(exc))
        return
    if as_json:  # (one JSON object saying where the server listens, then the server's own run)
        emit({"url": f"http://{host}:{port}/", "db": str(path)})
    else:
        typer.echo(f"railbook serve: http://{host}:{port}/  (games in {path})", err=True)
    uvicorn.run(asgi, host=host, port=port, log_level="warning", timeout_graceful_shutdown=1)
