"""The ``loans`` mechanic's parameters and declaration (its rules: ``engine/mechanics/loans.py``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field
from railbook.params.base import Declaration, PhaseId
from railbook.params.base import Params as BaseParams

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


class ForcedRepayment(BaseParams):
    """Loans over the cap must be repaid at the repayment step."""


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
    new_loans_pay_interest: bool = Field(
        True, description="loans taken in this operating turn are charged at its interest step"
    )
    shortfall_loans_pay_interest: bool = Field(
        False, description="a loan taken to pay the interest is itself charged interest in the same payment"
    )
    late_loan_amount: int | None = Field(
        None, ge=0, description="money a loan taken after this turn's interest step gives (None: `amount`)"
    )
    interest_if_not_run: Literal["at_once", "next_action"] = Field(
        "at_once",
        description="when a company that runs no trains (its route step passed by) pays its interest: `at_once`, in "
        "the turn's order; `next_action`, after its next action of the turn, on the loans it has then, and not at "
        "all if its turn ends first (18xx.games)",
    )
    redemption_after_action: bool = Field(
        False,
        description="the loans over the cap are redeemed after the company's action that ends its train step (after "
        "the interest that action charges), or, where that step is passed by with nothing to do, after its next "
        "action, the repayment step holding the turn for it (`pass`) meanwhile; not at the repayment step "
        "(18xx.games)",
    )
    interest_before_pending_discard: bool = Field(
        False,
        description="the interest is charged as soon as the company's train step is over, though a discard (a "
        "company over its train limit after a phase change) is still pending before it in the turn's steps; the "
        "repayments then come before that discard (18xx.games)",
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
    crisis_order: Literal["as_owed", "seat_from_last_company"] = Field(
        "as_owed",
        description="whose cash crisis is settled first when several players owe at once: in the order the debts "
        "arose; or in seat order from the president of the company that caused the latest one (a company sold or "
        "liquidated, or the company whose interest or dividend was owed)",
    )
    crisis_sales: Literal["any", "no_more_than_needed"] = Field(
        "any",
        description="what a player in a cash crisis may sell: any bundle he may sell; or none whose last "
        "certificate he does not need to pay what he owes (one share at a time until he has enough)",
    )
    final_value_per_share_per_loan: int = Field(
        0, ge=0, description="at game end each outstanding loan lowers the company's share price by this, in $"
    )


#: The names of the steps loans contributes (a round kind lists them in the rulebook).
LOAN_STEP = "loan"
LOAN_INTEREST_STEP = "loan_interest"
LOAN_REDEMPTION_STEP = "loan_redemption"
CASH_CRISIS_STEP = "cash_crisis"


DECLARATION = Declaration(
    name="loans",
    description="corporations take loans with interest",
    params=Params,
    steps=(LOAN_STEP, LOAN_INTEREST_STEP, LOAN_REDEMPTION_STEP, CASH_CRISIS_STEP),
    provides=("Loans",),
    uses=("Liquidation", "StockMarket", "Bankruptcy"),
)
