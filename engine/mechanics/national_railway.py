"""``national_railway``: a government railway formed from the companies that cannot repay their loans.

Formation is the phase event ``national_railway_formation``: every company with loans repays what its
treasury can in whole loans; then, from the president of the company that triggered it clockwise, the
president of each company still in debt either pays the rest from his cash (a ``pass``) or lets the company be
absorbed (a ``merge``).  When no company is absorbed the national railway never forms.  (Absorption itself --
share and marker exchange, the national's start price, trains and operation -- is not yet played by the
engine: a ``merge`` stops the game with a clear error.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from ..closing import close_operator
from ..contract import CorporationId, Mechanic, NoParams, TrainId
from ..contract import Params as BaseParams
from ..errors import illegal
from ..state import BANK, ckey, kind_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..game import Game


class LoanRepayment(BaseParams):
    """Loans every company must repay when the national railway forms."""

    order: Literal["clockwise_from_trigger_president"] = Field(
        "clockwise_from_trigger_president",
        description="presidents repay in turn, starting with the president of the company that triggered it",
    )
    payers: list[Literal["treasury", "president_cash"]] = Field(
        default_factory=lambda: ["treasury", "president_cash"],
        description="who repays, in order (the treasury in whole loans only)",
    )
    president_sells_shares: bool = Field(False, description="the president may sell shares to repay")
    president_chooses_order: bool = Field(
        True, description="a president of several companies chooses in which order they repay"
    )


class ShareExchange(BaseParams):
    """Shares of absorbed companies exchanged for national shares."""

    old_per_new: int = Field(2, ge=1, description="absorbed shares (any mix of companies) per national share")
    order: Literal["clockwise_from_trigger_president"] = Field(
        "clockwise_from_trigger_president", description="order in which players exchange"
    )
    player_odd_share: Literal["to_market_unpaid", "discarded"] = Field(
        "to_market_unpaid", description="a player's share left over after exchanging"
    )
    market_old_per_new: int = Field(2, ge=1, description="absorbed shares in the market per national share")
    market_odd_share: Literal["to_market_unpaid", "discarded"] = Field(
        "discarded", description="a market share left over"
    )
    leftover_national_shares: Literal["initial_offering", "bank"] = Field(
        "initial_offering", description="where national shares not handed out go"
    )
    shortage: Literal["discard_unconverted"] = Field(
        "discard_unconverted", description="absorbed shares left when national shares run out are discarded unpaid"
    )


class SecondIssue(BaseParams):
    """More national shares issued when the first issue is not enough for the exchange."""

    when_more_than: int = Field(ge=1, description="issued when the exchange needs more national shares than this")
    certificates: list[Annotated[int, Field(ge=1, le=100)]] = Field(
        description="percentages of all national certificates after the issue, the president's first"
    )
    certificate_weight: float = Field(
        0.5, gt=0, description="certificate-limit count of each ordinary certificate after the issue"
    )
    player_max_shares: int = Field(ge=1, description="most national certificates one player may hold after the issue")
    market_max_shares: int = Field(ge=0, description="most national certificates the market may hold after the issue")
    limit_allowance: float = Field(
        0.5, ge=0, description="certificates a player may hold above the limit (never buying while at it)"
    )


class President(BaseParams):
    """Who presides the national railway."""

    temporary: Literal["first_with_two_shares"] = Field(
        "first_with_two_shares", description="the president's certificate goes first to the first player with two"
    )
    tie: Literal["temporary_holder_then_leftwards"] = Field(
        "temporary_holder_then_leftwards", description="among the players with the most shares after the exchange"
    )
    single_share_president_must_buy: bool = Field(
        True,
        description="with nobody holding two shares the first receiver presides and must buy a second share in "
        "his first turn of the next stock round, selling if needed, unless another player reaches two first",
    )


class Tokens(BaseParams):
    """Station markers of the national railway."""

    count: int = Field(ge=0, description="its station markers")
    homes_first: bool = Field(True, description="absorbed home markers are replaced first, then the president picks")
    one_per_tile: bool = Field(True, description="never two of its markers on one tile")
    new_marker_price: int = Field(ge=0, description="price of each further marker it places, in $")


class StartPrice(BaseParams):
    """The national railway's starting share price."""

    minimum: int = Field(ge=0, description="lowest start price, in $")
    drop_lowest_when_at_least: int = Field(
        3, ge=2, description="absorbed companies from which on the lowest price is left out of the average"
    )
    round_down_to: int = Field(5, ge=1, description="the average is rounded down to a multiple of this, in $")
    row: int = Field(0, ge=0, description="market row the price is placed on (0: the top row)")
    ties: Literal["higher", "lower"] = Field(
        "higher", description="the cell nearest the average at or above the minimum; an average midway goes this way"
    )


class Borrowing(BaseParams):
    """A trainless national railway runs a train still in the bank."""

    trains: list[TrainId] = Field(description="train types it may borrow")
    until_permanent_train: bool = Field(True, description="no more borrowing once it owns a permanent train")
    withhold_until_paid: bool = Field(True, description="it withholds until it has paid for the borrowed train")


class Trains(BaseParams):
    """Trains of the national railway."""

    keep: list[TrainId] = Field(default_factory=list, description="absorbed train types it must keep (up to its limit)")
    discarded_to: Literal["market", "bank"] = Field("market", description="where absorbed trains it drops go")
    buys_only: list[TrainId] = Field(default_factory=list, description="train types it may buy (empty: any)")
    face_price_only: bool = Field(True, description="it buys and sells trains only at face value")
    borrow: Borrowing | None = Field(None, description="running a borrowed bank train while trainless (None: no)")


class Params(BaseParams):
    """The national railway: loan settlement, absorption, share and marker exchange, price, its own rules."""

    national: CorporationId = Field(description="the national railway's corporation")
    forms_after: Literal["trigger_operating_turn"] = Field(
        "trigger_operating_turn", description="formation happens once the triggering company has finished its turn"
    )
    loan_repayment: LoanRepayment = Field(default_factory=LoanRepayment, description="loans repaid at formation")
    absorbs: Literal["companies_with_unpaid_loans"] = Field(
        "companies_with_unpaid_loans", description="which companies it absorbs"
    )
    forms_without_absorbed: bool = Field(False, description="it forms even when no company is absorbed")
    absorbed_loans: Literal["cancelled", "kept"] = Field("cancelled", description="loans of the absorbed companies")
    share_exchange: ShareExchange = Field(default_factory=ShareExchange, description="the share exchange")
    second_issue: SecondIssue | None = Field(None, description="a second issue of shares (None: none)")
    market_over_limit: Literal["holders_buy_excess"] = Field(
        "holders_buy_excess",
        description="national shares in the market above its limit are bought by holders in turn from priority, "
        "selling other shares if needed",
    )
    president: President = Field(default_factory=President, description="who presides it")
    tokens: Tokens = Field(description="its station markers")
    start_price: StartPrice = Field(description="its start price: average of the absorbed companies' prices")
    starting_cash: Literal["absorbed_companies_cash"] = Field(
        "absorbed_companies_cash", description="its only starting capital"
    )
    ipo_sales_pay: Literal["bank", "company"] = Field("bank", description="who receives its initial-offering sales")
    trains: Trains = Field(default_factory=Trains, description="its trains")
    pays_dividends_only_with_permanent_train: bool = Field(
        True, description="it pays only once it owns a permanent train"
    )
    price_moves_only_with_permanent_train: bool = Field(
        True, description="its share price never moves until it owns a permanent train"
    )
    odd_share_dividend_rounding: Literal["up", "down"] = Field(
        "up", description="rounding of the dividend of a lone half-size share"
    )
    first_operation: Literal["at_once_unless_absorbed_operated", "next_operating_round"] = Field(
        "at_once_unless_absorbed_operated",
        description="it operates right after forming unless an absorbed company operated this round; otherwise "
        "from the next operating round",
    )
    can_close: bool = Field(False, description="it may close (its price stops one cell short of a closing cell)")
    inherits_bonus_rights: bool = Field(
        True, description="it inherits the absorbed companies' bonus rights (a duplicate goes back to the bank)"
    )


@dataclass
class State:
    """Formation: the companies whose presidents must still choose (pay or be absorbed), those absorbed, and
    whether the formation has been settled."""

    pending: list[str] = field(default_factory=list)
    absorbed: list[str] = field(default_factory=list)
    settled: bool = False
    formed: bool = False


def _p(g: Game) -> Params:
    return g.params["national_railway"]  # type: ignore[return-value]


def _st(g: Game) -> State:
    return g.state.mechanics["national_railway"]  # type: ignore[no-any-return]


def _debts(g: Game) -> dict[str, int]:
    """Loans per corporation (asked of the loans mechanic)."""
    return {c: n for c in g.state.corp_order if (n := int(g.hooks("loans_outstanding", c) or 0)) > 0}


def formation(g: Game, params: NoParams) -> None:
    """The phase event: treasuries repay what they can; the rest wait for their presidents' choice."""
    st = _st(g)
    if st.settled:
        return
    price = int(g.hooks("loan_repay_price") or 0)
    trigger = g.current_operator()
    players = g.player_keys()
    start = players.index(g.controller(trigger)) if trigger and g.controller(trigger) in players else 0
    seat = {p: (i - start) % len(players) for i, p in enumerate(players)}
    debtors = []
    for corp, n in _debts(g).items():
        c = g.state.corporations[corp]
        if c.closed or corp == _p(g).national:
            continue
        paid = min(n, g.cash(ckey(corp)) // price) if price else 0
        if paid:
            g.spend(ckey(corp), BANK, paid * price)
            g.hooks("loans_repaid", corp, paid)
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


def _settle(g: Game) -> None:
    st = _st(g)
    st.settled = True
    if not st.absorbed:
        g.log(f"{_p(g).national} does not form")
        close_operator(g, ckey(_p(g).national))
    g.hooks("update_cert_limit")


class NationalFormation(Step):
    """Presidents of companies still in debt at the formation pay the rest (``pass``) or let them be absorbed
    (``merge``)."""

    name = "national_formation"
    description = "National railway formation: repay loans or merge"

    def skip(self) -> None:
        """Stays live: the formation may start at any purchase."""

    def blocks(self) -> bool:
        return bool(_st(self.g).pending)

    def active_entities(self) -> list[str]:
        pending = _st(self.g).pending
        return [ckey(pending[0])] if pending else []

    def actions(self, entity: str) -> list[str]:
        pending = _st(self.g).pending
        return ["merge", "pass"] if pending else []

    def owed(self, corp: str) -> int:
        g = self.g
        n = int(g.hooks("loans_outstanding", corp) or 0)
        return n * int(g.hooks("loan_repay_price") or 0)

    def legal(self, entity: str) -> list[dict[str, Any]]:
        pending = _st(self.g).pending
        if not pending or entity != ckey(pending[0]):
            return []
        corp = pending[0]
        out: list[dict[str, Any]] = [{"type": "merge", "corporation": corp}]
        president = self.g.owner(ckey(corp))
        if president and self.g.cash(president) + self.g.cash(ckey(corp)) >= self.owed(corp):
            out.append({"type": "pass"})
        return out

    def process_pass(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        st = _st(g)
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
        g.hooks("loans_repaid", corp, int(g.hooks("loans_outstanding", corp) or 0))
        g.log(f"{g.name(president)} pays off {corp}'s loans")
        st.pending.pop(0)
        if not st.pending:
            _settle(g)

    def process_merge(self, action: dict[str, Any], entity: str) -> None:
        corp = _st(self.g).pending[0]
        raise illegal(
            "national.absorb",
            f"{corp} would be absorbed into {_p(self.g).national}: absorption is not yet played by the engine",
        )


MECHANIC = Mechanic(
    name="national_railway",
    description="a government railway formed from merged companies",
    params=Params,
    steps={"national_formation": NationalFormation},
    events={"national_railway_formation": (NoParams, formation)},
    state=State,
)
