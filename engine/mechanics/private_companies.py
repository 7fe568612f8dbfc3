"""``private_companies``: corporations buying privates from players, assigning markers, closures.

Corporations may buy player-owned privates in the phases given (or, when none are given, the phases whose
``status`` lists ``can_buy_companies``) for a price in the range the parameters give.  Phase events handled
here: ``close_companies`` (the privates close, except those listed) and ``remove_markers`` (the hex and
corporation assignments of the listed privates go).  A private whose ``revenue_bonus`` goes to an assigned
company is assigned to the corporation that buys it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from railbook.params.private_companies import (
    ASSIGN_STEP,
    BUY_COMPANY_STEP,
    DECLARATION,
    CloseCompanies,
    Params,
    PriceBound,
    RemoveMarkers,
)

from .. import abilities, rounds
from ..access import params_of
from ..closing import close_company
from ..contract import Mechanic
from ..errors import illegal
from ..interfaces import PRIVATE_COMPANIES
from ..state import ckey, kind_of, mkey, sym_of, xkey
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context
    from ..state import Company

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


PARAMS = params_of(DECLARATION, Params)


def _bound(b: PriceBound, value: int) -> int:
    if b.amount is not None:
        return b.amount
    return -int(-value * b.face_value_times // 1)


def company_price_range(g: Context, company: Any) -> tuple[int, int]:
    p = PARAMS.of(g)
    return _bound(p.min_price, company.value), _bound(p.max_price, company.value)


def can_buy_phase(g: Context) -> bool:
    phases = PARAMS.of(g).buy_phases
    if phases is not None:
        return g.phase_name() in phases
    return "can_buy_companies" in g.phase_status()


@cython.locals(g="Context")
@cython.locals(g="Context", c="Company", a="Ability", out="list")
def purchasable(g: Context, corp: str, *, with_room: bool = False, by_ability: bool = True) -> list[str]:
    """Player-owned privates ``corp`` may buy.  ``with_room`` drops those other rules forbid now (an
    independent's private while ``corp`` has no room for its train; 18xx.games still counts it when deciding
    whether the step is open).  ``by_ability``: include those only a ``purchase_range`` ability makes buyable
    outside the buying phases (the blocking step at the end of a turn leaves them out, as on 18xx.games)."""
    out = []
    in_phase = can_buy_phase(g)
    c: Company
    for sym, c in g.state.companies.items():
        if c.closed or c.blank or c.owner is None or kind_of(c.owner) != "P":
            continue
        never_sold = False
        for a in c.abilities:
            never_sold = never_sold or a.type == "no_buy"  # ability no_buy: never sold to a corporation
        if never_sold:
            continue
        if not in_phase and g.hooks("company_buy_window", sym, corp) is None:
            if not by_ability or ability_range(g, sym, corp) is None:
                continue
        if with_room and not g.hooks("may_buy_company", sym, corp):
            continue
        out.append(sym)
    return out


def ability_range(g: Context, sym: str, corp: str) -> tuple[int, int] | None:
    """A ``purchase_range`` ability of private ``sym`` that applies to ``corp`` now: ``params.min_factor`` to
    ``params.max_factor`` times the face value, for the corporation the ability names (if any), in its
    ``params.phases`` (which may lie outside the buying phases) or else in the buying phases."""
    c = g.state.companies[sym]
    for a in c.abilities:
        if a.type != "purchase_range":
            continue
        params = a.spec.get("params") or {}
        only = a.spec.get("corporation")
        if only is not None and only != sym_of(corp):
            continue
        phases = params.get("phases")
        if (g.phase_name() not in phases) if phases else not can_buy_phase(g):
            continue
        value = int(c.value)
        return math.ceil(value * float(params.get("min_factor", 0.5))), int(value * float(params.get("max_factor", 2)))
    return None


def price_range(g: Context, sym: str, corp: str) -> tuple[int, int]:
    """What ``corp`` may pay for ``sym`` now: a ``purchase_range`` ability's range, an early purchase window's
    range (hook), else the private's."""
    own = ability_range(g, sym, corp)
    if own is not None:
        return own
    window = None if can_buy_phase(g) else g.hooks("company_buy_window", sym, corp)
    if window is not None:
        return int(window[0]), int(window[1])
    c = g.state.companies[sym]
    return c.min_price, c.max_price


def buying_power(g: Context, corp: str) -> int:
    return g.cash(corp) + g.hooks("issuable_cash", corp) + g.hooks("buying_power", corp, "company")


class BuyCompany(Step):
    name = BUY_COMPANY_STEP
    description = "Buy Companies"

    @cython.locals(self="StepBase")
    def blocks(self) -> bool:
        return bool(self.opts.get("blocks"))

    @cython.locals(self="StepBase")
    def allows(self, entity: str, atype: str) -> bool:
        """``atype in actions(entity)``; a step that does not block never offers ``pass``."""
        if atype == "pass" and not self.blocks():
            return False
        return atype in self.actions_of(entity)

    @cython.locals(self="StepBase")
    def can_buy(self, entity: str) -> bool:
        g = self.g
        if entity != self.current_entity() or kind_of(entity) != "C":
            return False
        if g.hooks("in_receivership", entity):
            return False
        comps = purchasable(g, entity, by_ability=not self.blocks())
        if not comps or not g.hooks("may_buy_company", "", entity):  # ("": any private, e.g. none mid-emergency)
            return False
        cheapest: int | None = None  # (a loop: the round machinery asks this in its inner loops)
        for c in comps:
            low = price_range(g, c, entity)[0]
            if cheapest is None or low < cheapest:
                cheapest = low
        if cheapest is None:
            return False
        if self.blocks():  # (a loan it could take keeps the end-of-turn purchase open, as on the site)
            return cheapest <= buying_power(g, entity)
        # earlier in the turn a private is offered when the treasury pays for it now (a loan is an action first)
        return cheapest <= g.cash(entity) + g.hooks("issuable_cash", entity)

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        if kind_of(entity) != "C":
            return []
        if self.g.hooks("in_receivership", entity):
            return []
        if self.can_buy(entity):
            return ["buy_company", "pass"] if self.blocks() else ["buy_company"]
        if self.blocks() and entity == self.current_entity():
            if abilities.active_any(self.g, entity) or self.g.hooks("buy_company_step_open", entity):
                return ["pass"]
        return []

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        acts = self.actions(entity)
        out = []
        if "buy_company" in acts:
            g = self.g
            choices = [
                {
                    "company": c,
                    "price": {
                        "min": price_range(g, c, entity)[0],
                        "max": min(price_range(g, c, entity)[1], g.cash(entity)),
                    },
                }
                for c in purchasable(g, entity, with_room=True)
                if price_range(g, c, entity)[0] <= g.cash(entity)
            ]
            if choices:
                out.append({"type": "buy_company", "choices": choices})
        if "pass" in acts:
            out.append({"type": "pass"})
        return out

    @cython.locals(self="StepBase")
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
        if sym not in purchasable(g, entity):
            raise illegal("privates.phase", f"{sym_of(entity)} cannot buy {sym} now")
        lo, hi = price_range(g, str(sym), entity)
        if not lo <= price <= hi:
            raise illegal("privates.price", f"price must be between {lo} and {hi}")
        if g.cash(entity) < price:
            raise illegal("privates.cash", f"{sym_of(entity)} cannot pay {price}")
        if not g.hooks("may_buy_company", sym, entity):
            raise illegal("privates.refused", f"{sym_of(entity)} cannot take over {sym} now")
        g.player(seller).companies.remove(sym)
        c.owner = entity
        g.corp(entity).companies.append(sym)
        sold(g, sym, entity)
        g.spend(entity, seller, price)
        g.log(f"{sym_of(entity)} buys {sym} from {g.name(seller)} for {price}")
        g.hooks("company_sold", sym, entity)
        g.epoch += 1  # the owner changed; the board did not (a handler that changes it invalidates it itself)


def sold(g: Context, sym: str, corp: str) -> None:
    """Effects of a private passing to a corporation: assignment to the buyer, reservations freed."""
    c = g.state.companies[sym]
    for a in list(c.abilities):
        params = a.spec.get("params") or {}
        if a.type == "revenue_bonus" and params.get("beneficiary") in ("assigned_company", "owning_corporation"):
            unassign_everywhere(g, sym, hexes=False)
            g.operator(corp).assigned.append(sym)
        if a.type == "reservation" and str(params.get("until", "")).startswith("bought"):
            g.remove_ability(xkey(sym), a)


def unassign_everywhere(g: Context, sym: str, hexes: bool = True, corps: bool = True) -> None:
    if corps:
        for c in g.state.corporations.values():
            if sym in c.assigned:
                c.assigned.remove(sym)
        for m in g.state.minors.values():
            if sym in m.assigned:
                m.assigned.remove(sym)
    if hexes:
        for hs in g.state.hexes.values():
            hs.assigned[:] = [a for a in hs.assigned if a != sym and not a.startswith(f"{sym}:")]


def marker_states(a: Any) -> list[dict[str, Any]]:
    """The states of an ``assign_hexes`` ability's marker (``params.markers``), in the order assigns place them."""
    return list((a.spec.get("params") or {}).get("markers") or [])


def marker_state(g: Context, sym: str, hex_id: str) -> int:
    """Index in ``params.markers`` of the state of ``sym``'s marker on ``hex_id`` (0: the first)."""
    for entry in g.state.hexes[hex_id].assigned:
        if entry.startswith(f"{sym}:"):
            return int(entry.split(":", 1)[1])
    return 0


def marker_targets(g: Context, sym: str, a: Any) -> list[str]:
    """Hexes an ``assign_hexes`` ability may mark now: with ``params.markers``, once the marker is placed, only
    its own hex while a later state is left; otherwise the listed hexes not yet marked."""
    hexes = list(a.spec.get("hexes") or [])
    placed = [h for h in hexes if sym in g.state.hexes[h].assigned]
    states = marker_states(a)
    if states and placed:
        return [h for h in placed if marker_state(g, sym, h) + 1 < len(states)]
    free = [h for h in hexes if sym not in g.state.hexes[h].assigned]
    cap = abilities.spec_param(a, "max_per_hex")
    if cap:
        kin = _same_markers(g, sym, a)
        free = [h for h in free if len([e for e in g.state.hexes[h].assigned if e.split(":")[0] in kin]) < int(cap)]
    return free


def _same_markers(g: Context, sym: str, a: Any) -> set[str]:
    """The privates whose ``assign_hexes`` markers are of ``a``'s kind (the same ``params.token`` name), ``sym``
    included: what ``params.max_per_hex`` counts."""
    name = abilities.spec_param(a, "token")
    out = {sym}
    if name is None:
        return out
    for other, spec in g.book.privates.items():
        for b in spec.get("abilities") or []:
            if b.get("type") == "assign_hexes" and (b.get("params") or {}).get("token") == name:
                out.add(other)
    return out


# ------------------------------------------------------------------------------------------ assign


def or_start_company(g: Context) -> str | None:
    """A player-owned private with an ``or_start`` assignment still available this operating round."""
    for sym, c in g.state.companies.items():
        if c.closed or c.owner is None or kind_of(c.owner) != "P":
            continue
        for a in c.abilities:
            if a.spec.get("when") == "or_start" and a.type == "assign_hexes":
                if abilities.per_or_ok(a) or abilities.corp_assign_ok(a):
                    return xkey(sym)
    return None


def block_or_start(g: Context) -> bool | None:
    r = g.state.round
    if or_start_company(g) is None:
        return None
    r.data["or_start_open"] = True
    return True


def assignable_targets(g: Context, sym: str) -> list[str]:
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
    name = ASSIGN_STEP
    description = "Assign a private company's marker"

    @cython.locals(self="StepBase")
    def blocks(self) -> bool:
        return self._blocking_company() is not None

    @cython.locals(self="StepBase")
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

    @cython.locals(self="StepBase")
    def active_entities(self) -> list[str]:
        key = self._blocking_company()
        return [key] if key else super().active_entities()

    @cython.locals(self="StepBase")
    def _abilities(self, entity: str) -> list[Any]:
        if kind_of(entity) != "X":
            return []
        return [
            (o, a)
            for o, a in self.g.abilities_of(entity)
            if a.type == "assign_hexes" and abilities.usable(self.g, o, a, False)
        ]

    @cython.locals(self="StepBase")
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

    @cython.locals(self="StepBase")
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
                    choices += [{"target": h, "target_type": "hex"} for h in marker_targets(g, sym_of(entity), a)]
                if abilities.corp_assign_ok(a):
                    for t in assignable_targets(g, sym_of(entity)):
                        choices.append(
                            {"target": sym_of(t), "target_type": "corporation" if kind_of(t) == "C" else "minor"}
                        )
            out.append({"type": "assign", "choices": choices})
        if "pass" in acts:
            out.append({"type": "pass"})
        return out

    @cython.locals(self="StepBase")
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
            if target not in g.state.hexes:
                raise illegal("privates.assign", f"no hex {target}")
            cand = [a for a in ok if abilities.per_or_ok(a) and target in (a.spec.get("hexes") or [])]
            if not cand:
                raise illegal("privates.assign", f"{sym} cannot be assigned to {target} now")
            a = cand[0]
            if target not in marker_targets(g, sym, a):
                raise illegal("privates.assign", f"{sym} is already assigned to {target}")
            states = marker_states(a)
            if states and sym in g.state.hexes[target].assigned:
                # the marker's next state replaces the current one on its hex
                level = marker_state(g, sym, target) + 1
                hs = g.state.hexes[target]
                hs.assigned[:] = [e for e in hs.assigned if not e.startswith(f"{sym}:")] + [f"{sym}:{level}"]
                g.use_ability(entity, a)
                g.log(f"{sym}'s marker on {target} becomes {states[level].get('name', level)}")
                if states[level].get("closes_private"):
                    close_company(g, sym)
                self._maybe_start(entity)
                return
            for h in a.spec.get("hexes") or [] if (a.spec.get("count") or 0) <= 1 else []:  # several markers stay
                if sym in g.state.hexes[h].assigned:
                    g.state.hexes[h].assigned.remove(sym)
            g.state.hexes[target].assigned.append(sym)
            g.use_ability(entity, a)
            g.log(f"{sym} is assigned to {target}")
            owner = g.company(entity).owner
            if a.spec.get("amount") and owner is not None and kind_of(owner) in ("C", "M"):
                # the marker earns its bonus for the corporation that placed it, even after the private closes
                if sym not in g.operator(owner).assigned:
                    g.operator(owner).assigned.append(sym)
            if (a.spec.get("params") or {}).get("closes_private") or (states and states[0].get("closes_private")):
                close_company(g, sym)
        elif ttype in ("corporation", "minor"):
            cand = [a for a in ok if abilities.corp_assign_ok(a)]
            tkey = ckey(target) if ttype == "corporation" else mkey(target)
            if not cand or tkey not in assignable_targets(g, sym):
                raise illegal("privates.assign", f"{sym} cannot be assigned to {target} now")
            unassign_everywhere(g, sym, hexes=False)
            g.operator(tkey).assigned.append(sym)
            cand[0].corp_count_this_or += 1
            g.log(f"{sym} is assigned to {target}")
        else:
            raise illegal("privates.assign", f"bad target_type {ttype!r}")
        self._maybe_start(entity)

    @cython.locals(self="StepBase")
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

    @cython.locals(self="StepBase")
    def _maybe_start(self, entity: str) -> None:
        if self.rdata.get("or_start_open") and self._blocking_company() is None:
            self._start()

    @cython.locals(self="StepBase")
    def _start(self) -> None:
        self.rdata["or_start_open"] = False
        if rounds.any_to_act(self.g):
            rounds.start_operating(self.g)


# ------------------------------------------------------------------------------------------ events


@cython.locals(g="Context")
def close_companies(g: Context, params: CloseCompanies) -> None:
    keep = set(params.except_)
    owned_by = PARAMS.of(g).closure_exceptions_owned_by
    for sym, c in g.state.companies.items():
        if c.closed or c.blank:
            continue
        if sym in keep and (
            owned_by == "anyone" or (c.owner and kind_of(c.owner) == {"corporation": "C", "player": "P"}[owned_by])
        ):
            continue
        if sym in params.except_while_unused and any(a.count is not None and a.count > 0 for a in c.abilities):
            continue
        if not (c.owner and kind_of(c.owner) == "C"):
            unassign_everywhere(g, sym)
        close_company(g, sym)
    g.log("-- Event: private companies close --")
    g.hooks("privates_closed", params)


def remove_markers(g: Context, params: RemoveMarkers) -> None:
    for sym in params.privates:
        unassign_everywhere(g, sym)
    g.log("-- Event: private company markers removed --")


def _close_after_use(c: Any) -> Any:
    """The private's ``close`` ability that takes effect after another of its abilities is used, if any."""
    return next((a for a in c.abilities if a.type == "close" and (a.spec.get("params") or {}).get("after_use")), None)


def ability_removed(g: Context, owner: str, ability: Any) -> None:
    """A used-up ability of a private that closes after use marks its ``close`` ability as due."""
    if kind_of(owner) != "X" or not ability.used or ability.type == "close":
        return
    closer = _close_after_use(g.state.companies[sym_of(owner)])
    if closer is not None:
        closer.used = True


def applied_use_counts(g: Context, company: str) -> bool:
    """``closes_after_own_use_only``: the uses such a private makes itself are the only ones that close it."""
    return sym_of(company) not in PARAMS.of(g).closes_after_own_use_only


@cython.locals(g="Context")
def round_finished(g: Context, kind: str) -> None:
    """Privates whose ``close`` ability says ``after_use: end_of_operating_round`` close once an operating
    round in which one of their abilities was used ends."""
    if kind != "operating":
        return
    for sym, c in g.state.companies.items():
        closer = None if c.closed else _close_after_use(c)
        if closer is None or closer.spec["params"]["after_use"] != "end_of_operating_round":
            continue
        if closer.used or any(a.used for a in c.abilities if a is not closer):
            g.log(f"{sym} closes (its ability was used this operating round)")
            close_company(g, sym)


@cython.locals(g="Context")
def phase_closes_privates(g: Context, name: str) -> bool:
    phase = g.book.phases[g.book.phase_index[name]]
    return any(e.get("type") == "close_companies" for e in phase.get("events") or [])


class _PrivateCompanies:
    """The :class:`~railbook.engine.interfaces.PrivateCompanies` this mechanic provides."""

    @staticmethod
    @cython.locals(g="Context")
    def no_income_from_phase(g: Context) -> str | None:
        return PARAMS.of(g).no_income_from_phase

    @staticmethod
    @cython.locals(g="Context")
    def count_in_final_value(g: Context) -> bool:
        return PARAMS.of(g).count_in_final_value

    closed_by_phase = staticmethod(phase_closes_privates)
    buy_phase = staticmethod(can_buy_phase)


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={BUY_COMPANY_STEP: BuyCompany, ASSIGN_STEP: Assign},
    hooks={
        "company_price_range": company_price_range,
        "block_or_start": block_or_start,
        "ability_removed": ability_removed,
        "applied_use_counts": applied_use_counts,
        "round_finished": round_finished,
    },
    events={"close_companies": close_companies, "remove_markers": remove_markers},
    provides=[PRIVATE_COMPANIES.provided_by(_PrivateCompanies())],
)
