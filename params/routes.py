"""The ``routes`` mechanic's parameters and declaration (its rules: ``engine/mechanics/routes.py``)."""

from __future__ import annotations

from pydantic import Field
from railbook.params.base import Declaration, HexId
from railbook.params.base import Params as BaseParams


class EastWest(BaseParams):
    """A bonus for a route joining an east and a west off-board."""

    east_group: str = Field(description="the group shared by the east off-boards' stops")
    west_label: str = Field(description="the label of the west off-board hexes")
    bonus: dict[HexId, int] = Field(description="the bonus printed by each end hex, $; a route earns both ends'")


class Params(BaseParams):
    """Route bonuses of the title (private companies' bonuses are their abilities)."""

    east_west: EastWest | None = Field(None, description="the east-west bonus, if the title has one")
    bonus_right_price: int | None = Field(
        None,
        ge=0,
        description="price a corporation pays for a copy of a private's revenue-bonus right (ability params "
        "`right`): to the corporation owning the private, to the bank once it has closed, never while a player "
        "owns it (None: rights are not sold)",
    )
    bonus_right_copies: int | None = Field(
        None,
        ge=1,
        description="corporations that may hold each right, the owner included (None: unlimited)",
    )


#: The names of the steps routes contributes (a round kind lists them in the rulebook).
ROUTE_STEP = "route"
SPECIAL_BUY_STEP = "special_buy"


DECLARATION = Declaration(
    name="routes",
    description="running trains and the title's route bonuses",
    params=Params,
    steps=(ROUTE_STEP, SPECIAL_BUY_STEP),
    provides=("BonusRights",),
)
