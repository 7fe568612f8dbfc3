"""Live games: each stored game is loaded once (its actions replayed), then played under its own lock.

A :class:`Table` is one game in memory with its seats (player -> secret token), a revision number that grows
with every change, and the queues of the browsers watching it (server-sent events).  :class:`Tables` loads and
creates them through a :class:`~railbook.serve.store.Store`; every change is written there before it is
announced.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from railbook.engine.errors import IllegalAction
from railbook.engine.game import Game
from railbook.engine.legal import LegalAction
from railbook.engine.state import ckey, mkey, pkey, sym_of, xkey

from .catalogue import Catalogue
from .store import Store

#: entity_type -> key maker
_KEYS: dict[str, Callable[[str], str]] = {"player": pkey, "corporation": ckey, "minor": mkey, "company": xkey}


class SeatError(Exception):
    """A request without a seat token of this game (401), or a seat acting for another (403)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def new_token() -> str:
    """An unguessable seat token (192 bits)."""
    return secrets.token_urlsafe(24)


@dataclass
class Table:
    """One live game: its stored spec, the interpreter's :class:`Game`, a lock and live-update listeners."""

    id: str
    spec: dict[str, Any]
    game: Game
    store: Store
    lock: threading.RLock = field(default_factory=threading.RLock)
    rev: int = 0
    listeners: set[tuple[asyncio.AbstractEventLoop, asyncio.Queue[int]]] = field(default_factory=set)
    cache: dict[str, Any] = field(default_factory=dict)  # views of this revision (see views.py)
    redo_stack: list[dict[str, Any]] = field(default_factory=list)  # actions undone, the next to redo last
    listeners_lock: threading.Lock = field(default_factory=threading.Lock)  # (listeners change on the event loop)

    # ------------------------------------------------------------------------------------ seats

    @property
    def hotseat(self) -> bool:
        return bool(self.spec.get("hotseat", True))

    @property
    def seats(self) -> dict[str, str]:
        """player id -> seat token."""
        seats: dict[str, str] = self.spec["seats"]
        return seats

    def seat_of(self, token: str | None) -> str | None:
        """The player a token seats (None for no token or a wrong one; compared in constant time)."""
        if not token:
            return None
        found = None
        for player, secret in self.seats.items():
            if secrets.compare_digest(secret.encode(), token.encode()):
                found = player
        return found

    def controller(self, action: dict[str, Any]) -> str | None:
        """The player who acts for an action's entity (None: any player may, e.g. a company in receivership)."""
        make = _KEYS.get(str(action.get("entity_type")))
        if make is None or action.get("entity") is None:
            return None
        key = make(str(action["entity"]))
        if action.get("entity_type") == "player":
            return sym_of(key)
        found = self.game.context.controller(key)
        return sym_of(found) if found else None

    def check_seat(self, token: str | None, action: dict[str, Any] | None) -> str:
        """The seat's player if it may send ``action`` (None: undo/redo, checked by the caller) else SeatError."""
        player = self.seat_of(token)
        if player is None:
            raise SeatError(401, "a seat token of this game is needed (Authorization: Bearer <token>)")
        if self.hotseat or action is None:
            return player
        owner = self.controller(action)
        if owner is None:
            if player not in self.game.acting():
                raise SeatError(403, f"{player} is not to act now")
        elif owner != player:
            raise SeatError(403, f"this action is {owner}'s to take, not {player}'s")
        return player

    # ------------------------------------------------------------------------------------ play

    def act(self, action: dict[str, Any] | LegalAction) -> None:
        """Process one action (IllegalAction leaves the game as it was), store it and announce it."""
        with self.lock:
            self.game.process(action)
            self.redo_stack.clear()
            self._changed()

    def undo(self) -> None:
        """Take back the last action (IllegalAction when there is none)."""
        with self.lock:
            last = self.game.actions[-1] if self.game.can_undo() else None
            self.game.undo()
            if last is not None:
                self.redo_stack.append(last)
            self._changed()

    def redo(self) -> None:
        """Apply again the action last taken back (IllegalAction when there is none)."""
        with self.lock:
            self.game.redo()
            if self.redo_stack:
                self.redo_stack.pop()
            self._changed()

    def last_actor(self) -> str | None:
        """The player who sent the last action (who may take it back in a game of seats)."""
        actions = self.game.actions
        return self.controller(actions[-1]) if actions else None

    def next_redo_actor(self) -> str | None:
        return self.controller(self.redo_stack[-1]) if self.redo_stack else None

    def _changed(self) -> None:
        self.rev += 1
        self.store.save(self.id, self.game.actions, self.redo_stack, self.rev)
        self.cache.clear()
        with self.listeners_lock:
            listening = list(self.listeners)
        for loop, queue in listening:
            loop.call_soon_threadsafe(queue.put_nowait, self.rev)

    # ------------------------------------------------------------------------------------ listening

    def listen(self) -> asyncio.Queue[int]:
        """A queue that receives the revision after every change (call from the event loop)."""
        queue: asyncio.Queue[int] = asyncio.Queue()
        with self.listeners_lock:
            self.listeners.add((asyncio.get_running_loop(), queue))
        return queue

    def unlisten(self, queue: asyncio.Queue[int]) -> None:
        with self.listeners_lock:
            self.listeners = {(lp, q) for lp, q in self.listeners if q is not queue}


def seated(spec: dict[str, Any]) -> list[dict[str, str]]:
    """A stored game's players as ``{"id", "name"}`` records, in seating order."""
    names = spec.get("names") or {}
    return [{"id": p, "name": str(names.get(p, p))} for p in spec["players"]]


class Tables:
    """The games of one store, loaded on first use and kept in memory."""

    def __init__(self, store: Store, catalogue: Catalogue, keep: int = 64):
        self.store = store
        self.catalogue = catalogue
        self.keep = keep
        self._live: dict[str, Table] = {}
        self._lock = threading.Lock()
        self._loading: dict[str, threading.Lock] = {}

    def create(self, title: str, players: list[str], seed: int, options: list[str], hotseat: bool = True) -> Table:
        """A new game, stored before it is returned (TitleError, SaveError or UnsupportedTitle for bad input)."""
        rulebook = self.catalogue.rulebook(title)
        game = Game.start(rulebook, players, seed=seed, options=options)
        spec = {
            "title": title,
            "players": players,
            "seed": seed,
            "options": list(options),
            "hotseat": hotseat,
            "seats": {p: new_token() for p in players},
        }
        game_id = secrets.token_hex(6)
        self.store.create(game_id, spec)
        table = Table(game_id, spec, game, self.store)
        with self._lock:
            self._remember(table)
        return table

    def from_record(self, record: dict[str, Any], upto: int | None = None, hotseat: bool = True) -> Table:
        """A new game that plays on from a record (an 18xx.games export or a railbook action log) after its first
        ``upto`` actions (all when None), each automatic follow-up an action of its own."""
        from railbook.engine.replay import LOG_FORMAT, NON_MOVES, filter_actions, normalise, start_from_record

        title = str(record.get("title"))
        rulebook = self.catalogue.rulebook(title if title in self.catalogue.sources else self._shipped(title))
        game = start_from_record(record, rulebook)
        actions = record.get("actions") or []
        kept = filter_actions(actions) if record.get("format") != LOG_FORMAT else list(actions)
        moves = [a for a in kept if a.get("type") not in NON_MOVES][:upto]
        for action in moves:
            for a in [action, *(action.get("auto_actions") or [])]:
                clean = {k: v for k, v in normalise(a).items() if k not in ("id", "created_at", "user", "auto_actions")}
                game.process(clean)
        state = game.state
        players = list(state.player_ids)
        spec = {
            "title": title if title in self.catalogue.sources else self._shipped(title),
            "players": players,
            "names": {p.id: p.name for p in state.players},
            "seed": state.seed,
            "options": list(game.options),
            "hotseat": hotseat,
            "seats": {p: new_token() for p in players},
        }
        game_id = secrets.token_hex(6)
        self.store.create(game_id, spec)
        table = Table(game_id, spec, game, self.store)
        table._changed()
        with self._lock:
            self._remember(table)
        return table

    def _shipped(self, title: str) -> str:
        """The catalogue name of a title named as records name it (a folder name or a ``site_id``)."""
        from railbook.api import rulebook_for_title

        wanted = (rulebook_for_title(title).get("meta") or {}).get("title")
        for name in self.catalogue.names():
            if name == wanted:
                return name
        return title

    def get(self, game_id: str) -> Table | None:
        """The live game (loaded from the store and replayed on first use), None when there is none."""
        with self._lock:
            found = self._live.get(game_id)
            if found is not None:
                return found
            loading = self._loading.setdefault(game_id, threading.Lock())
        with loading:  # one thread replays a game; the others wait for it
            with self._lock:
                found = self._live.get(game_id)
            if found is not None:
                return found
            row = self.store.load(game_id)
            if row is None:
                return None
            spec = row.spec
            game = Game.start(
                self.catalogue.rulebook(spec["title"]), seated(spec), seed=spec["seed"], options=spec["options"]
            )
            for action in [*row.actions, *reversed(row.redo)]:
                game.process(action)
            for _ in row.redo:
                game.undo()
            table = Table(game_id, spec, game, self.store, rev=row.rev, redo_stack=list(row.redo))
            with self._lock:
                self._remember(table)
                self._loading.pop(game_id, None)
            return table

    def _remember(self, table: Table) -> None:
        self._live[table.id] = table
        while len(self._live) > self.keep:
            idle = next((k for k, t in self._live.items() if not t.listeners and k != table.id), None)
            if idle is None:
                break
            del self._live[idle]


__all__ = ["IllegalAction", "SeatError", "Table", "Tables", "new_token"]
