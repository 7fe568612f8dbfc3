"""``stock_round``: players sell then buy shares, launch corporations, or pass.

Price moves come from the rulebook's ``market.movement``: ``sale`` ({who: president|anyone, move, per:
corporation_per_turn|share|full_10_percent}) and ``end_of_stock_round`` ({pool_shares, sold_out}).  The round
ends when every player has passed in succession; priority goes to the player after the last one who acted.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from railbook.params.stock_round import DECLARATION, STOCK_STEP, Params

from .. import market, shares
from ..access import params_of, state_of
from ..closing import close_operator
from ..contract import Mechanic
from ..errors import illegal
from ..interfaces import RECEIVERSHIP, STOCK_MARKET
from ..shares import Bundle
from ..state import BANK, POOL, ckey, kind_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context
    from ..state import Corporation, Share

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


@dataclasses.dataclass(slots=True)
class State:
    """Companies each player sold outside a stock round, barred to him in the next one
    (``no_buy_after_sell_until: after_next_operating_rounds``)."""

    sold_outside: dict[str, list[str]] = dataclasses.field(default_factory=dict)


PARAMS = params_of(DECLARATION, Params)
STATE = state_of(DECLARATION, State)


def after_operating_action(g: Context, action: dict[str, Any]) -> None:
    """Remember a player's sale in an operating round when the no-buy ban outlasts it."""
    p = PARAMS.of(g)
    if action.get("type") != "sell_shares" or not p.no_buy_after_sell:
        return
    if p.no_buy_after_sell_until != "after_next_operating_rounds" or kind_of(g.entity_key(action)) != "P":
        return
    sold = STATE.of(g).sold_outside.setdefault(g.entity_key(action), [])
    for sid in action.get("shares") or []:
        corp = g.state.shares[sid].corp if sid in g.state.shares else None
        if corp is not None and corp not in sold:
            sold.append(corp)
    g.epoch += 1


def round_started(g: Context, kind: str) -> None:
    """The bans left by sales in the operating rounds hold for this stock round."""
    if kind == "stock" and STATE.of(g).sold_outside:
        g.state.round.data["sold_before"] = STATE.of(g).sold_outside
        STATE.of(g).sold_outside = {}


def corporation_launched(g: Context, corp: str) -> None:
    """A corporation launched in a stock round (``sell_after: after_launch_round``: its shares are not sold in it)."""
    r = g.state.round
    if r is not None and r.kind == "stock":
        r.data.setdefault("launched_now", []).append(corp)


def sell_timing_ok(g: Context, player: str, corp: str) -> bool:
    rule = PARAMS.of(g).sell_after
    if rule == "after_launch_round":
        r = g.state.round
        return r is None or r.kind != "stock" or corp not in (r.data.get("launched_now") or [])
    c: Corporation = g.state.corporations[corp]
    if rule == "president_any_time_others_after_operation":
        return c.operated > 0 or c.owner == player
    if rule == "after_operation":
        return c.operated > 0
    if rule == "after_first_stock_round":
        return g.state.turn > 1 or g.state.round.kind != "stock"
    return True


def tradeable(g: Context, corp: str) -> bool:
    """``no_trade_zones``: the corporation's shares may be bought and sold where its price is now."""
    zones = PARAMS.of(g).no_trade_zones
    if not zones:
        return True
    c: Corporation = g.state.corporations[corp]
    price = c.price
    if not price:
        return True
    for kind in market.kinds_at(g, price):  # (a loop: a cell has a kind or two, and no sets are made per call)
        if kind in zones:
            return False
    return True


def holding_limit(g: Context, corp: str) -> int:
    spec = g.book.corporations.get(corp)
    own = None if spec is None else spec.get("max_ownership_percent")
    return PARAMS.of(g).max_percent_per_player if own is None else int(own)


def ipo_at_par(g: Context, corp: str) -> bool:
    """Shares from ``corp``'s IPO sell at par (``ipo_price: par``), unless the corporation always sells at the
    market price (its ``always_market_price``)."""
    if PARAMS.of(g).ipo_price != "par":
        return False
    spec = g.book.corporations.get(corp)
    return not (spec is not None and spec.get("always_market_price"))


def pool_limit(g: Context, corp: str) -> int:
    cap = PARAMS.of(g).pool_max_percent
    return 10**9 if cap is None else cap


class BuySellParShares(Step):
    name = STOCK_STEP
    description = "Sell then Buy Shares"

    @staticmethod
    def round_state() -> dict[str, Any]:
        return {"players_sold": {}, "players_bought": {}, "current_actions": [], "bought_from_ipo": False}

    @cython.locals(self="StepBase")
    def setup(self) -> None:
        for corps in self.rdata["players_sold"].values():
            for k in corps:
                corps[k] = "prev"
        self.rdata["current_actions"] = []
        self.rdata["bought_from_ipo"] = False
        self.rdata["bought_now"] = {}

    # --------------------------------------------------------------------------------- queries

    @cython.locals(self="StepBase")
    def bought(self) -> bool:
        for a in self.rdata["current_actions"]:
            if a in ("buy_shares", "par", "buy_company"):
                return True
        return False

    @cython.locals(self="StepBase")
    def sold_now(self, player: str, corp: str) -> str | None:
        return self.rdata["players_sold"].get(player, {}).get(corp)

    @cython.locals(self="StepBase")
    def sold_before(self, player: str) -> list[str]:
        """Companies ``player`` sold in the operating rounds before this stock round (still barred to him)."""
        return self.rdata.get("sold_before", {}).get(player, [])

    @cython.locals(self="StepBase", c="Corporation")
    def can_gain(self, player: str, b: Bundle) -> bool:
        g = self.g
        if kind_of(b.owner) == "P":
            return False
        if not shares.holding_ok(g, player, b.corp, b.percent):
            return False
        due = g.hooks("stock_obligation", player)
        if due is not None and b.corp != due and not self.bought():
            return False  # a share he must buy first
        c: Corporation = g.state.corporations[b.corp]
        # (a cell free of the limit, as ``shares.num_certs`` counts: a yellow one, or one where more may be held)
        kinds: list[str] = market.kinds_at(g, c.price) if c.price is not None else []
        counts = c.price is None or not (
            "no_cert_limit" in kinds or "unlimited_holding" in kinds or g.hooks("cert_exempt", player, b.corp)
        )
        limit = g.state.cert_limit
        if counts and not g.hooks("cert_excess_allowed"):
            return shares.num_certs(g, player) + shares.bundle_certs(g, b) <= limit
        return (not counts) or shares.certs_at_most(g, player) < limit or shares.num_certs(g, player) < limit

    @cython.locals(self="StepBase")
    def can_buy(self, player: str, b: Bundle) -> bool:
        g = self.g
        if b.owner == POOL and shares.presidents_share(g, b) and not shares.shares_of(g, player, b.corp):
            return False  # the president's certificate in the pool goes only to a shareholder
        if not all(g.state.shares[s].buyable for s in b.shares) or not tradeable(g, b.corp):
            return False
        if g.cash(player) < shares.bundle_price(g, b):
            return False
        if PARAMS.of(g).no_buy_after_sell and (self.sold_now(player, b.corp) or b.corp in self.sold_before(player)):
            return False
        if self.bought() and not self.another_market_buy(b):
            return False
        return self.can_gain(player, b)

    @cython.locals(self="StepBase")
    def another_market_buy(self, b: Bundle) -> bool:
        """A further open-market purchase this turn: allowed while the corporation's price is in a ``multiple_buy``
        cell and the turn's purchases so far were only open-market shares of that corporation (and, with
        ``multiple_buy_after_private``, a private bought from a player)."""
        g = self.g
        price = g.state.corporations[b.corp].price
        from_ipo = PARAMS.of(g).multiple_buy_from_ipo
        if (b.owner != POOL and not from_ipo) or not price or "multiple_buy" not in market.kinds_at(g, price):
            return False
        acts = self.rdata["current_actions"]
        private_stops = "buy_company" in acts and not PARAMS.of(g).multiple_buy_after_private
        if "par" in acts or private_stops or (self.rdata.get("bought_from_ipo") and not from_ipo):
            return False
        return set(self.rdata.get("bought_now") or {}) <= {b.corp}

    @cython.locals(self="StepBase")
    def buy_bundle_for(self, player: str, b: Bundle) -> Bundle:
        """What buying ``b`` really takes (a rule may count a pool president's certificate as one share)."""
        g = self.g
        receivership = RECEIVERSHIP.get(g)
        if receivership is not None:
            b = receivership.purchase_bundle(g, player, b) or b
        par = g.state.corporations[b.corp].par
        if b.owner == ckey(b.corp) and b.share_price is None and par is not None and ipo_at_par(g, b.corp):
            b = b.priced(market.price_at(g, par))
        return b

    @cython.locals(self="StepBase")
    def can_sell(self, player: str, b: Bundle) -> bool:
        if b.owner != player or not self._corp_sellable(player, b.corp):
            return False
        if self.bought() and self._sell_first() and not self._buy_then_sell():
            return False
        if not self._keeps_bought(player, b):
            return False
        return shares.fit_in_pool(self.g, b) and shares.can_dump(self.g, b, player) and self._restores_limit(player, b)

    @cython.locals(self="StepBase")
    def _restores_limit(self, player: str, b: Bundle) -> bool:
        """Without ``sell_down_to_share_limit``, a sale by a player above the share limit must end the excess."""
        if PARAMS.of(self.g).sell_down_to_share_limit:
            return True
        return shares.holding_ok(self.g, player, b.corp, -b.percent)

    @cython.locals(self="StepBase")
    def _keeps_bought(self, player: str, b: Bundle) -> bool:
        """Without ``sell_bought_this_turn`` a sale leaves the player at least what he bought this turn."""
        just = self.rdata.get("bought_now", {}).get(b.corp, 0)
        if not just or PARAMS.of(self.g).sell_bought_this_turn:
            return True
        return b.percent <= shares.percent_of(self.g, player, b.corp) - just

    @cython.locals(self="StepBase")
    def _sell_first(self) -> bool:
        return PARAMS.of(self.g).sell_before_buy

    @cython.locals(self="StepBase")
    def _buy_then_sell(self) -> bool:
        """After a purchase the player may still sell, when the turn began with the purchase (buy, then sell) and
        no purchase has followed a sale (buy, sell, buy again in a multiple-buy cell ends the selling)."""
        if not PARAMS.of(self.g).buy_then_sell:
            return False
        acts = self.rdata["current_actions"]
        if PARAMS.of(self.g).sell_order_by_action_kinds:
            moves = [a for a in acts if a in ("sell_shares", "buy_shares", "par", "buy_company")]
            return not (len(set(moves)) == 2 and moves[-1] != "sell_shares")
        first_buy = next((i for i, a in enumerate(acts) if a in ("buy_shares", "par", "buy_company")), None)
        if first_buy is None or "sell_shares" in acts[:first_buy]:
            return False
        if "sell_shares" not in acts:
            return True
        first_sell = acts.index("sell_shares")
        return not any(a in ("buy_shares", "par", "buy_company") for a in acts[first_sell:])

    @cython.locals(self="StepBase")
    def _corp_sellable(self, player: str, corp: str) -> bool:
        """Checks that do not depend on the bundle.  (Shares of a corporation in receivership may be
        sold in a stock round, as on 18xx.games; emergency and bankruptcy sales exclude them.)"""
        g = self.g
        if not sell_timing_ok(g, player, corp) or not tradeable(g, corp):
            return False
        return not (PARAMS.of(g).sell_in_blocks and self.sold_now(player, corp) == "now")

    @cython.locals(self="StepBase", c="Corporation")
    def corporations(self) -> list[str]:
        corps = self.g.state.corporations
        out = []
        for sym in self.g.state.corp_order:
            c: Corporation = corps[sym]
            if not c.closed and not c.removed:
                out.append(sym)
        return out

    @cython.locals(self="StepBase", c="Corporation")
    def iter_sellable(self, player: str) -> Iterator[Bundle]:
        g = self.g
        if self.bought() and self._sell_first() and not self._buy_then_sell():
            return
        held = g.state.holdings.get(player)
        if not held:
            return
        corps = g.state.corporations
        c: Corporation
        for corp in g.state.corp_order:  # (as corporations(), looking only at those he holds)
            if not held.get(corp):
                continue
            c = corps[corp]
            if c.closed or c.removed or not self._corp_sellable(player, corp):
                continue
            for b in shares.bundles_for(g, player, corp):
                if (
                    shares.fit_in_pool(g, b)
                    and shares.can_dump(g, b, player)
                    and self._keeps_bought(player, b)
                    and self._restores_limit(player, b)
                ):
                    yield b

    @cython.locals(self="StepBase")
    def sellable(self, player: str) -> list[Bundle]:
        return list(self.iter_sellable(player))

    @cython.locals(self="StepBase", c="Corporation", share="Share")
    def iter_buyable(self, player: str) -> Iterator[Bundle]:
        """The cheapest certificate of each corporation, from the pool and from the treasury, that
        ``player`` may buy now."""
        g = self.g
        more = self.bought()  # only further open-market shares in a multiple-buy cell (another_market_buy)
        cash = g.cash(player)
        st = g.state
        p = PARAMS.of(g)
        no_rebuy = p.no_buy_after_sell
        sold = self.rdata["players_sold"].get(player, {})
        before = self.sold_before(player)
        c: Corporation
        for corp in self.corporations():
            c = st.corporations[corp]
            if not c.ipoed or c.price is None or (no_rebuy and (sold.get(corp) or corp in before)):
                continue
            if not tradeable(g, corp):
                continue
            unit = shares.share_percent(g, corp)
            for holder in (POOL,) if more and not p.multiple_buy_from_ipo else (POOL, ckey(corp)):
                at_par = holder != POOL and c.par is not None and ipo_at_par(g, corp)
                pps = market.price_at(g, c.par if at_par else c.price)
                small = None  # the smallest buyable certificate (the first of them)
                least = 0
                share: Share
                for sid in shares.shares_of(g, holder, corp):
                    share = st.shares[sid]
                    if share.buyable and (small is None or share.percent < least):
                        small, least = sid, share.percent
                if small is None:
                    continue
                # the cheapest this certificate can cost (a pool president's certificate may count as one share)
                if cash * unit < pps * min(least, unit):
                    continue
                b = self.buy_bundle_for(player, shares.make_bundle(g, [small]))
                if holder == POOL and shares.presidents_share(g, b) and not shares.shares_of(g, player, corp):
                    continue  # the president's certificate in the pool goes only to a shareholder
                if more and not self.another_market_buy(b):
                    continue
                if cash >= shares.bundle_price(g, b) and self.can_gain(player, b):
                    yield b

    @cython.locals(self="StepBase")
    def buyable(self, player: str) -> list[Bundle]:
        return list(self.iter_buyable(player))

    @cython.locals(self="StepBase")
    def parable(self, player: str) -> list[str]:
        return list(self.iter_parable(player))

    @cython.locals(self="StepBase")
    def iter_parable(self, player: str) -> Iterator[str]:
        """The corporations ``player`` may start now (see :meth:`parable`), one at a time."""
        g = self.g
        if self.bought() or g.hooks("ipo_by_auction"):
            return
        cash = g.cash(player)
        cheapest = min((p["price"] for p in g.book.market["par"]), default=None)
        if cheapest is None:
            return
        for corp in self.corporations():
            c = g.state.corporations[corp]
            if c.ipoed or cheapest * shares.president_shares(g, corp) > cash:
                continue  # launched, or no starting price he can afford (par_prices would be empty)
            if not g.hooks("may_launch", corp):
                continue
            b = shares.make_bundle(g, [f"{corp}_0"])
            if b.owner == ckey(corp) and self.can_gain(player, b):
                yield corp

    @cython.locals(self="StepBase")
    def par_prices(self, player: str, corp: str) -> list[dict[str, Any]]:
        """The starting prices at which ``player`` can afford ``corp``'s president's certificate."""
        g = self.g
        cost = shares.president_shares(g, corp)
        cash = g.cash(player)
        return [p for p in g.book.market["par"] if p["price"] * cost <= cash]

    @cython.locals(self="StepBase", corp="Corporation")
    def must_sell(self, player: str) -> bool:
        g = self.g
        limit = g.state.cert_limit + g.hooks("cert_allowance", player)
        over = shares.certs_at_most(g, player) > limit and shares.num_certs(g, player) > limit
        if over:
            return next(self.iter_sellable(player), None) is not None
        if PARAMS.of(g).sell_down_to_share_limit:
            # (above the share limit of a corporation: only a sale of its shares brings him back to it; where none
            # can be sold now, nothing else is forced on him)
            above = []
            corp: Corporation
            for c in g.state.holdings.get(player, {}):
                corp = g.state.corporations[c]
                if not corp.closed and not shares.holding_ok(g, player, c):
                    above.append(c)
            if above:
                for b in self.iter_sellable(player):
                    if b.corp in above:
                        return True
        return False

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        if entity != self.current_entity() or "company_action" in self.rdata["current_actions"]:
            return []
        if self.must_sell(entity):
            return ["sell_shares"]
        if self.g.hooks("stock_obligation", entity) is not None and not self.bought():
            # a share he must buy this turn: buying it, or selling to afford it, is all he may do first
            if next(self.iter_buyable(entity), None) is not None:
                return ["buy_shares"]
            if next(self.iter_sellable(entity), None) is not None:
                return ["sell_shares"]
        acts = []
        if next(self.iter_buyable(entity), None) is not None:
            acts.append("buy_shares")
        if next(self.iter_parable(entity), None) is not None:
            acts.append("par")
        if next(self.iter_sellable(entity), None) is not None:
            acts.append("sell_shares")
        if self.privates_for_sale(entity):
            acts.append("buy_company")
        if acts or g_options(self.g, entity):
            acts.append("pass")
        return acts

    @cython.locals(self="StepBase")
    def privates_for_sale(self, player: str) -> list[str]:
        """``buy_private_from_player``: the other players' privates ``player`` may buy this turn."""
        g = self.g
        p = PARAMS.of(g)
        if not p.buy_private_from_player or self.bought() or g.cash(player) < 1:
            return []
        if p.buy_private_from_player_after == "after_first_stock_round" and g.state.turn == 1:
            return []
        phases = p.buy_private_from_player_phases
        if phases is not None and g.phase_name() not in phases:
            return []
        if g.hooks("privates_count_for_cert_limit") and shares.num_certs(g, player) >= g.state.cert_limit:
            return []
        return [
            sym
            for sym, c in g.state.companies.items()
            if not c.closed
            and not c.blank
            and c.owner
            and kind_of(c.owner) == "P"
            and c.owner != player
            and not any(a.type == "no_buy" for a in c.abilities)  # (ability no_buy: nobody buys it from its owner)
        ]

    @cython.locals(self="StepBase")
    def any_action(self, entity: str) -> bool:
        """``bool(actions(entity))`` without building the list: a forced sale or a share he must buy leaves him
        something to do exactly when some certificate is sellable or buyable, so those cases need no test of
        their own."""
        if entity != self.current_entity() or "company_action" in self.rdata["current_actions"]:
            return False
        # (sales first: a player who holds shares can mostly sell one, found after a look at his few holdings, while a
        # player who can buy nothing makes the purchase search price every corporation)
        return (
            next(self.iter_sellable(entity), None) is not None
            or next(self.iter_buyable(entity), None) is not None
            or next(self.iter_parable(entity), None) is not None
            or g_options(self.g, entity)
            or bool(self.privates_for_sale(entity))
        )

    @cython.locals(self="StepBase")
    def allows(self, entity: str, atype: str) -> bool:
        """``atype in actions(entity)``, testing only what that type needs."""
        if atype not in ("buy_shares", "par", "sell_shares", "buy_company", "pass"):
            return False
        if entity != self.current_entity() or "company_action" in self.rdata["current_actions"]:
            return False
        if self.must_sell(entity):
            return atype == "sell_shares"
        if self.g.hooks("stock_obligation", entity) is not None and not self.bought():
            if next(self.iter_buyable(entity), None) is not None:
                return atype == "buy_shares"
            if next(self.iter_sellable(entity), None) is not None:
                return atype == "sell_shares"
        if atype == "buy_shares":
            return next(self.iter_buyable(entity), None) is not None
        if atype == "par":
            return next(self.iter_parable(entity), None) is not None
        if atype == "sell_shares":
            return next(self.iter_sellable(entity), None) is not None
        if atype == "buy_company":
            return bool(self.privates_for_sale(entity))
        return self.has_actions(entity)

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        acts = self.actions(entity)
        out = []
        if "sell_shares" in acts:
            out.append(
                {
                    "type": "sell_shares",
                    "choices": [{"shares": b.shares, "percent": b.percent} for b in self.sellable(entity)],
                }
            )
        if "buy_shares" in acts:
            out.append({"type": "buy_shares", "choices": [{"shares": b.shares} for b in self.buyable(entity)]})
        if "par" in acts:
            choices = [
                {"corporation": c, "share_price": f"{p['price']},{p['row']},{p['col']}"}
                for c in self.parable(entity)
                for p in self.par_prices(entity, c)
            ]
            out.append({"type": "par", "choices": choices})
        if "buy_company" in acts:
            top = self.g.cash(entity)
            privates = self.privates_for_sale(entity)
            out.append(
                {"type": "buy_company", "choices": [{"company": c, "price": {"min": 1, "max": top}} for c in privates]}
            )
        if "pass" in acts:
            out.append({"type": "pass"})
        return out

    # ------------------------------------------------------------------------------- processing

    @cython.locals(self="StepBase")
    def track(self, atype: str, player: str) -> None:
        self.rdata["last_to_act"] = player
        self.rdata["current_actions"].append(atype)

    @cython.locals(self="StepBase")
    def process_sell_shares(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        b = shares.make_bundle(g, list(action.get("shares") or []), action.get("percent"))
        if not self.can_sell(entity, b):
            raise illegal("stock.sell", f"{g.name(entity)} cannot sell {', '.join(b.shares)} now")
        self.rdata["players_sold"].setdefault(entity, {})[b.corp] = "now"
        shares.sell_and_move(g, b)
        self.track("sell_shares", entity)
        c = g.state.corporations[b.corp]
        if "close" in market.kinds_at(g, c.price):
            # a corporation sold down to a closing cell leaves at once, before the turn moves on
            g.log(f"{b.corp} closes")
            close_operator(g, ckey(b.corp))

    @cython.locals(self="StepBase")
    def process_buy_shares(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        b = shares.make_bundle(g, list(action.get("shares") or []))
        b = self.buy_bundle_for(entity, b)
        if not self.can_buy(entity, b):
            raise illegal("stock.buy", f"{g.name(entity)} cannot buy {', '.join(b.shares)} now")
        bought = self.rdata["players_bought"].setdefault(entity, {})
        bought[b.corp] = bought.get(b.corp, 0) + b.percent
        now = self.rdata.setdefault("bought_now", {})
        now[b.corp] = now.get(b.corp, 0) + b.percent
        if b.owner == ckey(b.corp):
            self.rdata["bought_from_ipo"] = True
        if not g.hooks("stock_purchase", entity, b.corp, list(b.shares), shares.bundle_price(g, b)):
            shares.buy(g, entity, b)
        self.track("buy_shares", entity)

    @cython.locals(self="StepBase")
    def process_buy_company(self, action: dict[str, Any], entity: str) -> None:
        """A private bought from another player at the price they agreed (``buy_private_from_player``)."""
        g = self.g
        sym, price = action.get("company"), action.get("price")
        if sym not in self.privates_for_sale(entity):
            raise illegal("stock.private", f"{g.name(entity)} cannot buy private {sym!r} now")
        if not isinstance(price, int) or not 1 <= price <= g.cash(entity):
            raise illegal("stock.private_price", f"{g.name(entity)} may pay between 1 and {g.cash(entity)}")
        c = g.state.companies[str(sym)]
        seller = str(c.owner)
        g.player(seller).companies.remove(str(sym))
        c.owner = entity
        g.player(entity).companies.append(str(sym))
        g.spend(entity, seller, price)
        g.log(f"{g.name(entity)} buys {sym} from {g.name(seller)} for {price}")
        g.epoch += 1
        self.track("buy_company", entity)

    @cython.locals(self="StepBase")
    def process_par(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        corp = action.get("corporation")
        if corp not in g.state.corporations:
            raise illegal("stock.par", f"no corporation {corp!r}")
        c = g.state.corporations[corp]
        if c.ipoed or c.closed or c.removed or not g.hooks("may_launch", corp):
            raise illegal("stock.par", f"{corp} cannot be launched")
        pos = parse_price(g, action.get("share_price"))
        cell = g.book.cell(*pos)
        if cell is None or "par" not in cell["kinds"]:
            raise illegal("stock.par", f"{action.get('share_price')} is not a starting price")
        if self.bought():
            raise illegal("stock.par", "only one purchase per turn")
        b = shares.make_bundle(g, [f"{corp}_0"])
        if b.owner != ckey(corp):
            raise illegal("stock.par", f"{corp}'s president's certificate is not available")
        if not self.can_gain(entity, b):
            raise illegal("stock.cert_limit", f"{g.name(entity)} cannot take another certificate")
        if g.cash(entity) < cell["price"] * shares.president_shares(g, corp):
            raise illegal("stock.cash", f"{g.name(entity)} cannot afford {corp} at {cell['price']}")
        market.place(g, corp, pos)
        c.par = list(pos)
        bought = self.rdata["players_bought"].setdefault(entity, {})
        bought[corp] = bought.get(corp, 0) + b.percent
        g.log(f"{g.name(entity)} launches {corp} at {cell['price']}")
        shares.buy(g, entity, b)
        g.hooks("corporation_launched", corp)
        self.track("par", entity)

    @cython.locals(self="StepBase")
    def pass_(self) -> None:
        super().pass_()
        g = self.g
        cur = self.current_entity()
        if cur is None:
            return
        order = self.rdata["pass_order"]
        if self.rdata["current_actions"]:
            if cur in order:
                order.remove(cur)
            g.player(cur).passed = False
        else:
            if cur not in order:
                order.append(cur)
            g.player(cur).passed = True


def g_options(g: Context, player: str) -> bool:
    """Other mechanics offer the player something in his turn (so he may pass rather than be skipped)."""
    return bool(g.hooks("stock_turn_options", player))


def parse_price(g: Context, spec: Any) -> list[int]:
    """``"40,0,4"`` (price,row,col) -> [row, col]."""
    try:
        parts = [int(x) for x in str(spec).split(",")]
    except ValueError:
        raise illegal("stock.price", f"bad share price {spec!r}") from None
    if len(parts) == 3:
        return [parts[1], parts[2]]
    if len(parts) == 2:
        return parts
    if len(parts) == 1:
        for p in g.book.market["par"]:
            if p["price"] == parts[0]:
                return [p["row"], p["col"]]
    raise illegal("stock.price", f"bad share price {spec!r}")


def finish_stock_round(g: Context) -> None:
    """End-of-round moves, in share price order: sold out (shares with players, or redeemed) -> up, by
    ``over_100_percent`` when players hold more than 100% (short sales); shares in the pool -> down."""
    rules = (g.book.market.get("movement") or {}).get("end_of_stock_round") or {}
    up = _times(rules.get("sold_out", 1))
    over = rules.get("over_100_percent")
    up_over = up if over is None else _times(over)
    down = _times(rules.get("pool_shares", 0))
    per_share = _times(rules.get("then_per_market_share", 0))
    sizes = rules.get("sold_out_sizes")
    corps = [c for c in g.state.corp_order if g.state.corporations[c].floated and not g.state.corporations[c].closed]
    corps.sort(key=lambda c: market.sort_key(g, c))
    first = PARAMS.of(g).redeemed_sold_from_turn
    count_redeemed = first is not None and g.state.turn >= first
    for corp in corps:
        holders = shares.player_holders(g, corp)
        sized = sizes is None or 100 // shares.share_percent(g, corp) in sizes
        long = sum(v for v in holders.values() if v > 0)  # net of shorts: a short seller holds none
        redeemed = _redeemed_percent(g, corp) if count_redeemed else 0
        out_of_play = shares.percent_of(g, BANK, corp)  # (short_handed: certificates taken out of the game)
        held = long + redeemed + out_of_play
        steps = up_over if held > 100 else up
        if steps and sized and held >= 100:
            market.move(g, corp, "up" if not g.book.market_1d else "right", steps)
        if down and shares.percent_of(g, POOL, corp) > 0:
            market.move(g, corp, "down" if not g.book.market_1d else "left", abs(down))
        if per_share:
            n = sum(1 for s in shares.shares_of(g, POOL, corp) if g.state.shares[s].percent > 0)
            if n:
                market.move(g, corp, "down" if not g.book.market_1d else "left", per_share * n)


def _redeemed_percent(g: Context, corp: str) -> int:
    """% of ``corp`` it redeemed and holds off sale (counted as sold for the sold-out move)."""
    st = g.state.shares
    return sum(st[s].percent for s in shares.shares_of(g, ckey(corp), corp) if not st[s].buyable)


def _times(rule: Any) -> int:
    """Steps of a move written as a number or as ``<direction>_<steps>`` (``right_1``); ``none`` is 0."""
    if isinstance(rule, int):
        return rule
    if not rule or rule == "none":
        return 0
    return int(str(rule).rpartition("_")[2] or 1)


class _StockMarket:
    """The :class:`~railbook.engine.interfaces.StockMarket` this mechanic provides."""

    @staticmethod
    @cython.locals(g="Context")
    def no_trade_zones(g: Context) -> list[str]:
        return PARAMS.of(g).no_trade_zones

    @staticmethod
    @cython.locals(g="Context")
    def sells_in_blocks(g: Context) -> bool:
        return PARAMS.of(g).sell_in_blocks

    @staticmethod
    @cython.locals(g="Context")
    def sale_timing_ok(g: Context, player: str, corp: str) -> bool:
        return sell_timing_ok(g, player, corp)


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={STOCK_STEP: BuySellParShares},
    hooks={
        "stock_round_finished": finish_stock_round,
        "holding_limit": holding_limit,
        "pool_limit": pool_limit,
        "after_operating_action": after_operating_action,
        "round_started": round_started,
        "corporation_launched": corporation_launched,
    },
    state=State,
    provides=[STOCK_MARKET.provided_by(_StockMarket())],
)
