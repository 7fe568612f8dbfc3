"""The ``trains`` mechanic's parameters and declaration (its rules: ``engine/mechanics/trains.py``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from railbook.params.base import Declaration
from railbook.params.base import Params as BaseParams


class Params(BaseParams):
    """Train purchases, limits and the emergency purchase."""

    must_own_train: bool = Field(True, description="a corporation without a train must buy one (route or not)")
    must_own_train_only_with_route: bool = Field(
        False,
        description="the obligation of `must_own_train` holds only when the corporation has a legal route",
    )
    bank_trains_per_turn: int | None = Field(
        None, ge=1, description="new trains a corporation may buy from the bank per turn (None: no limit)"
    )
    bank_trains_per_turn_status: str | None = Field(
        None,
        description="`bank_trains_per_turn` holds only while the current phase's `status` lists this flag (None: "
        "in every phase)",
    )
    bank_trains_per_turn_counts_open_market: bool = Field(
        False,
        description="`bank_trains_per_turn` counts the trains bought from the open market (discarded ones) as well, "
        "and limits them alike (False: only new trains count; any number from the open market)",
    )
    emergency_cheapest_only: bool = Field(
        False,
        description="once the president must contribute, only the cheapest train (and face) the bank offers, new "
        "or discarded, may be bought (never one from a corporation: the president only ever pays for bank "
        "trains)",
    )
    president_cash_only_below_cheapest: bool = Field(
        False,
        description="a company that must buy a train gets its president's money (his cash, his share sales) only "
        "while its treasury cannot pay for the cheapest train the bank offers it (any face); one that can pay "
        "for a bank train buys one it can pay for (False: the president may help buy any bank train)",
    )
    closed_company_trains_to: Literal["removed", "pool"] = Field(
        "removed",
        description="where a closing corporation's trains go: out of the game, or to the open market where they "
        "may be bought again",
    )
    obsolete_count_for_limit: bool = Field(False, description="obsolete trains count toward the train limit")
    issue_before_president_cash: bool = Field(
        False, description="in an emergency the corporation must issue the shares it may before its president pays"
    )
    president_may_not_sell_operating_corp_to_zero: bool = Field(
        False, description="an emergency sale may not drop the buying corporation's price to $0"
    )
    restricted_face_choice: bool = Field(
        False,
        description="for a two-faced bank train: a corporation that can afford only the cheaper face (or is in "
        "receivership) takes it, and after raising money only a face that money was needed for may be bought",
    )
    trade_in_at_limit: bool = Field(
        False,
        description="a train with a trade-in discount may be bought at the train limit, trading one in",
    )
    traded_in_to: Literal["scrapped", "pool"] = Field("scrapped", description="where a traded-in train goes")
    trainless_at_turn_end: Literal["nothing", "liquidation"] = Field(
        "nothing",
        description="what happens to a corporation that ends its turn without a train",
    )
    no_buy_from_zones: list[str] = Field(
        default_factory=list,
        description="market cell kinds of corporations that may not sell trains to another corporation",
    )
    export_at_or_end: bool = Field(
        False,
        description="at the end of every operating round the next bank train is removed; this may change the "
        "phase like a purchase",
    )
    emergency_sale_restores_share_limit: bool = Field(
        False,
        description="a president above the share limit (outside the zones that lift it) who sells shares of that "
        "company to buy a train must sell down to the limit, even beyond what the train needs",
    )
    first_export_removes_type: bool = Field(
        False, description="the first export also removes every unsold train of its type"
    )
    unbuyable_trains_hold_the_step: bool = Field(
        False,
        description="a company with room and at least $1 to spend that can buy no train keeps its train step open "
        "(it passes) while another company holds a train it may not buy: one of a company in a `no_buy_from_zones` "
        "cell, or one of a company whose unsold assets left the game, until that train's type rusts or goes obsolete "
        "(an obsolete train holds nothing)",
    )


#: The names of the steps trains contributes (a round kind lists them in the rulebook).
BUY_TRAIN_STEP = "buy_train"
DISCARD_TRAIN_STEP = "discard_train"


DECLARATION = Declaration(
    name="trains",
    description="train buying, limits and the emergency purchase",
    params=Params,
    steps=(BUY_TRAIN_STEP, DISCARD_TRAIN_STEP),
    provides=("Trains",),
    uses=("Liquidation", "EmergencyIssue", "StockMarket", "Receivership"),
)
