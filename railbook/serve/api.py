"""The JSON API: ``/api/games`` (create), ``/api/games/{id}`` (state), ``.../legal``, ``.../actions``,
``.../record``."""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

from railbook.engine.errors import IllegalAction, SaveError, UnsupportedTitle

from .catalogue import TitleError
from .record import game_record
from .requests import BadRequest, check_options, json_body, new_game_spec
from .tables import SeatError, Table, Tables


def error(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


def state_json(table: Table) -> dict[str, Any]:
    """A game's state as the API gives it: the whole interpreter state plus who acts and the standing."""
    game = table.game
    outcome = game.outcome()
    return {
        "id": table.id,
        "title": table.spec["title"],
        "players": table.spec["players"],
        "hotseat": table.hotseat,
        "acting": game.acting(),
        "acting_entities": game.acting_entities(),
        "actions": len(game.actions),
        "can_undo": game.can_undo(),
        "can_redo": game.can_redo(),
        "finished": outcome.finished,
        "values": outcome.values,
        "state": game.to_json()["state"],
    }


def bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


async def create_game(tables: Tables, data: Any) -> Table:
    """A new game from a request's fields (BadRequest for anything wrong)."""
    spec = new_game_spec(data, tables.catalogue.names())
    try:
        rulebook = await run_in_threadpool(tables.catalogue.rulebook, spec["title"])
    except TitleError as exc:
        raise BadRequest("\n".join(exc.problems)) from None
    options = check_options(spec, rulebook)
    try:
        return await run_in_threadpool(
            tables.create, spec["title"], spec["players"], spec["seed"], options, spec["hotseat"]
        )
    except (SaveError, UnsupportedTitle, IllegalAction) as exc:
        raise BadRequest(str(exc)) from None


async def post_games(request: Request) -> JSONResponse:
    tables: Tables = request.app.state.tables
    try:
        table = await create_game(tables, await json_body(request))
    except BadRequest as exc:
        return error(exc.status, str(exc))
    return JSONResponse({"id": table.id, "seats": dict(table.seats), "url": f"/games/{table.id}"}, status_code=201)


async def find_table(request: Request) -> Table | None:
    """The game a request names (None: no such game; 409 when its title is no longer offered by this server)."""
    tables: Tables = request.app.state.tables
    try:
        return await run_in_threadpool(tables.get, request.path_params["game_id"])
    except TitleError as exc:
        detail = f"this game's title is not offered by this server now ({exc}): start it with the title's folder"
        raise HTTPException(409, detail) from None


async def get_game(request: Request) -> JSONResponse:
    table = await find_table(request)
    if table is None:
        return error(404, "no such game")
    with table.lock:
        return JSONResponse(state_json(table))


async def get_legal(request: Request) -> JSONResponse:
    table = await find_table(request)
    if table is None:
        return error(404, "no such game")

    def legal() -> dict[str, Any]:
        with table.lock:
            return {
                "acting": table.game.acting(),
                "actions": len(table.game.actions),
                "legal": [a.to_json() for a in table.game.legal_actions()],
            }

    return JSONResponse(await run_in_threadpool(legal))


def apply(table: Table, token: str | None, action: Any) -> None:
    """Check the seat and process an action (``{"type": "undo"}`` / ``"redo"`` step back and forth)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise BadRequest("expected an action object with a 'type'")
    with table.lock:
        kind = action["type"]
        if kind in ("undo", "redo"):
            player = table.check_seat(token, None)
            owner = table.last_actor() if kind == "undo" else table.next_redo_actor()
            if not table.hotseat and owner is not None and owner != player:
                raise SeatError(403, f"only {owner} may {kind} that action")
            table.undo() if kind == "undo" else table.redo()
            return
        table.check_seat(token, action)
        clean = {k: v for k, v in action.items() if k not in ("id", "created_at", "user")}
        table.act(clean)


async def post_action(request: Request) -> JSONResponse:
    table = await find_table(request)
    if table is None:
        return error(404, "no such game")
    try:
        action = await json_body(request)
        await run_in_threadpool(apply, table, bearer(request), action)
    except BadRequest as exc:
        return error(exc.status, str(exc))
    except SeatError as exc:
        return error(exc.status, str(exc))
    except IllegalAction as exc:
        return error(422, exc.message, rule=exc.rule)
    except Exception as exc:  # a fault of the engine (the game is left as it was): say so, not a bare 500 page
        return error(500, f"internal error: {type(exc).__name__}: {exc}; this is a railbook bug, please report it")
    with table.lock:
        return JSONResponse(state_json(table))


async def get_record(request: Request) -> JSONResponse:
    table = await find_table(request)
    if table is None:
        return error(404, "no such game")
    with table.lock:
        return JSONResponse(game_record(table.id, table.spec, table.game))
