"""The ``tokens`` mechanic's parameters and declaration (its rules: ``engine/mechanics/tokens.py``)."""

from __future__ import annotations

from pydantic import Field
from railbook.params.base import CorporationId, Declaration, NoParams
from railbook.params.base import Params as BaseParams


class RemoveReservations(BaseParams):
    """Event ``remove_reservations``: reserved token spaces become free."""

    corporations: list[CorporationId] = Field(description="corporations whose reservations go")


#: The names of the steps tokens contributes (a round kind lists them in the rulebook).
SPECIAL_TOKEN_STEP = "special_token"


DECLARATION = Declaration(
    name="tokens",
    description="station tokens: the turn's placement and private token abilities",
    params=NoParams,
    steps=(SPECIAL_TOKEN_STEP,),
    events={"remove_reservations": RemoveReservations},
)
