"""``national_railway``: a government railway formed from the companies that cannot repay their loans.

Formation is the phase event ``national_railway_formation``: every company with loans repays what its
treasury can in whole loans; then, from the president of the company that triggered it clockwise, the
president of each company still in debt either pays the rest from his cash (a ``pass``) or lets the company be
absorbed (a ``merge``).  When no company is absorbed the national railway never forms.

An absorbed company's trains, cash and bonus rights pass to the national, its loans are settled
(``absorbed_loans``).  Once every president has chosen, the national forms: its start price from the absorbed
prices, the share exchange (from the trigger's president clockwise; a second issue when the first is too small;
a one-share president holds a president's certificate of one share), the marker exchange (homes first, one
marker per city, none on a home's tile; the president removes duplicates on a tile and markers above its count
with ``remove_token``), the absorbed companies close, and it operates at once when none of them has operated in
this round.  With ``trains.choose_kept`` its president then chooses the absorbed trains it keeps (it may discard
any train not of a ``keep`` type and must discard down to its limit); else it discards down to its limit with the
ordinary ``discard_train`` step.  Until it owns
a permanent train (one that never rusts) it withholds and its price does not move at all (hooks
``must_withhold``, ``price_fixed``).  Its own rules: it buys only ``trains.buys_only`` types, trades trains at
face value, keeps ``trains.keep`` types when it discards, may borrow a train on sale while trainless (step
``borrow_train``), never closes, counts its second-issue certificates as ``certificate_weight`` each (with an
allowance above the limit), and a one-share president must buy a second share first in the next stock round.
Fields marked "(not yet played by the engine)" are not honoured yet.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from railbook.params.national_railway import BORROW_TRAIN_STEP, DECLARATION, NATIONAL_FORMATION_STEP, Params

from .. import board, depot, market, rounds, shares, stations
from ..access import params_of, state_of
from ..closing import close_operator
from ..contract import First, Mechanic, NoParams
from ..errors import illegal
from ..interfaces import BONUS_RIGHTS, LOANS, NATIONAL_RAILWAY
from ..state import BANK, DEPOT, POOL, Share, Token, ckey, kind_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


@dataclass(slots=True)
class State:
    """Formation: the companies whose presidents must still choose (pay or be absorbed), those absorbed, and
    whether the formation has been settled; what the absorbed companies brought (player and market shares,
    prices); the national's markers still to remove (duplicates on a tile, above its count)."""

    pending: list[str] = field(default_factory=list)
    absorbed: list[str] = field(default_factory=list)
    settled: bool = False
    formed: bool = False
    trigger_president: str = ""
    player_shares: dict[str, int] = field(default_factory=dict)
    market_shares: int = 0
    prices: list[int] = field(default_factory=list)
    homes: list[list[Any]] = field(default_factory=list)  # [hex, city] of absorbed home markers
    others: list[list[Any]] = field(default_factory=list)  # [hex, city] of their other markers
    duplicate_hexes: list[str] = field(default_factory=list)  # tiles where it has more than one marker
    removals: int = 0  # markers still to remove above its count
    temporary_president: str = ""
    owed_percent: int = 0  # the part of the president's certificate its holder has still to buy up
    choosing_trains: bool = False  # its president is choosing the absorbed trains it keeps (``trains.choose_kept``)
    permanent: bool = False
    second_issued: bool = False
    obligation_turn: bool = False  # the one-share president's first stock turn has begun
    borrowed: list[Any] = field(default_factory=list)  # [train id, its place among the trains on sale]


PARAMS = params_of(DECLARATION, Params)
STATE = state_of(DECLARATION, State)


def _debts(g: Context) -> dict[str, int]:
    """Loans per corporation (asked of the loans mechanic)."""
    loans = LOANS.of(g)
    return {c: n for c in g.state.corp_order if (n := loans.outstanding(g, c)) > 0}


def formation(g: Context, params: NoParams) -> None:
    """The phase event: treasuries repay what they can; the rest wait for their presidents' choice."""
    st = STATE.of(g)
    if st.settled:
        return
    price = LOANS.of(g).repay_price(g)
    trigger = g.current_operator()
    players = g.player_keys()
    start = players.index(g.controller(trigger)) if trigger and g.controller(trigger) in players else 0
    seat = {p: (i - start) % len(players) for i, p in enumerate(players)}
    st.trigger_president = players[start] if players else ""
    debtors = []
    for corp, n in _debts(g).items():
        c = g.state.corporations[corp]
        if c.closed or corp == PARAMS.of(g).national:
            continue
        paid = min(n, g.cash(ckey(corp)) // price) if price else 0
        if paid:
            g.spend(ckey(corp), BANK, paid * price)
            LOANS.of(g).repaid(g, corp, paid)
            g.log(f"{corp} repays {paid} loans")
        if paid < n:
            debtors.append(corp)
    order = g.state.round.entities if g.state.round is not None else []
    debtors.sort(
        key=lambda c: (seat.get(g.controller(ckey(c)) or "", 99), order.index(ckey(c)) if ckey(c) in order else 99)
    )
    st.pending = debtors
    if not debtors:
        _settle(g)


def _settle(g: Context) -> None:
    st = STATE.of(g)
    st.settled = True
    if not st.absorbed:
        g.log(f"{PARAMS.of(g).national} does not form")
        close_operator(g, ckey(PARAMS.of(g).national))
    else:
        _form(g)
    g.hooks("update_cert_limit")


# ------------------------------------------------------------------------------------------- absorption


def _permanent(g: Context, tid: str) -> bool:
    spec = g.book.trains[g.state.trains[tid].sym]
    return not spec.get("rusts_on") and not spec.get("obsolete_on")


@cython.locals(g="Context")
def absorb(g: Context, corp: str) -> None:
    """``corp`` is absorbed: its trains, cash and bonus rights pass to the national, its loans are settled, its
    shares and markers are noted for the exchange at the formation."""
    p, st = PARAMS.of(g), STATE.of(g)
    nat, key, nkey = p.national, ckey(corp), ckey(p.national)
    g.log(f"-- {corp} merges into {nat} --")
    st.absorbed.append(corp)
    for tid in list(g.state.corporations[corp].trains):
        depot.give_train(g, nkey, tid, None, free=True)
        if _permanent(g, tid):
            st.permanent = True
    if g.cash(key) > 0:
        g.spend(key, nkey, g.cash(key))
    LOANS.of(g).transfer(g, corp, None if p.absorbed_loans == "cancelled" else nat)
    if p.inherits_bonus_rights:
        rights = BONUS_RIGHTS.get(g)
        if rights is not None:
            rights.transfer(g, corp, nat)
    unit = shares.share_percent(g, corp)
    for holder, pct in shares.player_holders(g, corp).items():
        st.player_shares[holder] = st.player_shares.get(holder, 0) + pct // unit
    st.market_shares += shares.percent_of(g, POOL, corp) // unit
    st.prices.append(market.price_at(g, g.state.corporations[corp].price))
    c = g.state.corporations[corp]
    placed = [tok for tok in c.tokens if tok.used and tok.hex is not None]
    if placed:
        st.homes.append([placed[0].hex, placed[0].city])
        st.others.extend([tok.hex, tok.city] for tok in placed[1:])


@cython.locals(g="Context")
def start_cell(g: Context) -> list[int]:
    """The national's start cell: the average of the absorbed prices (the lowest left out from enough
    companies), rounded down, at least the minimum, on the start row's nearest cell."""
    sp = STATE.of(g).prices
    rule = PARAMS.of(g).start_price
    prices = sorted(sp)
    if len(prices) >= rule.drop_lowest_when_at_least:
        prices = prices[1:]
    avg = sum(prices) // len(prices) if prices else 0
    avg = max(rule.minimum, avg // rule.round_down_to * rule.round_down_to)
    row = g.book.market_grid[rule.row]
    cells = [(i, c["price"]) for i, c in enumerate(row) if c and c.get("price", 0) >= rule.minimum]
    if not cells:
        raise illegal("national.price", f"no market cell of at least {rule.minimum} on row {rule.row}")

    def distance(cell: tuple[int, int]) -> tuple[int, int]:
        d = abs(cell[1] - avg)
        return d, -cell[1] if rule.ties == "higher" else cell[1]

    return [rule.row, min(cells, key=distance)[0]]


def _order_from_trigger(g: Context) -> list[str]:
    players = g.player_keys()
    st = STATE.of(g)
    start = players.index(st.trigger_president) if st.trigger_president in players else 0
    return players[start:] + players[:start]


def _second_issue(g: Context) -> None:
    """The national's certificates become the second issue (all still in its initial offering): the existing
    ones take the issue's first percentages, the new ones are numbered on from the issue's share count."""
    p = PARAMS.of(g)
    nat, nkey = p.national, ckey(p.national)
    issue = p.second_issue
    assert issue is not None
    old = sorted((sh for sh in g.state.shares.values() if sh.corp == nat), key=lambda sh: sh.index)
    for sh, pct in zip(old, issue.certificates, strict=False):
        sh.percent = int(pct)
    first_new = 100 // min(issue.certificates[1:])
    ids = g.state.holdings.setdefault(nkey, {}).setdefault(nat, [])
    for i, pct in enumerate(issue.certificates[len(old) :]):
        sid = f"{nat}_{first_new + i}"
        g.state.shares[sid] = Share(sid, nat, first_new + i, int(pct), False, nkey)
        ids.append(sid)
    shares.holdings_changed(g)
    STATE.of(g).second_issued = True
    g.epoch += 1
    g.log(f"{nat} issues its second set of shares")


def _share_exchange(g: Context) -> None:
    p, st = PARAMS.of(g), STATE.of(g)
    ex = p.share_exchange
    nat, nkey = p.national, ckey(p.national)
    order = [pl for pl in _order_from_trigger(g) if st.player_shares.get(pl)]
    first_total = sum(sh.percent for sh in g.state.shares.values() if sh.corp == nat) // shares.share_percent(g, nat)
    limit = first_total
    if p.second_issue is not None:
        limit = 100 // min(p.second_issue.certificates[1:])
    left = limit
    awarded: dict[str, int] = {}
    market_old = st.market_shares
    president, top = "", 0
    for pl in order:
        n = min(st.player_shares[pl] // ex.old_per_new, left)
        odd = st.player_shares[pl] % ex.old_per_new
        if odd and ex.player_odd_share == "to_market_unpaid":
            market_old += odd
        left -= n
        awarded[pl] = n
        if n > top:
            president, top = pl, n
        g.log(f"{g.name(pl)} gets {n} shares of {nat}")
    market_new = min(market_old // ex.market_old_per_new, left)
    left -= market_new
    needed = limit - left
    if p.second_issue is not None and needed > p.second_issue.when_more_than:
        _second_issue(g)
    ipo = shares.shares_of(g, nkey, nat)
    pres_sid = f"{nat}_0"
    pres_shares = shares.president_shares(g, nat)
    ordinary = [s for s in ipo if s != pres_sid]
    if president:
        pres = g.state.shares[pres_sid]
        if top < pres_shares:
            # the temporary president holds the president's certificate for the shares he received; the rest of it
            # is bought up by the next purchase of a national share (``stock_purchase``), the share asked for
            # staying where it is ("The player receives nothing in return as the player already has the
            # president's certificate")
            st.owed_percent = pres.percent - top * shares.share_percent(g, nat)
            pres.percent -= st.owed_percent
            st.temporary_president = president
            shares.holdings_changed(g)
            g.log(f"{g.name(president)} presides {nat} with {top} share and must buy a second one")
        shares.move_share(g, pres_sid, president)
        g.state.corporations[nat].owner = president
        awarded[president] -= min(top, pres_shares)
    for pl in order:
        for _ in range(awarded[pl]):
            if not ordinary:
                break
            shares.move_share(g, ordinary.pop(), pl)
    for _ in range(market_new):
        if ordinary:
            shares.move_share(g, ordinary.pop(), POOL)


def _place(g: Context, hex_id: str, ci: int, old: str | None) -> None:
    """A national marker, free, replaces ``old``'s in a city."""
    nkey = ckey(PARAMS.of(g).national)
    nat = g.state.corporations[PARAMS.of(g).national]
    slots = g.state.hexes[hex_id].tokens[ci]
    i = slots.index(old) if old in slots else slots.index(None)
    slots[i] = nkey
    nat.tokens.append(Token(price=0, used=True, hex=hex_id, city=ci))


@cython.locals(g="Context")
def _token_swap(g: Context) -> None:
    """Homes first, then the other markers; never two on one city, none on a home's tile; duplicates on a tile
    and markers above the count are removed by the president (``remove_token``)."""
    p, st = PARAMS.of(g), STATE.of(g)
    nat = g.state.corporations[p.national]
    nat.tokens = []
    owners: dict[tuple[str, int], str] = {}
    for corp in st.absorbed:
        for tok in g.state.corporations[corp].tokens:
            if tok.used and tok.hex is not None:
                owners.setdefault((tok.hex, int(tok.city or 0)), ckey(corp))
    done: set[tuple[str, int]] = set()
    home_hexes = {h for h, _ in st.homes}
    for h, ci in st.homes:
        if (h, ci) not in done:
            _place(g, h, int(ci), owners.get((h, int(ci))))
            done.add((h, int(ci)))
    for h, ci in st.others:
        if h in home_hexes or (h, int(ci)) in done:
            continue
        _place(g, h, int(ci), owners.get((h, int(ci))))
        done.add((h, int(ci)))
    # the absorbed companies' remaining markers leave the map
    gone = {ckey(c) for c in st.absorbed}
    for hs in g.state.hexes.values():
        for slots in hs.tokens:
            for i, occ in enumerate(slots):
                if occ in gone:
                    slots[i] = None
    for c in st.absorbed:
        g.state.corporations[c].tokens = []
    by_hex: dict[str, int] = {}
    for tok in nat.tokens:
        by_hex[str(tok.hex)] = by_hex.get(str(tok.hex), 0) + 1
    st.duplicate_hexes = [h for h, n in by_hex.items() if n > 1] if p.tokens.one_per_tile else []
    keep = max(len(home_hexes), p.tokens.count)
    st.removals = max(0, len(nat.tokens) - sum(by_hex[h] - 1 for h in st.duplicate_hexes) - keep)
    board.invalidate(g)
    _pad_tokens(g)


def _pad_tokens(g: Context) -> None:
    p, st = PARAMS.of(g), STATE.of(g)
    if st.duplicate_hexes or st.removals:
        return
    nat = g.state.corporations[p.national]
    for _ in range(max(0, p.tokens.count - len(nat.tokens))):
        nat.tokens.append(Token(price=p.tokens.new_marker_price))


@cython.locals(g="Context")
def _form(g: Context) -> None:
    p, st = PARAMS.of(g), STATE.of(g)
    nat, nkey = p.national, ckey(p.national)
    c = g.state.corporations[nat]
    cell = start_cell(g)
    c.par = list(cell)
    market.place(g, nat, cell)
    c.ipoed = True
    c.floated = True
    st.formed = True
    g.log(f"{nat} forms at {market.price_at(g, cell)}")
    _share_exchange(g)
    _token_swap(g)
    st.choosing_trains = p.trains.choose_kept and bool(_discardable(g))
    r = g.state.round
    first = None
    if r is not None and r.kind == "operating":
        idx = [r.entities.index(ckey(a)) for a in st.absorbed if ckey(a) in r.entities]
        if (
            p.first_operation == "at_once_unless_absorbed_operated"
            and nkey not in r.entities
            and all(i > r.entity_index for i in idx)
        ):
            first = r.entity_index + 1
    for corp in st.absorbed:
        close_operator(g, ckey(corp))
    if first is not None and r is not None:
        r.entities.insert(first, nkey)
    g.epoch += 1


def float_percent(g: Context, corp: str) -> int | None:
    """The national is not started by selling shares (it forms at its start cell, floated): none need be sold for
    it to operate; it "follows its normal turn order" after its first operating round."""
    return 0 if corp == PARAMS.of(g).national else None


def share_unit(g: Context, corp: str) -> int | None:
    """After the second issue a national share is the issue's ordinary certificate."""
    p = PARAMS.of(g)
    if corp == p.national and p.second_issue is not None and STATE.of(g).second_issued:
        return min(p.second_issue.certificates[1:])
    return None


def _liquidity(g: Context, player: str, national: str) -> int:
    """Cash plus the best bundle of each other corporation the player may sell."""
    total = g.cash(player)
    for corp in g.state.corp_order:
        if corp == national or g.state.corporations[corp].closed:
            continue
        bundles = [b for b in shares.bundles_for(g, player, corp) if shares.can_dump(g, b, player)]
        total += max((shares.bundle_price(g, b) for b in bundles if shares.fit_in_pool(g, b)), default=0)
    return total


def _unproven(g: Context) -> bool:
    """The national has formed and never owned a permanent train."""
    st = STATE.of(g)
    return st.formed and not st.permanent


def must_withhold(g: Context, entity: str) -> bool:
    return (
        entity == ckey(PARAMS.of(g).national) and PARAMS.of(g).pays_dividends_only_with_permanent_train and _unproven(g)
    )


def price_fixed(g: Context, corp: str) -> bool:
    return corp == PARAMS.of(g).national and PARAMS.of(g).price_moves_only_with_permanent_train and _unproven(g)


def after_action(g: Context, action: dict[str, Any], entity: str) -> None:
    st = STATE.of(g)
    if st.formed and not st.permanent:
        if any(_permanent(g, t) for t in _own_trains(g, ckey(PARAMS.of(g).national))):
            st.permanent = True
            g.log(f"{PARAMS.of(g).national} owns a permanent train")
    temporary_president_check(g, action, entity)


def stock_purchase(g: Context, player: str, corp: str, bought: list[str], price: int) -> bool:
    """A president's certificate held in part (a one-share president): a purchase of a national share by him, or
    by another holder of national shares, pays the bank for the rest of the certificate instead, the share asked
    for staying where it is; the other holder takes the presidency, handing the old president as many of his
    shares as the part held (as 18xx.games; the rulebook's "relieved of this burden if another player acquires
    two shares" says no more).  True when the purchase itself is then void."""
    st = STATE.of(g)
    nat = PARAMS.of(g).national
    if corp != nat or not st.owed_percent:
        return False
    pres_sid = f"{nat}_0"
    pres = g.state.shares[pres_sid]
    holder = pres.owner
    if player != holder:
        own = [s for s in shares.shares_of(g, player, nat) if s != pres_sid]
        if not own:
            return False
        handed = 0
        for sid in own:
            if handed >= pres.percent:
                break
            handed += g.state.shares[sid].percent
            shares.move_share(g, sid, holder)
        shares.move_share(g, pres_sid, player)
        g.state.corporations[nat].owner = player
        g.log(f"{g.name(player)} takes the presidency of {nat} from {g.name(holder)}")
    if price > 0:
        g.spend(player, BANK, price)
    pres.percent += st.owed_percent
    st.owed_percent = 0
    shares.holdings_changed(g)
    st.temporary_president = ""
    st.obligation_turn = False
    g.epoch += 1
    g.log(f"{g.name(player)} pays {price} for the rest of the {nat} president's certificate")
    return True


def _relieved(g: Context, player: str) -> bool:
    """The one-share president's duty is over: he or another player holds two national shares."""
    nat = PARAMS.of(g).national
    two = 2 * shares.share_percent(g, nat)
    return any(pct >= two for pct in shares.player_holders(g, nat).values())


def stock_obligation(g: Context, player: str) -> str | None:
    """The one-share president must buy a second national share in his first turn of the next stock round."""
    p, st = PARAMS.of(g), STATE.of(g)
    r = g.state.round
    if st.temporary_president != player or not p.president.single_share_president_must_buy:
        return None
    if r is None or r.kind != "stock" or g.player(player).bankrupt:
        return None
    return p.national


def temporary_president_check(g: Context, action: dict[str, Any], entity: str) -> None:
    """In his stock turn, a one-share president who cannot raise the price of a second share goes bankrupt."""
    p, st = PARAMS.of(g), STATE.of(g)
    player = st.temporary_president
    r = g.state.round
    if not player or not p.president.single_share_president_must_buy or r is None or r.kind != "stock":
        return
    if _relieved(g, player) or (st.obligation_turn and action.get("type") == "pass" and entity == player):
        st.temporary_president = ""  # he bought it, another player has two, or his first turn is over
        st.obligation_turn = False
        g.epoch += 1
        return
    if (player not in rounds.active_entities(g) and entity != player) or g.player(player).bankrupt:
        return
    st.obligation_turn = True
    g.epoch += 1
    c = g.state.corporations[p.national]
    price = market.price_at(g, c.price)
    if c.par is not None and shares.shares_of(g, ckey(p.national), p.national):
        price = min(price, market.price_at(g, c.par))
    if _liquidity(g, player, p.national) >= price:
        return
    g.log(f"-- {g.name(player)} cannot raise the money for a second {p.national} share and is bankrupt --")
    g.player(player).bankrupt = True
    g.epoch += 1


# ------------------------------------------------------------------------------------------- its own rules


def never_closes(g: Context, corp: str) -> bool:
    return corp == PARAMS.of(g).national and not PARAMS.of(g).can_close


def may_buy_train(g: Context, corp: str, tid: str) -> bool:
    """``trains.buys_only``: the national buys only the listed train types."""
    only = PARAMS.of(g).trains.buys_only
    return not (only and corp == ckey(PARAMS.of(g).national) and g.state.trains[tid].sym not in only)


def face_price_trade(g: Context, buyer: str, seller: str) -> bool:
    """``trains.face_price_only``: a train the national buys from or sells to a company goes at its face value."""
    nkey = ckey(PARAMS.of(g).national)
    return PARAMS.of(g).trains.face_price_only and nkey in (buyer, seller)


def _discardable(g: Context) -> list[str]:
    """``trains.choose_kept``: the trains the national may discard at its formation: those not of a ``keep`` type,
    and kept ones too while it holds more of them than its limit."""
    p = PARAMS.of(g)
    nkey = ckey(p.national)
    own = g.entity_trains(nkey)
    kept = [t for t in own if g.state.trains[t].sym in p.trains.keep]
    others = [t for t in own if t not in kept]
    return others + (kept if len(kept) > depot.train_limit(g, nkey) else [])


def may_discard_train(g: Context, corp: str, tid: str) -> bool:
    """``trains.keep``: the national discards a train of a kept type only when it owns nothing else."""
    keep = PARAMS.of(g).trains.keep
    if not keep or corp != ckey(PARAMS.of(g).national) or g.state.trains[tid].sym not in keep:
        return True
    return all(g.state.trains[t].sym in keep for t in g.entity_trains(corp))


def forced_train_purchase(g: Context, corp: str) -> bool | None:
    """With ``trains.borrow`` a trainless national that never owned a permanent train is not forced to buy with
    its president's money: it must buy (at its first chance) once its treasury covers a train it may buy."""
    p = PARAMS.of(g)
    if corp != ckey(p.national) or p.trains.borrow is None or not _unproven(g) or _own_trains(g, corp):
        return None
    prices = [depot.face_price(g, g.state.trains[t]) for t in depot.depot_trains(g) if may_buy_train(g, corp, t)]
    return bool(prices) and g.cash(corp) >= min(prices)


def cert_weight(g: Context, corp: str) -> float | None:
    """After the second issue each national certificate counts ``certificate_weight`` per ordinary share."""
    p = PARAMS.of(g)
    if corp != p.national or p.second_issue is None or not STATE.of(g).second_issued:
        return None
    return p.second_issue.certificate_weight


def holding_limit(g: Context, corp: str) -> int | None:
    """After the second issue a player may hold ``player_max_shares`` national certificates."""
    p = PARAMS.of(g)
    if corp != p.national or p.second_issue is None or not STATE.of(g).second_issued:
        return None
    return p.second_issue.player_max_shares * min(p.second_issue.certificates[1:])


def cert_allowance(g: Context, player: str) -> float:
    """``limit_allowance``: a holder of second-issue national certificates may be that much above the limit."""
    p = PARAMS.of(g)
    if p.second_issue is None or not STATE.of(g).second_issued or not shares.shares_of(g, player, p.national):
        return 0
    return p.second_issue.limit_allowance


def _borrowable(g: Context) -> list[str]:
    """Trains on sale the national may borrow now (the first of each borrowable type)."""
    p, st = PARAMS.of(g), STATE.of(g)
    nkey = ckey(p.national)
    b = p.trains.borrow
    if b is None or st.borrowed or g.current_operator() != nkey or g.entity_trains(nkey):
        return []
    if b.until_permanent_train and st.permanent:
        return []
    out: dict[str, str] = {}
    for tid in depot.depot_trains(g):
        sym = g.state.trains[tid].sym
        if sym in b.trains and tid in g.state.depot:
            out.setdefault(sym, tid)
    return list(out.values())


def return_borrowed(g: Context) -> None:
    """The borrowed train goes back to its place among the trains on sale."""
    st = STATE.of(g)
    if not st.borrowed:
        return
    tid, index = str(st.borrowed[0]), int(st.borrowed[1])
    t = g.state.trains[tid]
    held = g.entity_trains(ckey(PARAMS.of(g).national))
    if tid in held:
        held.remove(tid)
    t.owner, t.operated = DEPOT, False
    g.state.depot.insert(min(index, len(g.state.depot)), tid)
    st.borrowed = []
    g.cache.pop("depot_trains", None)
    g.epoch += 1
    g.log(f"{PARAMS.of(g).national} returns the borrowed {t.name} train")


def _own_trains(g: Context, key: str) -> list[str]:
    """The national's trains, the borrowed one left out."""
    st = STATE.of(g)
    return [t for t in g.entity_trains(key) if not st.borrowed or t != st.borrowed[0]]


class BorrowTrain(Step):
    """A trainless national that never owned a permanent train runs a train still on sale (``trains.borrow``):
    the train stays the bank's (no phase change, others may buy it) and goes back when the national's turn ends."""

    name = BORROW_TRAIN_STEP
    description = "Borrow a train"

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        if entity != self.current_entity() or not _borrowable(self.g):
            return []
        return ["borrow_train", "pass"]

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        if not self.actions(entity):
            return []
        return [{"type": "borrow_train", "choices": [{"train": t} for t in _borrowable(self.g)]}, {"type": "pass"}]

    @cython.locals(self="StepBase")
    def process_borrow_train(self, action: dict[str, Any], entity: str) -> None:
        g, st = self.g, STATE.of(self.g)
        tid = str(action.get("train"))
        if tid not in _borrowable(g):
            raise illegal("national.borrow", f"{PARAMS.of(g).national} cannot borrow train {tid} now")
        st.borrowed = [tid, g.state.depot.index(tid)]
        g.state.depot.remove(tid)
        t = g.state.trains[tid]
        t.owner = entity
        g.entity_trains(entity).append(tid)
        g.cache.pop("depot_trains", None)
        g.log(f"{PARAMS.of(g).national} borrows a {t.name} train")
        self.pass_()


def operator_started(g: Context, operator: str) -> None:
    if operator != ckey(PARAMS.of(g).national):
        return_borrowed(g)


def round_finished(g: Context, kind: str) -> None:
    return_borrowed(g)


class NationalFormation(Step):
    """Presidents of companies still in debt at the formation pay the rest (``pass``) or let them be absorbed
    (``merge``); then the national's president removes its duplicate markers (``remove_token``)."""

    name = NATIONAL_FORMATION_STEP
    description = "National railway formation: repay loans or merge"

    @cython.locals(self="StepBase")
    def skip(self) -> None:
        """Stays live: the formation may start at any purchase."""

    @cython.locals(self="StepBase")
    def active(self) -> bool:
        st = STATE.of(self.g)
        # (as StepBase.active once nothing is pending; asked by the round machinery at every turn of its loops)
        return bool(st.pending or st.duplicate_hexes or st.removals or st.choosing_trains) or not self.st.passed

    @cython.locals(self="StepBase")
    def _choosing(self) -> bool:
        """The president chooses the trains to keep, once the markers are settled."""
        st = STATE.of(self.g)
        return st.choosing_trains and not (st.pending or st.duplicate_hexes or st.removals)

    @cython.locals(self="StepBase")
    def _over_limit(self) -> bool:
        nkey = ckey(PARAMS.of(self.g).national)
        return len(self.g.entity_trains(nkey)) > depot.train_limit(self.g, nkey)

    @cython.locals(self="StepBase")
    def _removing(self) -> bool:
        st = STATE.of(self.g)
        return bool(st.duplicate_hexes or st.removals)

    @cython.locals(self="StepBase")
    def blocks(self) -> bool:
        st = STATE.of(self.g)  # (pending, or removing: one read of the state, asked at every turn of the round's loops)
        return bool(st.pending or st.duplicate_hexes or st.removals or st.choosing_trains)

    @cython.locals(self="StepBase")
    def active_entities(self) -> list[str]:
        pending = STATE.of(self.g).pending
        if pending:
            return [ckey(pending[0])]
        return [ckey(PARAMS.of(self.g).national)] if self._removing() or self._choosing() else []

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        if STATE.of(self.g).pending:
            return ["merge", "pass"]
        if entity != ckey(PARAMS.of(self.g).national):
            return []
        if self._removing():
            return ["remove_token"]
        if self._choosing():
            return ["discard_train"] if self._over_limit() else ["discard_train", "pass"]
        return []

    @cython.locals(self="StepBase")
    def owed(self, corp: str) -> int:
        g = self.g
        loans = LOANS.of(g)
        return loans.outstanding(g, corp) * loans.repay_price(g)

    @cython.locals(self="StepBase")
    def _removable(self) -> list[tuple[str, int, int]]:
        g, st = self.g, STATE.of(self.g)
        nat = g.state.corporations[PARAMS.of(g).national]
        homes = {h for h, _ in st.homes}
        out = []
        for tok in nat.tokens:
            if not tok.used or tok.hex is None:
                continue
            if (st.duplicate_hexes and tok.hex in st.duplicate_hexes) or (
                not st.duplicate_hexes and st.removals and tok.hex not in homes
            ):
                slot = g.state.hexes[tok.hex].tokens[int(tok.city or 0)].index(ckey(nat.sym))
                out.append((tok.hex, int(tok.city or 0), slot))
        return out

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        g = self.g
        pending = STATE.of(g).pending
        if not pending:
            acts = self.actions(entity)
            if "discard_train" in acts:
                out = [{"type": "discard_train", "choices": [{"train": t} for t in _discardable(g)]}]
                return out + ([{"type": "pass"}] if "pass" in acts else [])
            if not acts:
                return []
            choices = [{"city": stations.city_id(g, h, ci), "slot": slot} for h, ci, slot in self._removable()]
            return [{"type": "remove_token", "choices": choices}]
        if entity != ckey(pending[0]):
            return []
        corp = pending[0]
        out: list[dict[str, Any]] = [{"type": "merge", "corporation": corp}]
        president = g.owner(ckey(corp))
        if president and g.cash(president) + g.cash(ckey(corp)) >= self.owed(corp):
            out.append({"type": "pass"})
        return out

    def process_remove_token(self, action: dict[str, Any], entity: str) -> None:
        g, st = self.g, STATE.of(self.g)
        hex_id, ci = stations.parse_city(g, action.get("city"))
        if not any(h == hex_id and c == ci for h, c, _ in self._removable()):
            raise illegal("national.remove_token", f"{PARAMS.of(g).national} may not remove its marker in {hex_id} now")
        nkey = ckey(PARAMS.of(g).national)
        nat = g.state.corporations[PARAMS.of(g).national]
        slots = g.state.hexes[hex_id].tokens[ci]
        slots[slots.index(nkey)] = None
        nat.tokens = [t for t in nat.tokens if not (t.used and t.hex == hex_id and t.city == ci)]
        if hex_id in st.duplicate_hexes:
            if sum(1 for t in nat.tokens if t.used and t.hex == hex_id) <= 1:
                st.duplicate_hexes.remove(hex_id)
        else:
            st.removals -= 1
        board.invalidate(g)
        g.epoch += 1
        g.log(f"{nat.sym} removes its marker in {hex_id}")
        _pad_tokens(g)

    def process_discard_train(self, action: dict[str, Any], entity: str) -> None:
        """The president discards an absorbed train the national does not keep (to the open market)."""
        g, st = self.g, STATE.of(self.g)
        tid = str(action.get("train"))
        if "discard_train" not in self.actions(entity) or tid not in _discardable(g):
            raise illegal("national.discard", f"{PARAMS.of(g).national} may not discard train {tid!r} now")
        depot.discard_to_depot(g, tid)
        g.log(f"{PARAMS.of(g).national} discards {tid}")
        if not _discardable(g):
            st.choosing_trains = False
        g.epoch += 1

    @cython.locals(self="StepBase")
    def process_pass(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        st = STATE.of(g)
        if not st.pending and self._choosing():
            if self._over_limit():
                raise illegal("national.discard", f"{PARAMS.of(g).national} must discard down to its train limit")
            st.choosing_trains = False  # it keeps the rest
            g.epoch += 1
            return
        corp = st.pending[0]
        key = ckey(corp)
        president = g.owner(key)
        owed = self.owed(corp)
        rest = owed - g.cash(key)
        if president is None or kind_of(president) != "P" or g.cash(president) < rest:
            raise illegal("national.repay", f"{corp}'s president cannot pay its {owed} of loans")
        if g.cash(key) > 0:
            g.spend(key, BANK, g.cash(key))
        if rest > 0:
            g.spend(president, BANK, rest)
        LOANS.of(g).repaid(g, corp, LOANS.of(g).outstanding(g, corp))
        g.log(f"{g.name(president)} pays off {corp}'s loans")
        st.pending.pop(0)
        if not st.pending:
            _settle(g)

    @cython.locals(self="StepBase")
    def process_merge(self, action: dict[str, Any], entity: str) -> None:
        st = STATE.of(self.g)
        if not st.pending:
            raise illegal("national.absorb", "no company is waiting to be absorbed")
        corp = st.pending.pop(0)
        absorb(self.g, corp)
        if not st.pending:
            _settle(self.g)


class _NationalRailway:
    """The :class:`~railbook.engine.interfaces.NationalRailway` this mechanic provides."""

    @staticmethod
    @cython.locals(g="Context")
    def settled(g: Context) -> bool:
        return STATE.of(g).settled

    @staticmethod
    @cython.locals(g="Context")
    def formed(g: Context) -> bool:
        return STATE.of(g).formed


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={NATIONAL_FORMATION_STEP: NationalFormation, BORROW_TRAIN_STEP: BorrowTrain},
    events={"national_railway_formation": formation},
    hooks={
        # the national's second issue overrides company_sizes' unit (priority 0)
        "share_unit": First(share_unit, 10),
        # the national needs no share sold to operate (overrides capitalization's count, priority 0)
        "float_percent": First(float_percent, 10),
        "action_processed": after_action,
        "must_withhold": must_withhold,
        "price_fixed": price_fixed,
        "never_closes": never_closes,
        "may_buy_train": may_buy_train,
        "face_price_trade": face_price_trade,
        "may_discard_train": may_discard_train,
        "forced_train_purchase": forced_train_purchase,
        "cert_weight": cert_weight,
        "cert_allowance": cert_allowance,
        "stock_obligation": stock_obligation,
        "stock_purchase": stock_purchase,
        "may_launch": lambda g, corp: corp != PARAMS.of(g).national,
        # the national's second issue overrides any other limit
        "holding_limit": First(holding_limit, 20),
        "operator_started": operator_started,
        "round_finished": round_finished,
    },
    state=State,
    provides=[NATIONAL_RAILWAY.provided_by(_NationalRailway())],
)
