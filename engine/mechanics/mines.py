"""``mines``: mine hexes and mine tokens, and the revenue they give routes.

Two forms, which a title may combine:

* mine hexes with rights (``hexes`` + ``rights``): a mine hex is a stop on the map (its value is the hex's
  own revenue); only a company holding one of the mine's tokens may include it in a route, at its start,
  middle or end.  A company buys the rights (a token) during its track step.  While ``rights.private`` is
  owned by a player nobody may buy rights; the company owning that private holds one token free (kept when
  the private closes) and receives ``fee_to_private_owner`` of each fee, the rest going to the bank (all of
  it once the private has closed).
* mine tokens placed by privates (``tokens_by_private``): a private's ``mine`` ability (hexes, tiles, count,
  ``params.waives_terrain_cost``, ``params.adjacent_to``), used by the company owning the private, lays a
  yellow tile as one of that company's lays of the turn (step ``mine``; the terrain cost waived) and puts a
  mine token on it; every company's route passing a hex with a mine token earns ``token_bonus``.

Mine hexes with rights are not yet played by the engine (a title using ``hexes`` or ``rights`` is refused).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import Field

from .. import abilities, board
from ..contract import HexId, Mechanic, PrivateId
from ..contract import Params as BaseParams
from ..errors import UnsupportedTitle, illegal
from ..state import kind_of, sym_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..game import Game
    from ..routes import NodeKey, Route
    from ..state import Ability


class MineRights(BaseParams):
    """Rights to run to the mine hexes, bought by a company as a token."""

    cost: int = Field(ge=0, description="price of the rights ($), paid from the company's treasury")
    uses_yellow_lay: bool = Field(False, description="buying the rights takes the place of a yellow tile lay")
    tokens: int = Field(ge=1, description="mine tokens in the game: at most this many companies hold rights")
    max_per_company: int = Field(1, ge=1, description="tokens one company may hold")
    private: PrivateId | None = Field(
        None, description="the private that owns the mine (see the module text); none when no private does"
    )
    fee_to_private_owner: int = Field(
        0, ge=0, description="part of each fee paid to the company owning `private` while it is open ($)"
    )


class Params(BaseParams):
    """Mine hexes, the rights to them, and mine tokens with their route bonus."""

    hexes: list[HexId] = Field(
        [], description="mine hexes: stops only the holders of rights may use (not yet played by the engine)"
    )
    rights: MineRights | None = Field(
        None, description="how companies get rights to the mine hexes (not yet played by the engine)"
    )
    counts_towards_distance: bool = Field(True, description="a mine counts as a stop towards the train's length")
    tokens_by_private: dict[PrivateId, int] = Field({}, description="private -> mine tokens its ability places")
    token_bonus: int = Field(0, ge=0, description="revenue a route earns for each hex with a mine token it passes ($)")
    tile_frozen: bool = Field(False, description="a tile holding a mine token may never be upgraded")
    route_end_forbidden: bool = Field(False, description="a route may not start or end at a mine")
    record_choice: str | None = Field(
        None, description="the `choice` of the 18xx.games `choose` action that buys rights, for reading records"
    )


@dataclass
class State:
    """Mine tokens on the map: hex -> tokens."""

    tokens: dict[str, int] = field(default_factory=dict)


def _p(g: Game) -> Params:
    return g.params["mines"]  # type: ignore[return-value]


def _st(g: Game) -> State:
    return g.state.mechanics["mines"]  # type: ignore[no-any-return]


def token_ability(g: Game, company: str) -> tuple[str, Ability] | None:
    """The usable ``mine`` ability of private ``company`` (a key) that places tokens, with its owner key."""
    if kind_of(company) != "X" or sym_of(company) not in _p(g).tokens_by_private:
        return None
    for owner, a in g.abilities_of(company):
        if a.type == "mine" and abilities.right_owner(g, owner, a) and (a.count is None or a.count > 0):
            return owner, a
    return None


def _owner(g: Game, company: str) -> str | None:
    holder = g.company(company).owner
    return holder if holder is not None and kind_of(holder) == "C" else None


def _next_to(g: Game, hex_id: str, exits: Any, kinds: list[str]) -> bool:
    """Some exit of the tile leads to a hex holding a stop of one of ``kinds``."""
    for e in exits:
        nb = g.book.neighbours[hex_id].get(e)
        if nb is not None and any(n.kind in kinds for n in board.track(g, nb).nodes.values()):
            return True
    return False


def _check(g: Game, company: str, a: Ability, hex_id: str, tile: str, rotation: int) -> None:
    if hex_id not in (a.spec.get("hexes") or [hex_id]):
        raise illegal("mines.hex", f"{sym_of(company)} cannot place a mine on {hex_id}")
    kinds = abilities.spec_param(a, "adjacent_to") or []
    if kinds and hex_id in g.book.hexes:
        exits = g.book.track(board.tile_name_of(tile), hex_id, rotation).exits
        if not _next_to(g, hex_id, exits, ["city", "offboard", "town"] if "city" in kinds else kinds):
            raise illegal("mines.adjacent", f"the mine tile on {hex_id} must lead to a city or off-map")


class MineLay(Step):
    """A private's mine: a yellow tile as one of its company's lays, with a mine token on it."""

    name = "mine"
    description = "Lay a mine tile"

    def blocks(self) -> bool:
        return False

    def actions(self, entity: str) -> list[str]:
        found = token_ability(self.g, entity)
        if found is None:
            return []
        corp = _owner(self.g, entity)
        return ["lay_tile"] if corp is not None and self.g.hooks("turn_lay_open", corp) else []

    def legal(self, entity: str) -> list[dict[str, Any]]:
        if not self.actions(entity):
            return []
        g = self.g
        found = token_ability(g, entity)
        corp = _owner(g, entity)
        assert found is not None and corp is not None
        a = found[1]
        choices = []
        for h in a.spec.get("hexes") or []:
            if board.colour(g, h) != "white":
                continue
            for name in a.spec.get("tiles") or board.upgrade_options(g, h):
                tid = board.next_copy_id(g, name)
                for rot in range(6):
                    try:
                        board.plan_lay(g, h, tid, rot, key=corp, allowed_tiles=a.spec.get("tiles") or None)
                        _check(g, entity, a, h, tid, rot)
                    except Exception:
                        continue
                    choices.append({"hex": h, "tile": tid, "rotation": rot})
        return [{"type": "lay_tile", "choices": choices}] if choices else []

    def process_lay_tile(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        found = token_ability(g, entity)
        corp = _owner(g, entity)
        if found is None or corp is None or not g.hooks("turn_lay_open", corp):
            raise illegal("mines.timing", f"{sym_of(entity)} cannot place a mine now")
        owner, a = found
        hex_id = str(action.get("hex"))
        rotation = action.get("rotation")
        _check(g, entity, a, hex_id, str(action.get("tile")), rotation if isinstance(rotation, int) else 0)
        discount = int(abilities.spec_param(a, "waives_terrain_cost", 0) or 0)
        laid = g.hooks("turn_lay", entity, corp, action, a.spec.get("tiles") or None, discount)
        if laid is None:
            raise illegal("mines.timing", f"{sym_of(entity)} cannot lay a tile now")
        st = _st(g)
        st.tokens[hex_id] = st.tokens.get(hex_id, 0) + 1
        g.use_ability(owner, a)
        g.log(f"{sym_of(corp)} adds a mine to {hex_id}")


def setup(g: Game) -> None:
    p = _p(g)
    if p.hexes or p.rights is not None:
        raise UnsupportedTitle(f"{g.book.title}: mechanics.mines.hexes/rights are not yet played by the engine")


def lay_allowed(g: Game, corp: str, hex_id: str, tile: str, rotation: int) -> bool:
    """A tile holding a mine token is never upgraded (``tile_frozen``)."""
    return not (_p(g).tile_frozen and _st(g).tokens.get(hex_id))


def route_bonus(g: Game, corp: str, route: Route, stops: list[NodeKey], routes: list[Route]) -> int:
    """``token_bonus`` for each hex with a mine token the route passes through."""
    tokens = _st(g).tokens
    if not tokens:
        return 0
    passed = {h for h, _ in route.paths}
    return _p(g).token_bonus * sum(n for h, n in tokens.items() if h in passed)


MECHANIC = Mechanic(
    name="mines",
    description="mine tokens and mine revenue",
    params=Params,
    steps={"mine": MineLay},
    hooks={"setup": setup, "lay_allowed": lay_allowed, "route_bonus": route_bonus},
    state=State,
)
