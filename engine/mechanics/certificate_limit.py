"""``certificate_limit``: what counts toward the certificate limit.

The limit itself is the rulebook's per-player-count table, looked up as its ``cert_limit_by`` says (by players,
or by the corporations still in the game, recomputed when one closes).  Certificates of corporations in
market cells marked ``no_cert_limit`` or ``unlimited_holding`` do not count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from railbook.params.certificate_limit import DECLARATION, Params

from .. import market
from ..access import params_of
from ..contract import Mechanic
from ..interfaces import NATIONAL_RAILWAY

if TYPE_CHECKING:
    from ..context import Context


PARAMS = params_of(DECLARATION, Params)


def cert_exempt(g: Context, player: str, corp: str) -> bool:
    """A corporation in an ``exempt_zones`` cell: its certificates do not count (hook ``cert_exempt``)."""
    zones = PARAMS.of(g).exempt_zones
    if not zones:
        return False
    price = g.state.corporations[corp].price
    if not price:
        return False
    for k in market.kinds_at(g, price):
        if k in zones:
            return True
    return False


def update_cert_limit(g: Context) -> None:
    """``by_companies``: once in force, the limit is the row of the corporations not closed (started or not,
    a formed national railway included) for the number of players (runs after core's players-table lookup).
    ``follows_players_left``: the players table's limit for the players left in the game."""
    p = PARAMS.of(g)
    if p.follows_players_left:
        left = sum(1 for pl in g.state.players if not pl.bankrupt)
        row = g.book.raw["players"].get(str(left)) or {}
        if left < len(g.state.players) and isinstance(row.get("cert_limit"), int):
            g.state.cert_limit = row["cert_limit"]
    if not p.by_companies:
        return
    national = NATIONAL_RAILWAY.get(g)
    if p.by_companies_from == "national_railway_formation":
        if national is None or not national.settled(g):
            return
        if not p.by_companies_without_national and not national.formed(g):
            return  # the national did not form and the players table stays
    live = sum(1 for c in g.state.corporations.values() if not c.closed and not c.removed)
    rows = sorted(p.by_companies)
    row = next((k for k in reversed(rows) if k <= live), rows[0])
    g.state.cert_limit = p.by_companies[row].get(len(g.state.players), g.state.cert_limit)


MECHANIC = Mechanic.of(
    DECLARATION,
    hooks={
        "privates_count_for_cert_limit": lambda g: PARAMS.of(g).player_privates_count,
        "cert_excess_allowed": lambda g: PARAMS.of(g).purchase_may_exceed,
        "cert_exempt": cert_exempt,
        "update_cert_limit": update_cert_limit,
    },
)
