"""``bankruptcy``: a president who cannot fund a required train goes bankrupt.

The operating corporation first issues what it may (the ``EmergencyIssue`` interface); then the president sells
what the emergency rules allow (prices move), then every remaining share goes to the pool without price moves (a
corporation left without a president goes to ``Receivership.presidency_vacated``); the player's privates and
minors close and the player's cash goes where the parameters say.  The game-end trigger ``bankrupt`` decides
whether the game goes on (``params.players_left``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from railbook.params.bankruptcy import BANKRUPT_STEP, DECLARATION, Params
from railbook.params.trains import BUY_TRAIN_STEP

from .. import depot, market, rounds, shares
from ..access import params_of
from ..closing import close_company, close_operator
from ..contract import Mechanic
from ..errors import illegal
from ..interfaces import BANKRUPTCY, EMERGENCY_ISSUE, LIQUIDATION, RECEIVERSHIP, STOCK_MARKET, TRAINS
from ..state import BANK, POOL, ckey, clone, kind_of, mkey, sym_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


PARAMS = params_of(DECLARATION, Params)


@cython.locals(g="Context")
def _presidency_vacated(g: Context, corp: str) -> None:
    """``corp`` has no president now: the receivership rules take it over, where a mechanic provides them."""
    receivership = RECEIVERSHIP.get(g)
    if receivership is not None:
        receivership.presidency_vacated(g, corp)


@cython.locals(g="Context")
def no_trade_zones(g: Context) -> list[str]:
    """Market zones whose shares may not be sold (none unless a mechanic provides
    :class:`~railbook.engine.interfaces.StockMarket`)."""
    market_rules = STOCK_MARKET.get(g)
    return market_rules.no_trade_zones(g) if market_rules is not None else []


@cython.locals(g="Context")
def emergency_bundles(g: Context, corp: str) -> list[shares.Bundle]:
    """Bundles ``corp`` (a key) may issue now to raise money for a train (none unless a mechanic provides
    :class:`~railbook.engine.interfaces.EmergencyIssue`)."""
    issue = EMERGENCY_ISSUE.get(g)
    return issue.bundles(g, corp) if issue is not None else []


def limit_reached(g: Context) -> bool:
    """The bankruptcies the game-end trigger allows have all happened."""
    live = sum(1 for p in g.state.players if not p.bankrupt)
    for trig in g.book.end:
        if trig["type"] == "bankrupt":
            left = (trig.get("params") or {}).get("players_left")
            if left is not None:
                return live <= int(left)
    return live < len(g.state.players)


@cython.locals(g="Context")
def _buy_train_step(g: Context) -> Any:
    found = rounds.steps_named(g, BUY_TRAIN_STEP)
    return found[0] if found else None


@cython.locals(g="Context")
def emergency_liquidity(g: Context, player: str, corp: str) -> int:
    """Cash the president could raise: cash plus the best sellable bundle of each corporation."""
    step = _buy_train_step(g)
    total = g.cash(player)
    for c in g.state.corp_order:
        if g.state.corporations[c].closed:
            continue
        best = 0
        for b in shares.bundles_for(g, player, c):
            if step is None or step.can_sell(player, b):
                best = max(best, shares.bundle_price(g, b))
        total += best
    return total


class Bankrupt(Step):
    name = BANKRUPT_STEP
    description = "Bankrupt"
    offers = frozenset({"bankrupt"})

    def blocks(self) -> bool:
        return False

    def actions(self, entity: str) -> list[str]:
        if entity != self.current_entity() or kind_of(entity) != "C":
            return []
        return ["bankrupt"]

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        g = self.g
        if not self.actions(entity) or not _needs_train(g, entity):
            return []
        if rounds.active_step(g) is not _buy_train_step(g):
            return []  # bankruptcy comes of the train a corporation must buy "after running its routes" (1846 §6.5)
        trial = type(g)(g.book, clone(g.state))
        try:
            rounds.process(trial, {"type": "bankrupt", "entity": entity[2:], "entity_type": "corporation"})
        except Exception:
            return []
        return [{"type": "bankrupt"}]

    @cython.locals(self="StepBase")
    def can_go_bankrupt(self, corp: str) -> bool:
        g = self.g
        player = g.owner(corp)
        if player is None or kind_of(player) != "P":
            return False
        power = g.cash(corp) + max((shares.bundle_price(g, b) for b in emergency_bundles(g, corp)), default=0)
        power += emergency_liquidity(g, player, corp)
        return power < depot.min_depot_price(g)

    @cython.locals(self="StepBase")
    def process_bankrupt(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        corp = entity
        player = g.owner(corp)
        if player is None or kind_of(player) != "P":
            raise illegal("bankrupt.player", f"{sym_of(corp)} has no president to go bankrupt")
        bundles = emergency_bundles(g, corp)
        if bundles:
            EMERGENCY_ISSUE.of(g).issue(g, corp, max(bundles, key=lambda b: shares.num_shares(g, b)))
        if not self.can_go_bankrupt(corp):
            raise illegal(
                "bankrupt.not_needed",
                f"{g.name(player)} can still raise the money for {sym_of(corp)}'s train",
            )
        g.log(f"-- {g.name(player)} goes bankrupt --")
        step = _buy_train_step(g)
        order = sorted(
            [c for c in g.state.holdings.get(player, {}) if g.state.corporations[c].price is not None],
            key=lambda c: market.sort_key(g, c),
        )
        for c in order:
            if g.hooks("in_receivership", ckey(c)):
                continue
            options = [b for b in shares.bundles_for(g, player, c) if step is None or step.can_sell(player, b)]
            if options:
                best = max(options, key=lambda b: shares.bundle_price(g, b))
                _sell_estate_bundle(g, best, sym_of(corp))
        keeps = not PARAMS.of(g).shares_to_pool
        for c in [] if keeps else order:
            ids = list(shares.shares_of(g, player, c))
            if not ids or g.state.corporations[c].closed:
                continue
            b = shares.make_bundle(g, ids)
            shares.sell(g, b)
            if g.state.corporations[c].owner == player:
                _presidency_vacated(g, c)
        if step is not None:
            step.st.data["last_share_sold_price"] = None
            step.st.data["last_share_issued_price"] = None
        for sym, m in g.state.minors.items():
            if m.owner == player and not m.closed:
                close_operator(g, mkey(sym))
        for sym in [] if keeps else list(g.player(player).companies):
            close_company(g, sym)
        cash = g.cash(player)
        if cash > 0:
            g.spend(player, corp if PARAMS.of(g).cash_to == "operating_corporation" else BANK, cash)
        for c in list(g.state.corp_order):
            corpo = g.state.corporations[c]
            if not corpo.closed and corpo.price is not None and "close" in market.kinds_at(g, corpo.price):
                close_operator(g, ckey(c))
        g.player(player).bankrupt = True


def player_bankrupt(g: Context, player: str, corp: str | None) -> None:
    """A player who cannot pay a debt leaves the game.  With ``shares_to_pool`` he first sells the largest
    sellable bundle of each company (prices move), then every share and short he has goes to the market
    without moving prices (a share and a short of one company there cancel); a company whose president's
    certificate goes there is liquidated when ``president_certificate_in_market_liquidates`` and has no
    president.  His privates close (where the rules put them in the market nobody may use or buy them there, which
    is the same).  With ``cash_to:
    corporation_owed_interest_else_bank`` his cash then goes to ``corp``, the company whose interest he owed."""
    p = PARAMS.of(g)
    if not p.shares_to_pool:
        return
    held = _estate(g, player)
    for c in held:
        corp_state = g.state.corporations[c]
        if corp_state.price is None or corp_state.closed:
            continue
        kinds = set(market.kinds_at(g, corp_state.price))
        zones = set(no_trade_zones(g))
        if kinds & zones:
            continue
        options = [
            b
            for b in shares.bundles_for(g, player, c)
            if shares.can_dump(g, b, player) and shares.fit_in_pool(g, b) and _keeps_chair(g, player, b)
        ]
        if options:
            best = max(options, key=lambda b: shares.bundle_price(g, b))
            _sell_estate_bundle(g, best)
    for c in _estate(g, player) if p.estate_order == "operating_order" else held:
        ids = shares.shares_of(g, player, c)
        if not ids:
            continue
        presided = g.state.corporations[c].owner == player
        for sid in list(ids):
            shares.move_share(g, sid, POOL)
        shares.close_short_pairs(g, POOL, c)
        if presided:
            if p.president_certificate_in_market_liquidates:
                g.log(f"-- {c} enters liquidation (it has no president) --")
                zone = LIQUIDATION.get(g)
                if zone is not None:
                    zone.liquidate(g, c)
            g.state.corporations[c].owner = POOL
            _presidency_vacated(g, c)
    for sym in list(g.player(player).companies):
        close_company(g, sym)
    if corp is not None and p.cash_to == "corporation_owed_interest_else_bank" and g.cash(player) > 0:
        g.log(f"{g.cash(player)} is transferred from {g.name(player)} to {corp}")
        g.spend(player, ckey(corp), g.cash(player))
    g.epoch += 1


@cython.locals(g="Context")
def _sell_estate_bundle(g: Context, b: shares.Bundle, in_need: str | None = None) -> None:
    """A bankrupt's sale: the price moves unless ``sales_move_prices`` is off (``operating_corporation_sales_move``:
    but for the shares of ``in_need``, the corporation whose train he could not fund)."""
    p = PARAMS.of(g)
    if p.sales_move_prices or (p.operating_corporation_sales_move and b.corp == in_need):
        shares.sell_and_move(g, b)
    else:
        shares.sell(g, b)


def _estate(g: Context, player: str) -> list[str]:
    """The companies of which ``player`` holds certificates, in the parameters' order."""
    held = [c for c, ids in g.state.holdings.get(player, {}).items() if ids and c in g.state.corporations]
    if PARAMS.of(g).estate_order == "operating_order":
        held.sort(key=lambda c: market.sort_key(g, c))
    return held


@cython.locals(g="Context")
def _keeps_chair(g: Context, player: str, b: shares.Bundle) -> bool:
    """Selling ``b`` leaves ``player`` president of its company if he is."""
    if g.state.corporations[b.corp].owner != player:
        return True
    holders = shares.player_holders(g, b.corp)
    others = max((v for h, v in holders.items() if h != player), default=0)
    return holders.get(player, 0) - b.percent >= others and shares.presidents_share(g, b) is None


@cython.locals(g="Context")
def _needs_train(g: Context, corp: str) -> bool:
    return TRAINS.of(g).must_buy(g, corp)


class _Bankruptcy:
    """The :class:`~railbook.engine.interfaces.Bankruptcy` this mechanic provides."""

    @staticmethod
    @cython.locals(g="Context")
    def forced_sales_may_change_presidency(g: Context) -> str:
        return PARAMS.of(g).forced_sales_may_change_presidency

    limit_reached = staticmethod(limit_reached)
    player_bankrupt = staticmethod(player_bankrupt)


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={BANKRUPT_STEP: Bankrupt},
    provides=[BANKRUPTCY.provided_by(_Bankruptcy())],
)
