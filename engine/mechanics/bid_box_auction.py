"""``bid_box_auction``: the initial round that sells the private companies in a fixed order (bid boxes).

The privates are offered in ``order`` (ascending face value).  From the priority holder clockwise, a player
buys the first unsold private at its face value, bids on a later one, or passes.  Bids go in that private's
bid box and (with ``bids_lock_cash``) the bid money is set aside until that private sells.  When a private is
bought, the next one is resolved: with one bid it goes to that bidder at the bid; with several, those
bidders alone auction it, starting left of the high bidder; the next private is then checked in turn.  Play
resumes left of the player whose purchase started the chain.  When every player passes while privates are
unsold, ``all_passed`` says what happens.

A private whose ``shares`` ability hands over a president's certificate with ``buyer_sets_par`` makes its
buyer choose the corporation's par at once (step ``company_pending_par``, a ``par`` action); the private
closes then when the ability says ``closes_after_par``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from railbook.params.bid_box_auction import BID_BOX_STEP, COMPANY_PENDING_PAR_STEP, DECLARATION, Params

from .. import market, rounds, shares
from ..access import params_of, state_of
from ..closing import close_company
from ..contract import First, Mechanic
from ..errors import illegal
from ..state import BANK, kind_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


@dataclass(slots=True)
class State:
    """Bids in the bid boxes (private -> [[player, price], ...] in bidding order), the private being auctioned
    among its bidders, the privates whose buyer must still set a par, and the last buyer at face value."""

    bids: dict[str, list[list[Any]]] = field(default_factory=dict)
    auctioning: str | None = None
    pending_par: list[list[str]] = field(default_factory=list)  # [private, player]
    last_buyer: str | None = None


PARAMS = params_of(DECLARATION, Params)
STATE = state_of(DECLARATION, State)


def unsold(g: Context) -> list[str]:
    """The privates still for sale, in the order offered."""
    comps = g.state.companies
    return [c for c in PARAMS.of(g).order if c in comps and comps[c].owner is None and not comps[c].closed]


def price_of(g: Context, sym: str) -> int:
    c = g.state.companies[sym]
    return max(0, c.value - c.discount)


@cython.locals(g="Context")
def committed(g: Context, player: str) -> int:
    """Cash a player has set aside in bid boxes."""
    p = PARAMS.of(g)
    if not p.bids_lock_cash:
        return 0
    leading_only = p.locked_cash == "leading_bids"
    total = 0
    for bids in STATE.of(g).bids.values():
        top = 0
        for _, price in bids:
            top = max(top, price)
        for who, price in bids:
            if who == player and (not leading_only or price >= top):
                total += price
    return total


def own_bid(g: Context, player: str, sym: str) -> int:
    return next((price for who, price in STATE.of(g).bids.get(sym, []) if who == player), 0)


def max_bid(g: Context, player: str, sym: str) -> int:
    own = own_bid(g, player, sym)
    if own and PARAMS.of(g).locked_cash == "leading_bids":
        top = 0
        for _, price in STATE.of(g).bids.get(sym) or []:
            top = max(top, price)
        if own < top:
            own = 0  # an outbid bid sets nothing aside
    return g.cash(player) - committed(g, player) + own


@cython.locals(g="Context")
def min_bid(g: Context, sym: str) -> int:
    p = PARAMS.of(g)
    bids = STATE.of(g).bids.get(sym) or []
    if bids:
        return max(price for _, price in bids) + p.min_raise
    return g.state.companies[sym].value + p.min_bid_over_face


@cython.locals(g="Context")
def auction_bidder(g: Context) -> str | None:
    """In an auction among a private's bidders, the one to act: the lowest bidder."""
    st = STATE.of(g)
    if st.auctioning is None:
        return None
    bids = st.bids.get(st.auctioning) or []
    if len(bids) < 2:
        return None
    return str(min(bids, key=lambda b: b[1])[0])


def acquire(g: Context, player: str, sym: str, price: int) -> None:
    """``player`` buys private ``sym`` for ``price``; certificates that come with it go to him."""
    c = g.state.companies[sym]
    st = STATE.of(g)
    st.bids.pop(sym, None)
    if price > g.cash(player) - committed(g, player):
        raise illegal("auction.cash", f"{g.name(player)} cannot pay {price} for {sym}")
    c.owner = player
    g.player(player).companies.append(sym)
    if price > 0:
        g.spend(player, BANK, price)
    g.log(f"{g.name(player)} buys {sym} for {price}")
    for a in c.abilities:
        if a.type != "shares":
            continue
        params = a.spec.get("params") or {}
        for sid in a.spec.get("shares") or []:
            shares.move_share(g, sid, player)
            if g.state.shares[sid].president and params.get("buyer_sets_par"):
                st.pending_par.append([sym, player])
    g.hooks("company_acquired", sym, player)


def resolve(g: Context) -> None:
    """Settle the bid boxes from the first unsold private on: one bid sells, several start an auction."""
    st = STATE.of(g)
    st.auctioning = None
    while True:
        left = unsold(g)
        if not left:
            return
        first = left[0]
        bids = st.bids.get(first) or []
        if len(bids) == 1:
            who, price = bids[0]
            acquire(g, who, first, price)
            continue
        if len(bids) > 1:
            st.auctioning = first
            g.log(f"{first} goes up for auction")
        return


class BidBox(Step):
    """Buy the first private at its price, bid on a later one, or pass; auctions among several bidders."""

    name = BID_BOX_STEP
    description = "Buy or Bid on Companies"

    @cython.locals(self="StepBase")
    def active_entities(self) -> list[str]:
        bidder = auction_bidder(self.g)
        if bidder is not None:
            return [bidder]
        return super().active_entities()

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        if not unsold(self.g) or entity != self.current_entity():
            return []
        return ["bid", "pass"]

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        g = self.g
        if not self.actions(entity):
            return []
        st = STATE.of(g)
        choices = []
        left = unsold(g)
        offered = [st.auctioning] if st.auctioning else left
        for sym in offered:
            if sym == left[0] and st.auctioning is None:
                lo = hi = price_of(g, sym)
                if lo > g.cash(entity) - committed(g, entity):
                    continue
            else:
                lo, hi = min_bid(g, sym), max_bid(g, entity, sym)
                if lo > hi:
                    continue
            choices.append({"company": sym, "price": {"min": lo, "max": hi}})
        out: list[dict[str, Any]] = []
        if choices:
            step = PARAMS.of(g).bid_step
            out.append({"type": "bid", "choices": choices, **({"step": step} if step > 1 else {})})
        out.append({"type": "pass"})
        return out

    @cython.locals(self="StepBase")
    def process_bid(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        st = STATE.of(g)
        sym = action.get("company")
        price = action.get("price")
        if not isinstance(price, int):
            raise illegal("auction.price", "a bid needs a whole-dollar price")
        left = unsold(g)
        if sym not in left:
            raise illegal("auction.company", f"{sym!r} is not for sale")
        g.player(entity).passed = False
        if st.auctioning is not None:
            if sym != st.auctioning:
                raise illegal("auction.company", f"{st.auctioning} is being auctioned")
            self._place(entity, sym, price)
            return
        if sym == left[0]:
            if price != price_of(g, sym):
                raise illegal("auction.price", f"{sym} is bought at {price_of(g, sym)}, not {price}")
            self.rdata["last_to_act"] = entity
            st.last_buyer = entity
            acquire(g, entity, sym, price)
            resolve(g)
        else:
            self._place(entity, sym, price)
        rounds.next_entity_index(g)

    @cython.locals(self="StepBase")
    def _place(self, entity: str, sym: str, price: int) -> None:
        g = self.g
        p = PARAMS.of(g)
        if not p.may_raise_own_bid and own_bid(g, entity, sym):
            raise illegal("auction.raise", f"{g.name(entity)} has already bid on {sym}")
        if price < min_bid(g, sym):
            raise illegal("auction.min_bid", f"the least bid on {sym} is {min_bid(g, sym)}")
        if (price - min_bid(g, sym)) % p.bid_step:
            raise illegal(
                "auction.bid_step", f"a bid on {sym} is {min_bid(g, sym)} or more by a multiple of {p.bid_step}"
            )
        if price > max_bid(g, entity, sym):
            raise illegal("auction.cash", f"{g.name(entity)} can bid at most {max_bid(g, entity, sym)}")
        bids = STATE.of(g).bids.setdefault(sym, [])
        bids[:] = [b for b in bids if b[0] != entity]
        bids.append([entity, price])
        g.log(f"{g.name(entity)} bids {price} for {sym}")

    def process_pass(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        st = STATE.of(g)
        if st.auctioning is not None:
            bids = st.bids.get(st.auctioning) or []
            bids[:] = [b for b in bids if b[0] != entity]
            g.log(f"{g.name(entity)} passes on {st.auctioning}")
            resolve(g)
            return
        g.player(entity).passed = True
        g.log(f"{g.name(entity)} passes")
        if all(g.player(k).passed for k in self.round.entities):
            self._all_passed()
        rounds.next_entity_index(g)

    @cython.locals(self="StepBase")
    def _all_passed(self) -> None:
        g = self.g
        rules = PARAMS.of(g).all_passed
        first = PARAMS.of(g).order[0]
        if rules.private_income_round:
            g.hooks("operating_round_started")
            if rules.income_round_ends_or_set and first not in unsold(g):
                g.hooks("or_set_finished")
        if first in unsold(g) and rules.first_private_price_drop:
            c = g.state.companies[first]
            c.discount += rules.first_private_price_drop
            g.log(f"{first} now costs {price_of(g, first)}")
            if price_of(g, first) <= 0:
                rounds.next_entity_index(g)
                taker = self.current_entity()
                if taker is not None:
                    acquire(g, taker, first, 0)
                    resolve(g)
        for k in self.round.entities:
            g.player(k).passed = False


class CompanyPendingPar(Step):
    """The buyer of a private that is a president's certificate sets the corporation's par."""

    name = COMPANY_PENDING_PAR_STEP
    description = "Set the par of a company bought with a private"

    def skip(self) -> None:
        """Stays live all round: a purchase may leave a par to set at any time."""

    @cython.locals(self="StepBase")
    def blocks(self) -> bool:
        """Only while a par is to be set (else the round passes it by without marking a change)."""
        return bool(STATE.of(self.g).pending_par)

    @cython.locals(self="StepBase")
    def pending(self) -> list[str] | None:
        pend = STATE.of(self.g).pending_par
        return pend[0] if pend else None

    def active_entities(self) -> list[str]:
        pend = self.pending()
        return [pend[1]] if pend else []

    def actions(self, entity: str) -> list[str]:
        pend = self.pending()
        return ["par"] if pend and pend[1] == entity else []

    @cython.locals(self="StepBase")
    def _corp(self, sym: str) -> str:
        c = self.g.state.companies[sym]
        for a in c.abilities:
            if a.type == "shares":
                for sid in a.spec.get("shares") or []:
                    if self.g.state.shares[sid].president:
                        return shares.corp_of_share(sid)
        raise illegal("auction.par", f"{sym} carries no president's certificate")

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        pend = self.pending()
        if not pend or pend[1] != entity:
            return []
        corp = self._corp(pend[0])
        choices = [
            {"corporation": corp, "share_price": f"{p['price']},{p['row']},{p['col']}"}
            for p in self.g.book.market["par"]
        ]
        return [{"type": "par", "choices": choices}]

    @cython.locals(self="StepBase")
    def process_par(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        pend = self.pending()
        assert pend is not None
        sym, player = pend
        corp = self._corp(sym)
        if action.get("corporation") != corp:
            raise illegal("auction.par", f"{g.name(entity)} must set the par of {corp}")
        pos = parse_price(g, action.get("share_price"))
        cell = g.book.cell(*pos)
        if cell is None or "par" not in cell["kinds"]:
            raise illegal("auction.par", f"{action.get('share_price')} is not a starting price")
        c = g.state.corporations[corp]
        market.place(g, corp, pos)
        c.par = list(pos)
        c.ipoed = True
        c.owner = player
        STATE.of(g).pending_par.pop(0)
        g.log(f"{g.name(player)} sets the par of {corp} at {cell['price']}")
        g.hooks("corporation_launched", corp)
        shares.check_float(g, corp, c.floated)
        company = g.state.companies[sym]
        if any((a.spec.get("params") or {}).get("closes_after_par") for a in company.abilities if a.type == "shares"):
            close_company(g, sym)


def parse_price(g: Context, spec: Any) -> list[int]:
    """``"price,row,col"`` -> [row, col]."""
    try:
        parts = [int(x) for x in str(spec).split(",")]
    except ValueError:
        raise illegal("auction.par", f"bad share price {spec!r}") from None
    if len(parts) == 3:
        return parts[1:]
    for p in g.book.market["par"]:
        if len(parts) == 1 and p["price"] == parts[0]:
            return [p["row"], p["col"]]
    raise illegal("auction.par", f"bad share price {spec!r}")


def round_entities(g: Context, kind: str) -> list[str] | None:
    if kind == "bid_box":
        return g.player_keys()
    return None


def _finished(g: Context) -> bool:
    return g.state.finished or (not unsold(g) and not STATE.of(g).pending_par)


def _on_finish(g: Context) -> None:
    """Priority goes to the player left of the last one to buy a private at its price."""
    last = STATE.of(g).last_buyer
    keys = g.player_keys()
    if last in keys:
        g.state.round.entity_index = (keys.index(last) + 1) % len(keys)
    rounds.reorder_players(g)


def _after(g: Context, action: dict[str, Any]) -> None:
    for k in g.state.round.entities:
        if kind_of(k) == "P" and g.player(k).passed and not unsold(g):
            g.player(k).passed = False


BID_BOX_ROUND = rounds.RoundType("bid_box", lambda g: None, _after, _finished, on_finish=_on_finish)

MECHANIC = Mechanic.of(
    DECLARATION,
    steps={BID_BOX_STEP: BidBox, COMPANY_PENDING_PAR_STEP: CompanyPendingPar},
    round_types={"bid_box": BID_BOX_ROUND},
    hooks={
        # answers only its round kind (bid_box)
        "round_entities": First(round_entities, 21)
    },
    state=State,
)
