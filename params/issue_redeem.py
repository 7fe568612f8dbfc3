"""The ``issue_redeem`` mechanic's parameters and declaration (its rules: ``engine/mechanics/issue_redeem.py``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from railbook.params.base import Declaration
from railbook.params.base import Params as BaseParams

Direction = Literal["left", "right", "up", "down"]


class Params(BaseParams):
    """A corporation issuing and redeeming its own shares in its operating turn."""

    issue_price_move: list[Direction] = Field(
        default_factory=list,
        description="an issued share sells at the market value this many steps from the current price",
    )
    redeem_price_move: list[Direction] = Field(
        default_factory=list,
        description="a redeemed share costs the market value this many steps from the current price",
    )
    emergency_issue: bool = Field(
        False, description="a corporation that must buy a train may issue shares first (see the module)"
    )
    redeem_per_stock_round: int | None = Field(
        None, ge=1, description="shares a corporation may redeem per stock round (None: no such limit)"
    )
    max_treasury_shares: int | None = Field(
        None, ge=0, description="most redeemed shares a corporation may hold (None: no limit)"
    )
    min_shares_outside: int | None = Field(
        None,
        ge=0,
        description="a corporation may redeem only if this many of its shares stay with players and the pool "
        "(None: no such rule)",
    )
    redeem_from: Literal["pool", "pool_then_players", "pool_then_president"] = Field(
        "pool",
        description="`pool_then_players`: from the pool while it holds a share, else from any player (the "
        "president too) as long as the presidency does not change (a redemption in the stock round, see "
        "company_stock_actions; in the operating turn only from the pool); `pool_then_president`: likewise, but "
        "from the president alone",
    )
    redeem_not_before: Literal["float", "first_operation"] = Field(
        "float",
        description="earliest time a corporation may redeem: once floated, or after it has operated (a "
        "corporation whose capital comes at the end of its float round has nothing to redeem with before: "
        "capitalization.full_capital_paid)",
    )


#: The names of the steps issue_redeem contributes (a round kind lists them in the rulebook).
ISSUE_SHARES_STEP = "issue_shares"


DECLARATION = Declaration(
    name="issue_redeem",
    description="a corporation issues and redeems its own shares",
    params=Params,
    steps=(ISSUE_SHARES_STEP,),
    provides=("EmergencyIssue", "Redemption"),
)
