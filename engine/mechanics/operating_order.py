"""``operating_order``: the order in which independents and corporations operate.

Parameters: ``sequence`` (``[private_income, <minors...>, corporations]``), ``corporations``
(``descending_price``: highest price first, then further right, then the top of a cell's stack),
``first_or_of_game: ascending_price`` (the first operating round of the game runs lowest price first,
ties still by the stack).  The order is fixed when the operating round starts, and re-sorted for the
corporations still to operate after a president's emergency sale.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import market
from ..state import ckey, mkey

if TYPE_CHECKING:
    from ..game import Game


def round_entities(g: Game, kind: str) -> list[str] | None:
    if kind != "operating":
        return None
    params = g.book.mech("operating_order") or {}
    seq = [s for s in params.get("sequence") or [] if s in g.state.minors]
    minors = seq or list(g.state.minors)
    out = [mkey(m) for m in minors if g.state.minors[m].floated and not g.state.minors[m].closed]
    corps = [c for c in g.state.corp_order if g.state.corporations[c].floated and not g.state.corporations[c].closed]
    r = g.state.round
    first = g.state.turn == 1 and (r is None or r.kind != "operating" or r.round_num == 1)
    if first and params.get("first_or_of_game") == "ascending_price" and _first_or(g):
        corps.sort(key=lambda c: (market.price_at(g, g.state.corporations[c].price), market.position_in_cell(g, c)))
    else:
        corps.sort(key=lambda c: market.sort_key(g, c))
    return out + [ckey(c) for c in corps]


def _first_or(g: Game) -> bool:
    r = g.state.round
    if r is None:
        return True
    if r.kind == "operating":
        return r.round_num == 1
    return True
