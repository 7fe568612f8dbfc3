"""``routes``: running trains (the ``run_routes`` step) and the title's route bonuses.

Route legality and stop revenue are in :mod:`railbook.engine.routes`; the bonuses (the title's east-west bonus
and the privates' ``revenue_bonus`` abilities) are those of :mod:`railbook.engine.bonuses`, the same objects the
route optimiser uses.

A private's ``revenue_bonus`` with ``params.right`` is a right: ``amount`` to each route of a holder that counts a
stop in one of its ``hexes``.  The corporation owning the private holds it (and keeps it when the private
closes); with ``bonus_right_price`` other corporations buy it in their operating turn (step ``special_buy``,
action ``{"description": "<Right> Token"}``), from the owning corporation or, once the private has closed, the
bank; never while a player owns the private; at most ``bonus_right_copies`` holders.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from railbook.params.routes import DECLARATION, ROUTE_STEP, SPECIAL_BUY_STEP, Params

from .. import board, bonuses
from .. import memo as _memo
from .. import routes as R
from ..access import params_of, state_of
from ..contract import Mechanic
from ..errors import illegal
from ..interfaces import BONUS_RIGHTS
from ..memo import memo
from ..state import BANK, ckey, kind_of, sym_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


class StopView(NamedTuple):
    """A stop as the bonuses see it."""

    hex: str
    tags: frozenset[str]


PARAMS = params_of(DECLARATION, Params)


@dataclass(slots=True)
class State:
    """Bonus rights held apart from owning the private: right -> corporations (bought, or kept at closure)."""

    rights: dict[str, list[str]] = field(default_factory=dict)
    bought: dict[str, int] = field(default_factory=dict)  # right -> copies sold


STATE = state_of(DECLARATION, State)


def _rights(g: Context) -> dict[str, tuple[str, dict[str, Any]]]:
    """right -> (private, its revenue_bonus ability spec): rulebook data, read once per game."""
    found = g.cache.get("route_rights")
    if found is None:
        found = g.cache["route_rights"] = _rights_of(g)
    return found  # type: ignore[no-any-return]


def _rights_of(g: Context) -> dict[str, tuple[str, dict[str, Any]]]:
    out = {}
    for private, spec in (g.book.raw.get("privates") or {}).items():
        for a in spec.get("abilities") or []:
            right = (a.get("params") or {}).get("right")
            if a.get("type") == "revenue_bonus" and right:
                out[str(right)] = (private, a)
    return out


def holds_right(g: Context, corp: str, right: str) -> bool:
    private = _rights(g)[right][0]
    c = g.state.companies.get(private)
    if c is not None and not c.closed and c.owner == ckey(corp):
        return True
    return corp in STATE.of(g).rights.get(right, [])


def transfer_rights(g: Context, corp: str, to: str) -> None:
    """``corp``'s rights pass to ``to`` (a merger); a right ``to`` already holds returns a copy to the bank."""
    st = STATE.of(g)
    for right in _rights(g):
        if not holds_right(g, corp, right):
            continue
        holders = st.rights.setdefault(right, [])
        if corp in holders:
            holders.remove(corp)
        if holds_right(g, to, right):
            if st.bought.get(right, 0) > 0:
                st.bought[right] -= 1
            g.log(f"{to} already holds the {right} right: {corp}'s goes back to the bank")
        else:
            holders.append(to)
            g.log(f"{to} gets {corp}'s {right} right")
    g.epoch += 1


def right_bonus_specs(g: Context, corp: str, out: list[dict[str, Any]]) -> None:
    for right, (_, a) in _rights(g).items():
        if holds_right(g, corp, right):
            amount = int(a.get("amount") or 0)
            out.append({"type": "hex_bonus", "hexes": {str(h): amount for h in a.get("hexes") or []}})


def keep_right(g: Context, company: str, owner: str) -> None:
    """A corporation owning a right's private keeps the right when the private closes."""
    if kind_of(owner) != "C":
        return
    for right, (private, _) in _rights(g).items():
        holders = STATE.of(g).rights.setdefault(right, [])
        if private == company and sym_of(owner) not in holders:
            holders.append(sym_of(owner))


def right_label(right: str) -> str:
    return f"{right.capitalize()} Token"


def buyable_rights(g: Context, corp_key: str) -> list[str]:
    price = PARAMS.of(g).bonus_right_price
    if price is None or kind_of(corp_key) != "C" or g.cash(corp_key) < price:
        return []
    corp = sym_of(corp_key)
    copies = PARAMS.of(g).bonus_right_copies
    out = []
    for right, (private, _) in _rights(g).items():
        c = g.state.companies.get(private)
        if c is None or (not c.closed and (c.owner is None or kind_of(c.owner) != "C")):
            continue  # unsold or player-owned: not for sale
        if holds_right(g, corp, right):
            continue
        if copies is not None and STATE.of(g).bought.get(right, 0) >= copies - 1:
            continue
        out.append(right)
    return out


class SpecialBuy(Step):
    """Buy a copy of a private's bonus right, at any time in the corporation's operating turn."""

    name = SPECIAL_BUY_STEP
    description = "Buy a bonus right"
    offers = frozenset({"special_buy"})

    def blocks(self) -> bool:
        return False

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        if entity != self.current_entity() or not buyable_rights(self.g, entity):
            return []
        return ["special_buy"]

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        if not self.actions(entity):
            return []
        price = PARAMS.of(self.g).bonus_right_price
        choices = [{"description": right_label(r), "cost": price} for r in buyable_rights(self.g, entity)]
        return [{"type": "special_buy", "choices": choices}]

    @cython.locals(self="StepBase")
    def process_special_buy(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        wanted = str(action.get("description"))
        right = next((r for r in buyable_rights(g, entity) if right_label(r) == wanted), None)
        if right is None:
            raise illegal("routes.right", f"{sym_of(entity)} cannot buy {wanted!r} now")
        price = int(PARAMS.of(g).bonus_right_price or 0)
        c = g.state.companies[_rights(g)[right][0]]
        seller = BANK if c.closed or c.owner is None else c.owner
        g.spend(entity, seller, price)
        st = STATE.of(g)
        st.rights.setdefault(right, []).append(sym_of(entity))
        st.bought[right] = st.bought.get(right, 0) + 1
        g.epoch += 1
        g.log(f"{sym_of(entity)} buys the {right} right for {price}")


@memo
@cython.locals(g="Context")
def _bonuses(g: Context, corp: str) -> tuple[list[bonuses.RouteBonus], list[bonuses.SetBonus]]:
    return bonuses.split(bonuses.game_bonus_specs(g, corp))


def _stop(g: Context, node: R.NodeKey) -> StopView:
    tags = bonuses.hex_tags(g, node[0])
    group = R.node_info(g, node).group
    if group:
        tags.add(str(group))
    return StopView(node[0], frozenset(tags))


def _stop_kept(g: Context, node: R.NodeKey) -> StopView:
    """:func:`_stop`, kept while the hex keeps its tile (a view reads the book and the hex's tile alone)."""
    kept: dict[R.NodeKey, tuple[str | None, StopView]] = g.table("stop_views_by_tile")
    tile = g.state.hexes[node[0]].tile
    found = kept.get(node)
    if found is None or found[0] != tile:
        found = kept[node] = (tile, _stop(g, node))
    elif g.audit:
        _memo.audit(f"stop view of {node!r}", found[1], _stop(g, node))
    return found[1]


def _views(g: Context, nodes: list[R.NodeKey]) -> list[StopView]:
    """The stops' views, made once per state (a table kept until the game's epoch changes)."""
    kept = g.cache.get("stop_views")
    if kept is None or kept[0] != g.epoch:
        kept = g.cache["stop_views"] = (g.epoch, {})
    views: dict[R.NodeKey, StopView] = kept[1]
    out = []
    for s in nodes:
        v = views.get(s)
        if v is None:
            v = views[s] = _stop_kept(g, s)
        out.append(v)
    return out


def _visited(g: Context, route: R.Route) -> list[StopView]:
    """The views of the stops a route visits (kept on the route while the board is unchanged: each way of
    counting its stops is scored with them)."""
    kept = route.views
    if kept is None or kept[0] != g.board_version:
        kept = route.views = (g.board_version, _views(g, route.stops))
    elif g.audit:
        _memo.audit(f"stop views of the route of {route.train}", kept[1], [_stop(g, s) for s in route.stops])
    return kept[1]  # type: ignore[no-any-return]


def bonus_revenue(g: Context, corp_key: str, route: R.Route, stops: list[R.NodeKey], routes: list[R.Route]) -> int:
    """The bonuses a route earns counting ``stops``: its route bonuses, and each set bonus when this route is the
    one earning the most from it (the greater train id on a tie)."""
    route_bonuses, set_bonuses = _bonuses(g, sym_of(corp_key))
    if not route_bonuses and not set_bonuses:
        return 0
    visited = _visited(g, route)
    counted = visited if stops is route.stops else _views(g, stops)
    total = 0
    for b in route_bonuses:  # (loops: routes are scored in the engine's inner loops)
        total += b.value(counted, visited)
    for sb in set_bonuses:
        best, best_key = None, None
        for r in routes:
            key = (sb.route_value([], _visited(g, r)), r.train)
            if best_key is None or key > best_key:
                best, best_key = r, key
        if best is route:
            total += sb.route_value(counted, visited)
    return total


def runnable_trains(g: Context, entity: str) -> list[str]:
    return [t for t in g.entity_trains(entity) if not g.state.trains[t].operated]


class RunRoutes(Step):
    name = ROUTE_STEP
    description = "Run Routes"

    @staticmethod
    def round_state() -> dict[str, Any]:
        return {"routes": []}

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        if kind_of(entity) not in ("C", "M") or entity != self.current_entity():
            return []
        if not runnable_trains(self.g, entity):
            return []
        if not board.network(self.g, entity).route_available:
            return []
        return ["run_routes"]

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        if not self.actions(entity):
            return []
        return [
            {"type": "run_routes", "trains": runnable_trains(self.g, entity), "routes": "legal routes, one per train"}
        ]

    @cython.locals(self="StepBase")
    def process_run_routes(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        specs = action.get("routes")
        if not isinstance(specs, list):
            raise illegal("route.malformed", "run_routes needs a list of routes")
        routes = R.evaluate(g, entity, specs)
        self.rdata["routes"] = [{"train": r.train, "revenue": r.revenue, "stops": len(r.stops)} for r in routes]
        extra = action.get("extra_revenue") or 0
        if extra:
            raise illegal("route.extra", "extra revenue is not part of this title")
        total = sum(r.revenue for r in routes)
        recorded = [sp.get("revenue") for sp in specs]
        g.state.extra["route_checks"] = [
            [r.train, rec, r.revenue] for r, rec in zip(routes, recorded, strict=True) if rec is not None
        ]
        g.log(f"{sym_of(entity)} runs for {total}")
        self.pass_()


class _BonusRights:
    """The :class:`~railbook.engine.interfaces.BonusRights` this mechanic provides."""

    transfer = staticmethod(transfer_rights)


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={ROUTE_STEP: RunRoutes, SPECIAL_BUY_STEP: SpecialBuy},
    hooks={
        "route_bonus": bonus_revenue,
        "extra_bonus_specs": right_bonus_specs,
        "company_closing": keep_right,
    },
    state=State,
    provides=[BONUS_RIGHTS.provided_by(_BonusRights())],
)
