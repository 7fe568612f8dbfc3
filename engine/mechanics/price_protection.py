"""``price_protection``: a president buys the shares of his company another player sold.

After a player's stock turn in which he sold shares, the president of each company sold is offered, in the
order of the sales, a special turn: he may buy *all* the shares of his company that player just sold, at the
market price before the sale, paid to the seller.  The price then does not move for that sale.  In the
special turn he may only buy (no selling for room or cash); declining costs nothing.  A new president made by
the sale itself may not protect it.  Play resumes left of the last president who protected, else left of the
seller (players in between lose their turn); in an operating round (forced sales) play continues with the
next company.

A sale's price move waits (hook ``defer_sale_move``) until its president has declined (or cannot protect: too
little cash, no certificate room; with ``unprotectable_sales_wait`` a sale nobody may protect waits its turn too);
then the price drops as the market's ``down`` rule says (soft ledge), the
marker joining its new box as of the decision, or as of the sale with ``arrives_as_of_sale``.  Step
``price_protection`` follows the stock step (and ends the operating round's steps, for forced sales).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from railbook.params.price_protection import DECLARATION, PRICE_PROTECTION_STEP, Params

from .. import market, rounds, shares
from ..access import params_of, state_of
from ..contract import Mechanic
from ..errors import illegal
from ..state import BANK, kind_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


@dataclass(slots=True)
class State:
    """Sales waiting for their president's decision, in order: [corp, share ids, percent, seller, president, the
    markers that arrived before it: those in the cell it would drop to at the sale, and the sales queued before]."""

    queue: list[list[Any]] = field(default_factory=list)
    over_limit: dict[str, list[str]] = field(default_factory=dict)  # player -> corps he may hold above the limit


PARAMS = params_of(DECLARATION, Params)
STATE = state_of(DECLARATION, State)


def defer_sale_move(g: Context, corp: str, share_ids: list[str], percent: int, seller: str, president: str) -> bool:
    """Queue a sale for protection (its price move waits), unless the rules leave it unprotectable."""
    kept = STATE.of(g).over_limit.get(seller)
    if kept and corp in kept:
        kept.remove(corp)  # a sale ends the protected excess: the share limit applies again
    r = g.state.round
    if r is not None and r.kind == "operating" and not PARAMS.of(g).in_forced_sales:
        return False
    if president is None or kind_of(president) != "P":
        return False
    if president == seller and not PARAMS.of(g).unprotectable_sales_wait:
        return False
    if (
        president == seller
        and r is not None
        and r.kind == "operating"
        and PARAMS.of(g).operating_company_sales_at_once
        and g.current_operator() == f"C|{corp}"
    ):
        return False  # (the operating corporation's own shares: its price moves at once)
    # (``arrives_as_of_sale``) the markers in the cell the sale would drop it to, as it is now, and those of the
    # sales queued before it: a marker arriving there after the sale goes below this one, which moved "as shares are
    # sold" (1850 [5.8.2]) unless protected (run 11 seed 150008)
    q = STATE.of(g).queue
    if not PARAMS.of(g).arrives_as_of_sale:
        q.append([corp, list(share_ids), percent, seller, president])
    else:
        there = list(
            g.state.market.get(market.cell_key(_drop_after(g, corp, percent // shares.share_percent(g, corp)))) or []
        )
        for e in q:
            there.append(e[0])
        q.append([corp, list(share_ids), percent, seller, president, there])
    g.epoch += 1
    return True


def _drop_after(g: Context, corp: str, n: int) -> list[int]:
    """Where the price would be after an unprotected sale of ``n`` shares (soft ledge included)."""
    c = g.state.corporations[corp]
    pos = list(c.price or [0, 0])
    for i in range(n):
        below = market.step(g, pos, "down")
        if market.ledge_stops(g, pos, below, n - i):
            break
        pos = below
    return pos


def cert_exempt(g: Context, player: str, corp: str) -> bool:
    """A queued sale that would move ``corp`` into a zone free of the certificate limit: its shares do not count
    (as if it will not be protected)."""
    if not PARAMS.of(g).cert_limit_assumes_unprotected:
        return False
    for entry in STATE.of(g).queue:
        qcorp, percent = entry[0], entry[2]
        if qcorp != corp:
            continue
        kinds = market.kinds_at(g, _drop_after(g, corp, percent // shares.share_percent(g, corp)))
        if {"no_cert_limit", "unlimited_holding"} & set(kinds):
            return True
    return False


def holding_exempt(g: Context, player: str, corp: str) -> bool:
    """``player`` keeps a holding above the share limit that protection gave him (until he sells that company)."""
    return corp in (STATE.of(g).over_limit.get(player) or [])


def _sold_this_round(g: Context, player: str, corp: str) -> bool:
    sold = (g.state.round.data.get("players_sold") or {}).get(player) or {}
    return bool(sold.get(corp))


def can_protect(g: Context, entry: list[Any]) -> bool:
    corp, ids, percent, president = entry[0], entry[1], entry[2], entry[4]
    if president == entry[3]:
        return False  # (the seller's own company, waiting its turn: ``unprotectable_sales_wait``)
    p = PARAMS.of(g)
    price = shares.price_per_share(g, corp) * percent // shares.share_percent(g, corp)
    if p.needs_cash and g.cash(president) < price:
        return False
    if p.barred_if_president_sold_this_round and _sold_this_round(g, president, corp):
        return False
    if p.needs_cert_room:
        kinds = market.kinds_at(g, g.state.corporations[corp].price)
        if not {"no_cert_limit", "unlimited_holding", "multiple_buy"} & set(kinds):
            n = len(ids) + _counted_once_protected(g, president)
            if shares.num_certs(g, president) + n > g.state.cert_limit:
                return False
    return True


def _arrived_at_sale(g: Context, corp: str, there: list[str]) -> None:
    """The dropped marker takes its place in its new cell as of its sale: below the markers there then, above
    those that arrived since (the order within a cell is the operating order, glossary "Share Price Order")."""
    pos = g.state.corporations[corp].price
    stack = g.state.market.get(market.cell_key(pos)) if pos is not None else None
    if not stack or corp not in stack:
        return
    stack.remove(corp)
    at = 0
    for i, other in enumerate(stack):
        if other in there and other != corp:
            at = i + 1
    stack.insert(at, corp)
    g.epoch += 1


def _counted_once_protected(g: Context, president: str) -> float:
    """The president's certificates that the count leaves out only because a queued sale is taken to go unprotected
    (``cert_limit_assumes_unprotected``: its drop would free them of the limit): protecting keeps the price, and
    with it those certificates in the count ("The purchasing player must have ... the certificate limit space to
    hold the shares"; differential run 12 seed 160004: a president with 7 counted and 8 of the company's
    certificates left out was let protect a share with a limit of 9)."""
    n = 0.0
    seen: list[str] = []
    for entry in STATE.of(g).queue:
        qcorp = entry[0]
        if qcorp in seen:
            continue
        seen.append(qcorp)
        kinds = market.kinds_at(g, g.state.corporations[qcorp].price)
        if not {"no_cert_limit", "unlimited_holding"} & set(kinds) and cert_exempt(g, president, qcorp):
            n += shares.certs_of(g, president, qcorp)
    return n


def decline(g: Context, forced: bool = False) -> None:
    """The head sale goes unprotected: its price move happens now."""
    entry = STATE.of(g).queue.pop(0)
    corp, percent, president = entry[0], entry[2], entry[4]
    n = percent // shares.share_percent(g, corp)
    before = g.state.corporations[corp].price
    market.drop(g, corp, n)
    if len(entry) > 5 and g.state.corporations[corp].price != before:
        _arrived_at_sale(g, corp, entry[5])
    g.log(f"{g.name(president)} {'cannot' if forced else 'does not'} protect {corp}")
    rounds.recalculate_order(g)
    g.epoch += 1


class PriceProtection(Step):
    """The president of a company whose shares were just sold may buy them all at the price of the sale."""

    name = PRICE_PROTECTION_STEP
    description = "Price protect shares"

    @cython.locals(self="StepBase")
    def blocks(self) -> bool:
        """Only while a sale waits (else the round passes it by without marking a change)."""
        return bool(STATE.of(self.g).queue)

    @cython.locals(self="StepBase")
    def head(self) -> list[Any] | None:
        q = STATE.of(self.g).queue
        return q[0] if q else None

    def active_entities(self) -> list[str]:
        h = self.head()
        return [h[4]] if h else []

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        h = self.head()
        if h is None or entity != h[4] or not can_protect(self.g, h):
            return []
        return ["buy_shares", "pass"]

    def legal(self, entity: str) -> list[dict[str, Any]]:
        h = self.head()
        if not self.actions(entity) or h is None:
            return []
        return [{"type": "buy_shares", "choices": [{"shares": list(h[1])}]}, {"type": "pass"}]

    @cython.locals(self="StepBase")
    def skip(self) -> None:
        """Sales nobody can protect move their price at once; the step stays for later sales."""
        while (h := self.head()) is not None and not can_protect(self.g, h):
            decline(self.g, forced=True)

    @cython.locals(self="StepBase")
    def process_pass(self, action: dict[str, Any], entity: str) -> None:
        decline(self.g)

    @cython.locals(self="StepBase")
    def process_buy_shares(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        h = self.head()
        assert h is not None
        corp, ids, percent, president = h[0], h[1], h[2], h[4]
        if sorted(str(s) for s in action.get("shares") or []) != sorted(ids):
            raise illegal("protection.bundle", f"{g.name(president)} must protect all of {', '.join(ids)}")
        b = shares.make_bundle(g, list(ids), percent)
        price = shares.bundle_price(g, b)
        STATE.of(g).queue.pop(0)
        shares.transfer(g, b, president, spender=president, receiver=BANK, price=price)
        g.log(f"{g.name(president)} protects {percent}% of {corp} for {price}")
        if PARAMS.of(g).may_exceed_share_limit and shares.percent_of(g, president, corp) > g.hooks(
            "holding_limit", corp
        ):
            kept = STATE.of(g).over_limit.setdefault(president, [])
            if corp not in kept:
                kept.append(corp)
        r = g.state.round
        if r.kind == "stock" and president in r.entities:
            r.entity_index = r.entities.index(president)
            g.player(president).passed = False
            if PARAMS.of(g).moves_priority:
                self.rdata["last_to_act"] = president
                order = self.rdata.get("pass_order") or []
                if president in order:
                    order.remove(president)
        g.epoch += 1


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={PRICE_PROTECTION_STEP: PriceProtection},
    hooks={"defer_sale_move": defer_sale_move, "cert_exempt": cert_exempt, "holding_exempt": holding_exempt},
    state=State,
)
