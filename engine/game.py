"""The interpreter's entry point: :class:`Game`.

``Game.start(rulebook, players, seed=..., options=[...])`` builds the initial state from a compiled
rulebook; ``game.acting()``, ``game.legal_actions()`` and ``game.process(action)`` play it.  Actions are
plain dicts in the 18xx.games shape (``type``, ``entity``, ``entity_type`` and the type's fields).

``process`` is atomic: it works on a copy of the state and swaps it in only when the action succeeded;
an illegal action raises :class:`railbook.engine.errors.IllegalAction` and leaves the game untouched.
"""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Iterable
from typing import Any

from . import memo as _memo
from .action_shape import check_action_shape
from .book import Book, book_for
from .contract import Hooks
from .errors import IllegalAction, MalformedAction, illegal
from .install import Installed, installed
from .memo import memo
from .state import (
    BANK,
    DEPOT,
    POOL,
    Ability,
    Company,
    Corporation,
    GameState,
    Minor,
    Player,
    ckey,
    from_json,
    kind_of,
    mkey,
    pkey,
    sym_of,
    to_json,
    xkey,
)
from .types import EndReason, Outcome

ENTITY_KINDS = {"player": "P", "corporation": "C", "minor": "M", "company": "X"}
ENTITY_TYPES = {v: k for k, v in ENTITY_KINDS.items()}


class Game:
    """One game: an immutable :class:`Book` plus a mutable :class:`GameState`."""

    #: actions between snapshots: the largest recorded states pickle in ~1.7 ms, ~13 µs an action at 128; an illegal
    #: action then costs re-applying at most 128 actions (~25 ms) to restore the state
    CHECKPOINT_EVERY = 128

    def __init__(self, book: Book, state: GameState):
        self.book = book
        self.state = state
        self.cache: dict[str, Any] = {}
        self.board_version = 0
        self.epoch = 0  # bumped whenever the round machinery may have changed what steps allow
        self.memo: list[Any] = [-1, {}]
        # whether memoised answers are checked against fresh ones (``RAILBOOK_MEMO_AUDIT``; read once per game: a
        # field of the game costs hot paths less than the memo module's flag)
        self.audit: bool = _memo.AUDIT
        self._checkpoint: tuple[bytes, int] | None = None
        self._since: list[dict[str, Any]] = []
        self.rules: Installed = installed(book)
        self.params = self.rules.params
        self.hooks = Hooks(self, self.rules.mechanics).caller()
        for m in self.rules.mechanics:
            if m.state is not None and m.name not in state.mechanics:
                state.mechanics[m.name] = m.state()
        self.hooks("install")

    # ---------------------------------------------------------------------------------- creation

    @classmethod
    def start(
        cls,
        rulebook: dict[str, Any],
        players: Iterable[str | dict[str, Any]],
        seed: int = 0,
        options: Iterable[str] = (),
    ) -> Game:
        """A new game.  ``players`` are ids (or ``{"id", "name"}`` records) in seating order."""
        book = book_for(rulebook, tuple(options))
        return setup.new_game(cls, book, list(players), seed)

    # --------------------------------------------------------------------------------- public API

    def acting(self) -> list[str]:
        """Ids of the players who must act now (a corporation acts through its president; for one without a
        president, any player may enter its actions)."""
        if self.state.finished:
            return []
        out: list[str] = []
        for key in rounds.active_entities(self):
            player = self.controller(key)
            players = [player] if player else self.player_keys() if self.hooks("in_receivership", key) else []
            out.extend(sym_of(p) for p in players if sym_of(p) not in out)
        return out

    def acting_entities(self) -> list[str]:
        """Entity keys (``P|id``, ``C|sym``, ...) that may act now."""
        return [] if self.state.finished else rounds.active_entities(self)

    def legal_actions(self) -> list[dict[str, Any]]:
        """For the acting entity: each kind of action with its choices or constraints."""
        if self.state.finished:
            return []
        return rounds.legal_actions(self)

    def process(self, action: dict[str, Any], atomic: bool = True) -> Game:
        """Apply one action.  Raises :class:`IllegalAction` and leaves the state unchanged.

        Atomicity without copying the state on every action: a snapshot (pickle) is taken every
        ``CHECKPOINT_EVERY`` actions and the actions since are kept; when an action fails the state is
        rebuilt from the snapshot by re-applying them (the engine is deterministic).  ``atomic=False``
        skips all that (a replay that stops at the first error does not need it) and trusts that the state
        changed only through ``process`` since the last action (memoised answers are kept).
        """
        check_action_shape(action)  # (which refuses what is no JSON object)
        if type(action) is not dict:
            action = dict(action)  # (a mapping of another dict type: the engine reads plain dicts)
        if not atomic:
            rounds.process(self, action)
            return self
        self.epoch += 1  # the caller may have changed the state by hand since the last action
        if self._checkpoint is None or len(self._since) >= self.CHECKPOINT_EVERY:
            self._checkpoint = (pickle.dumps(self.state, protocol=pickle.HIGHEST_PROTOCOL), self.board_version)
            self._since = []
        action = copy.deepcopy(action)
        try:
            rounds.process(self, action)
        except BaseException:
            self._restore()
            raise
        self._since.append(action)
        return self

    def _restore(self) -> None:
        """Back to the state before the failed action: the last snapshot plus the actions since."""
        assert self._checkpoint is not None, "a failed action always follows a checkpoint"
        data, version = self._checkpoint
        self.state = pickle.loads(data)
        self.cache = {}
        self.board_version = version + 1
        self.epoch += 1
        for done in self._since:
            rounds.process(self, done)

    def result(self) -> dict[str, int]:
        """Each player's final (or current) value."""
        return {p.id: self.hooks("player_value", pkey(p.id)) for p in self.state.players}

    def outcome(self) -> Outcome:
        """The standing: values, ranking (best first; ties keep seating order) and, at the end, the reason."""
        values = self.result()
        seats = {pid: i for i, pid in enumerate(self.state.player_ids)}
        ranking = sorted(values, key=lambda pid: (-values[pid], seats.get(pid, 0)))
        reason = self.state.game_end_reason
        return Outcome(
            finished=self.state.finished,
            values=values,
            reason=EndReason(reason) if reason is not None and reason in EndReason._value2member_map_ else None,
            ranking=ranking,
        )

    def save(self) -> str:
        """The game as JSON text (rulebook title, options and the whole state); :meth:`load` reads it back."""
        return self.dumps()

    @classmethod
    def load(cls, rulebook: dict[str, Any], text: str) -> Game:
        """A game saved by :meth:`save`, with the rulebook it was played with."""
        return cls.from_json(rulebook, json.loads(text))

    def to_json(self) -> dict[str, Any]:
        return {"rulebook": self.book.title, "options": list(self.book.options), "state": to_json(self.state)}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, rulebook: dict[str, Any], data: dict[str, Any]) -> Game:
        book = book_for(rulebook, tuple(data.get("options") or ()))
        return cls(book, decode_state(book, data["state"]))

    # ------------------------------------------------------------------------------------ helpers

    def log(self, message: str) -> None:
        self.state.log.append(message)

    def phase_spec(self) -> dict[str, Any]:
        return self.book.phases[self.state.phase]

    def phase_name(self) -> str:
        return str(self.phase_spec()["name"])

    def phase_status(self) -> list[str]:
        return self.phase_spec().get("status") or []

    def phase_at_least(self, name: str) -> bool:
        idx = self.book.phase_index.get(name)
        return idx is not None and self.state.phase >= idx

    def player_keys(self, include_bankrupt: bool = False) -> list[str]:
        return [pkey(p.id) for p in self.state.players if include_bankrupt or not p.bankrupt]

    def player(self, key: str) -> Player:
        pid = sym_of(key)
        p: Player
        for p in self.state.players:
            if p.id == pid:
                return p
        raise KeyError(key)

    def corp(self, key_or_sym: str) -> Corporation:
        return self.state.corporations[sym_of(key_or_sym)]

    def minor(self, key_or_sym: str) -> Minor:
        return self.state.minors[sym_of(key_or_sym)]

    def table(self, name: str) -> dict[Any, Any]:
        """The cache's table ``name``, made empty where it is missing (``cache.setdefault(name, {})`` without making
        an empty dict on every call)."""
        found: dict[Any, Any] | None = self.cache.get(name)
        if found is None:
            found = self.cache[name] = {}
        return found

    def company(self, key_or_sym: str) -> Company:
        return self.state.companies[sym_of(key_or_sym)]

    def operator(self, key: str) -> Corporation | Minor:
        """The corporation or minor behind a key."""
        k = kind_of(key)
        if k == "C":
            return self.state.corporations[sym_of(key)]
        if k == "M":
            return self.state.minors[sym_of(key)]
        raise KeyError(key)

    def name(self, key: str | None) -> str:
        if key is None:
            return "nobody"
        k = kind_of(key)
        if k == "P":
            return self.player(key).name
        return sym_of(key)

    def owner(self, key: str) -> str | None:
        k = kind_of(key)
        if k in ("C", "M"):
            return self.operator(key).owner
        if k == "X":
            return self.company(key).owner
        if k == "P":
            return key
        return None

    def controller(self, key: str | None) -> str | None:
        """The player who acts for an entity (a corporation's president, a private's owner...)."""
        seen = set()
        while key and kind_of(key) != "P" and key not in seen:
            seen.add(key)
            key = self.owner(key)
            if key == POOL:
                return None
        return key if key and kind_of(key) == "P" else None

    def is_closed(self, key: str) -> bool:
        if len(key) < 3 or key[1] != "|":  # the bank, the pool...
            return False
        k, sym = key[0], sym_of(key)
        if k == "C":
            corp: Corporation = self.state.corporations[sym]
            return corp.closed
        if k == "M":
            minor: Minor = self.state.minors[sym]
            return minor.closed
        if k == "X":
            company: Company = self.state.companies[sym]
            return company.closed
        if k == "P":
            return self.player(key).bankrupt
        return False

    def companies_of(self, key: str) -> list[str]:
        k = kind_of(key)
        if k == "P":
            return self.player(key).companies
        if k == "C":
            return self.state.corporations[sym_of(key)].companies
        return []

    def entity_trains(self, key: str) -> list[str]:
        return self.operator(key).trains

    # -------------------------------------------------------------------------------------- money

    def cash(self, key: str) -> int:
        return self.state.cash.get(key, 0)

    def spend(self, src: str, dst: str, amount: int, check_positive: bool = True) -> None:
        """Move money; a non-bank source may not go below zero; the bank may (it then breaks)."""
        amount = int(amount)
        if check_positive and amount <= 0:
            raise illegal("cash.amount", f"{amount} is not a valid amount to spend")
        cash = self.state.cash
        self.epoch += 1
        if src == BANK:
            if cash[BANK] - amount < 0 and not self.state.bank_broken:
                self.state.bank_broken = True
                self.log("-- The bank has broken --")
        elif cash.get(src, 0) < amount:
            raise illegal("cash.insufficient", f"{self.name(src)} has {cash.get(src, 0)} and cannot spend {amount}")
        cash[src] = cash.get(src, 0) - amount
        cash[dst] = cash.get(dst, 0) + amount

    # ------------------------------------------------------------------------------------ entities

    def entity_key(self, action: dict[str, Any]) -> str:
        """The key of an action's entity, validated."""
        fields: dict[str, Any] = action  # (declared for compiled builds: see railbook.accel_declare)
        etype = fields.get("entity_type")
        ent = fields.get("entity")
        if ent is None:
            raise MalformedAction("action has no entity")
        if etype is None:
            etype = self.guess_entity_type(str(ent))
        kinds: dict[str, str] = ENTITY_KINDS  # (declared for compiled builds: see railbook.accel_declare)
        kind = kinds.get(str(etype))
        if kind is None:
            raise MalformedAction(f"unknown entity_type {etype!r}")
        # (keys are made once per entity and interned: see state.ckey)
        if kind == "P":
            pid = str(ent)
            p: Player
            for p in self.state.players:
                if p.id == pid:
                    break
            else:
                raise MalformedAction(f"unknown player {ent!r}")
            return pkey(ent)
        if kind == "C":
            if str(ent) not in self.state.corporations:
                raise MalformedAction(f"unknown corporation {ent!r}")
            return ckey(ent)
        if kind == "M":
            if str(ent) not in self.state.minors:
                raise MalformedAction(f"unknown minor {ent!r}")
            return mkey(ent)
        if str(ent) not in self.state.companies:
            raise MalformedAction(f"unknown company {ent!r}")
        return xkey(ent)

    def guess_entity_type(self, ent: str) -> str:
        if any(p.id == ent for p in self.state.players):
            return "player"
        if ent in self.state.corporations:
            return "corporation"
        if ent in self.state.minors:
            return "minor"
        if ent in self.state.companies:
            return "company"
        raise MalformedAction(f"unknown entity {ent!r}")

    # ----------------------------------------------------------------------------------- abilities

    def abilities_of(self, key: str) -> list[tuple[str, Ability]]:
        """(owner key, ability) for every live ability an entity can use: its own and its privates'."""
        out: list[tuple[str, Ability]] = []
        k = kind_of(key)
        c: Company
        if k == "X":
            c = self.company(key)
            if not c.closed:
                for a in c.abilities:
                    out.append((key, a))
            return out
        if k == "C":
            corp: Corporation = self.corp(key)
            for sym in corp.companies:
                c = self.state.companies[sym]
                owner = xkey(sym)
                for a in c.abilities:
                    out.append((owner, a))
            for a in corp.abilities:
                out.append((key, a))
        return out

    def remove_ability(self, owner: str, ability: Ability) -> None:
        k = kind_of(owner)
        lst = self.company(owner).abilities if k == "X" else self.corp(owner).abilities if k == "C" else []
        if ability in lst:
            lst.remove(ability)
            self.epoch += 1
            self.hooks("ability_removed", owner, ability)

    def use_ability(self, owner: str, ability: Ability) -> None:
        ability.used = True
        self.epoch += 1
        per_or = (ability.spec.get("params") or {}).get("per_or") or ability.spec.get("count_per_or")
        if per_or:
            ability.count_this_or += 1
        if ability.count is not None:
            ability.count -= 1
            if ability.count <= 0:
                self.remove_ability(owner, ability)

    # ----------------------------------------------------------------------------------- operating

    def current_operator(self) -> str | None:
        r = self.state.round
        if r is None or r.kind != "operating":
            return None
        return r.data.get("current_operator")

    def tokens_left(self, key: str) -> list[int]:
        return [i for i, t in enumerate(self.operator(key).tokens) if not t.used]

    def market_price(self, corp_sym: str) -> int:
        return market.price_at(self, self.state.corporations[corp_sym].price)

    def board(self) -> Any:
        return board


def entity_label(g: Game, key: str) -> str:
    return g.name(key)


# Imported once Game exists: compiled builds of these modules declare their ``g`` a native Game
# (railbook.accel_declare) and so import this module when they load.
from . import board, market, rounds, setup  # noqa: E402

__all__ = ["BANK", "DEPOT", "POOL", "Game", "IllegalAction", "ckey", "memo", "mkey", "pkey", "xkey"]


def decode_state(book: Book, data: dict[str, Any]) -> GameState:
    """The state written by :meth:`Game.to_json` (its ``state`` part), mechanics' own states included."""
    state: GameState = from_json(GameState, data)
    for m in installed(book).mechanics:
        if m.state is not None and isinstance(state.mechanics.get(m.name), dict):
            state.mechanics[m.name] = from_json(m.state, state.mechanics[m.name])
    return state
