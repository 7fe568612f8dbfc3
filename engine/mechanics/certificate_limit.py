"""``certificate_limit``: what counts toward the certificate limit.

The limit itself is the rulebook's per-player-count table, looked up as its ``cert_limit_by`` says (by players,
or by the corporations still in the game, recomputed when one closes).  Certificates of corporations in
market cells marked ``no_cert_limit`` or ``unlimited_holding`` do not count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from ..contract import Mechanic
from ..contract import Params as BaseParams

if TYPE_CHECKING:
    from ..game import Game


class Params(BaseParams):
    """What counts toward the certificate limit."""

    player_privates_count: bool = Field(True, description="private companies a player owns count as certificates")


def _p(g: Game) -> Params:
    return g.params["certificate_limit"]  # type: ignore[return-value]


MECHANIC = Mechanic(
    name="certificate_limit",
    description="what counts toward the certificate limit",
    params=Params,
    hooks={"privates_count_for_cert_limit": lambda g: _p(g).player_privates_count},
)
