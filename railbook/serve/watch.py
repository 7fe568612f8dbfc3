"""Watch: step through a record (an 18xx.games export or a railbook action log) forward, back, to an action or
to the start of a round, with the table's views.

A record is replayed once when it is opened; the game is saved every :data:`EVERY` actions on the way, so any
position is at most that many actions from a saved one.
"""

from __future__ import annotations

import json
import secrets
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from railbook.engine.errors import IllegalAction
from railbook.engine.game import Game
from railbook.errors import RailbookError

from . import views
from .mapsvg import map_svg
from .requests import BadRequest, body_bytes, form_pairs
from .views import e

#: actions between saved positions
EVERY = 32
#: records open at once (the oldest is forgotten)
KEEP = 8
#: bytes in an uploaded record
UPLOAD_BYTES = 16 * 1024 * 1024


@dataclass
class Watch:
    """One record being watched: its actions (each with its automatic follow-ups), saved positions, rounds."""

    name: str
    rulebook: dict[str, Any]
    groups: list[list[dict[str, Any]]]
    saves: dict[int, str]
    rounds: list[tuple[int, str]]  # (position, round label) where each round starts
    labels: list[str]  # per action: who did what (its type)
    game: Game
    pos: int
    stopped: str | None = None  # why the record could not be followed to its end
    record: dict[str, Any] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def length(self) -> int:
        return len(self.groups)

    def goto(self, n: int) -> None:
        """Show the game after ``n`` actions (hold :attr:`lock` while moving and reading)."""
        n = max(0, min(n, self.length))
        if not (self.pos <= n <= self.pos + EVERY):
            at = max(k for k in self.saves if k <= n)
            self.game = Game.load(self.rulebook, self.saves[at])
            self.pos = at
        while self.pos < n:
            for a in self.groups[self.pos]:
                self.game.process(a, False)
            self.pos += 1


def round_label(game: Game) -> str:
    st = game.state
    kind = st.round.kind if st.round else "-"
    return f"{kind} {st.turn}" + (f".{st.round.round_num}" if st.round and kind == "operating" else "")


def open_watch(name: str, record: dict[str, Any]) -> Watch:
    """Replay a record once, saving positions and round starts (RailbookError for a record that cannot start)."""
    from railbook.api import record_rulebook
    from railbook.engine.replay import LOG_FORMAT, NON_MOVES, filter_actions, normalise, start_from_record

    rulebook = record_rulebook(record)
    game = start_from_record(record, rulebook)
    actions = record.get("actions") or []
    kept = filter_actions(actions) if record.get("format") != LOG_FORMAT else list(actions)
    groups = [
        [normalise(a), *(normalise(x) for x in a.get("auto_actions") or [])]
        for a in kept
        if a.get("type") not in NON_MOVES
    ]
    saves: dict[int, str] = {}
    rounds: list[tuple[int, str]] = [(0, round_label(game))]
    labels: list[str] = []
    stopped = None
    for i, group in enumerate(groups):
        if i % EVERY == 0:
            saves[i] = game.save()
        first = group[0]
        who = first.get("entity")
        if first.get("entity_type") == "player":
            who = next((p.name for p in game.state.players if p.id == str(who)), who)
        labels.append(f"{who}: {str(first.get('type', '')).replace('_', ' ')}")
        try:
            for a in group:
                game.process(a, False)
        except IllegalAction as exc:
            stopped = f"action {i + 1} is illegal here ({exc.rule}: {exc.message}); the record is shown up to it"
            groups = groups[:i]
            labels = labels[:i]
            game = Game.load(rulebook, saves[max(k for k in saves if k <= i)])
            for g in groups[max(k for k in saves if k <= i) :]:
                for a in g:
                    game.process(a, False)
            break
        label = round_label(game)
        if label != rounds[-1][1]:
            rounds.append((i + 1, label))
    return Watch(name, rulebook, groups, saves, rounds, labels, game, len(groups), stopped, record)


class Watches:
    """The records open for watching (in memory; at most :data:`KEEP`)."""

    def __init__(self) -> None:
        self._open: dict[str, Watch] = {}
        self._lock = threading.Lock()

    def add(self, watch: Watch) -> str:
        wid = secrets.token_hex(6)
        with self._lock:
            self._open[wid] = watch
            while len(self._open) > KEEP:
                del self._open[next(iter(self._open))]
        return wid

    def get(self, wid: str) -> Watch | None:
        with self._lock:
            return self._open.get(wid)


# ------------------------------------------------------------------------------------------- pages


async def watch_home(request: Request, problem: str | None = None, status: int = 200) -> Response:
    from .pages import layout

    local = _local(request)
    path_form = (
        '<form method="post" action="/watch" class="watch-path"><label>Record file on this computer '
        '<input type="text" name="path" required placeholder="/path/to/record.json"></label>'
        "<button type=submit>Watch</button></form>"
        if local
        else ""
    )
    error = f'<p class="error" role="alert">{e(problem)}</p>' if problem else ""
    body = (
        f"<h1>Watch a record</h1>{error}"
        '<form method="post" action="/watch" enctype="multipart/form-data" class="watch-upload">'
        '<label>18xx.games record or railbook action log (JSON) <input type="file" name="record" accept=".json" '
        "required></label><button type=submit>Watch</button></form>"
        f"{path_form}"
    )
    return layout("railbook watch", body, status=status)


def _local(request: Request) -> bool:
    """Whether the browser runs on the server's own machine (only it may name files there)."""
    host = request.client.host if request.client else ""
    return host in ("127.0.0.1", "::1", "localhost", "testclient")


async def open_record(request: Request) -> Response:
    from railbook.records import read_record

    from .pages import same_origin

    if not same_origin(request):
        return HTMLResponse("cross-site form refused", status_code=403)
    kind = request.headers.get("content-type", "").split(";")[0].strip()
    try:
        if kind == "multipart/form-data":
            raw = await body_bytes(request, UPLOAD_BYTES)
            name, data = await run_in_threadpool(_uploaded, request, raw)
        else:
            form = dict(await form_pairs(request))
            if not _local(request):
                raise BadRequest("only a browser on this computer may name a file", 403)
            path = Path(form.get("path", "").strip()).expanduser()
            name = path.name
            data = await run_in_threadpool(read_record, path)
        watch = await run_in_threadpool(open_watch, name, data)
    except BadRequest as exc:
        return await watch_home(request, str(exc), exc.status)
    except (RailbookError, OSError, ValueError, KeyError, TypeError) as exc:
        return await watch_home(request, str(exc), 400)
    wid = request.app.state.watches.add(watch)
    return RedirectResponse(f"/watch/{wid}", status_code=303)


def _uploaded(request: Request, raw: bytes) -> tuple[str, dict[str, Any]]:
    """The record in a multipart upload, read through the record checks (limits, shape)."""
    from email.parser import BytesParser
    from email.policy import HTTP

    from railbook.records import read_record

    head = f"Content-Type: {request.headers.get('content-type', '')}\r\n\r\n".encode()
    message = BytesParser(policy=HTTP).parsebytes(head + raw)
    for part in message.iter_parts():
        if part.get_param("name", header="content-disposition") == "record":
            payload = part.get_payload(decode=True)
            if not isinstance(payload, bytes):
                raise BadRequest("the record is not a file")
            name = Path(part.get_filename() or "record.json").name
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "record.json"
                path.write_bytes(payload)
                return name, read_record(path)
    raise BadRequest("no record file in the upload")


async def watch_game(request: Request) -> Response:
    """Watch a game of this server from its record."""
    from .api import find_table
    from .record import game_record

    table = await find_table(request)
    if table is None:
        return HTMLResponse("no such game", status_code=404)
    with table.lock:
        record = json.loads(json.dumps(game_record(table.id, table.spec, table.game)))
    try:
        watch = await run_in_threadpool(open_watch, f"game {table.id}", record)
    except RailbookError as exc:
        return HTMLResponse(e(exc), status_code=400)
    wid = request.app.state.watches.add(watch)
    return RedirectResponse(f"/watch/{wid}", status_code=303)


def watch_html(wid: str, watch: Watch) -> str:
    """The watched game at its position: the navigation, then the table's views."""
    game, n, total = watch.game, watch.pos, watch.length
    link = f"/watch/{e(wid)}?at="

    def nav(to: int, text: str, key: str) -> str:
        if to == n or not 0 <= to <= total:
            return f'<span class="nav off">{text}</span>'
        return f'<a class="nav" data-key="{key}" href="{link}{to}">{text}</a>'

    current = max((i for i, (pos, _) in enumerate(watch.rounds) if pos <= n), default=0)
    rounds = "".join(
        f'<option value="{pos}"{" selected" if i == current else ""}>{e(label)} (action {pos})</option>'
        for i, (pos, label) in enumerate(watch.rounds)
    )
    last = e(watch.labels[n - 1]) if n else "start"
    board = map_svg(game.rulebook, game.state, offboard_now=views.offboard_now(game))
    stopped = f'<p class="error">{e(watch.stopped)}</p>' if watch.stopped else ""
    return (
        f'<div id="watch" data-at="{n}" data-total="{total}">{stopped}<div class="navbar">'
        f"{nav(0, '« start', 'Home')}{nav(n - 1, '‹ back', 'ArrowLeft')}"
        f'<span class="pos">action <b id="at">{n}</b> of {total}: {last}</span>'
        f"{nav(n + 1, 'forward ›', 'ArrowRight')}{nav(total, 'end »', 'End')}"
        f'<form method="post" action="/watch/{e(wid)}/play" class="jump play">'
        f'<input type="hidden" name="at" value="{n}">'
        "<button>play on from here</button></form>"
        f'<form method="get" class="jump"><input type="number" name="at" min="0" max="{total}" value="{n}" '
        'aria-label="action"><button>go</button></form>'
        f'<form method="get" class="jump"><select name="at" aria-label="round">{rounds}</select>'
        "<button>go to round</button></form>"
        f'</div><section class="side"><div class="status">{views.status_html(game)}</div>'
        f"<h2>Players</h2>{views.players_html(game, game.state.player_ids)}"
        f'<h2>Companies</h2><div class="charters">{views.charters_html(game)}</div>'
        f'<h2>Bank and trains</h2><div class="bank">{views.bank_html(game)}</div></section>'
        f'<section class="board">{board}<h2>Stock market</h2>{views.market_html(game)}'
        f"<h2>Log</h2>{views.log_html(game)}</section></div>"
    )


async def watch_page(request: Request) -> Response:
    from .pages import layout

    watch: Watch | None = request.app.state.watches.get(request.path_params["watch_id"])
    if watch is None:
        return HTMLResponse("no such record open (open it again)", status_code=404)
    at = request.query_params.get("at", "")
    target = int(at) if at.isdigit() else watch.pos

    def render() -> str:
        with watch.lock:  # (two browsers on one record: each sees the position it asked for)
            watch.goto(target)
            return watch_html(request.path_params["watch_id"], watch)

    body = await run_in_threadpool(render)
    return layout(f"watch {watch.name}", f"<h1>Watching {e(watch.name)}</h1>{body}")


async def play_on(request: Request) -> Response:
    """A new hotseat game from a watched record's first actions (the position shown)."""
    from .pages import same_origin

    watch: Watch | None = request.app.state.watches.get(request.path_params["watch_id"])
    if watch is None:
        return HTMLResponse("no such record open (open it again)", status_code=404)
    if not same_origin(request):
        return HTMLResponse("cross-site form refused", status_code=403)
    try:
        form = dict(await form_pairs(request))
    except BadRequest as exc:
        return HTMLResponse(e(exc), status_code=exc.status)
    at = form.get("at", "")
    upto = min(int(at), watch.length) if at.isdigit() else watch.length
    try:
        table = await run_in_threadpool(request.app.state.tables.from_record, watch.record, upto)
    except (RailbookError, IllegalAction) as exc:
        return await watch_home(request, str(exc), 400)
    first = next(iter(table.seats.values()))
    return RedirectResponse(f"/games/{table.id}/seat/{first}", status_code=303)
