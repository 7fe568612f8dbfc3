"""The ``national_railway`` mechanic's parameters and declaration.

Its rules: ``engine/mechanics/national_railway.py``."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field
from railbook.params.base import CorporationId, Declaration, NoParams, TrainId
from railbook.params.base import Params as BaseParams


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


class SecondIssue(BaseParams):
    """More national shares issued when the first issue is not enough for the exchange."""

    when_more_than: int = Field(ge=1, description="issued when the exchange needs more national shares than this")
    certificates: list[Annotated[int, Field(ge=1, le=100)]] = Field(
        description="percentages of all national certificates after the issue, the president's first"
    )
    certificate_weight: float = Field(
        0.5,
        gt=0,
        description="certificate-limit count of each ordinary certificate after the issue",
    )
    player_max_shares: int = Field(
        ge=1,
        description="most national certificates one player may hold after the issue",
    )
    limit_allowance: float = Field(
        0.5,
        ge=0,
        description="certificates a holder of national certificates may hold above the limit (never buying while "
        "at it)",
    )


class President(BaseParams):
    """Who presides the national railway."""

    tie: Literal["temporary_holder_then_leftwards"] = Field(
        "temporary_holder_then_leftwards", description="among the players with the most shares after the exchange"
    )
    single_share_president_must_buy: bool = Field(
        True,
        description="with nobody holding two shares the first receiver presides and must buy a second share in "
        "his first turn of the next stock round, selling if needed, unless another player reaches two first; one "
        "who cannot raise its price is bankrupt",
    )


class Tokens(BaseParams):
    """Station markers of the national railway."""

    count: int = Field(ge=0, description="its station markers")
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


class Trains(BaseParams):
    """Trains of the national railway."""

    keep: list[TrainId] = Field(
        default_factory=list,
        description="train types it must keep (up to its limit): it discards one only when it owns no other type",
    )
    choose_kept: bool = Field(
        False,
        description="at its formation its president chooses the absorbed trains it keeps: it may discard any train "
        "not of a `keep` type, and must discard down to its limit (`keep` types only when it owns no other), before "
        "play goes on (false: it discards down to its limit only)",
    )
    buys_only: list[TrainId] = Field(default_factory=list, description="train types it may buy (empty: any)")
    face_price_only: bool = Field(True, description="it buys and sells trains only at face value")
    borrow: Borrowing | None = Field(
        None,
        description="running a borrowed bank train while trainless (None: no); a trainless national that never owned "
        "a permanent train is forced to buy only once its treasury covers a train it may buy",
    )


class Params(BaseParams):
    """The national railway: loan settlement, absorption, share and marker exchange, price, its own rules."""

    national: CorporationId = Field(description="the national railway's corporation")
    absorbed_loans: Literal["cancelled", "kept"] = Field("cancelled", description="loans of the absorbed companies")
    share_exchange: ShareExchange = Field(default_factory=ShareExchange, description="the share exchange")
    second_issue: SecondIssue | None = Field(None, description="a second issue of shares (None: none)")
    president: President = Field(default_factory=President, description="who presides it")
    tokens: Tokens = Field(description="its station markers")
    start_price: StartPrice = Field(description="its start price: average of the absorbed companies' prices")
    trains: Trains = Field(default_factory=Trains, description="its trains")
    pays_dividends_only_with_permanent_train: bool = Field(
        True, description="it pays only once it owns a permanent train"
    )
    price_moves_only_with_permanent_train: bool = Field(
        True, description="its share price never moves until it owns a permanent train"
    )
    first_operation: Literal["at_once_unless_absorbed_operated", "next_operating_round"] = Field(
        "at_once_unless_absorbed_operated",
        description="it operates right after forming unless an absorbed company operated this round; otherwise "
        "from the next operating round",
    )
    can_close: bool = Field(
        False,
        description="it may close (false: its price stops one cell short of a closing cell)",
    )
    inherits_bonus_rights: bool = Field(
        True, description="it inherits the absorbed companies' bonus rights (a duplicate goes back to the bank)"
    )


#: The names of the steps national_railway contributes (a round kind lists them in the rulebook).
NATIONAL_FORMATION_STEP = "national_formation"
BORROW_TRAIN_STEP = "borrow_train"


DECLARATION = Declaration(
    name="national_railway",
    description="a government railway formed from merged companies",
    params=Params,
    steps=(NATIONAL_FORMATION_STEP, BORROW_TRAIN_STEP),
    events={"national_railway_formation": NoParams},
    provides=("NationalRailway",),
    requires=("Loans",),
    uses=("BonusRights",),
)
