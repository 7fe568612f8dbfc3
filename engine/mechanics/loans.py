"""``loans``: companies borrow fixed-size loans from the bank and pay interest on them each operating round.

Interest is a fixed amount per loan (``interest_per_loan``) or a market-wide rate set from the loans
outstanding (``market_rate``).  Step ``loan`` takes and repays loans (a loan may be taken at any point of the
turn, repayment comes after the train purchase); step ``loan_interest`` charges the interest once the trains
have run (placed before the dividend in the round's steps; while the president must still raise part of it, the
rest of the turn waits); step ``loan_redemption`` forces the loans over the
cap to be repaid (placed after the train purchase); step ``cash_crisis`` makes a president who owes money for
his company sell shares, and bankrupts him when he cannot.  At game end each outstanding loan lowers the
value of the company's shares (``final_value_per_share_per_loan``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from railbook.params.loans import (
    CASH_CRISIS_STEP,
    DECLARATION,
    LOAN_INTEREST_STEP,
    LOAN_REDEMPTION_STEP,
    LOAN_STEP,
    Params,
)
from railbook.params.routes import ROUTE_STEP
from railbook.params.trains import BUY_TRAIN_STEP

from .. import market, rounds, shares
from ..access import params_of, state_of
from ..contract import Mechanic
from ..errors import illegal
from ..interfaces import BANKRUPTCY, LIQUIDATION, LOANS, STOCK_MARKET
from ..shares import Bundle
from ..state import BANK, ckey, kind_of, sym_of
from ..steps.base import Step, step_active

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


@cython.locals(g="Context")
def no_trade_zones(g: Context) -> list[str]:
    """Market zones whose shares may not be sold (none unless a mechanic provides
    :class:`~railbook.engine.interfaces.StockMarket`)."""
    market_rules = STOCK_MARKET.get(g)
    return market_rules.no_trade_zones(g) if market_rules is not None else []


@dataclass(slots=True)
class State:
    """Loans outstanding per corporation, the market rate, this operating round's loan events, and what
    presidents owe for their companies (a cash crisis)."""

    loans: dict[str, int] = field(default_factory=dict)
    rate: int = 0
    took: dict[str, int] = field(default_factory=dict)
    redeemed: list[str] = field(default_factory=list)
    interest_paid: list[str] = field(default_factory=list)
    deduction: dict[str, int] = field(default_factory=dict)
    owed: dict[str, int] = field(default_factory=dict)  # player -> $ still owed to the bank
    owed_for: dict[str, str] = field(default_factory=dict)  # player -> corporation the debt is for
    interest_for: dict[str, str] = field(default_factory=dict)  # player -> company whose interest he owes
    deferred: str = ""  # (interest_if_not_run: next_action) the company whose interest waits for its next action
    deferred_at: int = -1  # the action (``actions_done``) that passed its route step by
    crisis_anchor: str | None = None  # (crisis_order seat_from_last_company) seat order starts from this player


PARAMS = params_of(DECLARATION, Params)
STATE = state_of(DECLARATION, State)


def loans_of(g: Context, corp: str) -> int:
    """Loans ``corp`` (a symbol) has outstanding."""
    loans: dict[str, int] = STATE.of(g).loans  # (declared so in the compiled build: engine/*.pxd)
    return loans.get(corp, 0)


def total_loans(g: Context) -> int:
    return sum(STATE.of(g).loans.values())


def interest_rate(g: Context) -> int:
    """Interest per loan now."""
    p = PARAMS.of(g)
    return p.interest_per_loan if p.interest_per_loan is not None else STATE.of(g).rate


def set_market_rate(g: Context) -> None:
    rate = PARAMS.of(g).market_rate
    if rate is None:
        return
    steps = math.ceil(total_loans(g) / rate.loans_per_step)
    STATE.of(g).rate = max(rate.minimum, min(rate.maximum, steps * rate.step))


@cython.locals(g="Context")
def cap(g: Context, corp: str) -> int | None:
    """Most loans ``corp`` may have (None: no cap)."""
    p = PARAMS.of(g)
    if p.cap == "shares_held_by_players":
        unit = shares.share_percent(g, corp)
        return sum(shares.player_holders(g, corp).values()) // unit
    if p.cap == "by_size":
        size = 100 // shares.share_percent(g, corp)
        return p.cap_by_size.get(size, 0)
    return None


def may_take(g: Context, corp: str) -> bool:
    """``corp`` (a symbol) may take a loan now."""
    p, st = PARAMS.of(g), STATE.of(g)
    if p.phases and g.phase_name() not in p.phases:
        return False
    # the turn's own limits first: the cap counts the shares players hold
    if p.per_operating_turn is not None and st.took.get(corp, 0) >= p.per_operating_turn:
        return False
    if corp in st.interest_paid and not p.take_between_interest_and_repayment:
        return False
    if corp in st.redeemed and not p.take_after_repayment:
        return False
    if p.bank_total is not None and total_loans(g) >= p.bank_total:
        return False
    limit = cap(g, corp)
    return limit is None or loans_of(g, corp) < limit


@cython.locals(g="Context")
def repay_price(g: Context) -> int:
    p = PARAMS.of(g)
    return p.repay_price if p.repay_price is not None else p.amount


def _buy_train_passed(g: Context) -> bool:
    for s in rounds.steps_named(g, BUY_TRAIN_STEP):
        if not step_active(s):
            return True
    return False


def take_loan(g: Context, corp: str) -> None:
    p, st = PARAMS.of(g), STATE.of(g)
    late = corp in st.interest_paid and p.late_loan_amount is not None
    amount = p.late_loan_amount if late and p.late_loan_amount is not None else p.amount
    st.loans[corp] = loans_of(g, corp) + 1
    st.took[corp] = st.took.get(corp, 0) + 1
    if amount > 0:
        g.spend(BANK, ckey(corp), amount)
    g.log(f"{corp} takes a loan and receives {amount}")
    _price_move(g, corp, "loan_taken")


def _price_move(g: Context, corp: str, event: str) -> None:
    """The share price move the market rules give for a loan taken or repaid (``left_1``, ``right_2``...)."""
    rule = (g.book.market.get("movement") or {}).get(event)
    if not rule or rule == "none" or g.state.corporations[corp].price is None:
        return
    direction, _, times = str(rule).rpartition("_")
    market.move(g, corp, direction, int(times or 1))


def repay(g: Context, corp: str, count: int = 1) -> None:
    st = STATE.of(g)
    st.loans[corp] = loans_of(g, corp) - count
    if not st.loans[corp]:
        del st.loans[corp]


def cancel_loans(g: Context, corp: str) -> int:
    """Take ``corp``'s loans off it unpaid (e.g. when another company absorbs it); how many there were."""
    return STATE.of(g).loans.pop(corp, 0)


class Loan(Step):
    """Take a loan at any point of the turn; repay loans after the train purchase."""

    name = LOAN_STEP
    description = "Take or Repay Loans"

    @cython.locals(self="StepBase")
    def blocks(self) -> bool:
        return _buy_train_passed(self.g) and not self._interest_pending() and not self._redemption_pending()

    @cython.locals(self="StepBase")
    def _redemption_pending(self) -> bool:
        """The forced redemption of the loans over the cap (``LoanRedemption``) follows the train purchase and is
        still to come: the voluntary repayments wait for it (as on 18xx.games; the rulebook orders neither).  With
        ``redemption_after_action`` the redemption follows the company's actions, not that step: nothing waits."""
        if PARAMS.of(self.g).redemption_after_action:
            return False
        for s in rounds.steps_named(self.g, LOAN_REDEMPTION_STEP):
            if step_active(s):
                return True
        return False

    @cython.locals(self="StepBase")
    def allows(self, entity: str, atype: str) -> bool:
        """``atype in actions(entity)``; ``pass`` is offered only while the step blocks."""
        if atype == "pass" and not self.blocks():
            return False
        return atype in self.actions_of(entity)

    @cython.locals(self="StepBase")
    def _interest_pending(self) -> bool:
        """The turn's interest is charged after the train purchase and is still to come (repayment waits)."""
        entity = self.current_entity()
        if entity is None or sym_of(entity) in STATE.of(self.g).interest_paid:
            return False
        for s in rounds.steps_named(self.g, LOAN_INTEREST_STEP):
            if step_active(s):
                return True
        return False

    @cython.locals(self="StepBase")
    def skip(self) -> None:
        if _buy_train_passed(self.g) and (self._interest_pending() or self._redemption_pending()):
            return  # stays for the repayment once the interest is paid and the excess loans are redeemed
        self.pass_()

    @cython.locals(self="StepBase")
    def setup(self) -> None:
        self.st.data.pop("took_after_interest", None)

    @cython.locals(self="StepBase")
    def can_payoff(self, corp: str) -> bool:
        g = self.g
        if self.st.data.get("took_after_interest"):
            return False  # a loan taken after the repayment step ends the repayments (take_after_repayment)
        if not _buy_train_passed(g) or self._interest_pending():
            return False  # repayments follow the interest (§6.8, §6.9)
        return loans_of(g, corp) > 0 and g.cash(ckey(corp)) >= repay_price(g)

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        if kind_of(entity) != "C" or entity != self.current_entity():
            return []
        corp = sym_of(entity)
        acts = []
        if self.can_payoff(corp):
            acts.append("payoff_loan")
        if may_take(self.g, corp):
            acts.append("take_loan")
        if (acts or _redemption_due(self.g, corp)) and self.blocks():
            acts.append("pass")  # (a redemption still due holds the turn for the company's next action)
        return acts

    @cython.locals(self="StepBase")
    def process_take_loan(self, action: dict[str, Any], entity: str) -> None:
        corp = sym_of(entity)
        if not may_take(self.g, corp):
            raise illegal("loans.take", f"{corp} may not take a loan now")
        if PARAMS.of(self.g).take_after_repayment and corp in STATE.of(self.g).interest_paid:
            self.st.data["took_after_interest"] = True
        take_loan(self.g, corp)

    @cython.locals(self="StepBase")
    def process_payoff_loan(self, action: dict[str, Any], entity: str) -> None:
        g, corp = self.g, sym_of(entity)
        if not self.can_payoff(corp):
            raise illegal("loans.repay", f"{corp} cannot repay a loan now")
        g.spend(entity, BANK, repay_price(g))
        repay(g, corp)
        _price_move(g, corp, "loan_repaid")
        st = STATE.of(g)
        if corp not in st.redeemed:
            st.redeemed.append(corp)
        g.log(f"{corp} repays a loan for {repay_price(g)}")


class LoanInterest(Step):
    """Interest on the loans, charged once the trains have run (never acts: it is done as it is passed)."""

    name = LOAN_INTEREST_STEP
    description = "Pay Loan Interest"

    @cython.locals(self="StepBase")
    def skip(self) -> None:
        g = self.g
        entity = self.current_entity()
        if entity is not None and kind_of(entity) == "C":
            ran = any(r.st.acted for r in rounds.steps_named(g, ROUTE_STEP))  # (its routes run by an action)
            if PARAMS.of(g).interest_if_not_run == "next_action" and not ran:
                st = STATE.of(g)
                st.deferred, st.deferred_at = sym_of(entity), g.state.actions_done
            else:
                pay_interest(g, sym_of(entity))
                if _president_owes_interest(g, sym_of(entity)):
                    # the dividend and the rest of the turn wait until the president has raised it ("Pay Interest
                    # on Outstanding Government Loans": he sells shares or is bankrupt, and "the game ended before
                    # this phase occurs", the dividend's)
                    self.st.data["hold"] = True
                    return
        self.st.data.pop("hold", None)
        self.pass_()


def _president_owes_interest(g: Context, corp: str) -> bool:
    """The president of ``corp`` still owes (a cash crisis) part of its interest, or could not raise it and is
    bankrupt (the game's end comes before the rest of the turn)."""
    st = STATE.of(g)
    president = g.owner(ckey(corp))
    if president is None or kind_of(president) != "P":
        return False
    return (president in st.owed and st.interest_for.get(president) == corp) or g.player(president).bankrupt


def deferred_interest(g: Context, action: dict[str, Any]) -> None:
    """Hook ``after_operating_action`` (``interest_if_not_run: next_action``): a company that ran no trains pays
    its interest after its next action of the turn (before the turn moves on); where its turn ended with the
    action that passed its route step by, the next action is another's and nothing is charged (a new operating
    round forgets it too). With ``interest_before_pending_discard`` the operator whose train step is over pays
    its interest now, where a pending discard holds the turn before the interest step. With
    ``redemption_after_action`` its loans over the cap are redeemed next (``redeem_after_action``)."""
    st, p = STATE.of(g), PARAMS.of(g)
    if p.interest_before_pending_discard:
        _interest_after_trains(g)
    if st.deferred and g.state.actions_done != st.deferred_at:
        corp = st.deferred
        st.deferred = ""
        if g.state.round.data.get("current_operator") == ckey(corp) and not g.state.corporations[corp].closed:
            pay_interest(g, corp)
            # (the steps were skipped before this hook: a step the interest left with nothing to do -- a train step
            # that can no longer pay for a train -- is passed now, so that the repayments follow it at once, as
            # after any train purchase; differential seed 100010, action 186)
            rounds.bump(g)
            rounds.skip_steps(g)
    if p.redemption_after_action:
        redeem_after_action(g)  # (after the interest: the loans it is charged on are those before the redemption)


def _interest_after_trains(g: Context) -> None:
    """(``interest_before_pending_discard``) the current operator pays its interest once its train step is over,
    where the interest step is still to come."""
    op = g.state.round.data.get("current_operator")
    if not op or kind_of(op) != "C" or sym_of(op) in STATE.of(g).interest_paid or g.is_closed(op):
        return
    if not _buy_train_passed(g):
        return
    if any(step_active(s) for s in rounds.steps_named(g, LOAN_INTEREST_STEP)):
        pay_interest(g, sym_of(op))


def pay_interest(g: Context, corp: str) -> None:
    p, st = PARAMS.of(g), STATE.of(g)
    if corp in st.interest_paid:
        return
    st.interest_paid.append(corp)
    rate = interest_rate(g)
    n = loans_of(g, corp)
    if not p.new_loans_pay_interest:
        n -= st.took.get(corp, 0)
    owed = rate * max(n, 0) + g.hooks("extra_interest", corp)  # (at every interest step, with loans or not)
    if owed <= 0:
        return
    key = ckey(corp)
    for payer in p.interest_shortfall:
        if owed <= 0:
            break
        if payer == "treasury":
            whole = owed if g.cash(key) >= owed else (g.cash(key) // rate) * rate if rate else 0
            pay = min(owed, whole)
            if pay > 0:
                g.spend(key, BANK, pay)
                owed -= pay
        elif payer == "earnings_cut":
            cut = min(owed, sum(r["revenue"] for r in g.state.round.data.get("routes") or []))
            if cut > 0:
                st.deduction[corp] = cut
                owed -= cut
        elif payer == "take_loans":
            while owed > 0 and may_take(g, corp):
                take_loan(g, corp)
                if p.shortfall_loans_pay_interest:
                    owed += rate
                    n += 1
                pay = min(owed, g.cash(key))
                g.spend(key, BANK, pay)
                owed -= pay
        elif payer == "liquidation":
            g.log(f"{corp} cannot afford {owed} interest and goes into liquidation")
            zone = LIQUIDATION.get(g)
            if zone is not None:
                zone.liquidate(g, corp)
            president = g.owner(key)
            if president is not None and kind_of(president) == "P" and g.cash(key) > 0:
                g.spend(key, president, g.cash(key))
        elif payer == "president_cash":
            charge_president(g, corp, owed)
            president = g.owner(key)
            if president in st.owed:
                st.interest_for[president] = corp
            owed = 0
    g.log(f"{corp} pays interest on {n} loans")


def charge_president(g: Context, corp: str, amount: int) -> None:
    """The president pays ``amount`` for ``corp``; what he lacks he owes (a cash crisis: he must sell)."""
    president = g.owner(ckey(corp))
    if president is None or kind_of(president) != "P":
        return
    pay = min(amount, g.cash(president))
    if pay > 0:
        g.spend(president, BANK, pay)
    if amount > pay:
        st = STATE.of(g)
        st.owed[president] = st.owed.get(president, 0) + amount - pay
        st.owed_for[president] = corp
        st.crisis_anchor = president
        g.log(f"{g.name(president)} owes {amount - pay} for {corp} and must sell shares")


def player_owes(g: Context, player: str, amount: int, corp: str) -> None:
    """``player`` owes the bank ``amount`` (e.g. a short's dividend): a cash crisis, he must sell."""
    st = STATE.of(g)
    st.owed[player] = st.owed.get(player, 0) + amount
    st.owed_for.setdefault(player, corp)
    president = g.owner(ckey(corp)) if corp in g.state.corporations else None
    if president is not None and kind_of(president) == "P":
        st.crisis_anchor = president  # the company that pays (a short's dividend) or is settled


def crisis_from(g: Context, player: str | None) -> None:
    """``player`` was president of the company last settled: open crises are taken in seat order from him
    (``crisis_order: seat_from_last_company``)."""
    if player is not None:
        STATE.of(g).crisis_anchor = player


def pay_debts_from_cash(g: Context, action: dict[str, Any], entity: str) -> None:
    """After each action: a player who owes money and has cash again pays what it covers."""
    if STATE.of(g).owed:
        pay_debts(g)


def pay_debts(g: Context) -> None:
    """A player who owes money and has cash again (money paid to him since, e.g. a liquidated company's surplus)
    pays what it covers."""
    st = STATE.of(g)
    if not st.owed:
        return
    for player in list(st.owed):
        cash = g.cash(player)
        if cash <= 0:
            continue
        pay = min(cash, st.owed[player])
        g.spend(player, BANK, pay)
        st.owed[player] -= pay
        g.log(f"{g.name(player)} pays {pay} of what he owes")
        if st.owed[player] <= 0:
            del st.owed[player]
            st.owed_for.pop(player, None)
            st.interest_for.pop(player, None)


def first_in_crisis(g: Context) -> str | None:
    """The player whose cash crisis is settled now: the first debt still owed, or (``seat_from_last_company``)
    the first debtor in seat order from the president of the company last settled."""
    st = STATE.of(g)
    if not st.owed:
        return None
    anchor = st.crisis_anchor
    if PARAMS.of(g).crisis_order == "seat_from_last_company" and anchor is not None:
        seats = g.player_keys(True)
        if anchor in seats:
            i = seats.index(anchor)
            for p in seats[i:] + seats[:i]:
                if p in st.owed:
                    return p
    return next(iter(st.owed))


def revenue_deduction(g: Context, entity: str) -> int:
    return STATE.of(g).deduction.get(sym_of(entity), 0)


class LoanRedemption(Step):
    """Loans over the cap are repaid once the train purchase is over (never acts: done as it is passed)."""

    name = LOAN_REDEMPTION_STEP
    description = "Redeem Excess Loans"

    @cython.locals(self="StepBase")
    def skip(self) -> None:
        entity = self.current_entity()
        p = PARAMS.of(self.g)
        if entity is not None and kind_of(entity) == "C" and p.forced_repayment is not None:
            if not p.redemption_after_action:  # (else after the company's action: ``redeem_after_action``)
                force_repayment(self.g, sym_of(entity))
        self.pass_()


def excess_loans(g: Context, corp: str) -> int:
    """Loans ``corp`` has over its cap (0 where it has no cap or is within it)."""
    limit = cap(g, corp)
    return 0 if limit is None else max(0, loans_of(g, corp) - limit)


def _redemption_due(g: Context, corp: str) -> bool:
    """(``redemption_after_action``) ``corp``'s train step is over and it still has loans over its cap to redeem."""
    p = PARAMS.of(g)
    if not p.redemption_after_action or p.forced_repayment is None or loans_of(g, corp) == 0:
        return False
    if not _buy_train_passed(g) or excess_loans(g, corp) <= 0:
        return False
    price = g.state.corporations[corp].price
    return price is None or "close" not in market.kinds_at(g, price)  # (else removed from play, its loans with it)


def redeem_after_action(g: Context) -> None:
    """(``redemption_after_action``) after an action of the current operator: its loans over the cap are redeemed
    once its train step is over -- not yet where that step was passed by with nothing to do after this very
    action (then after the company's next one, which the repayment step waits for)."""
    op = g.state.round.data.get("current_operator")
    if not op or kind_of(op) != "C" or g.is_closed(op):
        return
    corp = sym_of(op)
    if not _redemption_due(g, corp):
        return
    for s in rounds.steps_named(g, BUY_TRAIN_STEP):
        if s.st.data.get("skipped_at") == g.state.actions_done:
            return
    force_repayment(g, corp)
    rounds.bump(g)
    rounds.skip_steps(g)


def force_repayment(g: Context, corp: str) -> None:
    c = g.state.corporations[corp]
    if c.price is not None and "close" in market.kinds_at(g, c.price):
        return  # its marker entered a closing cell: it is removed from play at once, its loans with it
    limit = cap(g, corp)
    excess = loans_of(g, corp) - (limit if limit is not None else loans_of(g, corp))
    if excess <= 0:
        return
    owed = excess * repay_price(g)
    repay(g, corp, excess)
    st = STATE.of(g)
    if corp not in st.redeemed:
        st.redeemed.append(corp)
    key = ckey(corp)
    pay = min(owed, g.cash(key))
    if pay > 0:
        g.spend(key, BANK, pay)
    g.log(f"{corp} must repay {excess} loans")
    if owed > pay:
        charge_president(g, corp, owed - pay)


class CashCrisis(Step):
    """A president who owes the bank for his company sells shares until the debt is paid; with nothing left
    to sell he is bankrupt."""

    name = CASH_CRISIS_STEP
    description = "Emergency Fundraising"
    offers = frozenset({"sell_shares", "bankrupt"})

    @cython.locals(self="StepBase")
    def skip(self) -> None:
        """Stays live all round: a debt may arise at any point (interest, a short's dividend)."""

    @cython.locals(self="StepBase")
    def blocks(self) -> bool:
        """Only while someone owes (else the round passes it by without marking a change)."""
        return bool(STATE.of(self.g).owed)

    @cython.locals(self="StepBase")
    def active_entities(self) -> list[str]:
        first = first_in_crisis(self.g)
        return [first] if first is not None else []

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        if entity not in self.active_entities():
            return []
        sellable = self.sellable(entity)
        acts = ["sell_shares"] if sellable else []
        if raisable(self.g, entity, sellable) < STATE.of(self.g).owed.get(entity, 0):
            acts.append("bankrupt")  # even selling everything cannot pay: he may declare bankruptcy at once
        return acts

    @cython.locals(self="StepBase")
    def sellable(self, player: str) -> list[Bundle]:
        g = self.g
        out = []
        for corp in g.state.corp_order:
            if g.state.corporations[corp].closed:
                continue
            for b in shares.bundles_for(g, player, corp):
                if self.can_sell(player, b):
                    out.append(b)
        return out

    @cython.locals(self="StepBase")
    def can_sell(self, player: str, b: Bundle) -> bool:
        g = self.g
        if not shares.can_dump(g, b, player) or not shares.fit_in_pool(g, b):
            return False
        owed = STATE.of(g).owed.get(player, 0)
        if PARAMS.of(g).crisis_sales == "no_more_than_needed" and more_than_needed(g, b, owed):
            return False  # (one share at a time until he has enough)
        c = g.state.corporations[b.corp]
        zones = set(no_trade_zones(g))
        if zones & set(market.kinds_at(g, c.price)):
            return False
        bankruptcy = BANKRUPTCY.get(g)
        keep = bankruptcy.forced_sales_may_change_presidency(g) if bankruptcy is not None else None
        if c.owner == player and (keep == "none" or b.corp == STATE.of(g).owed_for.get(player)):
            holders = shares.player_holders(g, b.corp)
            others = max([p for h, p in holders.items() if h != player], default=0)
            if holders.get(player, 0) - b.percent < others:
                return False
        return True

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        acts = self.actions(entity)
        if "sell_shares" in acts:
            return [
                {
                    "type": "sell_shares",
                    "choices": [{"shares": b.shares, "percent": b.percent} for b in self.sellable(entity)],
                }
            ]
        return [{"type": t} for t in acts]

    @cython.locals(self="StepBase")
    def process_sell_shares(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        b = shares.make_bundle(g, list(action.get("shares") or []), action.get("percent"))
        if b.owner != entity or not self.can_sell(entity, b):
            raise illegal("loans.cash_crisis", f"{g.name(entity)} cannot sell {', '.join(b.shares)} now")
        price = shares.sell_and_move(g, b)
        st = STATE.of(g)
        pay = min(price, st.owed[entity])
        g.spend(entity, BANK, pay)
        st.owed[entity] -= pay
        if st.owed[entity] <= 0:
            del st.owed[entity]
            st.owed_for.pop(entity, None)
            st.interest_for.pop(entity, None)
        rounds.recalculate_order(g)

    @cython.locals(self="StepBase")
    def process_bankrupt(self, action: dict[str, Any], entity: str) -> None:
        if "bankrupt" not in self.actions(entity):
            raise illegal("loans.cash_crisis", f"{self.g.name(entity)} can still raise what he owes")
        bankrupt(self.g, entity)


def more_than_needed(g: Context, b: Bundle, owed: int) -> bool:
    """Without its cheapest certificate the bundle would still raise ``owed``: it sells more than is needed."""
    pps = b.share_price if b.share_price is not None else shares.price_per_share(g, b.corp)
    unit = shares.share_percent(g, b.corp)
    cheapest = None
    for sid in b.shares:
        price = math.ceil(pps * g.state.shares[sid].percent / unit)
        cheapest = price if cheapest is None or price < cheapest else cheapest
    return cheapest is not None and shares.bundle_price(g, b) - cheapest >= owed


def raisable(g: Context, player: str, bundles: list[Bundle]) -> int:
    """What ``player`` could raise selling the largest sellable bundle of each company."""
    best: dict[str, int] = {}
    for b in bundles:
        best[b.corp] = max(best.get(b.corp, 0), shares.bundle_price(g, b))
    return sum(best.values())


def bankrupt(g: Context, player: str) -> None:
    """``player`` cannot pay what he owes: he leaves the game (his estate: ``Bankruptcy.player_bankrupt``); what cash
    is left pays his debt and goes to the bank."""
    st = STATE.of(g)
    g.log(f"-- {g.name(player)} goes bankrupt --")
    interest_corp = st.interest_for.pop(player, None)
    bankruptcy = BANKRUPTCY.get(g)
    if bankruptcy is not None:
        bankruptcy.player_bankrupt(g, player, interest_corp)
    cash = g.cash(player)
    if cash > 0:
        g.spend(player, BANK, cash)
    st.owed.pop(player, None)
    st.owed_for.pop(player, None)
    g.player(player).bankrupt = True
    g.hooks("update_cert_limit")
    rounds.recalculate_order(g)


def operating_round_started(g: Context) -> None:
    st = STATE.of(g)
    st.took, st.redeemed, st.interest_paid, st.deduction = {}, [], [], {}
    st.deferred = ""
    set_market_rate(g)


def buying_power(g: Context, entity: str, purpose: str) -> int:
    """Station markers (the track step's purpose) and privates (``company``) may be paid with the loan a company
    could take now; with ``loans_count_for_trains`` a train purchase may use every loan it may still take."""
    p = PARAMS.of(g)
    if purpose in ("track", "company") and kind_of(entity) == "C" and may_take(g, sym_of(entity)):
        late = sym_of(entity) in STATE.of(g).interest_paid and p.late_loan_amount is not None
        return p.late_loan_amount if late and p.late_loan_amount is not None else p.amount
    if purpose != "train" or not p.loans_count_for_trains or kind_of(entity) != "C":
        return 0
    corp = sym_of(entity)
    if not may_take(g, corp):
        return 0
    limit = cap(g, corp)
    room = (limit if limit is not None else 10**6) - loans_of(g, corp)
    if p.bank_total is not None:
        room = min(room, p.bank_total - total_loans(g))
    return max(0, room) * p.amount


def loan_room(g: Context, corp: str, extra: int) -> int:
    """Loans ``corp`` may still take by its cap and the bank's supply, ``extra`` loans returned first (negative:
    it has more than its cap)."""
    p = PARAMS.of(g)
    limit = cap(g, corp)
    room = (limit if limit is not None else 10**6) - loans_of(g, corp)
    if p.bank_total is not None:
        room = min(room, p.bank_total - total_loans(g) + extra)
    return room


def transfer_loans(g: Context, corp: str, to: str | None) -> None:
    """``corp``'s loans pass to ``to`` (a merger or acquisition), or go back to the bank unpaid (None)."""
    n = cancel_loans(g, corp)
    if n and to is not None:
        STATE.of(g).loans[to] = loans_of(g, to) + n


def value_adjustment(g: Context, player: str) -> int:
    """Outstanding loans lower the value of the company's shares; a debt still owed counts against the player."""
    per = PARAMS.of(g).final_value_per_share_per_loan
    total = -STATE.of(g).owed.get(player, 0)
    if per:
        for corp, n in STATE.of(g).loans.items():
            if n and not g.state.corporations[corp].closed:
                total -= per * n * shares.num_shares_of(g, player, corp)
    return total


class _Loans:
    """The :class:`~railbook.engine.interfaces.Loans` this mechanic provides."""

    outstanding = staticmethod(loans_of)
    repay_price = staticmethod(repay_price)
    repaid = staticmethod(repay)
    may_take = staticmethod(may_take)
    take = staticmethod(take_loan)
    room = staticmethod(loan_room)
    transfer = staticmethod(transfer_loans)
    owes = staticmethod(player_owes)
    crisis_from = staticmethod(crisis_from)
    pay_debts = staticmethod(pay_debts)


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={
        LOAN_STEP: Loan,
        LOAN_INTEREST_STEP: LoanInterest,
        LOAN_REDEMPTION_STEP: LoanRedemption,
        CASH_CRISIS_STEP: CashCrisis,
    },
    hooks={
        "operating_round_started": operating_round_started,
        "revenue_deduction": revenue_deduction,
        "value_adjustment": value_adjustment,
        "buying_power": buying_power,
        "after_operating_action": deferred_interest,
        "action_processed": pay_debts_from_cash,
    },
    state=State,
    provides=[LOANS.provided_by(_Loans())],
)
