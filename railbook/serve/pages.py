"""The pages: home (new game, recent games), the table of a game and its live parts, the act endpoint."""

from __future__ import annotations

import asyncio
import hmac
import json
from typing import Any
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse

from railbook.engine.errors import IllegalAction
from railbook.engine.legal import IntRange, LegalAction, RoutesChoice
from railbook.routes.check import RouteError

from . import controls, views
from .api import apply, create_game, find_table
from .mapsvg import map_svg
from .requests import BadRequest, form_pairs
from .routing import best_routes, chosen_routes
from .tables import SeatError, Table, Tables
from .views import e


def layout(title: str, body: str, extra_head: str = "", status: int = 200) -> HTMLResponse:
    """A whole page around ``body`` (assets from the package; nothing fetched elsewhere)."""
    page = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{e(title)}</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/static/serve.css">'
        f'<script src="/static/serve.js" defer></script>{extra_head}</head><body>'
        '<header><a href="/" class="brand">railbook</a> <a href="/">new game</a> <a href="/watch">watch a record</a>'
        f"</header><main>{body}</main></body></html>"
    )
    headers = {"Content-Security-Policy": CSP, "X-Frame-Options": "DENY", "Referrer-Policy": "same-origin"}
    return HTMLResponse(page, status_code=status, headers=headers)


CSP = (
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; "
    "frame-ancestors 'none'"
)


def same_origin(request: Request) -> bool:
    """A form post from this site's own pages (Origin, else Referer, must name this host)."""
    source = request.headers.get("origin") or request.headers.get("referer")
    if source is None:
        return request.headers.get("sec-fetch-site", "same-origin") in ("same-origin", "none")
    host = request.headers.get("host", "")
    rest = source.split("://", 1)[-1]
    return rest.split("/", 1)[0] == host


def seat_cookie(game_id: str) -> str:
    return f"rb_seat_{game_id}"


# ------------------------------------------------------------------------------------------- home


async def home(request: Request, problems: list[str] | None = None, status: int = 200) -> HTMLResponse:
    tables: Tables = request.app.state.tables
    names = tables.catalogue.names()
    options = []
    full: dict[str, str] = {}
    for name in names:
        try:
            book = await run_in_threadpool(tables.catalogue.rulebook, name)
        except Exception:  # (a designer's folder that does not compile: its problems show when chosen)
            book = {}
        known = book.get("options") or {}
        full[name] = str((book.get("meta") or {}).get("full_name") or "")
        for opt, spec in known.items():
            checked = " checked" if spec.get("default") else ""
            options.append(
                f'<label class="option" data-title="{e(name)}" title="{e(spec.get("description", ""))}">'
                f'<input type="checkbox" name="option" value="{e(name)}:{e(opt)}"{checked}> {e(name)}: {e(opt)}</label>'
            )
    titles = "".join(
        f'<option value="{e(n)}">{e(n)}{" — " + e(full[n]) if full.get(n) and full[n] != n else ""}</option>'
        for n in names
    )
    recent = "".join(
        f'<li><a href="/games/{e(gid)}">{e(spec["title"])}: '
        f"{e(', '.join(str((spec.get('names') or {}).get(p, p)) for p in spec['players']))}</a></li>"
        for gid, spec, _ in tables.store.recent(20)
    )
    errors = (
        '<div class="error" role="alert"><p>This title cannot be played:</p><ul>'
        + "".join(f"<li><code>{e(p)}</code></li>" for p in problems)
        + "</ul></div>"
        if problems
        else ""
    )
    body = (
        f"<h1>New game</h1>{errors}"
        '<form id="new-game" method="post" action="/games" class="newgame">'
        f'<label>Title <select name="title">{titles}</select></label>'
        '<label>Players (one per line) <textarea name="players" rows="4" required>ann\nbob\ncy</textarea></label>'
        '<label>Seed <input type="number" name="seed" min="0" placeholder="random"></label>'
        f'<fieldset class="options"><legend>Options</legend>{"".join(options)}</fieldset>'
        '<label><input type="checkbox" name="hotseat" value="1" checked> Hotseat (one browser plays every seat; '
        "untick to give each player a secret link)</label>"
        "<button type=submit>Start</button></form>"
        f'<h2>Recent games</h2><ul class="recent">{recent or "<li>none yet</li>"}</ul>'
    )
    return layout("railbook serve", body, status=status)


async def new_game(request: Request) -> Response:
    if not same_origin(request):
        return HTMLResponse("cross-site form refused", status_code=403)
    try:
        pairs = await form_pairs(request)
    except BadRequest as exc:
        return HTMLResponse(e(exc), status_code=exc.status)
    form = dict(pairs)
    title = form.get("title", "")
    seed_text = form.get("seed", "").strip()
    data: dict[str, Any] = {
        "title": title,
        "players": [p.strip() for p in form.get("players", "").splitlines() if p.strip()],
        "options": [v.split(":", 1)[1] for k, v in pairs if k == "option" and v.startswith(f"{title}:")],
        "hotseat": form.get("hotseat") == "1",
    }
    if seed_text:
        data["seed"] = int(seed_text) if seed_text.isdigit() else seed_text
    try:
        table = await create_game(request.app.state.tables, data)
    except BadRequest as exc:
        return await home(request, str(exc).splitlines(), status=exc.status)
    first = next(iter(table.seats.values()))
    return RedirectResponse(f"/games/{table.id}/seat/{first}", status_code=303)


# ------------------------------------------------------------------------------------------- the table


def _seat(request: Request, table: Table) -> tuple[str | None, str | None]:
    """(seat token, player) of the browser asking, from its cookie (None, None for a spectator)."""
    token = request.cookies.get(seat_cookie(table.id))
    player = table.seat_of(token)
    return (token, player) if player else (None, None)


def _legal(table: Table) -> list[LegalAction]:
    found = table.cache.get("legal")
    if found is None:
        found = table.cache["legal"] = table.game.legal_actions()
    return found


def _allowed(table: Table, legal: list[LegalAction], player: str | None) -> set[int]:
    """Indices of the legal actions this seat may send."""
    if player is None:
        return set()
    if table.hotseat:
        return set(range(len(legal)))
    acting = set(table.game.acting())
    out = set()
    for i, la in enumerate(legal):
        owner = table.controller({"entity": la.entity, "entity_type": la.entity_type})
        if owner == player or (owner is None and player in acting):
            out.add(i)
    return out


def _best(table: Table, legal: list[LegalAction]) -> dict[str, Any] | None:
    """The best routes of the company that runs routes now (cached per revision)."""
    run = next((la for la in legal if la.type == "run_routes"), None)
    if run is None:
        return None
    if "best" not in table.cache:
        try:
            table.cache["best"] = best_routes(table.game, run.entity)
        except RouteError:
            table.cache["best"] = None
    return table.cache["best"]  # type: ignore[no-any-return]


def _shared(table: Table) -> dict[str, str]:
    """The parts of the table every viewer sees alike (cached per revision)."""
    found = table.cache.get("shared")
    if found is None:
        game = table.game
        legal = _legal(table)
        best = _best(table, legal)
        routes = [r["hexes"] for r in best["routes"]] if best else None
        found = table.cache["shared"] = {
            "status": views.status_html(game),
            "map": map_svg(
                game.rulebook, game.state, controls.hex_marks(game, legal), routes, views.offboard_now(game)
            ),
            "market": views.market_html(game),
            "players": views.players_html(game, table.spec["players"]),
            "charters": views.charters_html(game),
            "bank": views.bank_html(game),
            "log": views.log_html(game),
        }
    return found


def table_html(table: Table, token: str | None, player: str | None) -> str:
    """The table of one game as a viewer sees it (their seat's controls, or none for a spectator)."""
    with table.lock:
        shared = _shared(table)
        legal = _legal(table)
        allowed = _allowed(table, legal, player)
        csrf = controls.csrf_token(token, table.id) if token else ""
        acts = (
            controls.controls_html(table.game, table.id, legal, allowed, csrf, table.rev, _best(table, legal))
            if player
            else '<p class="hint">You are watching (no seat in this game).</p>'
        )
        steps = ""
        if player:
            undo = "" if table.game.can_undo() else " disabled"
            redo = "" if table.game.can_redo() else " disabled"
            steps = (
                f'<div class="steps">{_op_form(table, csrf, "undo", undo)}{_op_form(table, csrf, "redo", redo)}</div>'
            )
        who = views.name_of(table.game, player) if player else ""
        seat = f"<p>You are <b>{e(who)}</b>{' (hotseat: you may act for every seat)' if table.hotseat else ''}.</p>"
        return (
            f'<div id="table" data-game="{e(table.id)}" data-rev="{table.rev}">'
            f'<section class="side"><div class="status">{shared["status"]}</div>'
            f'<div id="message" role="status"></div>'
            f'<div class="controls">{seat if player else ""}{acts}{steps}</div><div id="hexpanel"></div>'
            f'<h2>Players</h2>{shared["players"]}<h2>Companies</h2><div class="charters">{shared["charters"]}</div>'
            f'<h2>Bank and trains</h2><div class="bank">{shared["bank"]}</div></section>'
            f'<section class="board">{shared["map"]}<h2>Stock market</h2>{shared["market"]}'
            f"<h2>Log</h2>{shared['log']}</section></div>"
        )


def _op_form(table: Table, csrf: str, op: str, disabled: str) -> str:
    return (
        f'<form class="act op" method="post" action="/games/{e(table.id)}/act">'
        f'<input type="hidden" name="csrf" value="{e(csrf)}"><input type="hidden" name="op" value="{op}">'
        f'<button type="submit"{disabled}>{op.capitalize()}</button></form>'
    )


def _seat_links(request: Request, table: Table, player: str | None) -> str:
    """The secret links of the seats, shown to the first seat of a game of seats (the host sends them)."""
    if table.hotseat or player is None or player != table.spec["players"][0]:
        return ""
    base = str(request.base_url).rstrip("/")
    items = "".join(
        f'<li>{e(views.name_of(table.game, p))}: <input readonly value="{e(base)}/games/{e(table.id)}/seat/{e(tok)}">'
        "</li>"
        for p, tok in table.seats.items()
    )
    return f'<details class="seats"><summary>Seat links (send each player theirs)</summary><ul>{items}</ul></details>'


async def table_page(request: Request) -> Response:
    table = await find_table(request)
    if table is None:
        return HTMLResponse("no such game", status_code=404)
    token, player = _seat(request, table)
    inner = await run_in_threadpool(table_html, table, token, player)
    error = request.query_params.get("error")
    note = f'<p class="error" role="alert">{e(error[:300])}</p>' if error else ""
    record = (
        f'<a href="/api/games/{e(table.id)}/record" download="{e(table.id)}.json">record</a> · '
        f'<a href="/games/{e(table.id)}/watch">watch from the start</a>'
    )
    with table.lock:
        names = ", ".join(views.name_of(table.game, p) for p in table.spec["players"])
    title = f"{table.spec['title']} · {names}"
    body = f"<h1>{e(title)} <small>{record}</small></h1>{note}{_seat_links(request, table, player)}{inner}"
    return layout(title, body)


async def table_fragment(request: Request) -> Response:
    table = await find_table(request)
    if table is None:
        return HTMLResponse("no such game", status_code=404)
    token, player = _seat(request, table)
    return HTMLResponse(await run_in_threadpool(table_html, table, token, player))


async def hex_panel(request: Request) -> Response:
    table = await find_table(request)
    if table is None:
        return HTMLResponse("no such game", status_code=404)
    token, player = _seat(request, table)
    hex_id = request.path_params["hex_id"]

    def panel() -> str:
        with table.lock:
            if hex_id not in table.game.state.hexes and hex_id not in table.game.rulebook["hexes"]:
                return "<p>no such hex</p>"
            legal = _legal(table)
            allowed = _allowed(table, legal, player)
            csrf = controls.csrf_token(token, table.id) if token else ""
            return controls.hex_choices(table.game, table.id, hex_id, legal, allowed, csrf, table.rev)

    return HTMLResponse(await run_in_threadpool(panel))


async def take_seat(request: Request) -> Response:
    """A seat's secret link: remember the seat in this browser, then show the table."""
    table = await find_table(request)
    token = request.path_params["token"]
    if table is None or table.seat_of(token) is None:
        return HTMLResponse("no such seat", status_code=404)
    response = RedirectResponse(f"/games/{table.id}", status_code=303)
    response.set_cookie(seat_cookie(table.id), token, max_age=180 * 86400, path="/", httponly=True, samesite="strict")
    return response


async def events(request: Request) -> Response:
    """Server-sent events: the game's revision after every change."""
    table = await find_table(request)
    if table is None:
        return HTMLResponse("no such game", status_code=404)
    queue = table.listen()

    async def stream() -> Any:
        try:
            yield f"retry: 1500\nevent: rev\ndata: {table.rev}\n\n"
            while True:
                try:
                    rev = await asyncio.wait_for(queue.get(), 15)
                    yield f"event: rev\ndata: {rev}\n\n"
                except TimeoutError:
                    yield ": ping\n\n"
        finally:
            table.unlisten(queue)

    return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})


def _fill(table: Table, la: LegalAction, form: dict[str, str], trains: list[str]) -> LegalAction:
    """A legal action with its open choices taken from a form."""
    for name, allowed in la.open.items():
        if isinstance(allowed, IntRange):
            raw = form.get(name, "").strip()
            if not raw.lstrip("-").isdigit():
                raise BadRequest(f"choose {name}")
            la = la.with_(**{name: int(raw)})
        elif isinstance(allowed, RoutesChoice) and form.get("routes") == "custom":
            try:
                routes = json.loads(form.get("custom_routes", ""))
            except ValueError as exc:
                raise BadRequest(f"the routes are not JSON: {exc}") from None
            if not isinstance(routes, list):
                raise BadRequest("the routes must be a list, one object per train")
            la = la.with_(**{name: routes})
        elif isinstance(allowed, RoutesChoice):
            best = _best(table, _legal(table))
            listed = form.get("trains_listed") == "1"  # (the boxes were shown: none ticked runs no train)
            routes = chosen_routes(best, trains if listed else None) if best else []
            la = la.with_(**{name: routes})
    return la


async def act(request: Request) -> Response:
    """A form's action (or undo/redo): checked against the seat, the anti-forgery field and the revision."""
    wants_json = request.headers.get("x-requested-with") == "fetch"
    table = await find_table(request)
    if table is None:
        return HTMLResponse("no such game", status_code=404)

    def done(message: str | None = None, status: int = 200) -> Response:
        if wants_json:
            return JSONResponse({"ok": message is None, "error": message, "rev": table.rev}, status_code=status)
        if status in (401, 403):  # (refused outright: nothing of the game's page for a forged form)
            return HTMLResponse(e(message), status_code=status)
        query = f"?error={quote(message)}" if message else ""
        return RedirectResponse(f"/games/{table.id}{query}", status_code=303)

    if not same_origin(request):
        return done("cross-site form refused", 403)
    try:
        pairs = await form_pairs(request)
    except BadRequest as exc:
        return done(str(exc), exc.status)
    form = dict(pairs)
    trains = [v for k, v in pairs if k == "train"]
    token, player = _seat(request, table)
    if token is None or not hmac.compare_digest(form.get("csrf", ""), controls.csrf_token(token, table.id)):
        return done("this browser holds no seat of this game (open your seat link)", 403)

    def run() -> None:
        with table.lock:
            op = form.get("op")
            if op in ("undo", "redo"):
                apply(table, token, {"type": op})
                return
            if form.get("rev") != str(table.rev):
                raise BadRequest("the game has moved on: look again", 409)
            legal = _legal(table)
            pick = form.get("pick", "")
            if not pick.isdigit() or int(pick) >= len(legal):
                raise BadRequest("no such action")
            if int(pick) not in _allowed(table, legal, player):
                raise SeatError(403, "that action is not your seat's")
            la = _fill(table, legal[int(pick)], form, trains)
            apply(table, token, la.to_action())

    try:
        await run_in_threadpool(run)
    except BadRequest as exc:
        return done(str(exc), exc.status)
    except SeatError as exc:
        return done(str(exc), exc.status)
    except IllegalAction as exc:
        return done(exc.message, 422)
    except Exception as exc:  # a fault of the engine (the game is left as it was)
        return done(f"internal error: {type(exc).__name__}: {exc}; this is a railbook bug, please report it", 500)
    return done()
