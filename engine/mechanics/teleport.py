"""``teleport``: a private's ability to lay a tile and then place a station token there, without a connection.

The ability ``{type: teleport, owner: corporation, hexes: [F16], tiles: ["57"], count: 1}`` lets the corporation
owning the private, in its track step, lay one of ``tiles`` in one of ``hexes`` as its lay of the turn (an
action of the private: ``lay_tile`` with the private as entity), paying the hex's terrain cost unless ``free``,
without a connection to its network.  It may then place its next station token in a city of that tile for
``cost`` (default free), also unconnected (``place_token`` of the private); that is the turn's token.  The
private must place or pass before anything else happens; the ability is used up.

The step ``teleport`` goes before the ``track`` step in the operating round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from railbook.params.teleport import DECLARATION, TELEPORT_STEP

from .. import abilities, board, stations
from ..contract import Mechanic
from ..errors import EngineError, illegal
from ..interfaces import TILE_LAYS
from ..state import Ability, kind_of, sym_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context


def teleport_ability(g: Context, company: str) -> tuple[str, Ability] | None:
    """The usable teleport ability of private ``company`` (an entity key) for its owner's track step."""
    if kind_of(company) != "X":
        return None
    c = g.company(company)
    if c.closed or c.owner is None or kind_of(c.owner) != "C":
        return None
    if g.current_operator() != c.owner:
        return None
    for owner, a in g.abilities_of(company):
        if a.type == "teleport" and abilities.right_owner(g, owner, a) and (a.count is None or a.count > 0):
            return owner, a
    return None


class Teleport(Step):
    """Lay a private's tile unconnected, then place a token on it."""

    name = TELEPORT_STEP
    description = "Lay a tile and place a token with a private company"
    offers = frozenset({"lay_tile", "place_token", "pass"})

    def _pending(self) -> str | None:
        found = self.rdata.get("teleport_pending")
        return str(found[0]) if found else None

    def blocks(self) -> bool:
        return self._pending() is not None

    def active_entities(self) -> list[str]:
        pending = self._pending()
        return [pending] if pending else super().active_entities()

    def actions(self, entity: str) -> list[str]:
        g = self.g
        pending = self._pending()
        if pending is not None:
            return ["place_token", "pass"] if entity == pending else []
        if teleport_ability(g, entity) is None:
            return []
        return ["lay_tile"] if TILE_LAYS.of(g).open(g, str(g.company(entity).owner)) else []

    def legal(self, entity: str) -> list[dict[str, Any]]:
        g = self.g
        pending = self.rdata.get("teleport_pending")
        if pending and entity == pending[0]:
            corp = g.company(entity).owner
            assert corp is not None
            choices = [{"city": city} for city in self._token_cities(str(corp), str(pending[1]), int(pending[2]))]
            out: list[dict[str, Any]] = [{"type": "place_token", "choices": choices}] if choices else []
            return [*out, {"type": "pass"}]
        if "lay_tile" not in self.actions(entity):
            return []
        found = teleport_ability(g, entity)
        assert found is not None
        corp = g.company(entity).owner
        choices = []
        for h in found[1].spec.get("hexes") or []:
            own = found[1].spec.get("tiles") or None
            for name in board.upgrade_options(g, h):
                if own and name not in own:
                    continue
                tile_id = board.next_copy_id(g, name)
                for rot in range(6):
                    try:
                        plan = board.plan_lay(g, h, tile_id, rot, key=corp, check_connection=False, allowed_tiles=own)
                    except EngineError:
                        continue
                    price = 0 if found[1].spec.get("free") else TILE_LAYS.of(g).price(g, corp, plan, 0)
                    if corp is None or (price is not None and price > g.cash(corp)):
                        continue  # the terrain costs more than the corporation has
                    choices.append({"hex": h, "tile": tile_id, "rotation": rot})
        return [{"type": "lay_tile", "choices": choices}] if choices else []

    def process_lay_tile(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        found = teleport_ability(g, entity)
        if found is None or not self.actions(entity):
            raise illegal("teleport.ability", f"{sym_of(entity)} cannot lay track now")
        corp = g.company(entity).owner
        assert corp is not None
        hex_id = TILE_LAYS.of(g).unconnected_lay(g, entity, corp, action, *found)
        if hex_id is None:
            raise illegal("teleport.track", "no rule lays track")
        cost = int(found[1].spec.get("cost") or 0)
        # the token may follow only where the corporation has one left to place there (and the money for it);
        # else there is nothing to decide and the turn goes on
        pending = [entity, hex_id, cost] if self._token_cities(str(corp), hex_id, cost) else None
        self.rdata["teleport_pending"] = pending
        g.use_ability(*found)

    def _token_cities(self, corp: str, hex_id: str, cost: int) -> list[str]:
        """The cities of ``hex_id`` where ``corp`` may place the private's token (none without a token left or
        the ``cost``)."""
        g = self.g
        if not g.tokens_left(corp) or cost > g.cash(corp):
            return []
        return [
            stations.city_id(g, hex_id, ci)
            for ci in range(len(g.state.hexes[hex_id].tokens))
            if stations.tokenable(g, corp, hex_id, ci)
        ]

    def process_place_token(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        pending = self.rdata.get("teleport_pending")
        if not pending or pending[0] != entity:
            raise illegal("teleport.token", f"{sym_of(entity)} has no teleport token to place")
        hex_id, ci = stations.parse_city(g, action.get("city"))
        if hex_id != pending[1]:
            raise illegal("teleport.token", f"{sym_of(entity)} places its token on {pending[1]} only")
        corp = g.company(entity).owner
        assert corp is not None
        cost = int(pending[2])
        token_rule = Ability("token", {"type": "token", "free": cost == 0, "cost": cost, "connected": False})
        stations.place(g, corp, hex_id, ci, connected=False, special=(corp, token_rule))
        board.invalidate(g, {hex_id}, corp)
        self.rdata["teleport_pending"] = None

    def process_pass(self, action: dict[str, Any], entity: str) -> None:
        if self._pending() != entity:
            raise illegal("teleport.pass", f"{sym_of(entity)} has nothing to pass")
        self.rdata["teleport_pending"] = None

    @staticmethod
    def round_state() -> dict[str, Any]:
        return {"teleport_pending": None}


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={TELEPORT_STEP: Teleport},
)
