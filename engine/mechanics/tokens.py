"""``tokens``: station tokens.

The turn's placement is part of the ``track_and_token`` step (:mod:`railbook.engine.stations` has the rules:
a connected city with a free slot, at most one token per tile, the charter's price, token abilities).  A
private's token ability (``params.extra_token``) gives the owning corporation an extra token placed for free
in its hex/city, without a connection and without using the turn's placement.  Event ``remove_reservations``
ends the reservation abilities of the corporations it lists.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from railbook.params.tokens import DECLARATION, SPECIAL_TOKEN_STEP, RemoveReservations

from .. import abilities, board, stations
from ..contract import Mechanic
from ..errors import illegal
from ..state import ckey, kind_of, sym_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context
    from ..state import Ability

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


class SpecialToken(Step):
    """A private's token ability (used by the private, on its owner's turn)."""

    name = SPECIAL_TOKEN_STEP
    description = "Place a private company's token"
    offers = frozenset({"place_token"})

    def blocks(self) -> bool:
        return False

    @cython.locals(self="StepBase")
    def _ability(self, entity: str) -> tuple[str, Ability] | None:
        """The private's usable token ability: one without ``params.extra_action`` places the turn's marker, so not
        once the owning corporation has placed a marker this turn (a marker "in the place of the public company's
        normal ... station marker placement"; docs/CONFORMANCE.md)."""
        if kind_of(entity) != "X":
            return None
        tokened = bool(self.g.state.round.data.get("tokened"))
        for owner, a in self.g.abilities_of(entity):
            if a.type == "token" and abilities.usable(self.g, owner, a, passive_ok=False):
                if tokened and not (a.spec.get("params") or {}).get("extra_action"):
                    continue
                return owner, a
        return None

    def actions(self, entity: str) -> list[str]:
        found = self._ability(entity)
        if not found:
            return []
        corp = self.g.company(entity).owner
        hexes = found[1].spec.get("hexes") or []
        if hexes and all(board.hex_tokened_by(self.g, h, corp) for h in hexes):
            return []
        return ["place_token"]

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        found = self._ability(entity)
        if not found or not self.actions(entity):
            return []
        corp = self.g.company(entity).owner
        params = found[1].spec.get("params") or {}
        choices = []
        for h in found[1].spec.get("hexes") or []:
            for ci in range(len(self.g.state.hexes[h].tokens)):
                if params.get("city") is not None and int(params["city"]) != ci:
                    continue
                if stations.tokenable(self.g, corp, h, ci):
                    choices.append({"city": stations.city_id(self.g, h, ci)})
        return [{"type": "place_token", "choices": choices}] if choices else []

    @cython.locals(self="StepBase")
    def process_place_token(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        found = self._ability(entity)
        if found is None:
            raise illegal("token.ability", f"{sym_of(entity)} cannot place a token now")
        hex_id, ci = stations.parse_city(g, action.get("city"))
        if hex_id not in (found[1].spec.get("hexes") or []):
            raise illegal("token.ability", f"{sym_of(entity)} cannot place a token on {hex_id}")
        city = (found[1].spec.get("params") or {}).get("city")
        if city is not None and int(city) != ci:
            raise illegal("token.ability", f"{sym_of(entity)} can only place a token in city {city} of {hex_id}")
        corp = g.company(entity).owner
        stations.place(g, corp, hex_id, ci, connected=False, special=found)


def remove_reservations(g: Context, params: RemoveReservations) -> None:
    """Event ``remove_reservations``: the listed corporations' reservation abilities (their reserved token spaces
    away from home) end."""
    for corp in params.corporations:
        c = g.state.corporations[corp]
        for a in list(c.abilities):
            if a.type == "reservation":
                g.remove_ability(ckey(corp), a)


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={SPECIAL_TOKEN_STEP: SpecialToken},
    events={"remove_reservations": remove_reservations},
)
