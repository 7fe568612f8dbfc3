"""``nomination_auction``: a player nominates a private and everyone bids on it; seed money may subsidise it.

The player to act nominates a lot with an opening bid (or passes).  Bidding then goes round the players still
in the auction, starting left of the high bidder; a player who passes leaves it (``pass_is_final``), and
players who cannot reach the next bid drop out at once.  The last bidder left wins: he pays the bank his bid
and the seed money pays the bank (face value - bid), never below zero.  The next nominator sits left of the
player who nominated.  The round ends when every player passes in succession (unsold lots leave the game) or
when no lot is left.

With a ``pyramid`` the lots are dealt at setup, with the game's seeded generator, into tiers (top tier first);
only lots of the bottom tier may be nominated, and once it is empty the tier above opens.  A sold lot leaves
an empty slot; a neighbour in the same tier left with no lot on either side leaves the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from railbook.params.nomination_auction import DECLARATION, NOMINATION_AUCTION_STEP, Params

from .. import rounds
from ..access import params_of, state_of
from ..closing import close_company
from ..contract import First, Mechanic
from ..errors import illegal
from ..rng import shuffle_game
from ..state import BANK
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


@dataclass(slots=True)
class State:
    """Seed money left and the lots still for sale."""

    seed_left: int = 0
    lots: list[str] = field(default_factory=list)
    prepared: bool = False
    tiers: list[list[str | None]] = field(default_factory=list)  # pyramid slots, top tier first; None = empty


PARAMS = params_of(DECLARATION, Params)
STATE = state_of(DECLARATION, State)


def setup(g: Context) -> None:
    st = STATE.of(g)
    if st.prepared:
        return
    pyramid = PARAMS.of(g).pyramid
    st.seed_left = PARAMS.of(g).seed_money
    top: str | None = None
    if pyramid is not None and pyramid.top_lot_drawn_from:
        drawn = [s for s in g.state.companies if s in pyramid.top_lot_drawn_from and _for_sale(g, s)]
        drawn = shuffle_game(g.state, drawn)
        top = drawn[0] if pyramid.top_lots_kept and drawn else None
        for sym in drawn[pyramid.top_lots_kept :]:
            g.log(f"{sym} is drawn out and leaves the game")
            _remove(g, sym)
    st.lots = [sym for sym in g.state.companies if _for_sale(g, sym)]
    if pyramid is not None:
        deal = [s for s in shuffle_game(g.state, st.lots) if s != top]
        if top is not None:
            deal.insert(0, top)
        st.tiers = []
        for size in pyramid.tier_sizes:
            st.tiers.append(list(deal[:size]))
            deal = deal[size:]
        for sym in deal:  # more lots than slots: they leave the game
            g.log(f"{sym} finds no place in the pyramid and leaves the game")
            _remove(g, sym)
            st.lots.remove(sym)
    st.prepared = True


def _for_sale(g: Context, sym: str) -> bool:
    c = g.state.companies[sym]
    return not c.closed and not c.removed and not c.blank


def _remove(g: Context, sym: str) -> None:
    close_company(g, sym)
    g.state.companies[sym].removed = True


def nominable(g: Context) -> list[str]:
    """Lots that may be nominated now: all of them, or those of the pyramid's lowest tier still holding one."""
    st, pyramid = STATE.of(g), PARAMS.of(g).pyramid
    if pyramid is None:
        return list(st.lots)
    for tier in reversed(st.tiers):
        found = [s for s in tier if s is not None]
        if found or not pyramid.empty_tier_opens_tier_above:
            return found
    return []


@cython.locals(g="Context")
def _leave_pyramid(g: Context, sym: str) -> None:
    """Empty ``sym``'s slot; with ``sold_lot_removes_isolated_neighbours`` an isolated neighbour leaves."""
    pyramid, st = PARAMS.of(g).pyramid, STATE.of(g)
    if pyramid is None:
        return

    def filled(row: list[str | None], i: int) -> bool:
        return 0 <= i < len(row) and row[i] is not None

    for row in st.tiers:
        if sym not in row:
            continue
        i = row.index(sym)
        row[i] = None
        if pyramid.sold_lot_removes_isolated_neighbours:
            for n, beyond in ((i - 1, i - 2), (i + 1, i + 2)):
                if filled(row, n) and not filled(row, beyond):
                    gone = str(row[n])
                    row[n] = None
                    g.log(f"{gone} is left alone in its tier and leaves the game")
                    _remove(g, gone)
                    if gone in st.lots:
                        st.lots.remove(gone)
        return


def company_removed(g: Context, sym: str) -> None:
    lots = STATE.of(g).lots
    if sym in lots:
        lots.remove(sym)
    for row in STATE.of(g).tiers:
        if sym in row:
            row[row.index(sym)] = None


def round_entities(g: Context, kind: str) -> list[str] | None:
    return g.player_keys() if kind == "nomination" else None


def opening_bid(g: Context, sym: str) -> int:
    """The lowest opening bid for a lot."""
    rule, value = PARAMS.of(g).min_opening_bid, g.state.companies[sym].value
    if rule == "face":
        return value
    if rule == "face_minus_remaining_seed":
        return max(0, value - STATE.of(g).seed_left)
    return 0


@cython.locals(g="Context")
def max_bid(g: Context, player: str, sym: str) -> int:
    cash = g.cash(player)
    return min(cash, g.state.companies[sym].value) if PARAMS.of(g).max_bid == "face" else cash


class NominationAuction(Step):
    name = NOMINATION_AUCTION_STEP
    description = "Bid on Companies"

    @staticmethod
    def round_state() -> dict[str, Any]:
        return {"auction": None}

    @property
    @cython.locals(self="StepBase")
    def auction(self) -> dict[str, Any] | None:
        return self.rdata.get("auction")  # type: ignore[no-any-return]

    def active_entities(self) -> list[str]:
        a = self.auction
        if a:
            active, high = a["active"], self.high_bidder()
            return [active[(active.index(high) + 1) % len(active)]]
        return super().active_entities()

    def high_bidder(self) -> str:
        bids = self.auction["bids"]  # type: ignore[index]
        return max(bids, key=lambda p: bids[p])

    @cython.locals(self="StepBase")
    def min_bid(self) -> int:
        a = self.auction
        assert a is not None
        return max(a["bids"].values()) + PARAMS.of(self.g).bid_step

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        if not STATE.of(self.g).lots or entity != self.current_entity():
            return []
        if self.auction or PARAMS.of(self.g).may_pass_instead_of_nominating:
            return ["bid", "pass"]
        return ["bid"]

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        acts = self.actions(entity)
        out: list[dict[str, Any]] = []
        if "bid" in acts:
            a = self.auction
            if a:
                lo, hi = self.min_bid(), max_bid(self.g, entity, a["company"])
                if lo <= hi:
                    out.append(
                        {
                            "type": "bid",
                            "company": a["company"],
                            "min": lo,
                            "max": hi,
                            "step": PARAMS.of(self.g).bid_step,
                        }
                    )
            else:
                choices = []
                for sym in nominable(self.g):
                    lo, hi = opening_bid(self.g, sym), max_bid(self.g, entity, sym)
                    if lo <= hi:
                        choices.append({"company": sym, "min": lo, "max": hi})
                out.append({"type": "bid", "choices": choices, "step": PARAMS.of(self.g).bid_step})
        if "pass" in acts:
            out.append({"type": "pass"})
        return out

    # ------------------------------------------------------------------------------- processing

    @cython.locals(self="StepBase")
    def _check_price(self, entity: str, sym: str, price: Any, lowest: int) -> int:
        g, p = self.g, PARAMS.of(self.g)
        if not isinstance(price, int) or isinstance(price, bool):
            raise illegal("auction.price", f"bid price {price!r} is not a whole number")
        if price % p.bid_step:
            raise illegal("auction.step", f"bids are multiples of {p.bid_step}, not {price}")
        if price < lowest:
            raise illegal("auction.min_bid", f"the lowest bid for {sym} is {lowest}, not {price}")
        if price > max_bid(g, entity, sym):
            raise illegal("auction.max_bid", f"{g.name(entity)} cannot bid {price} for {sym}")
        return price

    @cython.locals(self="StepBase")
    def process_bid(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        sym = action.get("company")
        a = self.auction
        if a:
            if sym != a["company"]:
                raise illegal("auction.company", f"{a['company']} is up for auction, not {sym}")
            price = self._check_price(entity, a["company"], action.get("price"), self.min_bid())
            a["bids"][entity] = price
            g.log(f"{g.name(entity)} bids {price} for {a['company']}")
            self._drop_unable(entity)
        else:
            if sym not in STATE.of(g).lots:
                raise illegal("auction.company", f"{sym!r} is not for sale")
            if sym not in nominable(g):
                raise illegal("auction.pyramid", f"{sym} is not in the lowest tier of the pyramid")
            price = self._check_price(entity, str(sym), action.get("price"), opening_bid(g, str(sym)))
            g.log(f"{g.name(entity)} nominates {sym} for {price}")
            a = {"company": sym, "bids": {entity: price}, "triggerer": entity, "active": []}
            self.rdata["auction"] = a
            lo = self.min_bid()
            a["active"] = [p for p in self.round.entities if p == entity or max_bid(g, p, str(sym)) >= lo]
        g.player(entity).passed = False
        self._resolve()

    @cython.locals(self="StepBase")
    def _drop_unable(self, bidder: str) -> None:
        a = self.auction
        assert a is not None
        lo = self.min_bid()
        a["active"] = [p for p in a["active"] if p == bidder or max_bid(self.g, p, a["company"]) >= lo]

    def process_pass(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        a = self.auction
        if a:
            if entity in a["active"]:
                a["active"].remove(entity)
            g.log(f"{g.name(entity)} passes on {a['company']}")
            self._resolve()
            return
        g.log(f"{g.name(entity)} passes")
        g.player(entity).passed = True
        if all(g.player(p).passed for p in self.round.entities):
            self._all_passed()
            return
        self._next_entity()

    @cython.locals(self="StepBase")
    def _next_entity(self) -> None:
        r, g = self.round, self.g
        for _ in range(len(r.entities)):
            rounds.next_entity_index(g)
            if not g.player(r.entities[r.entity_index]).passed:
                return

    @cython.locals(self="StepBase")
    def _all_passed(self) -> None:
        g = self.g
        st = STATE.of(g)
        if PARAMS.of(g).unsold_lots == "removed":
            for sym in list(st.lots):
                g.log(f"{sym} is not sold and leaves the game")
                close_company(g, sym)
                g.state.companies[sym].removed = True
            st.lots.clear()
        rounds.next_entity_index(g)
        self.pass_()

    @cython.locals(self="StepBase")
    def _resolve(self) -> None:
        a = self.auction
        if not a or len(a["active"]) > 1:
            return
        g = self.g
        if a["active"]:
            self._win(a["active"][0], a["company"], a["bids"][a["active"][0]])
        self.rdata["auction"] = None
        r = self.round
        for p in r.entities:
            g.player(p).passed = False
        after = a["triggerer"] if PARAMS.of(g).next_nominator == "left_of_last_nominator" else a["active"][0]
        r.entity_index = r.entities.index(after)
        self._next_entity()

    @cython.locals(self="StepBase")
    def _win(self, player: str, sym: str, price: int) -> None:
        g, st = self.g, STATE.of(self.g)
        c = g.state.companies[sym]
        seed = max(0, c.value - price) if st.seed_left else 0
        seed = min(seed, st.seed_left)
        c.owner = player
        g.player(player).companies.append(sym)
        st.lots.remove(sym)
        _leave_pyramid(g, sym)
        if price > 0:
            g.spend(player, BANK, price)
        st.seed_left -= seed
        g.log(f"{g.name(player)} wins {sym} for {price}" + (f", seed money pays {seed}" if seed else ""))
        g.hooks("company_acquired", sym, player)


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={NOMINATION_AUCTION_STEP: NominationAuction},
    round_types={"nomination": rounds.step_round("nomination")},
    hooks={
        "setup": setup,
        "company_removed": company_removed,
        # answers only its round kind (nomination)
        "round_entities": First(round_entities, 22),
    },
    state=State,
)
