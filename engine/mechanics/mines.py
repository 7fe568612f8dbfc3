"""``mines``: mine hexes and mine tokens, and the revenue they give routes.

Two forms, which a title may combine:

* mine hexes with rights (``hexes`` + ``rights``): a mine hex is a stop on the map (its value is the hex's
  own revenue); only a company holding one of the mine's tokens may include it in a route, at its start,
  middle or end.  A company buys the rights (a token) during its track step.  While ``rights.private`` is
  owned by a player nobody may buy rights; the company owning that private holds one token free (kept when
  the private closes) and receives ``fee_to_private_owner`` of each fee, the rest going to the bank (all of
  it once the private has closed).
* mine tokens placed by privates (``tokens_by_private``): a private's ``mine`` ability (hexes, tiles, count,
  ``params.waives_terrain_cost``, ``params.adjacent_to``: some track end of the tile leads to a stop of these kinds
  that connects to it, or a city that could after upgrades; ``params.not_next_to_labels``: no neighbouring hex may
  hold a tile with one of these labels, as it is when the tile is laid), used by the company owning the private, lays a
  yellow tile as one of that company's lays of the turn (step ``mine``; the terrain cost waived) and puts a
  mine token on it; every company's route passing a hex with a mine token earns ``token_bonus``.

Rights are bought in step ``mine_rights`` (listed before the track step): a ``choose`` action while the company
may still lay a yellow tile (that lay is then used up when ``rights.uses_yellow_lay``), has the cash, and reaches
the mine hex.  Where the rights take a yellow lay, a private's extra yellow lay whose ability carries
``params.pays_mine_rights`` may pay for them instead, while that lay could be made (``choose_ability``; the lay counts
as made in the mine hex).  The company that buys ``rights.private`` gets a token from the supply at once.  A route
counting or passing a mine hex without its company holding a token is refused (hook ``check_route``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from railbook.params.mines import DECLARATION, MINE_RIGHTS_STEP, MINE_STEP, Params

from .. import abilities, board, bonuses
from ..access import params_of, state_of
from ..contract import Mechanic
from ..errors import illegal
from ..interfaces import TILE_LAYS
from ..state import BANK, kind_of, sym_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context
    from ..routes import NodeKey, Route
    from ..state import Ability

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


@dataclass(slots=True)
class State:
    """Mine tokens on the map (hex -> tokens) and the companies holding rights to the mine hexes (symbols)."""

    tokens: dict[str, int] = field(default_factory=dict)
    rights: list[str] = field(default_factory=list)


PARAMS = params_of(DECLARATION, Params)
STATE = state_of(DECLARATION, State)


@cython.locals(g="Context")
def token_ability(g: Context, company: str) -> tuple[str, Ability] | None:
    """The usable ``mine`` ability of private ``company`` (a key) that places tokens, with its owner key."""
    if kind_of(company) != "X" or sym_of(company) not in PARAMS.of(g).tokens_by_private:
        return None
    for owner, a in g.abilities_of(company):
        if a.type == "mine" and abilities.right_owner(g, owner, a) and (a.count is None or a.count > 0):
            return owner, a
    return None


@cython.locals(g="Context")
def _owner(g: Context, company: str) -> str | None:
    holder = g.company(company).owner
    return holder if holder is not None and kind_of(holder) == "C" else None


def _next_to(g: Context, hex_id: str, exits: Any, kinds: list[str]) -> bool:
    """Some exit of the tile leads to a hex holding a stop of one of ``kinds`` that connects to that edge, or, a
    city, could after upgrades of its tile ("Coal mines must directly connect to a city or red offboard location,
    or be placed adjacent to a city such that if the adjacent city were sufficiently upgraded, it could directly
    connect to the coal mine", 1817 §1.2.6)."""
    for e in exits:
        nb = g.book.neighbours[hex_id].get(e)
        if nb is None:
            continue
        track = board.track(g, nb)
        stops = [n.kind for n in track.nodes.values() if n.kind in kinds]
        if not stops:
            continue
        back = (e + 3) % 6
        if back in track.exits or ("city" in stops and _could_face(g, nb, back, set(track.exits))):
            return True
    return False


@cython.locals(g="Context")
def _could_face(g: Context, hex_id: str, edge: int, kept: set[int]) -> bool:
    """Some tile the hex's tile may be upgraded to, at once or by later upgrades, has track at ``edge`` in a rotation
    that keeps the track it has (``kept``)."""
    seen: set[str] = set()
    todo = list(board.upgrade_options(g, hex_id))
    while todo:
        name = todo.pop()
        if name in seen or name not in g.book.tiles:
            continue
        seen.add(name)
        for rot in range(6):
            ex = set(g.book.track(name, hex_id, rot).exits)
            if edge in ex and kept <= ex:
                return True
        todo.extend(g.book.tiles[name].get("upgrades") or [])
    return False


@cython.locals(g="Context", a="Ability")
def _check(g: Context, company: str, a: Ability, hex_id: str, tile: str, rotation: int) -> None:
    if hex_id not in (a.spec.get("hexes") or [hex_id]):
        raise illegal("mines.hex", f"{sym_of(company)} cannot place a mine on {hex_id}")
    for nb in g.book.neighbours.get(hex_id, {}).values():
        if board.label(g, nb) in (abilities.spec_param(a, "not_next_to_labels") or []):
            raise illegal("mines.next_to_label", f"{sym_of(company)} cannot place a mine next to {nb}")
    kinds = abilities.spec_param(a, "adjacent_to") or []
    name = board.tile_name_of(tile)
    if kinds and hex_id in g.book.hexes and name in g.book.tiles:  # (an unknown tile: the lay itself refuses it)
        exits = g.book.track(name, hex_id, rotation).exits
        if not _next_to(g, hex_id, exits, ["city", "offboard", "town"] if "city" in kinds else kinds):
            raise illegal("mines.adjacent", f"the mine tile on {hex_id} must lead to a city or off-map")


class MineLay(Step):
    """A private's mine: a yellow tile as one of its company's lays, with a mine token on it."""

    name = MINE_STEP
    description = "Lay a mine tile"

    def blocks(self) -> bool:
        return False

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        found = token_ability(self.g, entity)
        if found is None:
            return []
        corp = _owner(self.g, entity)
        if corp is None or not TILE_LAYS.of(self.g).open(self.g, corp):
            return []
        cost = TILE_LAYS.of(self.g).cost(self.g, corp)
        return ["lay_tile"] if cost is None or cost <= self.g.cash(corp) else []

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        if not self.actions(entity):
            return []
        g = self.g
        found = token_ability(g, entity)
        corp = _owner(g, entity)
        assert found is not None and corp is not None
        a = found[1]
        discount = int(abilities.spec_param(a, "waives_terrain_cost", 0) or 0)
        cash = g.cash(corp)
        choices = []
        for h in a.spec.get("hexes") or []:
            if board.colour(g, h) != "white":
                continue
            for name in a.spec.get("tiles") or board.upgrade_options(g, h):
                tid = board.next_copy_id(g, name)
                for rot in range(6):
                    try:
                        plan = board.plan_lay(g, h, tid, rot, key=corp, allowed_tiles=a.spec.get("tiles") or None)
                        _check(g, entity, a, h, tid, rot)
                    except Exception:
                        continue
                    price = TILE_LAYS.of(g).price(g, corp, plan, discount)
                    if price is not None and price > cash:
                        continue  # terrain the company cannot pay for
                    choices.append({"hex": h, "tile": tid, "rotation": rot})
        return [{"type": "lay_tile", "choices": choices}] if choices else []

    @cython.locals(self="StepBase")
    def process_lay_tile(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        found = token_ability(g, entity)
        corp = _owner(g, entity)
        if found is None or corp is None or not TILE_LAYS.of(g).open(g, corp):
            raise illegal("mines.timing", f"{sym_of(entity)} cannot place a mine now")
        owner, a = found
        hex_id = str(action.get("hex"))
        rotation = action.get("rotation")
        _check(g, entity, a, hex_id, str(action.get("tile")), rotation if isinstance(rotation, int) else 0)
        discount = int(abilities.spec_param(a, "waives_terrain_cost", 0) or 0)
        laid = TILE_LAYS.of(g).lay(g, entity, corp, action, a.spec.get("tiles") or None, discount)
        if laid is None:
            raise illegal("mines.timing", f"{sym_of(entity)} cannot lay a tile now")
        st = STATE.of(g)
        st.tokens[hex_id] = st.tokens.get(hex_id, 0) + 1
        g.use_ability(owner, a)
        g.log(f"{sym_of(corp)} adds a mine to {hex_id}")


@cython.locals(g="Context")
def lay_allowed(g: Context, corp: str, hex_id: str, tile: str, rotation: int) -> bool:
    """A tile holding a mine token is never upgraded (``tile_frozen``)."""
    return not (PARAMS.of(g).tile_frozen and STATE.of(g).tokens.get(hex_id))


@cython.locals(g="Context")
def _path_spec(g: Context) -> dict[str, Any]:
    """The mine tokens as a ``path_hex`` route bonus (:mod:`railbook.engine.bonuses`): ``token_bonus`` per token."""
    amount = PARAMS.of(g).token_bonus
    return {"type": "path_hex", "hexes": {h: amount * n for h, n in STATE.of(g).tokens.items() if n}}


@cython.locals(g="Context")
def route_bonus(g: Context, corp: str, route: Route, stops: list[NodeKey], routes: list[Route]) -> int:
    """``token_bonus`` for each hex with a mine token the route passes through."""
    if not STATE.of(g).tokens or not PARAMS.of(g).token_bonus:
        return 0
    return bonuses.PathHex(_path_spec(g)).passed_value(h for h, _ in route.paths)


@cython.locals(g="Context")
def extra_bonus_specs(g: Context, corp: str, out: list[dict[str, Any]]) -> None:
    """The mine tokens' bonus for the route optimiser (the same ``path_hex`` bonus the interpreter scores)."""
    if STATE.of(g).tokens and PARAMS.of(g).token_bonus:
        out.append(_path_spec(g))


# ------------------------------------------------------------------------------------- rights


@cython.locals(g="Context")
def _rights_private_state(g: Context) -> tuple[bool, str | None]:
    """(rights may be bought now, the company owning ``rights.private`` while it is open)."""
    rights = PARAMS.of(g).rights
    if rights is None or rights.private is None:
        return True, None
    c = g.state.companies.get(rights.private)
    if c is None or c.closed or c.removed:
        return True, None
    if c.owner is not None and kind_of(c.owner) == "C":
        return True, c.owner
    return False, None


def _rights_open(g: Context, corp_key: str) -> bool:
    """``corp_key`` may buy a mine token, the lay it takes aside: tokens left, none held, the cash, the private's
    state, and its network reaches a mine hex."""
    rights = PARAMS.of(g).rights
    if rights is None or kind_of(corp_key) != "C":
        return False
    st = STATE.of(g)
    corp = sym_of(corp_key)
    if corp in st.rights or len(st.rights) >= rights.tokens or g.cash(corp_key) < rights.cost:
        return False
    if not _rights_private_state(g)[0]:
        return False
    net = board.network(g, corp_key)
    return any(h in net.hex_edges or any(nh == h for nh, _ in net.nodes) for h in PARAMS.of(g).hexes)


def can_buy_rights(g: Context, corp_key: str) -> bool:
    """``corp_key`` may buy a mine token now with its own lay (step ``mine_rights``)."""
    rights = PARAMS.of(g).rights
    if rights is not None and rights.uses_yellow_lay and not TILE_LAYS.of(g).open(g, corp_key):
        return False
    return _rights_open(g, corp_key)


def rights_lay(g: Context, corp_key: str) -> tuple[str, Ability, str] | None:
    """The private's extra lay (ability ``params.pays_mine_rights``) with which ``corp_key`` may buy a mine token now
    in place of a tile (rights that take ``uses_yellow_lay``): its owner key, the ability, and the mine hex it counts
    as laid in (the hexes the ability may still go to decide, e.g. a lay allowed outside its tagged hexes)."""
    rights = PARAMS.of(g).rights
    if rights is None or not rights.uses_yellow_lay or kind_of(corp_key) != "C":
        return None
    for h in PARAMS.of(g).hexes:
        found = TILE_LAYS.of(g).private_lay(g, corp_key, h, "pays_mine_rights")
        if found is not None:
            return (found[0], found[1], h) if _rights_open(g, corp_key) else None
    return None


class BuyMineRights(Step):
    """Buy the rights to the mine hexes (a mine token), in the operating company's track step."""

    name = MINE_RIGHTS_STEP
    description = "Buy a mine token"

    def blocks(self) -> bool:
        return False

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        if entity != self.current_entity():
            return []
        acts = ["choose"] if can_buy_rights(self.g, entity) else []
        if rights_lay(self.g, entity) is not None:
            acts.append("choose_ability")
        return acts

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        choice = [{"choice": PARAMS.of(self.g).record_choice or "mine_rights"}]
        return [{"type": t, "choices": choice} for t in self.actions(entity)]

    @cython.locals(self="StepBase")
    def process_choose(self, action: dict[str, Any], entity: str) -> None:
        if not can_buy_rights(self.g, entity):
            raise illegal("mines.rights", f"{sym_of(entity)} cannot buy a mine token now")
        self._buy(action, entity, None)

    @cython.locals(self="StepBase")
    def process_choose_ability(self, action: dict[str, Any], entity: str) -> None:
        """The rights bought with a private's extra lay in place of its tile (``params.pays_mine_rights``)."""
        found = rights_lay(self.g, entity)
        if found is None:
            raise illegal("mines.rights", f"{sym_of(entity)} cannot buy a mine token with a private's lay now")
        self._buy(action, entity, found)

    @cython.locals(self="StepBase")
    def _buy(self, action: dict[str, Any], entity: str, lay: tuple[str, Ability, str] | None) -> None:
        g = self.g
        p = PARAMS.of(g)
        rights = p.rights
        if action.get("choice") not in (p.record_choice, "mine_rights"):
            raise illegal("mines.choice", f"{sym_of(entity)} cannot choose {action.get('choice')!r} now")
        if rights is None:
            raise illegal("mines.rights", f"{sym_of(entity)} cannot buy a mine token now")
        owner = _rights_private_state(g)[1]
        to_owner = min(rights.fee_to_private_owner, rights.cost) if owner is not None else 0
        if to_owner:
            g.spend(entity, owner, to_owner)
        if rights.cost - to_owner:
            g.spend(entity, BANK, rights.cost - to_owner)
        if lay is not None:
            TILE_LAYS.of(g).spend_private_lay(g, lay[0], lay[1], lay[2])
        elif rights.uses_yellow_lay:
            TILE_LAYS.of(g).use(g, entity)
        STATE.of(g).rights.append(sym_of(entity))
        board.invalidate(g)  # its walks may now pass the mine hexes (route_forbidden_hexes)
        g.log(f"{sym_of(entity)} buys a mine token for {rights.cost}")


@cython.locals(g="Context")
def company_sold(g: Context, company: str, corp: str) -> None:
    """The company buying ``rights.private`` takes a mine token from the supply (free)."""
    rights = PARAMS.of(g).rights
    st = STATE.of(g)
    if rights is None or company != rights.private or sym_of(corp) in st.rights or len(st.rights) >= rights.tokens:
        return
    st.rights.append(sym_of(corp))
    board.invalidate(g)  # its walks may now pass the mine hexes
    g.log(f"{sym_of(corp)} receives a mine token with {company}")


@cython.locals(g="Context")
def check_route(g: Context, corp_key: str, route: Route) -> None:
    """Only a company holding a mine token may run to or through a mine hex."""
    mines = PARAMS.of(g).hexes
    if not mines or sym_of(corp_key) in STATE.of(g).rights:
        return
    passed = {h for h, _ in route.paths} | {h for h, _ in route.stops}
    for h in mines:
        if h in passed:
            raise illegal("route.mine", f"train {route.train} enters {h} without a mine token")


@cython.locals(g="Context")
def route_forbidden_hexes(g: Context, corp: str, out: list[str]) -> None:
    """The mine hexes, for a company (symbol) without a mine token."""
    if corp not in STATE.of(g).rights:
        out.extend(PARAMS.of(g).hexes)


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={MINE_STEP: MineLay, MINE_RIGHTS_STEP: BuyMineRights},
    hooks={
        "lay_allowed": lay_allowed,
        "route_bonus": route_bonus,
        "extra_bonus_specs": extra_bonus_specs,
        "company_sold": company_sold,
        "check_route": check_route,
        "route_forbidden_hexes": route_forbidden_hexes,
    },
    state=State,
)
