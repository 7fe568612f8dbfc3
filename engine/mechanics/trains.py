"""``trains``: buying trains (from the bank or other corporations), train limits and emergency buys.

A corporation whose treasury (plus emergency issues) cannot pay for a train it must own gets the rest from its
president, who may sell shares.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from railbook.params.trains import BUY_TRAIN_STEP, DECLARATION, DISCARD_TRAIN_STEP, Params

from .. import board, depot, market, rounds, shares
from .. import memo as _memo
from ..access import params_of, state_of
from ..contract import Mechanic
from ..errors import illegal
from ..interfaces import EMERGENCY_ISSUE, LIQUIDATION, RECEIVERSHIP, STOCK_MARKET, TRAINS
from ..memo import memo
from ..shares import Bundle
from ..state import DEPOT, ckey, kind_of, mkey, sym_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context
    from ..state import Corporation, Minor, Train

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


@dataclass(slots=True)
class State:
    """(``unbuyable_trains_hold_the_step``) the types of the trains that left the game with the unsold assets of a
    company, one entry a train."""

    gone: list[str] = field(default_factory=list)


PARAMS = params_of(DECLARATION, Params)
STATE = state_of(DECLARATION, State)


def assets_leaving(g: Context, corp: str, to: str | None) -> None:
    """A company's unsold assets leave the game (``to`` None): with ``unbuyable_trains_hold_the_step`` its trains'
    types are remembered."""
    if to is None and PARAMS.of(g).unbuyable_trains_hold_the_step:
        key = ckey(corp)
        STATE.of(g).gone.extend(g.state.trains[t].sym for t in g.entity_trains(key))


@memo
def unbuyable_held(g: Context, corp: str) -> bool:
    """Another company holds a train ``corp`` may not buy: one of a company in a ``no_buy_from_zones`` cell, or one
    of a company whose unsold assets left the game whose type has not rusted or gone obsolete since (a train of the
    type it rusts or goes obsolete on has left the bank). An obsolete train is for sale to nobody, so it holds
    nothing (differential run 8 seed 100020: the 2+ trains)."""
    zones = set(PARAMS.of(g).no_buy_from_zones)
    trains = g.state.trains
    for sym, seller in g.state.corporations.items():
        if ckey(sym) == corp or seller.closed or not seller.trains or not seller.price:
            continue
        if zones & set(market.kinds_at(g, seller.price)) and any(not trains[t].obsolete for t in seller.trains):
            return True
    gone = STATE.of(g).gone
    if not gone:
        return False
    out_of_bank = {t.sym for t in trains.values() if t.owner != DEPOT}
    specs = g.book.trains
    return any(
        specs[s].get("rusts_on") not in out_of_bank and specs[s].get("obsolete_on") not in out_of_bank
        for s in set(gone)
    )


@cython.locals(g="Context")
def emergency_bundles(g: Context, corp: str) -> list[Bundle]:
    """Bundles ``corp`` (a key) may issue now to raise money for a train (none unless a mechanic provides
    :class:`~railbook.engine.interfaces.EmergencyIssue`)."""
    issue = EMERGENCY_ISSUE.get(g)
    return issue.bundles(g, corp) if issue is not None else []


def must_buy(g: Context, corp: str) -> bool:
    if not PARAMS.of(g).must_own_train:
        return False
    forced = g.hooks("forced_train_purchase", corp)
    if forced is not None:
        return bool(forced)
    if g.entity_trains(corp) or not depot.depot_trains(g):
        return False
    return not PARAMS.of(g).must_own_train_only_with_route or board.network(g, corp).route_available


@memo
@cython.locals(g="Context")
def train_buying_power(g: Context, corp: str) -> int:
    """Cash plus what other rules let the corporation raise for a train (issues, buying independents...)."""
    return g.cash(corp) + g.hooks("issuable_cash", corp) + g.hooks("buying_power", corp, "train")


@memo
@cython.locals(g="Context", seller="Corporation", t="Train")
def other_trains(g: Context, corp: str) -> list[str]:
    """Other companies' trains ``corp`` may buy (in the game's train order), found on the sellers' own lists."""
    zones = set(PARAMS.of(g).no_buy_from_zones)
    state = g.state
    trains = state.trains
    out: list[str] = []
    seller: Corporation
    t: Train
    for sym, seller in state.corporations.items():
        if seller.closed or not seller.trains:
            continue
        owner = ckey(sym)
        if owner == corp or (zones and seller.price and zones & set(market.kinds_at(g, seller.price))):
            continue
        for tid in seller.trains:
            t = trains[tid]
            if t.owner == owner and not t.rusted and t.buyable and not t.obsolete:
                out.append(tid)
    if len(out) > 1:
        order = _train_order(g)
        out.sort(key=order.__getitem__)
    if g.audit:
        _memo.audit(f"other trains for {corp}", _other_trains_scan(g, corp, zones), out)
    return out


def _train_order(g: Context) -> dict[str, int]:
    """Each train's place in the game's order of trains (kept while no train is added)."""
    trains = g.state.trains
    kept = g.cache.get("train_order")
    if kept is None or kept[0] != len(trains):
        kept = g.cache["train_order"] = (len(trains), {tid: i for i, tid in enumerate(trains)})
    return kept[1]  # type: ignore[no-any-return]


def _other_trains_scan(g: Context, corp: str, zones: set[str]) -> list[str]:
    """:func:`other_trains` by a look at every train (what the memo audit compares it with)."""
    out = []
    t: Train
    for tid, t in g.state.trains.items():
        if t.owner in (DEPOT, "", corp) or t.rusted or not t.buyable or t.obsolete:
            continue
        if kind_of(t.owner) != "C":
            continue
        seller: Corporation = g.state.corporations[sym_of(t.owner)]
        if seller.closed or (zones and seller.price and zones & set(market.kinds_at(g, seller.price))):
            continue
        out.append(tid)
    return out


@memo
def cheapest_face(g: Context, tid: str) -> int:
    """The price of a bank train's cheapest face (a card with two faces is bought as either: 1846 §6.52)."""
    return min(v["price"] for v in depot.variants(g, g.state.trains[tid]).values())


@memo
@cython.locals(g="Context")
def min_price(g: Context, corp: str) -> int | None:
    prices = [cheapest_face(g, t) for t in depot.depot_trains(g) if g.hooks("may_buy_train", corp, t)]
    for tid in other_trains(g, corp):
        t = g.state.trains[tid]
        if g.hooks("may_buy_train", corp, tid):
            prices.append(depot.face_price(g, t) if g.hooks("face_price_trade", corp, t.owner) else 1)
    return min(prices) if prices else None


def trade_in_at_limit(g: Context, corp: str) -> bool:
    """At its limit, ``corp`` could still buy a bank train by trading one of its trains in (``trade_in_at_limit``)."""
    if not PARAMS.of(g).trade_in_at_limit:
        return False
    own = {g.state.trains[t].sym for t in g.entity_trains(corp)}
    money = max(g.cash(corp), train_buying_power(g, corp))
    for tid in depot.depot_trains(g):
        t = g.state.trains[tid]
        discount = g.book.trains[t.sym].get("discount") or {}
        if any(money >= depot.face_price(g, t) - int(discount[sym]) for sym in own if sym in discount):
            return True
    return False


def can_buy(g: Context, corp: str) -> bool:
    if not depot.room(g, corp):
        return trade_in_at_limit(g, corp)
    cash = g.cash(corp)
    for tid in depot.depot_trains(g):  # a bank train it can pay for settles it without pricing the others
        if cheapest_face(g, tid) <= cash and g.hooks("may_buy_train", corp, tid):
            return True
    lo = min_price(g, corp)
    return lo is not None and (cash >= lo or train_buying_power(g, corp) >= lo)


class BuyTrain(Step):
    name = BUY_TRAIN_STEP
    description = "Buy Trains"

    @cython.locals(self="StepBase")
    def setup(self) -> None:
        self.st.data.update(
            {
                "last_share_sold_price": None,
                "last_share_issued_price": None,
                "corporations_sold": [],
                "new_bought": 0,
                "skipped_at": None,
            }
        )

    @cython.locals(self="StepBase")
    def _new_ok(self, tid: str) -> bool:
        """A depot train may be bought: a new one within ``bank_trains_per_turn``, a discarded one always (or also
        within it: ``bank_trains_per_turn_counts_open_market``)."""
        if tid in self.g.state.depot:
            return self.new_trains_left()
        if PARAMS.of(self.g).bank_trains_per_turn_counts_open_market and self.g.state.trains[tid].owner == DEPOT:
            return self.new_trains_left()
        return True

    @cython.locals(self="StepBase")
    def new_trains_left(self) -> bool:
        """``bank_trains_per_turn``: the corporation may still buy a new train from the bank this turn."""
        p = PARAMS.of(self.g)
        limit = p.bank_trains_per_turn
        if limit is not None and p.bank_trains_per_turn_status is not None:
            if p.bank_trains_per_turn_status not in self.g.phase_status():
                limit = None  # the phase lifts the limit
        return limit is None or int(self.st.data.get("new_bought") or 0) < limit

    @cython.locals(self="StepBase")
    def unpass(self) -> None:
        super().unpass()
        self.setup()

    @cython.locals(self="StepBase")
    def can_issue(self, corp: str) -> bool:
        return kind_of(corp) == "C" and bool(emergency_bundles(self.g, corp))

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        g = self.g
        cur = self.current_entity()
        if cur is None:
            return []
        if g.hooks("in_receivership", cur):
            return []
        if kind_of(cur) == "C" and entity == g.owner(cur) and kind_of(entity) == "P":
            if self.president_helps(cur) and not self.can_issue(cur):
                return ["sell_shares"]
            return []
        if entity != cur or kind_of(entity) != "C":
            return []
        if must_buy(g, entity):
            acts = ["buy_train"]
            if self.can_issue(entity):
                acts.append("sell_shares")
            return acts
        if can_buy(g, entity) and next(self._iter_buyable(entity), None) is not None:
            return ["buy_train", "pass"]
        if (
            PARAMS.of(g).unbuyable_trains_hold_the_step
            and depot.room(g, entity)
            and train_buying_power(g, entity) >= 1
            and unbuyable_held(g, entity)
        ):
            return ["pass"]
        return []

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        g = self.g
        acts = self.actions(entity)
        out: list[dict[str, Any]] = []
        if "buy_train" in acts:
            choices = []
            room = depot.room(g, entity)
            for tid in self.buyable_trains(entity):
                t = g.state.trains[tid]
                if t.owner == DEPOT:
                    for v in self.variants(entity, tid):
                        price = v["price"]
                        helps = self.president_helps(entity)
                        if room and price <= g.cash(entity) + (g.cash(g.owner(entity)) if helps else 0):
                            if price > g.cash(entity) and price > self.cheapest_bank_price(entity):
                                continue  # ``emergency_cheapest_only``: the president pays only for the cheapest
                            choices.append({"train": tid, "variant": v["name"], "price": price})
                        choices.extend(self.trade_ins(entity, tid, v))
                elif not room:
                    continue  # at its limit only a trade-in is possible
                elif g.hooks("face_price_trade", entity, t.owner):
                    if g.cash(entity) >= depot.face_price(g, t):
                        choices.append({"train": tid, "variant": t.name, "price": depot.face_price(g, t)})
                else:
                    if g.cash(entity) >= 1:
                        choices.append({"train": tid, "variant": t.name, "price": {"min": 1, "max": g.cash(entity)}})
            out.append({"type": "buy_train", "choices": choices})
        if "sell_shares" in acts:
            if kind_of(entity) == "C":
                out.append(
                    {
                        "type": "sell_shares",
                        "choices": [{"shares": b.shares, "percent": b.percent} for b in emergency_bundles(g, entity)],
                    }
                )
            else:
                choices = [{"shares": b.shares, "percent": b.percent} for b in self.sellable(entity)]
                if choices:
                    out.append({"type": "sell_shares", "choices": choices})
        if "pass" in acts:
            out.append({"type": "pass"})
        return out

    # ------------------------------------------------------------------------------ train choice

    @cython.locals(self="StepBase")
    def buyable_trains(self, corp: str) -> list[str]:
        return list(self._iter_buyable(corp))

    @cython.locals(self="StepBase")
    def _iter_buyable(self, corp: str) -> Iterator[str]:
        """The trains ``corp`` may buy: the bank's, then other companies' (looked for only when asked for more)."""
        g = self.g
        for t in depot.depot_trains(g):
            if self._new_ok(t) and g.hooks("may_buy_train", corp, t):
                yield t
        if g.cash(corp) == 0 or self.st.data.get("last_share_issued_price") is not None:
            return
        if self.st.data.get("last_share_sold_price") is not None and g.cash(corp) < depot.min_depot_price(g):
            return
        for t in other_trains(g, corp):
            if g.hooks("may_buy_train", corp, t):
                yield t

    @cython.locals(self="StepBase")
    def trade_ins(self, corp: str, tid: str, face: dict[str, Any]) -> list[dict[str, Any]]:
        """Purchases of bank train ``tid`` (as ``face``) trading one of ``corp``'s trains in, one per traded type."""
        g = self.g
        discount = g.book.trains[g.state.trains[tid].sym].get("discount") or {}
        if not discount or (not depot.room(g, corp) and not PARAMS.of(g).trade_in_at_limit):
            return []
        out, seen = [], set()
        for own in g.entity_trains(corp):
            sym = g.state.trains[own].sym
            if sym in discount and sym not in seen and face["price"] - int(discount[sym]) <= g.cash(corp):
                seen.add(sym)
                price = face["price"] - int(discount[sym])
                out.append({"train": tid, "variant": face["name"], "price": price, "exchange": own})
        return out

    @cython.locals(self="StepBase")
    def variants(self, corp: str, tid: str) -> list[dict[str, Any]]:
        g = self.g
        t = g.state.trains[tid]
        faces = list(depot.variants(g, t).values())
        if t.owner != DEPOT:
            return [depot.variants(g, t)[t.name]]
        if self.must_issue_first(corp):
            faces = [v for v in faces if g.cash(corp) >= v["price"]]
        if len(faces) < 2 or not PARAMS.of(g).restricted_face_choice:
            return faces
        lo, hi = sorted(faces, key=lambda v: v["price"])[:2]
        cash = g.cash(corp)
        if (lo["price"] <= cash < hi["price"]) or g.hooks("in_receivership", corp):
            return [lo]
        raised = self.st.data.get("last_share_sold_price") or self.st.data.get("last_share_issued_price")
        if raised:
            must_spend = cash - raised + 1
            if self.st.data.get("last_share_sold_price"):
                must_spend += g.cash(g.owner(corp))
            kept = [v for v in faces if v["price"] >= must_spend]
            # (18xx.games) the face bought must be one the money raised last was needed for -- unless
            # none of those is affordable after all, where the site would leave no way forward
            reach = cash + (g.cash(g.owner(corp)) if self.president_helps(corp) else 0)
            if any(v["price"] <= reach for v in kept) or not any(v["price"] <= reach for v in faces):
                faces = kept
        return faces

    def president_helps(self, corp: str) -> bool:
        """The president's money may help ``corp`` buy a train: it must buy one, and (``president_cash_only_below_
        cheapest``, 1846 §6.5: "If it is unable to buy a train ... with its own funds") its treasury cannot pay for
        the cheapest train the bank offers it."""
        g = self.g
        if not must_buy(g, corp):
            return False
        if not PARAMS.of(g).president_cash_only_below_cheapest:
            return True
        bank = [tid for tid in self.buyable_trains(corp) if g.state.trains[tid].owner == DEPOT]
        return g.cash(corp) < min((cheapest_face(g, tid) for tid in bank), default=0)

    def cheapest_bank_price(self, corp: str) -> int | float:
        """With ``emergency_cheapest_only``, the most the president may help pay for: the cheapest bank train
        (any face) ``corp`` may buy now; without it, no bound."""
        if not PARAMS.of(self.g).emergency_cheapest_only:
            return float("inf")
        g = self.g
        bank = [tid for tid in self.buyable_trains(corp) if g.state.trains[tid].owner == DEPOT]
        return min((v["price"] for tid in bank for v in self.variants(corp, tid)), default=float("inf"))

    @cython.locals(self="StepBase")
    def must_issue_first(self, corp: str) -> bool:
        return (
            PARAMS.of(self.g).issue_before_president_cash
            and self.st.data.get("last_share_issued_price") is None
            and bool(emergency_bundles(self.g, corp))
        )

    # ----------------------------------------------------------------------------------- process

    @cython.locals(self="StepBase")
    def process_buy_train(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        tid = str(action.get("train"))
        if tid not in g.state.trains:
            raise illegal("trains.unknown", f"no train {tid}")
        t = g.state.trains[tid]
        price = action.get("price")
        variant = action.get("variant") or t.name
        if not isinstance(price, int):
            raise illegal("action.malformed", "buy_train needs an integer price")
        if tid not in self.buyable_trains(entity):
            raise illegal("trains.unavailable", f"train {tid} cannot be bought now")
        if t.owner == entity:
            raise illegal("trains.own", "a corporation cannot buy its own train")
        traded = None if action.get("exchange") is None else str(action.get("exchange"))
        discount = (g.book.trains[t.sym].get("discount") or {}) if t.owner == DEPOT else {}
        if traded is not None and (traded not in g.entity_trains(entity) or g.state.trains[traded].sym not in discount):
            raise illegal("trains.exchange", f"{sym_of(entity)} cannot trade {traded} in for {tid}")
        if not depot.room(g, entity) and not (traded is not None and PARAMS.of(g).trade_in_at_limit):
            raise illegal("trains.limit", f"{sym_of(entity)} is at its train limit")
        if t.owner == DEPOT:
            faces = {v["name"]: v for v in self.variants(entity, tid)}
            if variant not in faces:
                raise illegal("trains.variant", f"{sym_of(entity)} may not buy train {tid} as {variant} now")
            cost = faces[variant]["price"] - (int(discount[g.state.trains[traded].sym]) if traded else 0)
            if price != cost:
                raise illegal("trains.price", f"train {tid} ({variant}) costs {cost}, not {price}")
        elif g.hooks("face_price_trade", entity, t.owner):
            if price != depot.face_price(g, t) or price > g.cash(entity):
                raise illegal("trains.price", f"{tid} changes hands at its face value {depot.face_price(g, t)} only")
        else:
            if price < 1 or price > g.cash(entity):
                raise illegal("trains.price", f"{sym_of(entity)} may spend between 1 and {g.cash(entity)} on {tid}")
        remaining = price - g.cash(entity)
        if remaining > 0:
            if not self.president_helps(entity) or t.owner != DEPOT:
                raise illegal("trains.cash", f"{sym_of(entity)} cannot pay {price}")
            if price > self.cheapest_bank_price(entity):
                raise illegal(
                    "trains.cheapest",
                    f"{sym_of(entity)} needs its president's money: only the cheapest "
                    f"train may be bought ({self.cheapest_bank_price(entity)})",
                )
            president = g.owner(entity)
            if g.cash(president) < remaining:
                raise illegal("trains.cash", f"{g.name(president)} cannot contribute {remaining}")
            g.spend(president, entity, remaining)
        if traded is not None:
            if PARAMS.of(g).traded_in_to == "pool":
                depot.discard_to_depot(g, traded)
            else:
                depot.rust(g, traded)
            g.log(f"{sym_of(entity)} trades in {traded}")
        new = t.owner == DEPOT and (tid in g.state.depot or PARAMS.of(g).bank_trains_per_turn_counts_open_market)
        depot.buy_train(g, entity, tid, price, variant if t.owner == DEPOT else None)
        if new:
            self.st.data["new_bought"] = int(self.st.data.get("new_bought") or 0) + 1
        if (not can_buy(g, entity) or not self.buyable_trains(entity)) and self.actions(entity) != ["pass"]:
            self.pass_()  # (held for a pass: ``unbuyable_trains_hold_the_step``)

    @cython.locals(self="StepBase")
    def sellable(self, player: str) -> list[Bundle]:
        g = self.g
        out = []
        for corp in g.state.corp_order:
            c = g.state.corporations[corp]
            if c.closed:
                continue
            for b in shares.bundles_for(g, player, corp):
                if self.can_sell(player, b):
                    out.append(b)
        return out

    @cython.locals(self="StepBase")
    def can_sell(self, player: str, b: Bundle) -> bool:
        g = self.g
        cur = self.current_entity()
        if g.hooks("in_receivership", ckey(b.corp)):
            return False
        stock_market = STOCK_MARKET.get(g)
        if stock_market is not None and not stock_market.sale_timing_ok(g, player, b.corp):
            return False  # (e.g. 1846 §5.21: only the president sells a corporation that has not operated)
        blocks = stock_market is not None and stock_market.sells_in_blocks(g)
        if blocks and b.corp in self.st.data.get("corporations_sold", []):
            return False
        if self.must_issue_first(cur):
            return False
        if not shares.can_dump(g, b, player):
            return False
        if not shares.fit_in_pool(g, b):
            return False
        c = g.state.corporations[b.corp]
        if c.owner == player and ckey(b.corp) == cur:
            holders = shares.player_holders(g, b.corp)
            remaining = holders.get(player, 0) - b.percent
            others = max([p for h, p in holders.items() if h != player], default=0)
            if remaining < others:
                return False
        if ckey(b.corp) == cur and PARAMS.of(g).president_may_not_sell_operating_corp_to_zero:
            if market.step(g, c.price, "left") != c.price and market.price_at(g, market.step(g, c.price, "left")) == 0:
                return False
        restore = PARAMS.of(g).emergency_sale_restores_share_limit
        if restore and not shares.holding_ok(g, player, b.corp, -b.percent):
            return False
        # what the sale may raise money for: the cheapest bank train where only that may be bought
        # (``emergency_cheapest_only``), else the dearest
        cheapest = self.cheapest_bank_price(cur)
        needed = int(cheapest) if cheapest != float("inf") else depot.max_depot_price(g)
        total = shares.bundle_price(g, b) + g.cash(player) + g.cash(cur)
        if restore and not shares.holding_ok(g, player, b.corp, shares.share_percent(g, b.corp) - b.percent):
            return True  # one share less would leave him above the share limit
        return not total >= needed + shares.price_per_share(g, b.corp)

    @cython.locals(self="StepBase")
    def process_sell_shares(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        cur = self.current_entity()
        b = shares.make_bundle(g, list(action.get("shares") or []), action.get("percent"))
        if kind_of(entity) == "C":
            options = emergency_bundles(g, entity)
            idx = next(
                (i for i, o in enumerate(options) if sorted(o.shares) == sorted(b.shares) and o.percent == b.percent),
                None,
            )
            if idx is None or g.state.round.data.get("emergency_issued"):
                raise illegal("issue.emergency", f"{sym_of(entity)} cannot issue {', '.join(b.shares)}")
            match = options[idx]
            price = shares.bundle_price(g, match)
            self.st.data["last_share_issued_price"] = (
                price if idx == 0 else price - shares.bundle_price(g, options[idx - 1])
            )
            EMERGENCY_ISSUE.of(g).issue(g, entity, match)
            return
        if self.can_issue(cur):
            raise illegal("trains.issue_first", f"{sym_of(cur)} must issue shares before its president sells")
        if b.owner != entity:
            raise illegal("stock.sell", f"{g.name(entity)} does not own {', '.join(b.shares)}")
        if not self.can_sell(entity, b):
            raise illegal("trains.sell", f"{g.name(entity)} cannot sell {', '.join(b.shares)} for the train")
        self.st.data["last_share_sold_price"] = shares.price_per_share(g, b.corp)
        shares.sell_and_move(g, b)
        self.st.data.setdefault("corporations_sold", []).append(b.corp)
        rounds.recalculate_order(g)

    @cython.locals(self="StepBase")
    def skip(self) -> None:
        receivership = RECEIVERSHIP.get(self.g)
        if receivership is not None:
            receivership.trainless_buy(self.g, self.current_entity())
        self.st.data["skipped_at"] = self.g.state.actions_done  # passed by with nothing to do, after this action
        self.pass_()

    @cython.locals(self="StepBase")
    def pass_(self) -> None:
        self.st.data["last_share_sold_price"] = None
        self.st.data["last_share_issued_price"] = None
        super().pass_()


@memo
@cython.locals(g="Context", corp="Corporation", minor="Minor")
def crowded(g: Context) -> list[str]:
    """Operators holding more trains than their limit (they must discard); memoised: read-only."""
    out: list[str] = []
    state = g.state
    floor, limits = _train_limits(g)
    minor: Minor
    corp: Corporation
    for corp in state.corporations.values():  # (mostly nobody holds more than the least limit: one quick look)
        if len(corp.trains) > floor:
            break
    else:
        for minor in state.minors.values():
            if len(minor.trains) > floor:
                break
        else:
            return out
    for sym, minor in state.minors.items():
        if len(minor.trains) > floor and not minor.closed and _over_limit(g, limits, mkey(sym), len(minor.trains)):
            out.append(mkey(sym))
    corps = state.corporations
    for sym in state.corp_order:
        corp = corps[sym]
        if len(corp.trains) > floor and not corp.closed and _over_limit(g, limits, ckey(sym), len(corp.trains)):
            out.append(ckey(sym))
    return out


def _train_limits(g: Context) -> tuple[int, dict[str, int]]:
    """The least train limit of any operator in the current phase (holding no more needs no closer look) and each
    operator's limit (``depot.train_limit``: the phase's and the operator's type), worked out once per phase."""
    state = g.state
    operators = len(state.minors) + len(state.corporations)
    kept = g.cache.get("train_limits")
    if kept is None or kept[0] != state.phase or kept[1] != operators:
        limits = {mkey(sym): depot.train_limit(g, mkey(sym)) for sym in state.minors}
        limits.update({ckey(sym): depot.train_limit(g, ckey(sym)) for sym in state.corporations})
        kept = g.cache["train_limits"] = (state.phase, operators, min(limits.values(), default=0), limits)
    return kept[2], kept[3]


def _over_limit(g: Context, limits: dict[str, int], key: str, held: int) -> bool:
    limit = limits[key]
    # no more trains than the limit: nothing to count (obsolete trains only lower the count)
    return held > limit and depot.counted_trains(g, key) > limit


class DiscardTrain(Step):
    name = DISCARD_TRAIN_STEP
    description = "Discard Trains"
    offers = frozenset({"discard_train"})

    @cython.locals(self="StepBase")
    def crowded(self) -> list[str]:
        return crowded(self.g)

    @cython.locals(self="StepBase")
    def active(self) -> bool:
        return True  # a company over its train limit discards whenever that happens (e.g. after an acquisition)

    @cython.locals(self="StepBase")
    def blocks(self) -> bool:
        """Only while a company is over its limit (else the round passes it by without marking a change)."""
        return bool(crowded(self.g))

    @cython.locals(self="StepBase")
    def active_entities(self) -> list[str]:
        return list(self.crowded())

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        # several companies over their limit discard in any order (as on 18xx.games)
        return ["discard_train"] if entity in self.crowded() else []

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        if not self.actions(entity):
            return []
        trains = [t for t in self.g.entity_trains(entity) if self.g.hooks("may_discard_train", entity, t)]
        return [{"type": "discard_train", "choices": [{"train": t} for t in trains]}]

    @cython.locals(self="StepBase")
    def process_discard_train(self, action: dict[str, Any], entity: str) -> None:
        tid = str(action.get("train"))
        if tid not in self.g.entity_trains(entity):
            raise illegal("trains.discard", f"{sym_of(entity)} has no train {tid}")
        if not self.g.hooks("may_discard_train", entity, tid):
            raise illegal("trains.discard", f"{sym_of(entity)} must keep {tid}")
        depot.discard_to_depot(self.g, tid)


def after_operating_action(g: Context, action: dict[str, Any]) -> None:
    """A company whose turn ends without a train goes to liquidation (``trainless_at_turn_end``)."""
    if PARAMS.of(g).trainless_at_turn_end != "liquidation" or rounds.active_step(g) is not None:
        return
    r = g.state.round
    if not r.entities or r.entity_index >= len(r.entities):
        return
    entity = r.entities[r.entity_index]
    if kind_of(entity) != "C" or g.is_closed(entity) or g.entity_trains(entity):
        return
    corp = sym_of(entity)
    zone = LIQUIDATION.get(g)
    if g.state.corporations[corp].price is None or (zone is not None and zone.in_liquidation(g, corp)):
        return
    g.log(f"{corp} has no trains and liquidates")
    if zone is not None:
        zone.liquidate(g, corp)


def round_finished(g: Context, kind: str) -> None:
    """``export_at_or_end``: the bank exports its next train when an operating round ends."""
    p = PARAMS.of(g)
    if kind != "operating" or not p.export_at_or_end or not g.state.depot:
        return
    first_type = next(iter(g.book.trains))
    whole = p.first_export_removes_type and g.state.trains[g.state.depot[0]].sym == first_type
    depot.export_train(g, whole_type=whole)


def closed_operator_trains(g: Context, key: str) -> bool:
    """A closing corporation's trains go to the open market (``closed_company_trains_to: pool``)."""
    if PARAMS.of(g).closed_company_trains_to != "pool":
        return False
    for tid in list(g.entity_trains(key)):
        depot.discard_to_depot(g, tid)
    return True


class _Trains:
    """The :class:`~railbook.engine.interfaces.Trains` this mechanic provides."""

    must_buy = staticmethod(must_buy)


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={BUY_TRAIN_STEP: BuyTrain, DISCARD_TRAIN_STEP: DiscardTrain},
    hooks={
        "round_finished": round_finished,
        "after_operating_action": after_operating_action,
        "obsolete_count_for_limit": lambda g: PARAMS.of(g).obsolete_count_for_limit,
        "closed_operator_trains": closed_operator_trains,
        "assets_leaving": assets_leaving,
    },
    state=State,
    provides=[TRAINS.provided_by(_Trains())],
)
