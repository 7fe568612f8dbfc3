"""Share certificates, the open market (pool) and presidencies.

Holdings keep certificates in arrival order per holder (the president's swap takes the new president's
oldest certificates, as on 18xx.games, so later actions that name certificate ids line up).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any

from . import market
from . import memo as _memo
from .errors import illegal
from .memo import memo
from .state import BANK, POOL, Corporation, Share, ckey, kind_of, pkey, sym_of

if TYPE_CHECKING:
    from .context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from . import cython_shim as cython


@dataclass
class Bundle:
    """Certificates of one corporation held by one holder, sold or bought together."""

    corp: str
    shares: list[str]
    percent: int
    owner: str
    share_price: int | None = None  # price per 10% share; None = the corporation's price

    def partial(self, g: Context) -> bool:
        return self.percent != sum(g.state.shares[s].percent for s in self.shares)

    def priced(self, share_price: int | None) -> Bundle:
        """The same certificates at ``share_price`` per 10% share: a new bundle (not dataclasses.replace, which is
        slow; listed bundles are shared, see :func:`bundles_for`)."""
        return Bundle(self.corp, self.shares, self.percent, self.owner, share_price)


def share_percent(g: Context, corp: str) -> int:
    """The percent of one share: the smallest ordinary certificate (a corporation with only the president's
    certificate has it count as two shares)."""
    unit = g.hooks("share_unit", corp)
    if unit is not None:
        return int(unit)
    unit = g.book.share_units.get(corp)
    if unit is None:
        spec = g.book.corporations[corp]["shares"]
        unit = g.book.share_units[corp] = min(spec[1:]) if len(spec) > 1 else spec[0] // 2
    return unit


def presidents_percent(g: Context, corp: str) -> int:
    return g.state.shares[f"{corp}_0"].percent


def president_shares(g: Context, corp: str) -> int:
    """How many shares the president's certificate is worth (what launching a corporation costs, in shares)."""
    return presidents_percent(g, corp) // share_percent(g, corp)


def shares_of(g: Context, holder: str, corp: str) -> list[str]:
    holdings = g.state.holdings
    if holder not in holdings:
        return []
    held: dict[str, list[str]] = holdings[holder]  # (declared so in the compiled build: engine/*.pxd)
    found = held.get(corp)
    return [] if found is None else found


def percent_of(g: Context, holder: str, corp: str) -> int:
    return _total_percent(g.state.shares, shares_of(g, holder, corp))


def _total_percent(st: dict[str, Share], ids: list[str]) -> int:
    total = 0
    share: Share
    for sid in ids:
        share = st[sid]
        total += share.percent
    return total


def num_shares_of(g: Context, holder: str, corp: str) -> int:
    return percent_of(g, holder, corp) // share_percent(g, corp)


@memo
@cython.locals(g="Context")
@cython.locals(g="Context", by_corp="dict", out="dict")
def player_holders(g: Context, corp: str) -> dict[str, int]:
    """Percent held by each player (holders with none are left out)."""
    out = {}
    shares_ = g.state.shares
    by_corp: dict[str, list[str]]
    for h, by_corp in g.state.holdings.items():
        if kind_of(h) != "P":
            continue
        ids = by_corp.get(corp)
        if ids:
            out[h] = _total_percent(shares_, ids)
    return out


@cython.locals(g="Context")
def president(g: Context, corp: str) -> str | None:
    return g.state.corporations[corp].owner


def price_per_share(g: Context, corp: str) -> int:
    return market.price_at(g, g.state.corporations[corp].price)


def bundle_price(g: Context, b: Bundle) -> int:
    pps = b.share_price if b.share_price is not None else price_per_share(g, b.corp)
    return math.ceil(pps * b.percent / share_percent(g, b.corp))


def num_shares(g: Context, b: Bundle) -> int:
    return math.ceil(b.percent / share_percent(g, b.corp))


def presidents_share(g: Context, b: Bundle) -> str | None:
    for s in b.shares:
        if g.state.shares[s].president:
            return s
    return None


def make_bundle(g: Context, share_ids: list[str], percent: int | None = None) -> Bundle:
    """A bundle from share ids; all must exist, be of one corporation and have one owner."""
    if not share_ids:
        raise illegal("shares.empty", "no shares named")
    table = g.state.shares
    objs: list[Share] = []
    for sid in share_ids:
        s = table.get(str(sid))
        if s is None:
            raise illegal("shares.unknown", f"no share {sid}")
        objs.append(s)
    first: Share = objs[0]
    share: Share
    # (loops, not sets and a generator: a bundle is made for every certificate the purchase search looks at)
    for share in objs:
        if share.corp != first.corp:
            raise illegal("shares.mixed", "shares of several corporations in one action")
    total = 0
    ids = []
    for share in objs:
        if share.owner != first.owner:
            raise illegal("shares.mixed", "shares with several owners in one action")
        total += share.percent
        ids.append(share.id)
    if percent is not None and percent != total and not _partial_ok(g, objs, total, percent):
        raise illegal("shares.percent", f"{percent}% does not fit the certificates named ({total}%)")
    return Bundle(first.corp, ids, percent if percent is not None else total, first.owner)


@cython.locals(g="Context", share="Share")
def _partial_ok(g: Context, objs: list[Share], total: int, percent: int) -> bool:
    """Whether ``percent`` of certificates worth ``total`` is a legal part: part of a president's certificate, in
    whole share units, more than nothing."""
    if not 0 < percent < total:
        return False
    share: Share
    for share in objs:
        if share.president:
            return percent % share_percent(g, share.corp) == 0
    return False


def can_dump(g: Context, b: Bundle, holder: str) -> bool:
    """A bundle holding the president's certificate may go only if another player can take over."""
    if presidents_share(g, b) is None:
        return True
    others = [p for h, p in player_holders(g, b.corp).items() if h != holder]
    return (max(others) if others else 0) >= g.state.shares[presidents_share(g, b)].percent


def fit_in_pool(g: Context, b: Bundle) -> bool:
    return b.percent + percent_of(g, POOL, b.corp) <= g.hooks("pool_limit", b.corp)


def bundles_for(g: Context, holder: str, corp: str) -> list[Bundle]:
    """Every bundle ``holder`` could part with (the 18xx.games enumeration, smallest first).  The bundles are kept
    while the holder's certificates of ``corp`` and the corporation's share size stay as they are: they are shared,
    so treat them as read-only."""
    c: Corporation = g.state.corporations[corp]
    if not c.ipoed:
        return []
    st = g.state.shares
    share: Share
    held = []  # (president, percent, share id), never a short
    for sid in shares_of(g, holder, corp):
        share = st[sid]
        if share.percent > 0:
            held.append((1 if share.president else 0, share.percent, sid))
    normal = share_percent(g, corp)
    kept: dict[tuple[str, str], tuple[int, list[tuple[int, int, str]], list[Bundle]]] = g.table("bundles_for")
    hit = kept.get((holder, corp))
    if hit is not None and hit[0] == normal and hit[1] == held:
        if g.audit:
            fresh = _bundles(corp, holder, sorted(held, key=_RANK), normal)
            _memo.audit(f"bundles of {holder} in {corp}", hit[2], fresh)
        return hit[2]
    out = _bundles(corp, holder, sorted(held, key=_RANK), normal)  # (stable: shares of one rank keep their order)
    kept[(holder, corp)] = (normal, held, out)
    return out


def _bundles(corp: str, holder: str, held: list[tuple[int, int, str]], normal: int) -> list[Bundle]:
    ids = [sid for _, _, sid in held]
    out = []
    pct = 0
    for i, (president, percent, _) in enumerate(held):
        chosen = ids[: i + 1]
        pct += percent
        out.append(Bundle(corp, list(chosen), pct, holder))
        if president:
            diff = percent - normal
            for n in range(1, diff // normal + 1):
                out.append(Bundle(corp, list(chosen), pct - normal * n, holder))
    out.sort(key=_PERCENT)
    return out


_RANK = itemgetter(0, 1)
_PERCENT = attrgetter("percent")


def _cert_count(g: Context, sid: str, weight: float) -> float:
    """A certificate's count toward the limit when each ordinary one counts ``weight`` (a larger one, in
    proportion to its shares, counts at least one)."""
    s = g.state.shares[sid]
    return max(1.0, weight * s.percent / share_percent(g, s.corp)) if s.president else weight


def certs_of(g: Context, player: str, corp: str) -> float:
    """The certificates of ``corp`` that ``player`` holds, as the limit weighs them (exemptions aside)."""
    ids = g.state.holdings.get(player, {}).get(corp) or []
    weight = g.hooks("cert_weight", corp)
    return len(ids) if weight is None else sum([_cert_count(g, sid, weight) for sid in ids])


def bundle_certs(g: Context, b: Bundle) -> float:
    """The certificates of bundle ``b`` as the limit weighs them."""
    weight = g.hooks("cert_weight", b.corp)
    return len(b.shares) if weight is None else sum([_cert_count(g, sid, weight) for sid in b.shares])


def certs_at_most(g: Context, player: str) -> float:
    """A bound :func:`num_certs` never exceeds, found without the market cells and the exemptions it asks about (every
    certificate of a company not closed counts, as weighted): when the bound is under a limit, so is the count."""
    n = _cert_tally(g, player, False)
    if g.audit and n < num_certs(g, player):
        raise _memo.StaleMemo(f"certs_at_most({player!r}) = {n} under num_certs = {num_certs(g, player)}")
    return n


@memo
@cython.locals(g="Context")
def num_certs(g: Context, player: str) -> float:
    return _cert_tally(g, player, True)


def _cert_tally(g: Context, player: str, exemptions: bool) -> float:
    """The certificates ``player`` holds toward the limit, as weighted; with ``exemptions``, those of companies in
    cells free of the limit and those a hook exempts left out (:func:`num_certs`), else counted (the bound)."""
    n = 0
    for corp, ids in g.state.holdings.get(player, {}).items():
        c: Corporation = g.state.corporations[corp]
        if c.closed:
            continue
        if exemptions:
            kinds: list[str] = market.kinds_at(g, c.price)
            if "no_cert_limit" in kinds or "unlimited_holding" in kinds:
                continue
            if g.hooks("cert_exempt", player, corp):
                continue
        weight = g.hooks("cert_weight", corp)
        # (a list, not a generator: no closure made on every call)
        n += len(ids) if weight is None else sum([_cert_count(g, sid, weight) for sid in ids])
    if kind_of(player) == "P" and g.hooks("privates_count_for_cert_limit"):
        n += len(g.player(player).companies)
    return n


def holding_ok(g: Context, holder: str, corp: str, extra: int = 0) -> bool:
    c: Corporation = g.state.corporations[corp]
    kinds: list[str] = market.kinds_at(g, c.price)
    if "unlimited_holding" in kinds or "multiple_buy" in kinds:
        return True
    if not extra and g.hooks("holding_exempt", holder, corp):
        return True
    return percent_of(g, holder, corp) + extra <= g.hooks("holding_limit", corp)


# --------------------------------------------------------------------------------------- transfers


def holdings_changed(g: Context) -> None:
    """Count a change of who holds which certificate.  :func:`move_share` and :func:`new_share` count theirs; code
    that fills holdings itself calls this.  A question about what holders hold together (a share and a short of
    one company) keys on the count."""
    g.cache["holdings_version"] = g.cache.get("holdings_version", 0) + 1


def move_share(g: Context, sid: str, to: str) -> None:
    g.epoch += 1
    holdings_changed(g)
    s: Share = g.state.shares[sid]
    lst = g.state.holdings.get(s.owner, {}).get(s.corp)
    if lst is not None and sid in lst:
        lst.remove(sid)
    g.state.holdings.setdefault(to, {}).setdefault(s.corp, []).append(sid)
    s.owner = to


def _distance(g: Context, a: str | None, b: str) -> int:
    if a is None or kind_of(a) != "P":
        return 0
    live = [pkey(p.id) for p in g.state.players if not p.bankrupt]
    if a not in live or b not in live:
        return 0
    ia, ib = live.index(a), live.index(b)
    return ib - ia if ia < ib else ib - (ia - len(live))


def transfer(
    g: Context,
    b: Bundle,
    to: str,
    *,
    spender: str | None = None,
    receiver: str | None = None,
    price: int | None = None,
    allow_president_change: bool = True,
) -> None:
    """Move a bundle to ``to`` (paying ``price`` from spender to receiver) and settle the presidency."""
    corp = b.corp
    c = g.state.corporations[corp]
    owner = b.owner
    previous = c.owner
    price = bundle_price(g, b) if price is None else price
    if spender and receiver and price > 0:
        g.spend(spender, receiver, price)
    for sid in b.shares:
        move_share(g, sid, to)
    if not allow_president_change:
        return
    holders = player_holders(g, corp)
    if not holders:
        return
    max_pct = max(holders.values())
    majority = [h for h, p in holders.items() if p == max_pct]
    if previous in majority:
        return
    pres_pct = presidents_percent(g, corp)
    candidates = [h for h in majority if percent_of(g, h, corp) >= pres_pct]
    if not candidates:
        return
    new = min(candidates, key=lambda h: 0 if previous == POOL else _distance(g, previous, h))
    c.owner = new
    g.log(f"{g.name(new)} becomes the president of {corp}")
    if owner == ckey(corp) and presidents_share(g, b) is None and previous is None:
        previous = ckey(corp)
    if owner == new or previous is None:
        return
    pres = presidents_share(g, b)
    if pres is None:
        pres = next((s for s in shares_of(g, previous, corp) if g.state.shares[s].president), None)
    if pres is None:
        return
    swap_to = previous if percent_of(g, previous, corp) >= g.state.shares[pres].percent else POOL
    n = g.state.shares[pres].percent // share_percent(g, corp)
    for sid in list(shares_of(g, new, corp))[:n]:
        _shift(g, sid, swap_to)
    _shift(g, pres, new)
    if b.partial(g):
        diff = sum(g.state.shares[s].percent for s in b.shares) - b.percent
        for _ in range(diff // share_percent(g, corp)):
            lst = shares_of(g, POOL, corp)
            if lst:
                move_share(g, lst[0], owner)


def _shift(g: Context, sid: str, to: str) -> None:
    move_share(g, sid, to)


@cython.locals(g="Context", b="Bundle")
def buy(g: Context, buyer: str, b: Bundle, *, price: int | None = None, allow_president_change: bool = True) -> None:
    """Buy a bundle from the treasury, the pool or a player."""
    corp = b.corp
    c = g.state.corporations[corp]
    was_floated = c.floated
    if presidents_share(g, b):
        c.ipoed = True
    price = bundle_price(g, b) if price is None else price
    owner = b.owner
    if owner == ckey(corp):
        receiver = g.hooks("ipo_receiver", corp, bundle_price(g, b) if price is None else price) or ckey(corp)
    elif kind_of(owner) == "P" or kind_of(owner) == "C":
        receiver = owner
    else:
        receiver = BANK
    spender = BANK if buyer == POOL else buyer
    if price > 0 and g.cash(spender) < price and spender != BANK:
        raise illegal("shares.cash", f"{g.name(buyer)} cannot afford {price} for {b.percent}% of {corp}")
    transfer(
        g, b, buyer, spender=spender, receiver=receiver, price=price, allow_president_change=allow_president_change
    )
    check_float(g, corp, was_floated)


def check_float(g: Context, corp: str, was_floated: bool) -> None:
    c = g.state.corporations[corp]
    spec = g.book.corporations[corp]
    if c.floated:
        return
    float_pct = g.hooks("float_percent", corp)
    if float_pct is None:
        float_pct = int(spec.get("float_percent", 60))
    if percent_of(g, ckey(corp), corp) <= 100 - float_pct:
        c.floated = True
        if not was_floated:
            g.hooks("corporation_floated", corp)


@cython.locals(g="Context", b="Bundle")
def sell(g: Context, b: Bundle, *, price: int | None = None, allow_president_change: bool = True) -> int:
    """Sell a bundle to the pool; the bank pays the holder.  Returns the price."""
    price = bundle_price(g, b) if price is None else price
    transfer(g, b, POOL, spender=BANK, receiver=b.owner, price=price, allow_president_change=allow_president_change)
    return price


def value_of_holdings(g: Context, holder: str) -> int:
    total = 0
    for corp, ids in g.state.holdings.get(holder, {}).items():
        c = g.state.corporations[corp]
        if not c.ipoed or c.closed:
            continue
        pps = price_per_share(g, corp)
        sp = share_percent(g, corp)
        for sid in ids:
            total += pps * g.state.shares[sid].percent // sp
    return total


def corp_of_share(sid: str) -> str:
    return sid.rsplit("_", 1)[0]


__all__ = ["Bundle", "sym_of"]


def sale_moves(g: Context) -> dict[str, Any]:
    rule = (g.book.market.get("movement") or {}).get("sale") or {"who": "anyone", "move": -1, "per": "share"}
    if rule == "none":  # sales never move the price
        return {"who": "anyone", "move": 0, "per": "share"}
    return rule  # type: ignore[no-any-return]


def sell_and_move(g: Context, b: Bundle) -> int:
    """Sell to the pool and move the price as the title's sale rule says."""
    corp = b.corp
    president = g.state.corporations[corp].owner
    was_president = president == b.owner
    price = sell(g, b)
    if g.hooks("defer_sale_move", corp, list(b.shares), b.percent, b.owner, president):
        return price
    rule = sale_moves(g)
    move = int(rule.get("move", -1))
    if not move:
        return price
    who = rule.get("who", "anyone")
    if who == "president" and not was_president:
        return price
    per = rule.get("per", "share")
    if per == "full_10_percent":
        times = abs(move) * (b.percent // 10)
    else:
        times = abs(move) if per != "share" else abs(move) * num_shares(g, b)
    direction = "left" if move < 0 else "right"
    if g.book.market_1d is False and rule.get("direction"):
        direction = rule["direction"]
    elif not g.book.market_1d:
        direction = "down" if move < 0 else "up"
    if direction == "down":
        market.drop(g, corp, times)
        return price
    market.move(g, corp, direction, times)
    return price


def shorts(g: Context) -> list[str]:
    """Every short certificate (negative percent), in no particular order.

    Kept in ``g.cache`` rather than found by scanning every share after every action: a short only comes into being
    through :func:`new_share` (which records it), and the ids recorded are checked against the shares on each
    read, so a short removed or turned into an ordinary share drops out.  ``RAILBOOK_MEMO_AUDIT=1`` compares the
    answer with a scan."""
    st = g.state.shares
    known: dict[str, None] | None = g.cache.get("shorts")
    if known is None:
        known = g.cache["shorts"] = dict.fromkeys(_scanned_shorts(st))
    found = []
    share: Share | None
    for sid in known:
        share = st.get(sid)
        if share is not None and share.percent < 0:
            found.append(sid)
    if len(found) != len(known):
        g.cache["shorts"] = dict.fromkeys(found)
    if g.audit:
        _memo.audit("shares.shorts", sorted(found), sorted(_scanned_shorts(st)))
    return found


def _scanned_shorts(st: dict[str, Share]) -> list[str]:
    return [s.id for s in st.values() if s.percent < 0]


def new_share(g: Context, corp: str, holder: str, percent: int) -> str:
    """A new certificate of ``corp`` for ``holder`` (negative percent: a short), numbered after every existing one
    (never below the ten printed ones, as 18xx.games numbers them)."""
    st = g.state
    top = 9
    s: Share
    for s in st.shares.values():
        if s.corp == corp and s.index > top:
            top = s.index
    sid = f"{corp}_{top + 1}"
    st.shares[sid] = Share(sid, corp, top + 1, percent, False, holder, buyable=percent > 0)
    st.holdings.setdefault(holder, {}).setdefault(corp, []).append(sid)
    holdings_changed(g)
    known = g.cache.get("shorts")
    if percent < 0 and known is not None:
        known[sid] = None
    g.epoch += 1
    return sid


def remove_share(g: Context, sid: str) -> None:
    """A certificate leaves the game (a returned short pair, a cancelled share)."""
    st = g.state
    s = st.shares.pop(sid)
    ids = st.holdings.get(s.owner, {}).get(s.corp)
    if ids is not None and sid in ids:
        ids.remove(sid)
    g.epoch += 1


@cython.locals(g="Context")
def close_short_pairs(g: Context, holder: str, corp: str) -> int:
    """Return each (ordinary share, short) pair ``holder`` has of ``corp``; how many were returned."""
    st = g.state.shares
    unit = share_percent(g, corp)
    n = 0
    while True:
        ids = shares_of(g, holder, corp)
        short = next((s for s in ids if st[s].percent < 0), None)
        plain = next((s for s in ids if st[s].percent == unit and not st[s].president), None)
        if short is None or plain is None:
            return n
        remove_share(g, plain)
        remove_share(g, short)
        n += 1
