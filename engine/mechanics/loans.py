"""``loans``: companies borrow fixed-size loans from the bank and pay interest on them each operating round.

Interest is a fixed amount per loan (``interest_per_loan``) or a market-wide rate set from the loans
outstanding (``market_rate``).  Step ``loan`` takes and repays loans (a loan may be taken at any point of the
turn, repayment comes after the train purchase); step ``loan_interest`` charges the interest once the trains
have run (placed before the dividend in the round's steps); step ``loan_redemption`` forces the loans over the
cap to be repaid (placed after the train purchase); step ``cash_crisis`` makes a president who owes money for
his company sell shares, and bankrupts him when he cannot.  At game end each outstanding loan lowers the
value of the company's shares (``final_value_per_share_per_loan``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from .. import market, rounds, shares
from ..contract import Mechanic, PhaseId
from ..contract import Params as BaseParams
from ..errors import illegal
from ..shares import Bundle
from ..state import BANK, ckey, kind_of, sym_of
from ..steps.base import Step, step_active

if TYPE_CHECKING:
    from ..context import Context

#: A company size, in shares.
CompanySize = Annotated[int, Field(ge=1)]

#: Who pays (or what happens), in order, when a company cannot pay what it owes.
Payer = Literal[
    "treasury",  # the company's cash (whole loans' worth where the title says so)
    "earnings_cut",  # this operating round's earnings are cut by the unpaid amount (not below 0)
    "take_loans",  # the company takes more loans, up to its cap
    "liquidation",  # the company goes to the liquidation zone; the president takes its cash
    "president_cash",  # the president's cash
    "president_sells_shares",  # the president sells shares (the bankruptcy mechanic's sale rules)
    "bankruptcy",  # the president is bankrupt
]


class MarketRate(BaseParams):
    """A market-wide interest rate: ``step`` per ``loans_per_step`` loans outstanding (rounded up), bounded."""

    minimum: int = Field(ge=0, description="lowest rate per loan, in $")
    maximum: int = Field(ge=0, description="highest rate per loan, in $")
    step: int = Field(ge=1, description="rate added per block of `loans_per_step` loans outstanding, in $")
    loans_per_step: int = Field(ge=1, description="loans per rate step (a part block counts as a block)")
    set_at: Literal["operating_round_start"] = Field(
        "operating_round_start", description="when the rate is set; it holds until the next setting"
    )


class ForcedRepayment(BaseParams):
    """Loans over the cap must be repaid at the repayment step."""

    payers: list[Payer] = Field(description="who pays the excess, in order")


class Params(BaseParams):
    """Loans: amount, interest, caps, when they may be taken and repaid, what an unpaid debt leads to."""

    amount: int = Field(ge=1, description="money a loan gives the company, in $")
    interest_per_loan: int | None = Field(
        None, ge=0, description="fixed interest per loan each operating round, in $ (None: `market_rate`)"
    )
    market_rate: MarketRate | None = Field(None, description="market-wide interest rate (None: fixed interest)")
    bank_total: int | None = Field(None, ge=0, description="loans the bank has in all (None: unlimited)")
    cap: Literal["none", "shares_held_by_players", "by_size"] = Field(
        "none",
        description="loans one company may have: no cap; one per share held by players (the president's "
        "certificate counting its shares); or `cap_by_size`",
    )
    cap_by_size: dict[CompanySize, Annotated[int, Field(ge=0)]] = Field(
        default_factory=dict, description="company size (shares) -> most loans (with cap `by_size`)"
    )
    per_operating_turn: int | None = Field(None, ge=1, description="loans per operating turn (None: any number)")
    phases: list[PhaseId] = Field(default_factory=list, description="phases in which loans may be taken (empty: all)")
    take_between_interest_and_repayment: bool = Field(
        True, description="a loan may be taken after the interest step and before the repayment step"
    )
    take_after_repayment: bool = Field(False, description="a loan may be taken after the repayment step")
    also_taken_in: list[Literal["stock_round_company_turn", "after_conversion_or_merger", "to_pay_merger_bid"]] = Field(
        default_factory=list, description="other moments a company may take loans"
    )
    new_loans_pay_interest: bool = Field(
        True, description="loans taken in this operating turn are charged at its interest step"
    )
    shortfall_loans_pay_interest: bool = Field(
        False, description="a loan taken to pay the interest is itself charged interest in the same payment"
    )
    late_loan_amount: int | None = Field(
        None, ge=0, description="money a loan taken after this turn's interest step gives (None: `amount`)"
    )
    interest_shortfall: list[Payer] = Field(
        default_factory=lambda: ["treasury", "president_cash", "president_sells_shares", "bankruptcy"],
        description="who pays interest the company cannot, in order",
    )
    repay_price: int | None = Field(None, ge=0, description="price of repaying one loan, in $ (None: `amount`)")
    forced_repayment: ForcedRepayment | None = Field(
        None, description="loans over the cap must be repaid at the repayment step (None: never forced)"
    )
    loans_count_for_trains: bool = Field(
        False, description="the loans a company may still take count toward the money it has for buying trains"
    )
    final_value_per_share_per_loan: int = Field(
        0, ge=0, description="at game end each outstanding loan lowers the company's share price by this, in $"
    )


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


def _p(g: Context) -> Params:
    return g.params["loans"]  # type: ignore[return-value]


def _st(g: Context) -> State:
    return g.state.mechanics["loans"]  # type: ignore[no-any-return]


def loans_of(g: Context, corp: str) -> int:
    """Loans ``corp`` (a symbol) has outstanding."""
    loans: dict[str, int] = _st(g).loans  # (declared so in the compiled build: engine/*.pxd)
    return loans.get(corp, 0)


def total_loans(g: Context) -> int:
    return sum(_st(g).loans.values())


def interest_rate(g: Context) -> int:
    """Interest per loan now."""
    p = _p(g)
    return p.interest_per_loan if p.interest_per_loan is not None else _st(g).rate


def set_market_rate(g: Context) -> None:
    rate = _p(g).market_rate
    if rate is None:
        return
    steps = math.ceil(total_loans(g) / rate.loans_per_step)
    _st(g).rate = max(rate.minimum, min(rate.maximum, steps * rate.step))


def cap(g: Context, corp: str) -> int | None:
    """Most loans ``corp`` may have (None: no cap)."""
    p = _p(g)
    if p.cap == "shares_held_by_players":
        unit = shares.share_percent(g, corp)
        return sum(shares.player_holders(g, corp).values()) // unit
    if p.cap == "by_size":
        size = 100 // shares.share_percent(g, corp)
        return p.cap_by_size.get(size, 0)
    return None


def may_take(g: Context, corp: str) -> bool:
    """``corp`` (a symbol) may take a loan now."""
    p, st = _p(g), _st(g)
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


def repay_price(g: Context) -> int:
    p = _p(g)
    return p.repay_price if p.repay_price is not None else p.amount


def _buy_train_passed(g: Context) -> bool:
    for s in rounds.steps_named(g, "buy_train"):
        if not step_active(s):
            return True
    return False


def take_loan(g: Context, corp: str) -> None:
    p, st = _p(g), _st(g)
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
    st = _st(g)
    st.loans[corp] = loans_of(g, corp) - count
    if not st.loans[corp]:
        del st.loans[corp]


def cancel_loans(g: Context, corp: str) -> int:
    """Take ``corp``'s loans off it unpaid (e.g. when another company absorbs it); how many there were."""
    return _st(g).loans.pop(corp, 0)


class Loan(Step):
    """Take a loan at any point of the turn; repay loans after the train purchase."""

    name = "loan"
    description = "Take or Repay Loans"

    def blocks(self) -> bool:
        return _buy_train_passed(self.g) and not self._interest_pending()

    def allows(self, entity: str, atype: str) -> bool:
        """``atype in actions(entity)``; ``pass`` is offered only while the step blocks."""
        if atype == "pass" and not self.blocks():
            return False
        return atype in self.actions_of(entity)

    def _interest_pending(self) -> bool:
        """The turn's interest is charged after the train purchase and is still to come (repayment waits)."""
        entity = self.current_entity()
        if entity is None or sym_of(entity) in _st(self.g).interest_paid:
            return False
        for s in rounds.steps_named(self.g, "loan_interest"):
            if step_active(s):
                return True
        return False

    def skip(self) -> None:
        if _buy_train_passed(self.g) and self._interest_pending():
            return  # stays for the repayment once the interest is paid
        self.pass_()

    def setup(self) -> None:
        self.st.data.pop("took_after_interest", None)

    def can_payoff(self, corp: str) -> bool:
        g = self.g
        if self.st.data.get("took_after_interest"):
            return False  # a loan taken after the repayment step ends the repayments (take_after_repayment)
        return loans_of(g, corp) > 0 and g.cash(ckey(corp)) >= repay_price(g) and _buy_train_passed(g)

    def actions(self, entity: str) -> list[str]:
        if kind_of(entity) != "C" or entity != self.current_entity():
            return []
        corp = sym_of(entity)
        acts = []
        if self.can_payoff(corp):
            acts.append("payoff_loan")
        if may_take(self.g, corp):
            acts.append("take_loan")
        if acts and self.blocks():
            acts.append("pass")
        return acts

    def process_take_loan(self, action: dict[str, Any], entity: str) -> None:
        corp = sym_of(entity)
        if not may_take(self.g, corp):
            raise illegal("loans.take", f"{corp} may not take a loan now")
        if _p(self.g).take_after_repayment and corp in _st(self.g).interest_paid:
            self.st.data["took_after_interest"] = True
        take_loan(self.g, corp)

    def process_payoff_loan(self, action: dict[str, Any], entity: str) -> None:
        g, corp = self.g, sym_of(entity)
        if not self.can_payoff(corp):
            raise illegal("loans.repay", f"{corp} cannot repay a loan now")
        g.spend(entity, BANK, repay_price(g))
        repay(g, corp)
        _price_move(g, corp, "loan_repaid")
        st = _st(g)
        if corp not in st.redeemed:
            st.redeemed.append(corp)
        g.log(f"{corp} repays a loan for {repay_price(g)}")


class LoanInterest(Step):
    """Interest on the loans, charged once the trains have run (never acts: it is done as it is passed)."""

    name = "loan_interest"
    description = "Pay Loan Interest"

    def skip(self) -> None:
        entity = self.current_entity()
        if entity is not None and kind_of(entity) == "C":
            pay_interest(self.g, sym_of(entity))
        self.pass_()


def pay_interest(g: Context, corp: str) -> None:
    p, st = _p(g), _st(g)
    if corp in st.interest_paid:
        return
    st.interest_paid.append(corp)
    rate = interest_rate(g)
    n = loans_of(g, corp)
    if not p.new_loans_pay_interest:
        n -= st.took.get(corp, 0)
    owed = rate * max(n, 0)
    if owed > 0:
        owed += g.hooks("extra_interest", corp)  # charged with the loans' interest, only while there are loans
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
            g.hooks("liquidate", corp)
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
        st = _st(g)
        st.owed[president] = st.owed.get(president, 0) + amount - pay
        st.owed_for[president] = corp
        g.log(f"{g.name(president)} owes {amount - pay} for {corp} and must sell shares")


def player_owes(g: Context, player: str, amount: int, corp: str) -> None:
    """``player`` owes the bank ``amount`` (e.g. a short's dividend): a cash crisis, he must sell."""
    st = _st(g)
    st.owed[player] = st.owed.get(player, 0) + amount
    st.owed_for.setdefault(player, corp)


def revenue_deduction(g: Context, entity: str) -> int:
    return _st(g).deduction.get(sym_of(entity), 0)


class LoanRedemption(Step):
    """Loans over the cap are repaid once the train purchase is over (never acts: done as it is passed)."""

    name = "loan_redemption"
    description = "Redeem Excess Loans"

    def skip(self) -> None:
        entity = self.current_entity()
        if entity is not None and kind_of(entity) == "C" and _p(self.g).forced_repayment is not None:
            force_repayment(self.g, sym_of(entity))
        self.pass_()


def force_repayment(g: Context, corp: str) -> None:
    limit = cap(g, corp)
    excess = loans_of(g, corp) - (limit if limit is not None else loans_of(g, corp))
    if excess <= 0:
        return
    owed = excess * repay_price(g)
    repay(g, corp, excess)
    st = _st(g)
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

    name = "cash_crisis"
    description = "Emergency Fundraising"
    offers = frozenset({"sell_shares", "bankrupt"})

    def skip(self) -> None:
        """Stays live all round: a debt may arise at any point (interest, a short's dividend)."""

    def blocks(self) -> bool:
        """Only while someone owes (else the round passes it by without marking a change)."""
        return bool(_st(self.g).owed)

    def active_entities(self) -> list[str]:
        return list(_st(self.g).owed)[:1]

    def actions(self, entity: str) -> list[str]:
        if entity not in self.active_entities():
            return []
        sellable = self.sellable(entity)
        acts = ["sell_shares"] if sellable else []
        if raisable(self.g, entity, sellable) < _st(self.g).owed.get(entity, 0):
            acts.append("bankrupt")  # even selling everything cannot pay: he may declare bankruptcy at once
        return acts

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

    def can_sell(self, player: str, b: Bundle) -> bool:
        g = self.g
        if not shares.can_dump(g, b, player) or not shares.fit_in_pool(g, b):
            return False
        c = g.state.corporations[b.corp]
        rules = g.params.get("stock_round")
        zones = set(getattr(rules, "no_trade_zones", None) or [])
        if zones & set(market.kinds_at(g, c.price)):
            return False
        keep = getattr(g.params.get("bankruptcy"), "forced_sales_may_change_presidency", None)
        if c.owner == player and (keep == "none" or b.corp == _st(g).owed_for.get(player)):
            holders = shares.player_holders(g, b.corp)
            others = max([p for h, p in holders.items() if h != player], default=0)
            if holders.get(player, 0) - b.percent < others:
                return False
        return True

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

    def process_sell_shares(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        b = shares.make_bundle(g, list(action.get("shares") or []), action.get("percent"))
        if b.owner != entity or not self.can_sell(entity, b):
            raise illegal("loans.cash_crisis", f"{g.name(entity)} cannot sell {', '.join(b.shares)} now")
        price = shares.sell_and_move(g, b)
        st = _st(g)
        pay = min(price, st.owed[entity])
        g.spend(entity, BANK, pay)
        st.owed[entity] -= pay
        if st.owed[entity] <= 0:
            del st.owed[entity]
            st.owed_for.pop(entity, None)
            st.interest_for.pop(entity, None)
        rounds.recalculate_order(g)

    def process_bankrupt(self, action: dict[str, Any], entity: str) -> None:
        if "bankrupt" not in self.actions(entity):
            raise illegal("loans.cash_crisis", f"{self.g.name(entity)} can still raise what he owes")
        bankrupt(self.g, entity)


def raisable(g: Context, player: str, bundles: list[Bundle]) -> int:
    """What ``player`` could raise selling the largest sellable bundle of each company."""
    best: dict[str, int] = {}
    for b in bundles:
        best[b.corp] = max(best.get(b.corp, 0), shares.bundle_price(g, b))
    return sum(best.values())


def bankrupt(g: Context, player: str) -> None:
    """``player`` cannot pay what he owes: he leaves the game (his estate: hook ``player_bankrupt``); what cash
    is left pays his debt and goes to the bank."""
    st = _st(g)
    g.log(f"-- {g.name(player)} goes bankrupt --")
    interest_corp = st.interest_for.pop(player, None)
    g.hooks("player_bankrupt", player, interest_corp)
    cash = g.cash(player)
    if cash > 0:
        g.spend(player, BANK, cash)
    st.owed.pop(player, None)
    st.owed_for.pop(player, None)
    g.player(player).bankrupt = True
    g.hooks("update_cert_limit")
    rounds.recalculate_order(g)


def operating_round_started(g: Context) -> None:
    st = _st(g)
    st.took, st.redeemed, st.interest_paid, st.deduction = {}, [], [], {}
    set_market_rate(g)


def buying_power(g: Context, entity: str, purpose: str) -> int:
    """Station markers (the track step's purpose) and privates (``company``) may be paid with the loan a company
    could take now; with ``loans_count_for_trains`` a train purchase may use every loan it may still take."""
    p = _p(g)
    if purpose in ("track", "company") and kind_of(entity) == "C" and may_take(g, sym_of(entity)):
        late = sym_of(entity) in _st(g).interest_paid and p.late_loan_amount is not None
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
    p = _p(g)
    limit = cap(g, corp)
    room = (limit if limit is not None else 10**6) - loans_of(g, corp)
    if p.bank_total is not None:
        room = min(room, p.bank_total - total_loans(g) + extra)
    return room


def transfer_loans(g: Context, corp: str, to: str | None) -> None:
    """``corp``'s loans pass to ``to`` (a merger or acquisition), or go back to the bank unpaid (None)."""
    n = cancel_loans(g, corp)
    if n and to is not None:
        _st(g).loans[to] = loans_of(g, to) + n


def value_adjustment(g: Context, player: str) -> int:
    """Outstanding loans lower the value of the company's shares; a debt still owed counts against the player."""
    per = _p(g).final_value_per_share_per_loan
    total = -_st(g).owed.get(player, 0)
    if per:
        for corp, n in _st(g).loans.items():
            if n and not g.state.corporations[corp].closed:
                total -= per * n * shares.num_shares_of(g, player, corp)
    return total


MECHANIC = Mechanic(
    name="loans",
    description="corporations take loans with interest",
    params=Params,
    steps={"loan": Loan, "loan_interest": LoanInterest, "loan_redemption": LoanRedemption, "cash_crisis": CashCrisis},
    hooks={
        "operating_round_started": operating_round_started,
        "revenue_deduction": revenue_deduction,
        "value_adjustment": value_adjustment,
        "loans_outstanding": loans_of,
        "loan_repay_price": repay_price,
        "loans_repaid": lambda g, corp, count: repay(g, corp, count),
        "may_take_loan": may_take,
        "buying_power": buying_power,
        "take_loan": take_loan,
        "loan_room": loan_room,
        "transfer_loans": transfer_loans,
        "player_owes": player_owes,
    },
    state=State,
)
