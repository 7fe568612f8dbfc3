"""Entities leaving the game: a private company closing, a corporation or minor closing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import board, market, rounds
from .state import BANK, kind_of, xkey

if TYPE_CHECKING:
    from .context import Context


def close_company(g: Context, sym: str) -> None:
    """A private company closes: its abilities go and its owner loses it."""
    c = g.state.companies[sym]
    if c.closed:
        return
    if c.owner:
        g.hooks("company_closing", sym, c.owner)
    for a in list(c.abilities):
        g.remove_ability(xkey(sym), a)
    if c.owner:
        lst = g.companies_of(c.owner)
        if sym in lst:
            lst.remove(sym)
    c.owner = None
    c.closed = True


def close_operator(g: Context, key: str) -> None:
    """A corporation or minor leaves the game: tokens, reservations, cash, trains and privates go."""
    op = g.operator(key)
    g.cache["closed_during_action"] = True
    changed: set[str] = set()
    for hex_id, hs in g.state.hexes.items():
        for slots in hs.tokens:
            for i, occ in enumerate(slots):
                if occ == key:
                    slots[i] = None
                    changed.add(hex_id)
        for res in hs.reservations:
            for i, r in enumerate(res):
                if r == key:
                    res[i] = None
                    changed.add(hex_id)
    board.invalidate(g, changed)  # tokens gone from these hexes only: networks that never came near them stay
    cash = g.cash(key)
    if cash > 0:
        g.spend(key, BANK, cash)
    if not g.hooks("closed_operator_trains", key):
        for tid in op.trains:
            g.state.trains[tid].buyable = False
    if kind_of(key) == "C":
        corp = op
        for sym in list(corp.companies):
            close_company(g, sym)
        for holder in list(g.state.holdings):
            g.state.holdings[holder].pop(corp.sym, None)
        for s in g.state.shares.values():
            if s.corp == corp.sym:
                s.owner = ""
        market.remove(g, corp.sym)
        corp.closed = True
        corp.ipoed = False
        corp.floated = False
        corp.owner = None
        g.hooks("corporation_closed", corp.sym)
    else:
        op.closed = True
        op.floated = False
    r = g.state.round
    if r is not None and r.kind == "operating" and r.data.get("current_operator") == key:
        for s in rounds.steps(g):
            s.pass_()
        rounds.operating_next_entity(g)
