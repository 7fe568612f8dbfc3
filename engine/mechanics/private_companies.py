"""``private_companies``: corporations buying privates from players, assigning markers, closures.

Parameters: ``buy_by_corporations: {phases, price: [min, face_value]}`` (the phases are also the phases
whose ``status`` lists ``can_buy_companies``), ``close_on_phase``.  Phase events handled here:
``close_companies`` (``params.except``: privates that stay; ``close_independents``) and
``remove_markers`` (``params.privates``: their hex/corporation assignments go).  A private whose
``revenue_bonus`` goes to an assigned company is assigned to the corporation that buys it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import abilities, board, depot
from ..errors import illegal
from ..state import BANK, ckey, kind_of, mkey, sym_of, xkey
from ..steps.base import Step
from .core import close_company

if TYPE_CHECKING:
    from ..game import Game


def _p(g: Game) -> dict[str, Any]:
    return g.book.mech("private_companies") or {}


def company_price_range(g: Game, company: Any) -> tuple[int, int] | None:
    spec = (_p(g).get("buy_by_corporations") or {}).get("price")
    if not spec:
        return None
    lo, hi = spec
    lo = company.value if lo == "face_value" else int(lo)
    hi = company.value if hi == "face_value" else company.value * 2 if hi == "double_face_value" else int(hi)
    return lo, hi


def can_buy_phase(g: Game) -> bool:
    phases = (_p(g).get("buy_by_corporations") or {}).get("phases")
    if phases is not None:
        return g.phase_name() in phases
    return "can_buy_companies" in g.phase_status()


def purchasable(g: Game, corp: str, *, with_room: bool = False) -> list[str]:
    """Player-owned privates ``corp`` may buy.  ``with_room`` drops an independent's private while
    ``corp`` has no room for the independent's train (its purchase would be refused; 18xx.games still
    counts it when deciding whether the step is open)."""
    from . import independents

    out = []
    room: bool | None = None
    for sym, c in g.state.companies.items():
        if c.closed or c.blank or c.owner is None or kind_of(c.owner) != "P":
            continue
        if with_room:
            minor = independents.minor_of_private(g, sym)
            if minor and minor in g.state.minors and not g.state.minors[minor].closed:
                if room is None:
                    room = depot.room(g, corp)
                if not room:
                    continue
        out.append(sym)
    return out


def buying_power(g: Game, corp: str) -> int:
    from . import issue_redeem

    return g.cash(corp) + issue_redeem.issuable_cash(g, corp)


class BuyCompany(Step):
    name = "buy_company"
    description = "Buy Companies"

    def blocks(self) -> bool:
        return bool(self.opts.get("blocks"))

    def can_buy(self, entity: str) -> bool:
        g = self.g
        if entity != self.current_entity() or kind_of(entity) != "C":
            return False
        from . import receivership

        if receivership.in_receivership(g, entity):
            return False
        if not can_buy_phase(g):
            return False
        comps = purchasable(g, entity)
        if not comps:
            return False
        return min(g.state.companies[c].min_price for c in comps) <= buying_power(g, entity)

    def actions(self, entity: str) -> list[str]:
        if kind_of(entity) != "C":
            return []
        from . import receivership

        if receivership.in_receivership(self.g, entity):
            return []
        if self.can_buy(entity):
            return ["buy_company", "pass"] if self.blocks() else ["buy_company"]
        if self.blocks() and entity == self.current_entity() and abilities.active_any(self.g, entity):
            return ["pass"]
        return []

    def legal(self, entity: str) -> list[dict[str, Any]]:
        acts = self.actions(entity)
        out = []
        if "buy_company" in acts:
            g = self.g
            choices = [
                {
                    "company": c,
                    "price": {
                        "min": g.state.companies[c].min_price,
                        "max": min(g.state.companies[c].max_price, g.cash(entity)),
                    },
                }
                for c in purchasable(g, entity, with_room=True)
                if g.state.companies[c].min_price <= g.cash(entity)
            ]
            if choices:
                out.append({"type": "buy_company", "choices": choices})
        if "pass" in acts:
            out.append({"type": "pass"})
        return out

    def process_buy_company(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        sym = action.get("company")
        if sym not in g.state.companies:
            raise illegal("privates.unknown", f"no company {sym!r}")
        c = g.state.companies[sym]
        seller = c.owner
        if c.closed or seller is None or kind_of(seller) != "P":
            raise illegal("privates.seller", f"{sym} is not owned by a player")
        price = action.get("price")
        if not isinstance(price, int):
            raise illegal("privates.price", "buy_company needs an integer price")
        if not c.min_price <= price <= c.max_price:
            raise illegal("privates.price", f"price must be between {c.min_price} and {c.max_price}")
        if g.cash(entity) < price:
            raise illegal("privates.cash", f"{sym_of(entity)} cannot pay {price}")
        from . import independents

        minor = independents.minor_of_private(g, sym)
        if minor and minor in g.state.minors and not g.state.minors[minor].closed:
            from .. import depot

            if not depot.room(g, entity):
                raise illegal("independents.train_limit", f"{sym_of(entity)} has no room for {minor}'s train")
        g.player(seller).companies.remove(sym)
        c.owner = entity
        g.corp(entity).companies.append(sym)
        sold(g, sym, entity)
        g.spend(entity, seller, price)
        g.log(f"{sym_of(entity)} buys {sym} from {g.name(seller)} for {price}")
        if minor:
            independents.buy_minor_assets(g, entity, sym)
        board.invalidate(g)


def sold(g: Game, sym: str, corp: str) -> None:
    """Effects of a private passing to a corporation: assignment to the buyer, reservations freed."""
    c = g.state.companies[sym]
    for a in list(c.abilities):
        params = a.spec.get("params") or {}
        if a.type == "revenue_bonus" and params.get("beneficiary") in ("assigned_company", "owning_corporation"):
            unassign_everywhere(g, sym, hexes=False)
            g.operator(corp).assigned.append(sym)
        if a.type == "reservation" and str(params.get("until", "")).startswith("bought"):
            g.remove_ability(xkey(sym), a)


def unassign_everywhere(g: Game, sym: str, hexes: bool = True, corps: bool = True) -> None:
    if corps:
        for c in g.state.corporations.values():
            if sym in c.assigned:
                c.assigned.remove(sym)
        for m in g.state.minors.values():
            if sym in m.assigned:
                m.assigned.remove(sym)
    if hexes:
        for hs in g.state.hexes.values():
            if sym in hs.assigned:
                hs.assigned.remove(sym)


# ------------------------------------------------------------------------------------------ assign


def or_start_company(g: Game) -> str | None:
    """A player-owned private with an ``or_start`` assignment still available this operating round."""
    for sym, c in g.state.companies.items():
        if c.closed or c.owner is None or kind_of(c.owner) != "P":
            continue
        for a in c.abilities:
            if a.spec.get("when") == "or_start" and a.type == "assign_hexes":
                if abilities.per_or_ok(a) or abilities.corp_assign_ok(a):
                    return xkey(sym)
    return None


def block_or_start(g: Game) -> bool | None:
    r = g.state.round
    if or_start_company(g) is None:
        return None
    r.data["or_start_open"] = True
    return True


def assignable_targets(g: Game, sym: str) -> list[str]:
    out = [mkey(m) for m, s in g.state.minors.items() if s.floated and not s.closed and sym not in s.assigned]
    out += [
        ckey(c)
        for c in g.state.corp_order
        if g.state.corporations[c].floated
        and not g.state.corporations[c].closed
        and sym not in g.state.corporations[c].assigned
    ]
    return out


class Assign(Step):
    name = "assign"
    description = "Assign a private company's marker"

    def blocks(self) -> bool:
        return self._blocking_company() is not None

    def _blocking_company(self) -> str | None:
        if not self.rdata.get("or_start_open"):
            return None
        key = or_start_company(self.g)
        if key is None:
            return None
        g = self.g
        for a in g.company(key).abilities:
            if a.spec.get("when") != "or_start":
                continue
            if abilities.per_or_ok(a):
                return key
            if abilities.corp_assign_ok(a) and assignable_targets(g, sym_of(key)):
                return key
        return None

    def active_entities(self) -> list[str]:
        key = self._blocking_company()
        return [key] if key else super().active_entities()

    def _abilities(self, entity: str) -> list[Any]:
        if kind_of(entity) != "X":
            return []
        return [
            (o, a)
            for o, a in self.g.abilities_of(entity)
            if a.type == "assign_hexes" and abilities.usable(self.g, o, a, False)
        ]

    def actions(self, entity: str) -> list[str]:
        if kind_of(entity) != "X":
            return []
        blocking = self._blocking_company()
        if blocking is not None:
            return ["assign", "pass"] if entity == blocking else []
        g = self.g
        for _, a in g.abilities_of(entity):
            if a.type != "assign_hexes":
                continue
            if abilities.usable(g, entity, a, False) or (
                abilities.right_owner(g, entity, a)
                and abilities.timing_ok(g, entity, a, False)
                and abilities.corp_assign_ok(a)
            ):
                return ["assign"]
        return []

    def legal(self, entity: str) -> list[dict[str, Any]]:
        acts = self.actions(entity)
        out = []
        if "assign" in acts:
            g = self.g
            choices = []
            for _, a in g.abilities_of(entity):
                if a.type != "assign_hexes" or not abilities.right_owner(g, entity, a):
                    continue
                if not abilities.timing_ok(g, entity, a, False):
                    continue
                if abilities.per_or_ok(a):
                    choices += [
                        {"target": h, "target_type": "hex"}
                        for h in a.spec.get("hexes") or []
                        if sym_of(entity) not in g.state.hexes[h].assigned
                    ]
                if abilities.corp_assign_ok(a):
                    for t in assignable_targets(g, sym_of(entity)):
                        choices.append(
                            {"target": sym_of(t), "target_type": "corporation" if kind_of(t) == "C" else "minor"}
                        )
            out.append({"type": "assign", "choices": choices})
        if "pass" in acts:
            out.append({"type": "pass"})
        return out

    def process_assign(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        sym = sym_of(entity)
        target = str(action.get("target"))
        ttype = action.get("target_type", "hex")
        company_abilities = [a for _, a in g.abilities_of(entity) if a.type == "assign_hexes"]
        ok = [
            a
            for a in company_abilities
            if abilities.right_owner(g, entity, a) and abilities.timing_ok(g, entity, a, False)
        ]
        if ttype == "hex":
            cand = [a for a in ok if abilities.per_or_ok(a) and target in (a.spec.get("hexes") or [])]
            if not cand:
                raise illegal("privates.assign", f"{sym} cannot be assigned to {target} now")
            if target not in g.state.hexes:
                raise illegal("privates.assign", f"no hex {target}")
            if sym in g.state.hexes[target].assigned:
                raise illegal("privates.assign", f"{sym} is already assigned to {target}")
            a = cand[0]
            for h in a.spec.get("hexes") or []:
                if sym in g.state.hexes[h].assigned:
                    g.state.hexes[h].assigned.remove(sym)
            g.state.hexes[target].assigned.append(sym)
            g.use_ability(entity, a)
            g.log(f"{sym} is assigned to {target}")
        elif ttype in ("corporation", "minor"):
            cand = [a for a in ok if abilities.corp_assign_ok(a)]
            tkey = (ckey if ttype == "corporation" else mkey)(target)
            if not cand or tkey not in assignable_targets(g, sym):
                raise illegal("privates.assign", f"{sym} cannot be assigned to {target} now")
            unassign_everywhere(g, sym, hexes=False)
            g.operator(tkey).assigned.append(sym)
            cand[0].corp_count_this_or += 1
            g.log(f"{sym} is assigned to {target}")
        else:
            raise illegal("privates.assign", f"bad target_type {ttype!r}")
        self._maybe_start(entity)

    def process_pass(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        if entity != self._blocking_company():
            raise illegal("turn.order", f"{sym_of(entity)} has nothing to pass")
        for a in g.company(entity).abilities:
            if a.spec.get("when") == "or_start":
                per_or = int((a.spec.get("params") or {}).get("per_or") or 1)
                a.count_this_or = max(a.count_this_or, per_or)
                a.corp_count_this_or = max(a.corp_count_this_or, per_or)
        self.pass_()
        self._start()

    def _maybe_start(self, entity: str) -> None:
        if self.rdata.get("or_start_open") and self._blocking_company() is None:
            self._start()

    def _start(self) -> None:
        from ..rounds import any_to_act, start_operating

        self.rdata["or_start_open"] = False
        if any_to_act(self.g):
            start_operating(self.g)


# ------------------------------------------------------------------------------------------ events


def phase_event(g: Game, event: dict[str, Any]) -> None:
    etype = event.get("type")
    params = event.get("params") or {}
    if etype == "close_companies":
        keep = set(params.get("except") or [])
        owned_by = _p(g).get("closure_exceptions_owned_by")
        for sym, c in g.state.companies.items():
            if c.closed or c.blank:
                continue
            if sym in keep and (
                owned_by is None
                or (c.owner and kind_of(c.owner) == {"corporation": "C", "player": "P"}.get(owned_by, ""))
            ):
                continue
            if not (c.owner and kind_of(c.owner) == "C"):
                unassign_everywhere(g, sym)
            close_company(g, sym)
        g.log("-- Event: private companies close --")
    elif etype == "remove_markers":
        for sym in params.get("privates") or []:
            unassign_everywhere(g, sym)
        g.log("-- Event: private company markers removed --")


def steps_for(g: Game, kind: str) -> list[tuple[int, str, dict[str, Any]]]:
    has_assign = any(a.type == "assign_hexes" for c in g.state.companies.values() for a in c.abilities)
    if kind == "stock":
        return [(20, "assign", {})] if has_assign else []
    if kind == "operating":
        out = [(50, "buy_company", {}), (120, "buy_company", {"blocks": True})]
        if has_assign:
            out.append((20, "assign", {}))
        return out
    return []


STEPS = {"buy_company": BuyCompany, "assign": Assign}

__all__ = ["BANK"]
