"""Route positions read straight from an 18xx.games record (board facts only).

This is a stop-gap reader for development and benchmarks while the interpreter's replay
(``engine/replay.py``) is not there: it follows only what routes depend on — tiles laid, station
tokens (home tokens at par, independents' tokens, tokens from privates), train variants bought, the
phase (first train of each phase), private companies owned and hexes assigned — and yields, before each
``run_routes``, the board, the trains that ran and the bonuses in force. It does not check legality and
does not know corporations removed at setup (it treats members of a removal group that never par as
removed, with their home token on the map). Prefer the interpreter whenever it can replay a record.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from railbook.engine.bonuses import bonus_specs
from railbook.engine.replay import filter_actions

from .model import TrainSpec
from .network import BoardState, HexState
from .trains import train_spec

_HEX = re.compile(r"^[A-Z]+\d+$")


@dataclass
class Position:
    """One recorded ``run_routes`` decision, with the board just before it."""

    action_id: int
    corporation: str
    board: BoardState
    trains: list[TrainSpec]
    bonuses: list[dict[str, Any]]
    recorded: list[dict[str, Any]]  # the routes as recorded (``train``, ``connections``, maybe ``revenue``)
    recorded_revenue: int | None = None  # when the record stores it
    holdings: dict[str, Any] = field(default_factory=dict)  # see ``_Reader.holdings``


def active_actions(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions that count once ``undo``/``redo`` are applied (the interpreter's reading), messages dropped."""
    return [a for a in filter_actions(actions) if a.get("type") != "message"]


class _Reader:
    def __init__(self, book: Mapping[str, Any], record: Mapping[str, Any]) -> None:
        self.book = book
        self.record = record
        self.rotation: dict[str, int] = {}
        self.tile_at: dict[str, str] = {}  # hex -> tile name
        self.copy_hex: dict[str, str] = {}  # tile copy id -> hex
        self.tokens: dict[str, dict[int, list[str]]] = {}
        self.variant: dict[str, str] = {}
        self.train_owner: dict[str, str] = {}
        self.obsolete: set[str] = set()
        self.phase = 0
        self.owner: dict[str, str] = {}  # private -> corporation owning it
        self.hex_assign: dict[str, str] = {}  # private -> hex
        self.corp_assign: dict[str, str] = {}  # private -> corporation
        self.closed: set[str] = set()
        self.markers_removed: set[str] = set()
        players = len(record.get("players", []))
        self.removed: set[str] = set()
        groups = (book.get("mechanics", {}).get("random_removal", {}) or {}).get("groups", {}) or {}
        parred = {a.get("corporation") for a in record.get("actions", []) if a.get("type") == "par"}
        for g in groups.values() if isinstance(groups, Mapping) else groups:
            if isinstance(g, Mapping) and g.get("kind") == "corporations" and isinstance(g.get("remove"), Mapping):
                n = int((g.get("remove") or {}).get(players, (g.get("remove") or {}).get(str(players), 0)))
                never = [c for c in g.get("members", []) if c not in parred]
                self.removed.update(never[:n])
        for sym in sorted(self.removed):
            self._home(sym, book["corporations"][sym].get("home"))
        for sym, minor in (book.get("minors") or {}).items():
            self._home(sym, minor.get("home"))

    # ------------------------------------------------------------ helpers

    def _home(self, sym: str, home: Any) -> None:
        for h in home if isinstance(home, list) else [home]:
            if isinstance(h, str):
                h = {"hex": h}
            if isinstance(h, Mapping) and h.get("hex") in self.book["hexes"]:
                self._token(str(h["hex"]), int(h.get("city", 0) or 0), sym)

    def _token(self, hex_id: str, city: int, sym: str) -> None:
        holders = self.tokens.setdefault(hex_id, {}).setdefault(city, [])
        if sym not in holders:
            holders.append(sym)

    def _drop_token(self, sym: str) -> list[tuple[str, int]]:
        where = []
        for hex_id, cities in self.tokens.items():
            for ci, holders in cities.items():
                if sym in holders:
                    holders.remove(sym)
                    where.append((hex_id, ci))
        return where

    def _has_token_in(self, sym: str, hex_id: str) -> bool:
        return any(sym in holders for holders in self.tokens.get(hex_id, {}).values())

    def _city(self, city_id: str) -> tuple[str, int]:
        head, _, idx = city_id.rpartition("-")
        first = head.split("-")[0]
        hex_id = first if _HEX.match(first) else self.copy_hex.get(head, first)
        return hex_id, int(idx)

    def track(self, hex_id: str) -> dict[str, Any]:
        name = self.tile_at.get(hex_id)
        return self.book["tiles"][name] if name else self.book["hexes"][hex_id]

    def _phase_on(self, train_id: str) -> None:
        sym = train_id.rsplit("-", 1)[0]
        for tid in list(self.train_owner):
            spec = self.book["trains"].get(tid.rsplit("-", 1)[0]) or {}
            if spec.get("rusts_on") == sym:
                del self.train_owner[tid]
            elif spec.get("obsolete_on") == sym:
                self.obsolete.add(tid)
        for i, p in enumerate(self.book["phases"]):
            if p.get("on") == sym and i > self.phase:
                self.phase = i
                for ev in p.get("events", []):
                    self._event(ev)

    def _event(self, ev: Mapping[str, Any]) -> None:
        params = ev.get("params") or {}
        if ev.get("type") == "close_companies":
            keep = set(params.get("except", []))
            for sym in list(self.book.get("privates", {})):
                if sym not in keep:
                    self.closed.add(sym)
            independents = (self.book.get("mechanics") or {}).get("independents") or {}
            if independents.get("close_on_phase") == self.book["phases"][self.phase].get("name"):
                for sym in self.book.get("minors", {}):
                    self._drop_token(sym)
            # a port marker of a player-owned steamboat goes; corporation-held markers stay until removed
            for sym in list(self.hex_assign):
                if sym not in self.owner and sym not in self.corp_assign:
                    del self.hex_assign[sym]
        elif ev.get("type") == "remove_markers":
            for sym in params.get("privates", []):
                self.markers_removed.add(sym)
                self.hex_assign.pop(sym, None)
                self.corp_assign.pop(sym, None)

    # ------------------------------------------------------------ actions

    def apply(self, a: Mapping[str, Any]) -> None:
        kind = a.get("type")
        if kind == "par":
            corp = self.book["corporations"][a["corporation"]]
            self._home(a["corporation"], corp.get("home"))
        elif kind == "lay_tile":
            tile_id = str(a["tile"])
            name = tile_id.rsplit("-", 1)[0] if tile_id.rsplit("-", 1)[0] in self.book["tiles"] else tile_id
            hex_id = str(a["hex"])
            self.tile_at[hex_id] = name
            self.rotation[hex_id] = int(a.get("rotation", 0))
            self.copy_hex = {k: v for k, v in self.copy_hex.items() if v != hex_id}
            self.copy_hex[tile_id] = hex_id
        elif kind == "place_token":
            hex_id, city = self._city(str(a["city"]))
            who = str(a.get("tokener") or a["entity"])
            if a.get("entity_type") == "company" and not a.get("tokener"):
                who = self.owner.get(who, who)
            self._token(hex_id, city, who)
        elif kind == "run_routes":
            corp = str(a["entity"])
            for tid in [t for t, o in self.train_owner.items() if o == corp and t in self.obsolete]:
                del self.train_owner[tid]
        elif kind == "discard_train":
            self.train_owner.pop(str(a.get("train")), None)
        elif kind == "buy_train":
            train = str(a["train"])
            self.train_owner[train] = str(a["entity"])
            self.variant[train] = str(a.get("variant") or self.variant.get(train) or train.rsplit("-", 1)[0])
            self._phase_on(train)
        elif kind == "buy_company":
            company, corp = str(a["company"]), str(a["entity"])
            self.owner[company] = corp
            minors = self.book.get("minors") or {}
            minor = (self.book.get("privates", {}).get(company) or {}).get("minor")
            if minor and minor in minors:
                for hex_id, ci in self._drop_token(minor):
                    if not self._has_token_in(corp, hex_id):
                        self._token(hex_id, ci, corp)
        elif kind == "assign":
            company, target = str(a["entity"]), str(a["target"])
            if a.get("target_type") == "hex":
                self.hex_assign[company] = target
            else:
                self.corp_assign[company] = target

    # ------------------------------------------------------------ positions

    def board(self) -> BoardState:
        phase = self.book["phases"][self.phase]
        colour = phase.get("offboard") or phase["tiles"][-1]
        hexes: dict[str, HexState] = {}
        for hex_id, spec in self.book["hexes"].items():
            track = self.track(hex_id)
            tags = set(spec.get("tags") or [])
            for icon in spec.get("icons") or []:
                tags.add(f"icon:{icon['name']}")
            if track.get("label"):
                tags.add(str(track["label"]))
            if spec.get("label"):
                tags.add(str(spec["label"]))
            nb = {int(k): v for k, v in spec["neighbours"].items()}
            tokens = {ci: list(holders) for ci, holders in self.tokens.get(hex_id, {}).items()}  # a snapshot
            hexes[hex_id] = HexState(hex_id, track, self.rotation.get(hex_id, 0), nb, frozenset(tags), tokens)
        return BoardState(hexes, phase=phase["name"], colour=colour)

    def holdings(self) -> dict[str, Any]:
        """Who holds what now: trains (variant names) per owner, privates, assignments, removed corporations."""
        trains: dict[str, list[str]] = {}
        for tid, owner in self.train_owner.items():
            trains.setdefault(owner, []).append(self.variant.get(tid, tid.rsplit("-", 1)[0]))
        return {
            "trains": trains,
            "privates": dict(self.owner),
            "hex_assign": dict(self.hex_assign),
            "corp_assign": dict(self.corp_assign),
            "closed": sorted(self.closed),
            "removed": sorted(self.removed),
            "phase": self.phase,
            "tiles": {h: (t, self.rotation.get(h, 0)) for h, t in self.tile_at.items()},
            "tokens": {h: {ci: list(v) for ci, v in cities.items()} for h, cities in self.tokens.items()},
        }

    def bonuses(self, corp: str) -> list[dict[str, Any]]:
        # a corporation that owns a private and places its marker is the one it is assigned to
        corp_assign = dict(self.corp_assign)
        for private, owner in self.owner.items():
            if private in self.hex_assign and private not in corp_assign:
                corp_assign[private] = owner
        return bonus_specs(self.book, corp, self.owner, self.hex_assign, corp_assign, self.board_icons)

    def board_icons(self, hex_id: str) -> list[str]:
        return [i["name"] for i in self.book["hexes"][hex_id].get("icons") or []]


def positions(record: Mapping[str, Any], book: Mapping[str, Any], reader: _Reader | None = None) -> Iterator[Position]:
    """Every ``run_routes`` of the record, with the board before it."""
    reader = reader or _Reader(book, record)
    for a in active_actions(list(record.get("actions", []))):
        if a.get("type") == "run_routes" and a.get("routes"):
            corp = str(a["entity"])
            trains = []
            for r in a["routes"]:
                tid = str(r["train"])
                name = reader.variant.get(tid, tid.rsplit("-", 1)[0])
                base = tid.rsplit("-", 1)[0]
                trains.append(train_spec(tid, name, book["trains"].get(base)))
            recorded = [dict(r) for r in a["routes"]]
            revenue = sum(int(r["revenue"]) for r in recorded) if all("revenue" in r for r in recorded) else None
            board, bonuses, holdings = reader.board(), reader.bonuses(corp), reader.holdings()
            yield Position(int(a["id"]), corp, board, trains, bonuses, recorded, revenue, holdings)
        reader.apply(a)


def position_at(
    record: Mapping[str, Any], book: Mapping[str, Any], action_id: int, corporation: str | None = None
) -> Position:
    """The board just before the action ``action_id``, for ``corporation`` (default: that action's entity).

    At a ``run_routes`` the trains are those that ran; elsewhere the trains the reader believes the
    corporation owns.
    """
    reader = _Reader(book, record)
    for a in active_actions(list(record.get("actions", []))):
        if int(a.get("id", -1)) == action_id:
            if corporation is None and a.get("entity_type") not in ("corporation", "minor"):
                raise ValueError(f"action {action_id} is not a corporation's: name one with --corporation")
            corp = corporation or str(a.get("entity"))
            if a.get("type") == "run_routes" and corp == str(a.get("entity")):
                pos = next(positions({**record, "actions": [a]}, book, reader=reader))
                return pos
            trains = []
            for tid, owner in reader.train_owner.items():
                if owner == corp:
                    base = tid.rsplit("-", 1)[0]
                    trains.append(train_spec(tid, reader.variant.get(tid, base), book["trains"].get(base)))
            return Position(action_id, corp, reader.board(), trains, reader.bonuses(corp), [], None, reader.holdings())
        reader.apply(a)
    raise KeyError(f"no action with id {action_id} in the record")


def load_record(path: str | Path) -> dict[str, Any]:
    return json.loads(Path(path).read_text(encoding="utf-8"))
