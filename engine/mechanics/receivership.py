"""``receivership``: a corporation whose president's certificate is in the pool.

It cannot issue/redeem, lay track, place tokens or buy privates; its president-less turn only runs routes
(entered by any player) and withholds.  Its shares cannot be sold in emergencies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from railbook.params.receivership import DECLARATION, Params

from .. import depot, market, shares
from ..access import params_of
from ..contract import Mechanic
from ..interfaces import BANKRUPTCY, RECEIVERSHIP
from ..shares import Bundle
from ..state import POOL, ckey, kind_of, sym_of

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


PARAMS = params_of(DECLARATION, Params)


@cython.locals(g="Context")
def in_receivership(g: Context, entity: str | None) -> bool:
    if entity is None or kind_of(entity) != "C":
        return False
    return g.state.corporations[sym_of(entity)].owner == POOL


@cython.locals(g="Context")
def pool_president_bundle(g: Context, player: str, b: Bundle) -> Bundle:
    """Buying the president's certificate from the pool of a corporation in receivership costs one share."""
    if not PARAMS.of(g).president_certificate_as_one_share:
        return b
    if not in_receivership(g, ckey(b.corp)) or shares.presidents_share(g, b) is None or b.owner != POOL:
        return b
    return Bundle(b.corp, b.shares, shares.share_percent(g, b.corp), b.owner, b.share_price)


@cython.locals(g="Context")
def after_withhold(g: Context, entity: str, owned_train: bool) -> None:
    """The extra moves left of a corporation in receivership that owned no train at its route step (an obsolete
    train it ran counts: it owned it then)."""
    if not in_receivership(g, entity) or owned_train or g.entity_trains(entity):
        return
    c = g.state.corporations[sym_of(entity)]
    if market.price_at(g, c.price) == 0:
        return
    extra = PARAMS.of(g).trainless_withhold_extra_moves
    if extra > 0:
        market.move(g, c.sym, "left", extra)


@cython.locals(g="Context")
def train_buy(g: Context, entity: str | None) -> None:
    """A trainless corporation in receivership buys the cheapest bank face it can afford."""
    if not PARAMS.of(g).buys_cheapest_train or not in_receivership(g, entity) or g.entity_trains(entity):
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


@cython.locals(g="Context")
def operating_after_action(g: Context, action: dict[str, Any]) -> None:
    r = g.state.round
    if not r.entities:
        return
    entity = r.entities[r.entity_index]
    if not in_receivership(g, entity):
        return
    bankruptcy = BANKRUPTCY.get(g)
    if action.get("type") == "bankrupt" and not (bankruptcy is not None and bankruptcy.limit_reached(g)):
        train_buy(g, entity)


@cython.locals(g="Context")
def presidency_vacated(g: Context, corp: str) -> None:
    """A corporation whose president left (bankrupt) with a value above zero goes into receivership."""
    c = g.state.corporations[corp]
    if market.price_at(g, c.price) > 0:
        c.owner = POOL
        g.log(f"-- {corp} enters receivership --")


class _Receivership:
    """The :class:`~railbook.engine.interfaces.Receivership` this mechanic provides."""

    purchase_bundle = staticmethod(pool_president_bundle)
    withheld = staticmethod(after_withhold)
    trainless_buy = staticmethod(train_buy)
    presidency_vacated = staticmethod(presidency_vacated)


MECHANIC = Mechanic.of(
    DECLARATION,
    hooks={
        "in_receivership": in_receivership,
        "after_operating_action": operating_after_action,
    },
    provides=[RECEIVERSHIP.provided_by(_Receivership())],
)
