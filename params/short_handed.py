"""The ``short_handed`` mechanic's parameters and declaration.

Its rules: ``engine/mechanics/short_handed.py``."""

from __future__ import annotations

from pydantic import Field
from railbook.params.base import Declaration
from railbook.params.base import Params as BaseParams


class Params(BaseParams):
    """Share rules that apply only at some player counts."""

    players: list[int] = Field(min_length=1, description="the player counts these rules apply to")
    president_percent: int | None = Field(
        None, ge=10, le=100, description="the percent of each president's certificate (None: as printed)"
    )
    shares_out_of_play: int = Field(
        0, ge=0, description="each corporation's last certificates that go to the bank, out of play"
    )
    except_private_certificate: bool = Field(
        False, description="a corporation whose president's certificate comes with a private keeps its certificates"
    )
    unsold_to_market_at_float: bool = Field(
        False, description="when a corporation floats, the certificates left in its initial offering go to the market"
    )
    market_share_leaves_on_purchase: bool = Field(
        False,
        description="when a player who is not its president buys a certificate of a corporation while the market holds "
        "one of its certificates, the one last put in the market leaves the game first; if that was the "
        "certificate asked for, the purchase is that alone (nothing changes hands)",
    )


DECLARATION = Declaration(
    name="short_handed",
    description="share rules for small player counts",
    params=Params,
)
