"""``independents``: minors owned through a private company (bought with it, bought out by corporations).

Each minor gets the first train of the depot and its home token at setup; it floats (receiving its
``cash`` from the bank) when a player acquires its private.  It lays track and runs like a corporation;
its earnings are split (``split: half``: the treasury gets the smaller half).  A corporation that buys
the private receives the minor's cash, train and token (the token is removed when the corporation is
already in that city) and the minor leaves the game.  Minors close with the privates (``close_on_phase``
reached, at the moment the privates close).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from railbook.params.independents import DECLARATION, Params

from .. import board, depot
from ..access import params_of
from ..closing import close_operator
from ..contract import Mechanic
from ..errors import illegal
from ..interfaces import PRIVATE_COMPANIES
from ..memo import memo
from ..state import BANK, Token, kind_of, mkey, sym_of

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


PARAMS = params_of(DECLARATION, Params)


@cython.locals(g="Context")
def minor_of_private(g: Context, private: str) -> str | None:
    spec = g.book.privates.get(private) or {}
    if spec.get("minor"):
        return str(spec["minor"])
    for m, ind in PARAMS.of(g).companies.items():
        if ind.private == private:
            return m
    return None


@cython.locals(g="Context")
def acquisition_extra_cost(g: Context, private: str) -> int:
    for ind in PARAMS.of(g).companies.values():
        if ind.private == private:
            return ind.debt
    return 0


def setup(g: Context) -> None:
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


@cython.locals(g="Context")
def float_minor(g: Context, private: str, player: str) -> None:
    msym = minor_of_private(g, private)
    if msym is None or msym not in g.state.minors:
        return
    m = g.state.minors[msym]
    m.owner = player
    cash = int(g.book.minors[msym].get("cash") or 0)
    if cash > 0:
        g.spend(BANK, mkey(msym), cash)
    m.floated = True


@cython.locals(g="Context")
def may_buy_company(g: Context, private: str, corp_key: str) -> bool:
    """A corporation may take over an independent only with room for its train."""
    msym = minor_of_private(g, private)
    if msym is None or msym not in g.state.minors or g.state.minors[msym].closed:
        return True
    return depot.room(g, corp_key)


@cython.locals(g="Context")
def buy_minor_assets(g: Context, corp_key: str, private: str) -> None:
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
    changed: set[str] = set()
    for tok in m.tokens:
        if not tok.used or tok.hex is None:
            continue
        changed.add(tok.hex)
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
    board.invalidate(g, changed, corp_key)  # tokens changed in these hexes only, the buyer's among them


@cython.locals(g="Context")
def close_minors(g: Context) -> None:
    for sym, m in g.state.minors.items():
        if not m.closed:
            close_operator(g, mkey(sym))
            m.owner = None


@cython.locals(g="Context")
def privates_closed(g: Context) -> None:
    """The independents close when the privates do, in the phase that closes them."""
    if PARAMS.of(g).close_on_phase == g.phase_name():
        close_minors(g)


@cython.locals(g="Context")
def phase_reached(g: Context, name: str) -> None:
    privates = PRIVATE_COMPANIES.get(g)
    if PARAMS.of(g).close_on_phase == name and not (privates is not None and privates.closed_by_phase(g, name)):
        close_minors(g)


@cython.locals(g="Context")
def buying_power(g: Context, corp_key: str, purpose: str) -> int:
    p = PARAMS.of(g)
    if purpose not in ("track", "train"):
        return 0
    rng = p.buyout_counts_for_track if purpose == "track" else p.buyout_counts_for_trains
    return 0 if rng is None else potential_minor_cash(g, corp_key, rng.min, rng.max)


@memo
@cython.locals(g="Context")
def potential_minor_cash(g: Context, corp_key: str, lo: int, hi: int) -> int:
    """Cash a corporation could raise by buying player-owned independents (counts in buying power)."""
    if kind_of(corp_key) != "C" or g.cash(corp_key) <= 0:
        return 0
    n = len(g.entity_trains(corp_key))
    if not lo <= n <= hi:
        return 0
    total = 0
    for sym, m in g.state.minors.items():
        if m.closed or not m.owner or kind_of(m.owner) != "P":
            continue
        cash = g.cash(mkey(sym))
        if cash > 0:
            total += cash - 1
    return total


MECHANIC = Mechanic.of(
    DECLARATION,
    hooks={
        "setup": setup,
        "company_acquired": lambda g, private, player: float_minor(g, private, player),
        "company_sold": lambda g, private, corp: buy_minor_assets(g, corp, private),
        "acquisition_extra_cost": acquisition_extra_cost,
        "may_buy_company": may_buy_company,
        "privates_closed": lambda g, params: privates_closed(g),
        "phase_reached": phase_reached,
        "buying_power": buying_power,
    },
)
