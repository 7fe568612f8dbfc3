"""``receivership``: a corporation whose president's certificate is in the pool.

It cannot issue/redeem, lay track, place tokens or buy privates; its president-less turn only runs
routes (entered by any player) and withholds (``operate.dividend``); trainless it moves one more step
left (``operate.no_train_move``) and buys the cheapest bank train face when it can
(``operate.buy_train``).  Its shares cannot be sold.  A player holding shares may buy the president's
certificate out of the pool as if it were one share (``shares.buy_president_cert``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import depot, market, shares
from ..shares import Bundle
from ..state import POOL, ckey, kind_of, sym_of

if TYPE_CHECKING:
    from ..game import Game


def _p(g: Game) -> dict[str, Any]:
    return g.book.mech("receivership") or {}


def in_receivership(g: Game, entity: str | None) -> bool:
    if entity is None or kind_of(entity) != "C" or g.book.mech("receivership") is None:
        return False
    return g.state.corporations[sym_of(entity)].owner == POOL


def pool_president_bundle(g: Game, player: str, b: Bundle) -> Bundle:
    """Buying the president's certificate from the pool of a corporation in receivership costs one share."""
    if g.book.mech("receivership") is None:
        return b
    if not in_receivership(g, ckey(b.corp)) or shares.presidents_share(g, b) is None or b.owner != POOL:
        return b
    return Bundle(b.corp, b.shares, shares.share_percent(g, b.corp), b.owner, b.share_price)


def after_withhold(g: Game, entity: str) -> None:
    if not in_receivership(g, entity) or g.entity_trains(entity):
        return
    c = g.state.corporations[sym_of(entity)]
    if market.price_at(g, c.price) == 0:
        return
    extra = abs(int((_p(g).get("operate") or {}).get("no_train_move", -2))) - 1
    if extra > 0:
        market.move(g, c.sym, "left", extra)


def train_buy(g: Game, entity: str | None) -> None:
    """A trainless corporation in receivership buys the cheapest bank face it can afford."""
    if not in_receivership(g, entity) or g.entity_trains(entity):
        return
    tid = depot.min_depot_train(g)
    if tid is None:
        return
    t = g.state.trains[tid]
    faces = sorted(depot.variants(g, t).values(), key=lambda v: v["price"])
    face = faces[0]
    if g.cash(entity) < face["price"]:
        return
    depot.buy_train(g, entity, tid, face["price"], face["name"])


def operating_after_action(g: Game, action: dict[str, Any]) -> None:
    r = g.state.round
    if not r.entities:
        return
    entity = r.entities[r.entity_index]
    if not in_receivership(g, entity):
        return
    if action.get("type") == "bankrupt":
        from . import bankruptcy

        if not bankruptcy.limit_reached(g):
            train_buy(g, entity)
