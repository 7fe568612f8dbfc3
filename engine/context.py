"""The engine's internal context: :class:`Context`, what every mechanic, step and rule module receives as ``g``.

A context holds one game's immutable :class:`Book` (the compiled rulebook, indexed), its mutable
:class:`GameState`, the installed mechanics and their hooks, and the memo and epoch that cache answers between
state changes (docs/ARCHITECTURE.md, "Memo and epoch").  It offers the small services rule code shares: money
(:meth:`Context.spend`), entity look-ups, abilities.  Players and other programs use the facade
:class:`railbook.engine.game.Game` instead, which wraps a context.

This module imports no rule module (no board, market, rounds...), so nothing that reads a context forms an import
cycle with it.
"""

from __future__ import annotations

from typing import Any

from . import flags
from .book import Book
from .contract import Hooks
from .errors import MalformedAction, illegal
from .install import Installed, installed
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
    xkey,
)

ENTITY_KINDS = {"player": "P", "corporation": "C", "minor": "M", "company": "X"}
ENTITY_TYPES = {v: k for k, v in ENTITY_KINDS.items()}


class Context:
    """One game's rule services: an immutable :class:`Book` plus a mutable :class:`GameState`."""

    def __init__(self, book: Book, state: GameState):
        self.book = book
        self.state = state
        self.cache: dict[str, Any] = {}
        self.board_version = 0
        self.epoch = 0  # bumped whenever the round machinery may have changed what steps allow
        self.memo: list[Any] = [-1, {}]
        # whether memoised answers are checked against fresh ones (``RAILBOOK_MEMO_AUDIT``; read once per game: a
        # field of the game costs hot paths less than the memo module's flag)
        self.audit: bool = flags.AUDIT
        self.rules: Installed = installed(book)
        self.params = self.rules.params
        self.hooks = Hooks(self, self.rules.mechanics).caller()
        for m in self.rules.mechanics:
            if m.state is not None and m.name not in state.mechanics:
                state.mechanics[m.name] = m.state()
        self.hooks("install")

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
        fields: dict[str, Any] = action  # (declared so in the compiled build: engine/*.pxd)
        etype = fields.get("entity_type")
        ent = fields.get("entity")
        if ent is None:
            raise MalformedAction("action has no entity")
        if etype is None:
            etype = self.guess_entity_type(str(ent))
        kinds: dict[str, str] = ENTITY_KINDS  # (declared so in the compiled build: engine/*.pxd)
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

    def use_ability(self, owner: str, ability: Ability, marks: bool = True, used_up_closes: bool = True) -> None:
        """Count a use of ``ability``; ``marks``: it counts as used for a private's closing after use (not where
        it was applied to the owner's own move and the private closes on its own uses only); ``used_up_closes``:
        its last use may close the private (``closes_when_used``; not a lay spent without a tile)."""
        if marks:
            ability.used = True
        self.epoch += 1
        per_or = (ability.spec.get("params") or {}).get("per_or") or ability.spec.get("count_per_or")
        if per_or:
            ability.count_this_or += 1
        if ability.count is not None:
            ability.count -= 1
            if ability.count <= 0:
                self.remove_ability(owner, ability)
                if used_up_closes:
                    self.hooks("ability_used_up", owner, ability)

    # ----------------------------------------------------------------------------------- operating

    def current_operator(self) -> str | None:
        r = self.state.round
        if r is None or r.kind != "operating":
            return None
        return r.data.get("current_operator")

    def tokens_left(self, key: str) -> list[int]:
        return [i for i, t in enumerate(self.operator(key).tokens) if not t.used]


__all__ = ["BANK", "DEPOT", "POOL", "Context", "decode_state"]


def decode_state(book: Book, data: dict[str, Any]) -> GameState:
    """The state written by :meth:`Context.to_json` (its ``state`` part), mechanics' own states included."""
    state: GameState = from_json(GameState, data)
    for m in installed(book).mechanics:
        if m.state is not None and isinstance(state.mechanics.get(m.name), dict):
            state.mechanics[m.name] = from_json(m.state, state.mechanics[m.name])
    return state
