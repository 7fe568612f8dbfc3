"""``dividends``: paying out, half paying or withholding earnings, and the share-price move.

The corporation's own shares (initial offering, redeemed) pay as ``treasury_shares_pay`` says, market shares as
``market_shares_pay``.  With no revenue the corporation withholds automatically.  Obsolete trains of the
corporation are removed after it runs.  A half dividend keeps half the earnings, rounded to a multiple of the
number of shares (``half_per_share_rounding``), in the treasury and pays the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from railbook.params.dividends import DECLARATION, DIVIDEND_STEP, Params
from railbook.params.issue_redeem import ISSUE_SHARES_STEP

from .. import depot, market, rounds, shares
from ..access import params_of
from ..contract import Mechanic
from ..errors import illegal
from ..interfaces import RECEIVERSHIP
from ..routes import round_revenue
from ..state import BANK, POOL, ckey, kind_of, pkey, sym_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


PARAMS = params_of(DECLARATION, Params)


def price_move(g: Context, corp: str, paid: int) -> int:
    """Steps right (positive) or left (negative) for a payout of ``paid`` in total."""
    rules = PARAMS.of(g).movement
    if rules is None:
        return 1 if paid > 0 else -1
    pos = g.state.corporations[corp].price
    price = market.price_at(g, pos)
    for kind in market.kinds_at(g, pos):
        price = PARAMS.of(g).price_basis_in_zones.get(kind, price)
    for rule in rules:
        if rule.holds(paid, price):
            return rule.move
    return 0


def earnings(g: Context, entity: str) -> int:
    """This turn's earnings: the routes' revenue less what other rules take first (e.g. unpaid interest)."""
    return max(0, round_revenue(g) - g.hooks("revenue_deduction", entity))


def single_certificate_exact(g: Context, corp: str) -> bool:
    return PARAMS.of(g).half_single_certificate_exact and shares.presidents_percent(g, corp) == 100


def half_withheld(g: Context, corp: str, revenue: int) -> int:
    if single_certificate_exact(g, corp):
        return revenue // 2
    n = 100 // shares.share_percent(g, corp)
    if PARAMS.of(g).half_per_share_rounding == "down":
        return -(-revenue // (2 * n)) * n  # the treasury's half rounded up to a multiple of n
    return (revenue // 2 // n) * n


def options(g: Context, entity: str, revenue: int) -> dict[str, dict[str, int]]:
    kinds = PARAMS.of(g).kinds
    out = {}
    for k in kinds:
        if k == "withhold":
            out[k] = {"corporation": revenue, "paid": 0}
        elif k in ("payout", "full"):
            out["payout"] = {"corporation": 0, "paid": revenue}
        elif k == "half":
            w = half_withheld(g, sym_of(entity), revenue)
            out[k] = {"corporation": w, "paid": revenue - w}
    return out


def pay(g: Context, entity: str, kind: str, revenue: int) -> None:
    """Distribute ``revenue`` the ``kind`` way and move the share price."""
    if kind_of(entity) == "M":
        pay_minor(g, entity, revenue)
        _after_run(g, entity)
        return
    corp = sym_of(entity)
    opts = options(g, entity, revenue)
    if kind not in opts:
        raise illegal("dividend.kind", f"{kind!r} is not a dividend choice here")
    o = opts[kind]
    _after_run(g, entity)
    if o["corporation"] > 0:
        g.spend(BANK, entity, o["corporation"])
    paid = o["paid"]
    n = 100 // shares.share_percent(g, corp)
    params = PARAMS.of(g)
    exact = params.per_share == "exact" or single_certificate_exact(g, corp)
    per_share = paid // n if paid > 0 else 0
    if paid > 0 and (per_share > 0 or exact):
        sp = shares.share_percent(g, corp)
        holders = [pkey(p.id) for p in g.state.players] + [ckey(c) for c in g.state.corp_order]
        if params.market_shares_pay == "company":
            holders.append(POOL)
        for h in holders:
            pct = shares.percent_of(g, h, corp)
            if pct <= 0 or (h == entity and params.treasury_shares_pay == "nobody"):
                continue
            amount = -(-pct * paid // (sp * n)) if exact else -(-pct * per_share // sp)
            if amount > 0:
                g.spend(BANK, entity if h == POOL else h, amount)
        if not exact:
            g.hooks("dividend_paid", corp, per_share)
    half_move = params.half_price_move if kind == "half" else None
    move = half_move if half_move is not None else price_move(g, corp, paid)
    if move:  # (a price a rule holds, hook ``price_fixed``, market.move leaves where it is)
        market.move(g, corp, "right" if move > 0 else "left", abs(move))
    g.log(f"{corp} {kind}s {revenue}")


def pay_minor(g: Context, entity: str, revenue: int) -> None:
    split = PARAMS.of(g).minor_split
    if revenue <= 0:
        return
    if split == "half":
        keep = revenue // 2
        if keep > 0:
            g.spend(BANK, entity, keep)
        owner = g.owner(entity)
        if revenue - keep > 0 and owner:
            g.spend(BANK, owner, revenue - keep)
    else:
        owner = g.owner(entity)
        if owner:
            g.spend(BANK, owner, revenue)


def _after_run(g: Context, entity: str) -> None:
    op = g.operator(entity)
    op.operated += 1
    for tid in op.trains:
        g.state.trains[tid].operated = True
    for tid in list(op.trains):
        if g.state.trains[tid].obsolete:
            depot.rust(g, tid)
    g.state.round.data["routes"] = []


class Dividend(Step):
    name = DIVIDEND_STEP
    description = "Pay or Withhold Dividends"

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        if kind_of(entity) not in ("C",) or entity != self.current_entity():
            return []
        if earnings(self.g, entity) == 0:
            return []
        if self.g.hooks("in_receivership", entity) or self.g.hooks("must_withhold", entity):
            return []
        return ["dividend"]

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        if not self.actions(entity):
            return []
        return [
            {"type": "dividend", "choices": [{"kind": k} for k in options(self.g, entity, earnings(self.g, entity))]}
        ]

    @cython.locals(self="StepBase")
    def process_dividend(self, action: dict[str, Any], entity: str) -> None:
        kind = str(action.get("kind"))
        pay(self.g, entity, kind, earnings(self.g, entity))
        self.pass_()

    @cython.locals(self="StepBase")
    def skip(self) -> None:
        g = self.g
        entity = self.current_entity()
        if entity is None:
            self.pass_()
            return
        rev = earnings(g, entity)
        if kind_of(entity) == "M":
            pay(g, entity, "payout", rev)
        else:
            owned = bool(g.entity_trains(entity))  # (before its run is settled: obsolete trains leave then)
            pay(g, entity, "withhold", rev)
            receivership = RECEIVERSHIP.get(g)
            if receivership is not None:
                receivership.withheld(g, entity, owned)
        self.pass_()

    @cython.locals(self="StepBase")
    def pass_(self) -> None:
        super().pass_()
        for s in rounds.steps(self.g):
            if s.name == ISSUE_SHARES_STEP:
                s.pass_()


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={DIVIDEND_STEP: Dividend},
)
