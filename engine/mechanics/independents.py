"""``independents``: minors owned through a private company (1846 Michigan Southern, Big 4).

Each minor gets the first train of the depot and its home token at setup; it floats (receiving its
``cash`` from the bank) when a player acquires its private.  It lays track and runs like a corporation;
its earnings are split (``split: half``: the treasury gets the smaller half).  A corporation that buys
the private receives the minor's cash, train and token (the token is removed when the corporation is
already in that city) and the minor leaves the game.  Minors close with the privates (``close_on_phase``
or a ``close_companies`` phase event with ``close_independents``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import board, depot
from ..errors import illegal
from ..game import memo
from ..state import BANK, DEPOT, Token, ckey, kind_of, mkey, sym_of

if TYPE_CHECKING:
    from ..game import Game


def minor_of_private(g: Game, private: str) -> str | None:
    spec = g.book.privates.get(private) or {}
    if spec.get("minor"):
        return spec["minor"]
    for m, s in ((g.book.mech("independents") or {}).get("companies") or {}).items():
        if s.get("private") == private:
            return m
    return None


def setup(g: Game) -> None:
    for sym, spec in g.book.minors.items():
        m = g.state.minors[sym]
        if spec.get("train") and g.state.depot:
            tid = next((t for t in g.state.depot if g.state.trains[t].sym == spec["train"]), None)
            if tid is not None:
                depot.give_train(g, mkey(sym), tid, None, free=True)
                g.state.trains[tid].buyable = False
        home = spec.get("home")
        if home:
            hex_id, ci = home["hex"], int(home.get("city", 0))
            slot = board.free_slot(g, hex_id, ci, mkey(sym))
            if slot is not None and m.tokens:
                g.state.hexes[hex_id].tokens[ci][slot] = mkey(sym)
                m.tokens[0].used = True
                m.tokens[0].hex, m.tokens[0].city = hex_id, ci
    board.invalidate(g)


def float_minor(g: Game, private: str, player: str) -> None:
    msym = minor_of_private(g, private)
    if msym is None or msym not in g.state.minors:
        return
    m = g.state.minors[msym]
    m.owner = player
    cash = int(g.book.minors[msym].get("cash") or 0)
    if cash > 0:
        g.spend(BANK, mkey(msym), cash)
    m.floated = True


def buy_minor_assets(g: Game, corp_key: str, private: str) -> None:
    """A corporation bought the private of an independent: take over its cash, train and token."""
    msym = minor_of_private(g, private)
    if msym is None or msym not in g.state.minors or g.state.minors[msym].closed:
        return
    if not depot.room(g, corp_key):
        raise illegal("independents.train_limit", f"{sym_of(corp_key)} has no room for {msym}'s train")
    m = g.state.minors[msym]
    mk = mkey(msym)
    cash = g.cash(mk)
    if cash > 0:
        g.spend(mk, corp_key, cash)
    for tid in list(m.trains):
        t = g.state.trains[tid]
        t.buyable = True
        depot.give_train(g, corp_key, tid, None, free=True)
    corp = g.corp(corp_key)
    for tok in m.tokens:
        if not tok.used or tok.hex is None:
            continue
        hs = g.state.hexes[tok.hex]
        city = tok.city or 0
        already = board.tokened_by(g, tok.hex, city, corp_key)
        slots = hs.tokens[city]
        idx = slots.index(mk) if mk in slots else None
        if idx is not None:
            if already:
                slots[idx] = None
            else:
                slots[idx] = corp_key
                corp.tokens.append(Token(price=0, used=True, hex=tok.hex, city=city, extra=True))
    m.closed = True
    m.floated = False
    m.owner = None
    board.invalidate(g)


def close_minors(g: Game) -> None:
    from .core import close_operator

    for sym, m in g.state.minors.items():
        if not m.closed:
            close_operator(g, mkey(sym))
            m.owner = None


def phase_event(g: Game, event: dict[str, Any]) -> None:
    if event.get("type") == "close_companies" and (event.get("params") or {}).get("close_independents"):
        close_minors(g)


def phase_reached(g: Game, name: str) -> None:
    close_on = (g.book.mech("independents") or {}).get("close_on_phase")
    if close_on == name and not any(
        e.get("type") == "close_companies" for e in g.book.phases[g.book.phase_index[name]].get("events") or []
    ):
        close_minors(g)


@memo
def potential_minor_cash(g: Game, corp_key: str, trains_range: tuple[int, int]) -> int:
    """Cash a corporation could raise by buying player-owned independents (counts in buying power)."""
    if kind_of(corp_key) != "C" or g.cash(corp_key) <= 0:
        return 0
    n = len(g.entity_trains(corp_key))
    if not trains_range[0] <= n <= trains_range[1]:
        return 0
    total = 0
    for sym, m in g.state.minors.items():
        if m.closed or not m.owner or kind_of(m.owner) != "P":
            continue
        cash = g.cash(mkey(sym))
        if cash > 0:
            total += cash - 1
    return total


__all__ = ["DEPOT", "ckey"]
