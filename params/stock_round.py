"""The ``stock_round`` mechanic's parameters and declaration (its rules: ``engine/mechanics/stock_round.py``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from railbook.params.base import Declaration, PhaseId
from railbook.params.base import Params as BaseParams


class Params(BaseParams):
    """Turn structure and limits of the stock round."""

    sell_after: Literal[
        "any_time",
        "after_first_stock_round",
        "after_operation",
        "president_any_time_others_after_operation",
        "after_launch_round",
    ] = Field("any_time", description="when a corporation's shares may first be sold")
    sell_before_buy: bool = Field(
        False, description="a turn is: sell any, then buy one (no selling after the purchase in that turn)"
    )
    sell_in_blocks: bool = Field(
        False, description="a player sells a corporation's shares at most once per turn (one price move)"
    )
    no_buy_after_sell: bool = Field(
        True, description="a player may not buy a corporation's shares after selling some in the same round"
    )
    max_percent_per_player: int = Field(60, ge=0, le=100, description="most % of one corporation a player may hold")
    pool_max_percent: int | None = Field(
        50, ge=0, le=100, description="most % of one corporation the pool may hold (None: no limit)"
    )
    no_buy_after_sell_until: Literal["end_of_round", "after_next_operating_rounds"] = Field(
        "end_of_round",
        description="how long the `no_buy_after_sell` ban lasts: this stock round, or until the next set of "
        "operating rounds has run (then a player who sells in an operating round, e.g. for a train, may not buy "
        "that company in the next stock round)",
    )
    sell_bought_this_turn: bool = Field(
        False,
        description="a player who bought first may sell in the same turn, the certificate just bought included "
        "(else that certificate stays: a sale must leave at least the percent bought this turn)",
    )
    buy_private_from_player: bool = Field(
        False,
        description="instead of a certificate a player may buy a private from another player, at any agreed price "
        "of at least $1 (action `buy_company`; the seller's consent is given at the table, as for a company's "
        "purchase of a private); it counts as the turn's purchase",
    )
    buy_private_from_player_after: Literal["any_time", "after_first_stock_round"] = Field(
        "any_time", description="with `buy_private_from_player`: from the start, or from the second stock round on"
    )
    buy_private_from_player_phases: list[PhaseId] | None = Field(
        None, description="with `buy_private_from_player`: the phases in which it is offered (None: every phase)"
    )
    multiple_buy_after_private: bool = Field(
        False,
        description="with `buy_private_from_player`: a private bought from a player does not stop further "
        "purchases of a corporation whose price lies in a `multiple_buy` cell in the same turn (as a first share "
        "of it would not)",
    )
    buy_then_sell: bool = Field(
        False,
        description="a turn may also be: buy one, then sell (never sell, buy and sell again; see "
        "`sell_bought_this_turn` for the certificate just bought)",
    )
    sell_order_by_action_kinds: bool = Field(
        False,
        description="with `buy_then_sell`: whether a sale may follow is decided by the kinds of move made in the "
        "turn (sale, share purchase, par, private bought from a player): none when exactly two kinds were made and "
        "the last was a purchase (18xx.games; its private purchase is a kind apart, so that a private, a sale and a "
        "share allow another sale, and a private and a share do not)",
    )
    ipo_price: Literal["market", "par"] = Field(
        "market",
        description="what a share bought from the initial offering costs: the corporation's current market price "
        "or its par price (shares from the open market always cost the market price)",
    )
    no_trade_zones: list[str] = Field(
        default_factory=list,
        description="market cell kinds (market legend) in which a corporation's shares may be neither bought "
        "nor sold (in the stock round, and in forced sales: loans, bankruptcy)",
    )
    sell_down_to_share_limit: bool = Field(
        True,
        description="a player above the share limit (outside the zones that lift it) must sell down to it before "
        "anything else in his turn; false: he keeps an excess the market or price protection gave him, but a sale "
        "of that company must bring him within the limit",
    )
    redeemed_sold_from_turn: int | None = Field(
        1,
        ge=1,
        description="the first game turn whose end-of-stock-round sold-out test counts shares the company redeemed "
        "(held off sale in its treasury) as sold; earlier stock rounds count only players' shares (None: never)",
    )
    multiple_buy_from_ipo: bool = Field(
        False,
        description="in a `multiple_buy` market cell the further purchases of a turn may come from the initial "
        "offering too, not only from the open market",
    )


#: The names of the steps stock_round contributes (a round kind lists them in the rulebook).
STOCK_STEP = "stock"


DECLARATION = Declaration(
    name="stock_round",
    description="stock round turns: sell then buy, launch corporations, limits",
    params=Params,
    steps=(STOCK_STEP,),
    provides=("StockMarket",),
    uses=("Receivership",),
)
