"""``dividends``: paying out, half paying or withholding earnings, and the share-price move.

Parameters: ``kinds`` (``payout``/``half``/``withhold``), ``movement`` (a list of ``{when, move}``: the
first ``when`` that holds for P = amount paid to the shares and S = share price decides the move; the
conditions are small arithmetic comparisons such as ``"S/2 <= P < S"``), ``minors.split`` (``half``:
the minor's treasury keeps the smaller half, its owner gets the rest).  Treasury shares of an
incrementally capitalised corporation pay the corporation; pool shares pay nobody.  With no revenue the
corporation withholds automatically.  Obsolete trains of the corporation are removed after it runs.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .. import depot, market, shares
from ..errors import illegal
from ..state import BANK, ckey, kind_of, sym_of
from ..steps.base import Step
from . import routes as route_mech

if TYPE_CHECKING:
    from ..game import Game


def _p(g: Game) -> dict[str, Any]:
    return g.book.mech("dividends") or {}


_COND_CACHE: dict[str, Any] = {}


def _compile(cond: str) -> Any:
    code = _COND_CACHE.get(cond)
    if code is None:
        expr = re.sub(r"(\d)\s*([SP])", r"\1*\2", cond).replace("/", "//").replace("////", "//")
        if not re.fullmatch(r"[\sSP0-9*/<>=()!andor]+", expr):
            raise ValueError(f"unsupported dividend condition {cond!r}")
        code = compile(expr, "<dividend movement>", "eval")
        _COND_CACHE[cond] = code
    return code


def price_move(g: Game, corp: str, paid: int) -> int:
    """Steps right (positive) or left (negative) for a payout of ``paid`` in total."""
    rules = _p(g).get("movement")
    price = market.price_at(g, g.state.corporations[corp].price)
    if not isinstance(rules, list):
        return 1 if paid > 0 else -1
    for rule in rules:
        if eval(_compile(str(rule["when"])), {"__builtins__": {}}, {"P": paid, "S": price}):
            return int(rule.get("move", 0))
    return 0


def half_withheld(g: Game, corp: str, revenue: int) -> int:
    n = 100 // shares.share_percent(g, corp)
    return (revenue // 2 // n) * n


def options(g: Game, entity: str, revenue: int) -> dict[str, dict[str, int]]:
    kinds = _p(g).get("kinds") or ["payout", "withhold"]
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


def pay(g: Game, entity: str, kind: str, revenue: int) -> None:
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
    per_share = paid // n if paid > 0 else 0
    if per_share > 0:
        sp = shares.share_percent(g, corp)
        holders = [f"P|{p.id}" for p in g.state.players] + [ckey(c) for c in g.state.corp_order]
        for h in holders:
            pct = shares.percent_of(g, h, corp)
            if pct <= 0:
                continue
            if kind_of(h) == "C" and h != entity:
                pass
            amount = -(-pct * per_share // sp)
            if amount > 0:
                g.spend(BANK, h, amount)
    move = price_move(g, corp, paid)
    if move:
        market.move(g, corp, "right" if move > 0 else "left", abs(move))
    g.log(f"{corp} {kind}s {revenue}")


def pay_minor(g: Game, entity: str, revenue: int) -> None:
    split = ((_p(g).get("minors") or {}).get("split")) or "half"
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


def _after_run(g: Game, entity: str) -> None:
    op = g.operator(entity)
    op.operated += 1
    for tid in op.trains:
        g.state.trains[tid].operated = True
    for tid in list(op.trains):
        if g.state.trains[tid].obsolete:
            depot.rust(g, tid)
    g.state.round.data["routes"] = []


class Dividend(Step):
    name = "dividend"
    description = "Pay or Withhold Dividends"

    def actions(self, entity: str) -> list[str]:
        if kind_of(entity) not in ("C",) or entity != self.current_entity():
            return []
        if route_mech.revenue(self.g) == 0:
            return []
        from . import receivership

        if receivership.in_receivership(self.g, entity):
            return []
        return ["dividend"]

    def legal(self, entity: str) -> list[dict[str, Any]]:
        if not self.actions(entity):
            return []
        return [
            {"type": "dividend", "choices": [{"kind": k} for k in options(self.g, entity, route_mech.revenue(self.g))]}
        ]

    def process_dividend(self, action: dict[str, Any], entity: str) -> None:
        kind = str(action.get("kind"))
        pay(self.g, entity, kind, route_mech.revenue(self.g))
        self.pass_()

    def skip(self) -> None:
        g = self.g
        entity = self.current_entity()
        if entity is None:
            self.pass_()
            return
        rev = route_mech.revenue(g)
        if kind_of(entity) == "M":
            pay(g, entity, "payout", rev)
        else:
            pay(g, entity, "withhold", rev)
            from . import receivership

            receivership.after_withhold(g, entity)
        self.pass_()

    def pass_(self) -> None:
        super().pass_()
        from ..rounds import steps

        for s in steps(self.g):
            if s.name == "issue_shares":
                s.pass_()


def steps_for(g: Game, kind: str) -> list[tuple[int, str, dict[str, Any]]]:
    return [(90, "dividend", {})] if kind == "operating" else []


STEPS = {"dividend": Dividend}
