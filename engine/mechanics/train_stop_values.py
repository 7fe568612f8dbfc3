"""``train_stop_values``: stops worth a different amount to some train types (e.g. an off-board paying D trains more).

``values`` maps a hex to ``{train type: $}``: a route of a train of that type that counts a stop in the hex earns
that amount for it in place of the stop's printed (phase) value.  Other trains earn the printed value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from railbook.params.train_stop_values import DECLARATION, Params

from .. import routes
from ..access import params_of
from ..contract import Mechanic

if TYPE_CHECKING:
    from ..context import Context


PARAMS = params_of(DECLARATION, Params)


def route_bonus(g: Context, corp: str, route: Any, stops: list[Any], all_routes: list[Any]) -> int:
    """The difference the train's own values make to the stops it counts."""
    table = PARAMS.of(g).values
    sym = g.state.trains[route.train].sym
    extra = 0
    for stop in stops:
        own = (table.get(stop[0]) or {}).get(sym)
        if own is not None:
            extra += int(own) - routes.stop_revenue(g, stop)
    return extra


MECHANIC = Mechanic.of(
    DECLARATION,
    hooks={"route_bonus": route_bonus},
)
