"""``routes``: running trains (the ``run_routes`` step) and the title's route bonuses.

Route legality and stop revenue are in :mod:`railbook.engine.routes`.  Bonuses read here:

* ``east_west`` — a route counting a stop of the east group and a stop on a hex labelled west earns both
  hexes' amounts;
* private ``revenue_bonus`` abilities with ``params.where: assigned_hex`` — a route of the company the
  private is assigned to, counting the assigned hex, earns ``amount`` (times the hex's ``params.per_icon``
  icons when given);
* private ``revenue_bonus`` with ``params.per: visited_stop`` — the owning corporation's route visiting
  most stops (ties: the greater train id) earns ``amount`` per visited stop.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import Field

from .. import board
from .. import routes as R
from ..contract import HexId, Mechanic, TrainId
from ..contract import Params as BaseParams
from ..errors import illegal
from ..state import kind_of, sym_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..game import Game


class EastWest(BaseParams):
    """A bonus for a route joining an east and a west off-board."""

    east_group: str = Field(description="the group shared by the east off-boards' stops")
    west_label: str = Field(description="the label of the west off-board hexes")
    bonus: dict[HexId, int] = Field(description="the bonus printed by each end hex, $; a route earns both ends'")


class Params(BaseParams):
    """Route bonuses of the title (private companies' bonuses are their abilities)."""

    east_west: EastWest | None = Field(None, description="the east-west bonus, if the title has one")
    bonus_right_price: int | None = Field(
        None,
        ge=0,
        description="price a corporation pays for a copy of a private's revenue-bonus right (ability params "
        "`right`): to the corporation owning the private, to the bank once it has closed, never while a player "
        "owns it (None: rights are not sold) (not yet played by the engine)",
    )
    bonus_right_copies: int | None = Field(
        None,
        ge=1,
        description="corporations that may hold each right, the owner included (None: unlimited) (not yet played by "
        "the engine)",
    )
    station_bonus_by_train: dict[TrainId, int] = Field(
        default_factory=dict,
        description="train -> $ it earns extra per station of its own corporation on its route (not yet played by "
        "the engine)",
    )


def _p(g: Game) -> Params:
    return g.params["routes"]  # type: ignore[return-value]


def install(g: Game) -> None:
    ew = _p(g).east_west
    if ew is not None:
        g.route_bonuses.append(_east_west(ew))
    for sym, spec in g.book.privates.items():
        for a in spec.get("abilities") or []:
            if a.get("type") != "revenue_bonus":
                continue
            params = a.get("params") or {}
            if params.get("where") == "assigned_hex":
                g.route_bonuses.append(_assigned(sym, int(a.get("amount") or 0), params.get("per_icon")))
            elif params.get("per") == "visited_stop":
                g.route_bonuses.append(_visited(sym, int(a.get("amount") or 0)))


def _east_west(ew: EastWest) -> Any:
    east_group = ew.east_group
    west_label = ew.west_label
    amounts = dict(ew.bonus)

    def bonus(g: Game, corp: str, route: R.Route, stops: list[tuple[str, str]], routes: list[R.Route]) -> int:
        east = next((s for s in stops if R.node_info(g, s).group == east_group), None)
        west = next((s for s in stops if board.label(g, s[0]) == west_label), None)
        if east is None or west is None:
            return 0
        return amounts.get(east[0], 0) + amounts.get(west[0], 0)

    return bonus


def _assigned(sym: str, amount: int, per_icon: str | None) -> Any:
    def bonus(g: Game, corp: str, route: R.Route, stops: list[tuple[str, str]], routes: list[R.Route]) -> int:
        if sym not in g.operator(corp).assigned:
            return 0
        stop = next((s for s in stops if sym in g.state.hexes[s[0]].assigned), None)
        if stop is None:
            return 0
        if per_icon:
            return amount * g.state.hexes[stop[0]].icons.count(per_icon)
        return amount

    return bonus


def _visited(sym: str, amount: int) -> Any:
    def bonus(g: Game, corp: str, route: R.Route, stops: list[tuple[str, str]], routes: list[R.Route]) -> int:
        c = g.state.companies.get(sym)
        if c is None or c.closed or c.owner != corp:
            return 0
        longest = max(routes, key=lambda r: (len(r.stops), r.train))
        return amount * len(route.stops) if longest is route else 0

    return bonus


def runnable_trains(g: Game, entity: str) -> list[str]:
    return [t for t in g.entity_trains(entity) if not g.state.trains[t].operated]


class RunRoutes(Step):
    name = "route"
    description = "Run Routes"

    @staticmethod
    def round_state() -> dict[str, Any]:
        return {"routes": []}

    def actions(self, entity: str) -> list[str]:
        if kind_of(entity) not in ("C", "M") or entity != self.current_entity():
            return []
        if not runnable_trains(self.g, entity):
            return []
        if not board.network(self.g, entity).route_available:
            return []
        return ["run_routes"]

    def legal(self, entity: str) -> list[dict[str, Any]]:
        if not self.actions(entity):
            return []
        return [
            {"type": "run_routes", "trains": runnable_trains(self.g, entity), "routes": "legal routes, one per train"}
        ]

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


MECHANIC = Mechanic(
    name="routes",
    description="running trains and the title's route bonuses",
    params=Params,
    steps={"route": RunRoutes},
    hooks={"install": install},
)
