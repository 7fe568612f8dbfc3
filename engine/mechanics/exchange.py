"""``exchange``: a private company traded for a share of a corporation (ability type ``exchange``).

The private's ``exchange`` ability names the ``corporation`` and, in ``params.from``, where the share may come
from (``ipo``: the corporation's initial offering, ``pool``: the open market).  The holder of the private (a
player, or a corporation when the ability's ``owner`` allows it) gives the private up for one ordinary share of
that corporation, free, when the ability's timing (``when``) allows; the holder may not end above the share
limit.  The private closes.  A record gives the exchange as a ``buy_shares`` action of the private itself.

The step ``exchange`` never blocks a round: put it early in the stock and operating rounds' steps and the
exchange may be made whenever the timing word lets (``any``: between other players' and companies' turns too).
It is made besides the turn's own actions: it never counts as the turn's purchase.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from railbook.params.exchange import DECLARATION, EXCHANGE_STEP, Params

from .. import abilities, shares
from ..access import params_of
from ..closing import close_company
from ..contract import Mechanic
from ..errors import illegal
from ..state import POOL, ckey, kind_of, sym_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context
    from ..state import Ability


PARAMS = params_of(DECLARATION, Params)


def exchange_ability(g: Context, company: str) -> Ability | None:
    """The usable ``exchange`` ability of private ``company`` (an entity key), if any."""
    if kind_of(company) != "X":
        return None
    c = g.company(company)
    if c.closed or c.owner is None:
        return None
    for _, a in g.abilities_of(company):
        if a.type == "exchange" and abilities.usable(g, company, a, passive_ok=False):
            return a
    return None


def _sources(a: Ability) -> list[str]:
    found = (a.spec.get("params") or {}).get("from") or ["ipo", "pool"]
    return [str(x) for x in found]


def offered(g: Context, company: str, a: Ability) -> list[str]:
    """The shares the private may be exchanged for now: the first ordinary share of each allowed source."""
    corp = str(a.spec.get("corporation") or "")
    c = g.state.corporations.get(corp)
    if c is None or c.closed:
        return []  # (an initial-offering share may be taken before the corporation starts, as on 18xx.games)
    holder = g.company(company).owner
    if holder is None:
        return []
    out = []
    for src in _sources(a):
        where = ckey(corp) if src == "ipo" else POOL if src in ("pool", "market") else None
        if where is None:
            continue
        ids = [s for s in shares.shares_of(g, where, corp) if not g.state.shares[s].president]
        ids = [s for s in ids if g.state.shares[s].buyable]
        if not ids:
            continue
        pct = g.state.shares[ids[0]].percent
        if PARAMS.of(g).share_limit == "enforced" and not shares.holding_ok(g, holder, corp, pct):
            continue
        out.append(ids[0])
    return out


class Exchange(Step):
    """Trade a private for a share of its corporation."""

    name = EXCHANGE_STEP
    description = "Exchange a private company for a share"
    offers = frozenset({"buy_shares"})

    def blocks(self) -> bool:
        return False

    def actions(self, entity: str) -> list[str]:
        a = exchange_ability(self.g, entity)
        return ["buy_shares"] if a is not None and offered(self.g, entity, a) else []

    def legal(self, entity: str) -> list[dict[str, Any]]:
        a = exchange_ability(self.g, entity)
        if a is None:
            return []
        choices = [{"shares": [sid]} for sid in offered(self.g, entity, a)]
        return [{"type": "buy_shares", "choices": choices}] if choices else []

    def process_buy_shares(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        a = exchange_ability(g, entity)
        if a is None:
            raise illegal("exchange.ability", f"{sym_of(entity)} cannot be exchanged now")
        ids = [str(s) for s in action.get("shares") or []]
        allowed = offered(g, entity, a)
        if len(ids) != 1 or ids[0] not in allowed:
            raise illegal("exchange.share", f"{sym_of(entity)} may be exchanged for one of {', '.join(allowed)}")
        holder = g.company(entity).owner
        assert holder is not None
        b = shares.make_bundle(g, ids)
        shares.buy(g, holder, b, price=0)
        g.log(f"{g.name(holder)} exchanges {sym_of(entity)} for {b.percent}% of {b.corp}")
        g.use_ability(entity, a)
        close_company(g, sym_of(entity))


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={EXCHANGE_STEP: Exchange},
)
