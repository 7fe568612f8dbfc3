"""``operating_order``: the order in which independents and corporations operate.

Minors operate first (in ``minors_order``, then the rest in rulebook order), then the corporations by
descending price (further right first, then the top of a cell's stack).  With ``first_or_ascending_price`` the
first operating round of the game runs the corporations lowest price first (ties still by the stack).  The
order is set when the operating round starts, and re-sorted for the corporations still to operate whenever an
action moves prices during the round (emergency and forced sales, price protection, loans, destinations:
``rounds.recalculate_order``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from railbook.params.operating_order import DECLARATION, Params

from .. import market
from ..access import params_of
from ..contract import First, Mechanic
from ..state import ckey, kind_of, mkey, sym_of

if TYPE_CHECKING:
    from ..context import Context


PARAMS = params_of(DECLARATION, Params)


def round_entities(g: Context, kind: str) -> list[str] | None:
    if kind != "operating":
        return None
    params = PARAMS.of(g)
    seq = [s for s in params.minors_order if s in g.state.minors]
    minors = seq + [m for m in g.state.minors if m not in seq]
    out = [mkey(m) for m in minors if g.state.minors[m].floated and not g.state.minors[m].closed]
    corps = [
        c
        for c in g.state.corp_order
        if g.state.corporations[c].floated and not g.state.corporations[c].closed and not _skipped(g, c)
    ]
    r = g.state.round
    first = g.state.turn == 1 and (r is None or r.kind != "operating" or r.round_num == 1)
    if first and params.first_or_ascending_price:
        corps.sort(key=lambda c: (market.price_at(g, g.state.corporations[c].price), market.position_in_cell(g, c)))
    else:
        corps.sort(key=lambda c: market.sort_key(g, c))
    return out + [ckey(c) for c in corps]


def _skipped(g: Context, corp: str) -> bool:
    zones = PARAMS.of(g).skip_zones
    return bool(zones) and bool(set(zones) & set(market.kinds_at(g, g.state.corporations[corp].price)))


def operator_skips(g: Context, key: str) -> bool:
    """A corporation in one of ``skip_zones`` does not operate (it may have got there during the round)."""
    return kind_of(key) == "C" and sym_of(key) in g.state.corporations and _skipped(g, sym_of(key))


MECHANIC = Mechanic.of(
    DECLARATION,
    hooks={
        # its operating order replaces core's (priority 0)
        "round_entities": First(round_entities, 10),
        "operator_skips": operator_skips,
    },
)
