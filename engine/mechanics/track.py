"""``track``: laying and upgrading tiles (with the turn's token placement, in either order).

Costs: the printed hex's
terrain ``cost`` on its first tile (abilities ``tile_discount`` with ``terrain`` reduce it), hexside
``borders`` with a cost when track first crosses them from both sides, minus ``tile_discount`` abilities
naming ``hexes``/``tiles``.  Private ``tile_lay`` abilities lay extra tiles in their hexes without a
connection (``params.lay_together``: the second lay is forfeited if anything else happens first).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from railbook.params.track import DECLARATION, SPECIAL_TRACK_STEP, TOKEN_STEP, TRACK_AND_TOKEN_STEP, TRACK_STEP, Params

from railbook.hexgrid import opposite

from .. import abilities, board, rounds, stations
from ..access import params_of
from ..contract import Mechanic
from ..errors import EngineError, illegal
from ..interfaces import PRIVATE_COMPANIES, TILE_LAYS
from ..memo import memo
from ..state import BANK, kind_of, sym_of, xkey
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context
    from ..state import Ability, Company

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


PARAMS = params_of(DECLARATION, Params)


def tile_downgrades(g: Context, hex_id: str) -> dict[str, str] | None:
    """``downgrades`` while the phase allows them."""
    p = PARAMS.of(g)
    if not p.downgrades or g.phase_spec()["name"] not in p.downgrade_phases:
        return None
    return dict(p.downgrades)


@cython.locals(g="Context")
def min_cost(g: Context) -> int:
    return PARAMS.of(g).min_cost


@memo
@cython.locals(g="Context")
def current_lay(g: Context) -> dict[str, Any] | None:
    """The turn's next tile action (whether it may lay, upgrade, and its cost), None when the turn has no more;
    memoised: read-only."""
    r = g.state.round.data
    spec = PARAMS.of(g).lays
    first = PARAMS.of(g).first_turn_lays
    if first is not None:
        op = r.get("current_operator")
        if op is not None and g.state.round.kind == "operating" and not g.operator(op).operated:
            spec = first
    n = r.get("num_laid_track", 0)
    if n >= len(spec):
        return None
    upgraded = r.get("upgraded_track", False)

    def allowed(p: str) -> bool:
        return p == "yes" or (p == "if_not_upgraded" and not upgraded)

    return {
        "lay": allowed(spec[n].lay),
        "upgrade": allowed(spec[n].upgrade),
        "cost": turn_lay_cost(g, n, spec[n].cost),
        "fresh_hex": spec[n].not_on_hex_laid_this_turn,
    }


def turn_lay_cost(g: Context, n: int, cost: int) -> int:
    """The cost of the turn's ``n``-th tile action: the rule's, or the least a private of the operator sets for
    it (ability parameter ``tile_lay_costs``: $ per tile action of the turn)."""
    op = g.state.round.data.get("current_operator")
    if op is None or kind_of(op) != "C":
        return cost
    own = [(a.spec.get("params") or {}).get("tile_lay_costs") for _, a in g.abilities_of(op)]
    costs = [int(c[n]) for c in own if c and n < len(c)]
    return min(costs) if costs else cost


def lay_discount_abilities(g: Context, corp: str) -> list[tuple[str, Ability]]:
    return [
        (o, a)
        for o, a in g.abilities_of(corp)
        if a.type == "tile_discount" and not a.spec.get("terrain") and abilities.right_owner(g, o, a)
    ]


def terrain_discount(g: Context, corp: str, terrain: list[str]) -> int:
    for o, a in g.abilities_of(corp):
        if a.type == "tile_discount" and a.spec.get("terrain") and abilities.right_owner(g, o, a):
            if set(a.spec["terrain"]) & set(terrain):
                return int(a.spec.get("amount") or 0)
    return 0


def border_discount(g: Context, corp: str, border_type: str, cost: int) -> int:
    for o, a in g.abilities_of(corp):
        if a.type != "tile_discount" or not abilities.right_owner(g, o, a):
            continue
        sides = (a.spec.get("params") or {}).get("hexsides") or []
        if border_type in sides:
            return min(int(a.spec.get("amount") or 0), cost)
    return 0


@memo
@cython.locals(g="Context")
def free_lay_available(g: Context, corp: str) -> bool:
    """A lay discount covering the minimum cost on a still-printed hex makes a lay possible without cash."""
    for _, a in lay_discount_abilities(g, corp):
        if int(a.spec.get("amount") or 0) < min_cost(g):
            continue
        for h in a.spec.get("hexes") or []:
            if g.state.hexes[h].tile is None:
                return True
    return False


@memo
@cython.locals(g="Context")
def track_buying_power(g: Context, corp: str) -> int:
    """Cash plus what other rules let the corporation raise for track (issues, buying independents...)."""
    return g.cash(corp) + g.hooks("issuable_cash", corp) + g.hooks("buying_power", corp, "track")


def lay_cost(g: Context, corp: str, plan: board.LayPlan, *, free: bool = False, discount: int = 0) -> int:
    if free:
        return 0
    terrain = list(g.book.hexes[plan.hex].get("terrain") or [])
    paid = plan.terrain_cost
    if not paid and plan.hex in PARAMS.of(g).terrain_cost_every_lay:
        paid = int(g.book.hexes[plan.hex].get("cost") or 0)  # paid again on every lay and upgrade
    base = paid - (terrain_discount(g, corp, terrain) if paid else 0)
    base = max(min_cost(g), base)
    border = sum(c - border_discount(g, corp, t, c) for _, _, _, _, c, t in plan.border_edges)
    cost = base + border - discount
    if not discount:
        for _, a in lay_discount_abilities(g, corp):
            hexes = a.spec.get("hexes") or []
            tiles = a.spec.get("tiles") or []
            if (not hexes or plan.hex in hexes) and (not tiles or plan.tile in tiles):
                cost -= int(a.spec.get("amount") or 0)
                break
    return max(0, cost)


def blocked_hex(g: Context, hex_id: str) -> str | None:
    """A private with ``blocks_hexes`` closes its hexes while a player (or nobody) owns it."""
    c: Company
    a: Ability
    for sym, c in g.state.companies.items():
        if c.closed:
            continue
        for a in c.abilities:
            if a.type == "blocks_hexes" and hex_id in (a.spec.get("hexes") or []) and not _crossings_only(a):
                if abilities.right_owner(g, xkey(sym), a):
                    return sym
    return None


def blocked_for_ability(g: Context, hex_id: str, a: Ability) -> str | None:
    """The private blocking ``hex_id`` against a private's ``tile_lay`` ability ``a``: a company's lay through a
    private is a lay of the company (1850 [15.1]: "Private companies in the hands of players prevent a public
    company from laying tiles in the hex the private company occupies"); a private's lay in the hex it blocks
    itself is its own to make."""
    blocker = blocked_hex(g, hex_id) if hex_id in g.book.hexes else None
    if blocker is None:
        return None
    for x in g.state.companies[blocker].abilities:
        if x is a:
            return None
    return blocker


def _blocked_to(g: Context, a: Ability) -> set[str]:
    """The hexes blocked to a lay under ability ``a`` (:func:`blocked_for_ability`, for every hex at once)."""
    out: set[str] = set()
    c: Company
    b: Ability
    for _sym, c in g.state.companies.items():
        if c.closed:
            continue
        holds = False
        for b in c.abilities:
            holds = holds or b is a  # (a private lays in the hexes it blocks itself)
        if holds:
            continue
        for b in c.abilities:
            if b.type == "blocks_hexes" and not _crossings_only(b) and abilities.right_owner(g, xkey(_sym), b):
                out.update(b.spec.get("hexes") or [])
    return out


def _crossings_only(a: Ability) -> bool:
    """A ``blocks_hexes`` ability that only bars track crossing a river (hook ``lay_allowed``)."""
    return (a.spec.get("params") or {}).get("blocks") == "partition_crossing"


def ability_hex_ok(g: Context, a: Ability, hex_id: str) -> bool:
    """A ``tile_lay`` ability may lay on ``hex_id``: one of its ``hexes``; without hexes, a hex tagged
    ``params.hex_tag`` (``params.outside_tag_allowed`` of its lays may go elsewhere), else any hex."""
    hexes = a.spec.get("hexes") or []
    if hexes:
        return hex_id in hexes
    params = a.spec.get("params") or {}
    tag = params.get("hex_tag")
    if not tag or hex_id not in g.book.hexes:
        return hex_id in g.book.hexes
    if tag in (g.book.hexes[hex_id].get("tags") or []):
        return True
    outside = sum(1 for h in a.laid_hexes if tag not in (g.book.hexes[h].get("tags") or []))
    return outside < int(params.get("outside_tag_allowed") or 0)


def special_lay_terms(a: Ability) -> tuple[bool, int]:
    """What a private's own lay pays: (free, $ off the hex's cost)."""
    return bool(a.spec.get("free")), int((a.spec.get("params") or {}).get("discount") or 0)


def ability_fee(a: Ability) -> int:
    """What a ``tile_lay`` ability's lay costs besides the terrain (its ``cost``; e.g. 1850 [15.2], "may purchase a
    yellow track lay each turn for $30. The company must also pay any terrain costs")."""
    return int(a.spec.get("cost") or 0) if a.type == "tile_lay" else 0


@cython.locals(g="Context")
def lay(
    g: Context,
    entity: str,
    action: dict[str, Any],
    *,
    corp: str,
    special: tuple[str, Ability] | None = None,
    discount: int = 0,
    free: bool = False,
    tiles: list[str] | None = None,
    extra: int = 0,
) -> board.LayPlan:
    """Validate and apply a tile lay for ``corp`` (or by a private's ability); ``extra``: the turn lay's own cost."""
    hex_id = str(action.get("hex"))
    tile_id = action.get("tile")
    rotation = action.get("rotation")
    if tile_id is None or rotation is None:
        raise illegal("action.malformed", "lay_tile needs hex, tile and rotation")
    allowed = tiles
    if special is not None:
        spec = special[1].spec
        if not ability_hex_ok(g, special[1], hex_id):
            raise illegal("track.ability", f"{sym_of(special[0])} cannot lay track on {hex_id}")
        blocker = blocked_for_ability(g, hex_id, special[1])
        if blocker:
            raise illegal("track.blocked", f"{hex_id} is blocked by {blocker}")
        allowed = spec.get("tiles") or None
        if (special[1].spec.get("params") or {}).get("one_per_hex") and hex_id in special[1].laid_hexes:
            raise illegal("track.ability", f"{sym_of(special[0])} already laid on {hex_id}")
    else:
        blocker = blocked_hex(g, hex_id) if hex_id in g.book.hexes else None
        if blocker:
            raise illegal("track.blocked", f"{hex_id} is blocked by {blocker}")
    old_track = board.track(g, hex_id) if hex_id in g.book.hexes else None
    old_rev = {n: node.revenue for n, node in old_track.nodes.items()} if old_track else {}
    plan = board.plan_lay(
        g,
        hex_id,
        str(tile_id),
        int(rotation) if isinstance(rotation, int) else rotation,
        key=corp,
        check_connection=special is None or bool(special[1].spec.get("connected")),
        allowed_tiles=allowed,
        any_label=special is not None and bool(abilities.spec_param(special[1], "any_label")),
    )
    if special is not None:
        free, discount = special_lay_terms(special[1])
        extra += ability_fee(special[1])
    if not g.hooks("lay_allowed", corp, hex_id, plan.tile, plan.rotation):
        raise illegal("track.refused", f"no rule allows tile {plan.tile_id} on {hex_id} at rotation {plan.rotation}")
    cost = lay_cost(g, corp, plan, free=free, discount=discount) + extra
    if cost > g.cash(corp):
        raise illegal("track.cash", f"{sym_of(corp)} cannot pay {cost} for the tile on {hex_id}")
    upgrade = old_track is not None and board.colour(g, hex_id) != "white"  # (as :func:`legal_lays` judges it)
    board.apply_lay(g, plan)
    if special is None and upgrade and PARAMS.of(g).new_track_must_be_usable:
        if not board.uses_new_track(g, corp, hex_id, old_track, old_rev):
            raise illegal(
                "track.new_track", f"the tile on {hex_id} must add track {sym_of(corp)} can use or upgrade a city"
            )
    if cost > 0:
        g.spend(corp, BANK, cost)
    g.log(f"{g.name(entity)} lays tile {plan.tile_id} on {hex_id} (rotation {plan.rotation}) for {cost}")
    if old_track is not None and PARAMS.of(g).unconnected_city_tokens == "layer_places":
        _lift_tokens(g, corp, hex_id, old_track)
    if old_track is not None and board.colour(g, hex_id) == "yellow":
        _lay_income(g, corp, hex_id)
    _hex_built(g, hex_id, entity)
    return plan


def _hex_built(g: Context, hex_id: str, entity: str) -> None:
    """``params.lost_if_hex_built``: an ability naming ``hex_id`` among its ``hexes`` is lost once a tile is laid
    there other than by its own private (``entity``).  The private stays open, whoever holds it (a lost ability is
    not a used one: ``closes_when_used`` does not apply)."""
    if hex_id not in _hexes_lost_if_built(g):
        return  # (asked at every lay: most hexes no ability names)
    for sym, c in g.state.companies.items():
        if c.closed or xkey(sym) == entity:
            continue
        for a in list(c.abilities):
            params = a.spec.get("params") or {}
            if not params.get("lost_if_hex_built") or hex_id not in (a.spec.get("hexes") or []):
                continue
            g.remove_ability(xkey(sym), a)
            g.log(f"{sym} loses its {a.type} ability: a tile is laid on {hex_id}")


_LOST_IF_BUILT = "track.hexes_lost_if_built"


def _hexes_lost_if_built(g: Context) -> frozenset[str]:
    """The hexes some private's ability names that is lost once a tile is laid there (``params.lost_if_hex_built``;
    privates get their abilities at the start only), kept with the rulebook's derived tables."""
    found: frozenset[str] | None = g.book.derived.get(_LOST_IF_BUILT)
    if found is None:
        hexes: set[str] = set()
        for spec in g.book.privates.values():
            for a in spec.get("abilities") or []:
                if (a.get("params") or {}).get("lost_if_hex_built"):
                    hexes.update(a.get("hexes") or [])
        found = g.book.derived[_LOST_IF_BUILT] = frozenset(hexes)
    return found


def _lift_tokens(g: Context, corp: str, hex_id: str, old_track: Any) -> None:
    """The first track on a hex of several unconnected cities: its tokens wait for ``corp`` to put them back."""
    new_track = board.track(g, hex_id)
    if old_track.paths or len(old_track.cities) < 2 or not new_track.paths or len(new_track.cities) < 2:
        return
    lifted = g.state.round.data.setdefault("lifted_tokens", [])
    for ci, slots in enumerate(g.state.hexes[hex_id].tokens):
        for si, key in enumerate(slots):
            if key is None or kind_of(key) not in ("C", "M"):
                continue
            slots[si] = None
            for t in g.operator(key).tokens:
                if t.used and t.hex == hex_id and t.city == ci:
                    t.city = None
                    break
            lifted.append([hex_id, key, corp])
            g.log(f"{sym_of(corp)} must choose the city for {sym_of(key)}'s token on {hex_id}")
            board.invalidate(g, {hex_id}, key)


def lifted_token(g: Context, entity: str) -> list[str] | None:
    """The next token ``entity`` must put back after its first tile on a hex of unconnected cities."""
    for item in g.state.round.data.get("lifted_tokens") or []:
        if item[2] == entity:
            return item
    return None


def replace_lifted_token(g: Context, entity: str, action: dict[str, Any]) -> None:
    """Put a lifted token back (free, no route needed) in the city of its hex the action names."""
    item = lifted_token(g, entity)
    assert item is not None
    hex_id, key = item[0], item[1]
    h, ci = stations.parse_city(g, action.get("city"))
    if h != hex_id:
        raise illegal("token.lifted", f"{sym_of(key)}'s token goes back on {hex_id}, not {h}")
    slot = board.free_slot(g, hex_id, ci, key)
    if slot is None:
        raise illegal("token.slot", f"no token space for {sym_of(key)} in that city of {hex_id}")
    g.state.hexes[hex_id].tokens[ci][slot] = key
    for t in g.operator(key).tokens:
        if t.used and t.hex == hex_id and t.city is None:
            t.city = ci
            break
    g.state.round.data["lifted_tokens"].remove(item)
    g.log(f"{sym_of(key)}'s token is placed in city {ci} of {hex_id}")
    board.invalidate(g, {hex_id}, key)


def private_token_open(g: Context, corp: str) -> bool:
    """A private ``corp`` owns lets it place a marker now (the ability's hexes, a city with room, its cost)."""
    for owner, a in g.abilities_of(corp):
        if a.type != "token" or kind_of(owner) != "X" or a.spec.get("when") not in (None, "token"):
            continue
        if not abilities.usable(g, owner, a, passive_ok=False):
            continue
        if (0 if a.spec.get("free") else int(a.spec.get("cost") or 0)) > g.cash(corp):
            continue
        for h in a.spec.get("hexes") or []:
            if any(stations.tokenable(g, corp, h, ci) for ci in range(len(g.state.hexes[h].tokens))):
                return True
    return False


def private_marker_owned(g: Context, corp: str) -> bool:
    """A private ``corp`` owns has a station-marker ability it may use now that ``corp`` can pay for (any timing)."""
    for owner, a in g.abilities_of(corp):
        if a.type != "token" or kind_of(owner) != "X" or not abilities.usable(g, owner, a, passive_ok=False):
            continue
        if (0 if a.spec.get("free") else int(a.spec.get("cost") or 0)) <= g.cash(corp):
            return True
    return False


def _lay_income(g: Context, corp: str, hex_id: str) -> None:
    """``revenue_bonus`` abilities with ``params.event: yellow_tile_laid``: the bank pays ``amount`` to the company
    for each yellow tile it lays in a hex of the ability's ``terrain`` (after paying the lay)."""
    terrain = set(g.book.hexes[hex_id].get("terrain") or [])
    for o, a in g.abilities_of(corp):
        if a.type != "revenue_bonus" or abilities.spec_param(a, "event") != "yellow_tile_laid":
            continue
        if not abilities.right_owner(g, o, a) or not terrain & set(a.spec.get("terrain") or []):
            continue
        g.spend(BANK, corp, int(a.spec.get("amount") or 0))
        g.log(f"{sym_of(corp)} receives {a.spec.get('amount')} from {sym_of(o)}")


@cython.locals(g="Context")
def lay_private_buyable(g: Context, corp: str) -> bool:
    """``corp`` could buy a player's private that lays tiles in the track step."""
    privates = PRIVATE_COMPANIES.get(g)
    if kind_of(corp) != "C" or privates is None or not privates.buy_phase(g):
        return False
    for c in g.state.companies.values():
        if c.closed or c.owner is None or kind_of(c.owner) != "P" or c.min_price > g.cash(corp):
            continue
        if any(a.type == "tile_lay" and a.spec.get("when") in (None, "track") for a in c.abilities):
            if not any(a.type == "no_buy" for a in c.abilities):
                return True
    return False


def extra_lay_owned(g: Context, corp: str) -> bool:
    """``corp`` owns a private whose extra tile lay (``params.extra_lay`` or ``params.extra``) for the track step is
    still usable and has a lay to make on the board as it is."""
    for sym in g.operator(corp).companies:
        for owner, a in g.abilities_of(xkey(sym)):
            params = a.spec.get("params") or {}
            if a.type == "tile_lay" and (params.get("extra_lay") or params.get("extra")):
                if a.spec.get("when") in (None, "track") and abilities.usable(g, owner, a, passive_ok=False):
                    if _special_candidates(g, a, corp, True, True):
                        return True
    return False


def normal_lay_owned(g: Context, corp: str) -> bool:
    """``corp`` owns a private whose lay counted as one of its own (``params.normal_lay``) is still unused: the site
    keeps the track step open for it after the turn's lays (its ability is a lay of its own there)."""
    for sym in g.operator(corp).companies:
        found = normal_lay_ability(g, xkey(sym))
        if found is not None and found[1].spec.get("when") in (None, "track"):
            if abilities.usable(g, found[0], found[1], passive_ok=False):
                return True
    return False


class TrackAndToken(Step):
    name = TRACK_AND_TOKEN_STEP
    description = "Place a Token or Lay Track"

    @staticmethod
    def round_state() -> dict[str, Any]:
        return {"num_laid_track": 0, "upgraded_track": False, "laid_hexes": [], "tokened": False}

    @cython.locals(self="StepBase")
    def setup(self) -> None:
        r = self.rdata
        r["num_laid_track"] = 0
        r["upgraded_track"] = False
        r["laid_hexes"] = []
        r["tokened"] = False
        self.st.data["tokened"] = False

    @cython.locals(self="StepBase")
    def unpass(self) -> None:
        super().unpass()
        self.setup()

    @cython.locals(self="StepBase")
    def can_lay(self, entity: str) -> bool:
        g = self.g
        lay_ = current_lay(g)
        if lay_ is None or not (lay_.get("lay") or lay_.get("upgrade")):
            return PARAMS.of(g).open_while_lay_private_buyable and (
                lay_private_buyable(g, entity) or extra_lay_owned(g, entity) or normal_lay_owned(g, entity)
            )
        if not g.operator(entity).tokens:
            return False
        need = min_cost(g) + int(lay_.get("cost") or 0)
        if g.cash(entity) >= need:
            return True
        return free_lay_available(g, entity) or track_buying_power(g, entity) >= need

    @cython.locals(self="StepBase")
    def can_token(self, entity: str) -> bool:
        """The step is open for a token: the company's own, or one a private it owns places instead (free)."""
        return self.own_token(entity) or self._private_token(entity)

    @cython.locals(self="StepBase")
    def _private_token(self, entity: str) -> bool:
        g = self.g
        if self.st.data.get("tokened") or self.rdata.get("tokened") or kind_of(entity) != "C":
            return False
        if not [t for t in g.operator(entity).tokens if not t.used]:
            return False
        if PARAMS.of(g).private_token_opens_step == "own_network":
            return private_marker_owned(g, entity) and bool(stations.can_token(g, entity))
        return private_token_open(g, entity)

    @cython.locals(self="StepBase")
    def own_token(self, entity: str) -> bool:
        """The company may place one of its own tokens (it can reach a city with room, and pay)."""
        g = self.g
        if self.st.data.get("tokened") or self.rdata.get("tokened"):
            return False
        if kind_of(entity) != "C":
            return False
        if not [t for t in g.operator(entity).tokens if not t.used]:
            return False
        price = stations.min_token_price(g, entity)
        if price is None or (price > g.cash(entity) and price > track_buying_power(g, entity)):
            return False
        return bool(stations.can_token(g, entity))

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        if entity != self.current_entity():
            return []
        if lifted_token(self.g, entity) is not None:
            return ["place_token"]
        if self.g.hooks("in_receivership", entity):
            return []
        acts = []
        if self.can_lay(entity):
            acts.append("lay_tile")
        if self.own_token(entity):
            acts.append("place_token")
        if acts or self._private_token(entity):
            acts.append("pass")  # (a private's token is placed by the private: its own step offers it)
        return acts

    @cython.locals(self="StepBase")
    @cython.locals(self="StepBase")
    def any_action(self, entity: str) -> bool:
        """``bool(actions(entity))``: a possible lay spares the token check (its network walk)."""
        if entity != self.current_entity():
            return False
        if lifted_token(self.g, entity) is not None:
            return True
        if self.g.hooks("in_receivership", entity):
            return False
        return self.can_lay(entity) or self.can_token(entity)

    @cython.locals(self="StepBase")
    def allows(self, entity: str, atype: str) -> bool:
        """``atype in actions(entity)``, testing only what that type needs."""
        if atype not in ("lay_tile", "place_token", "pass") or entity != self.current_entity():
            return False
        if lifted_token(self.g, entity) is not None:
            return atype == "place_token"
        if self.g.hooks("in_receivership", entity):
            return False
        if atype == "lay_tile":
            return self.can_lay(entity)
        if atype == "place_token":
            return self.own_token(entity)
        return self.has_actions(entity)

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        acts = self.actions(entity)
        out: list[dict[str, Any]] = []
        g = self.g
        item = lifted_token(g, entity) if acts else None
        if item is not None:
            hex_id, key = item[0], item[1]
            cities = range(len(g.state.hexes[hex_id].tokens))
            choices = [
                {"city": stations.city_id(g, hex_id, ci)}
                for ci in cities
                if board.free_slot(g, hex_id, ci, key) is not None
            ]
            return [{"type": "place_token", "choices": choices}]
        if "lay_tile" in acts:
            out.append({"type": "lay_tile", "choices": legal_lays(g, entity)})
        if "place_token" in acts:
            net = board.network(g, entity)
            teleports = set(stations.teleport_nodes(g, entity))
            choices = []
            for h, n in sorted(set(net.nodes) | teleports):
                if not n.startswith("c"):
                    continue
                ci = board.city_index(n)
                if not stations.tokenable(g, entity, h, ci):
                    continue
                if (h, n) not in teleports and not board.route_reaches_node(g, entity, h, n):
                    continue
                price = stations.token_price(g, entity, h, ci)
                if price is not None and price <= g.cash(entity):
                    choices.append({"city": stations.city_id(g, h, ci)})
            out.append({"type": "place_token", "choices": choices})
        if "pass" in acts:
            out.append({"type": "pass"})
        return out

    @cython.locals(self="StepBase")
    def process_lay_tile(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        lay_ = current_lay(g)
        hex_id = str(action.get("hex"))
        if hex_id not in g.book.hexes:
            raise illegal("track.hex", f"no hex {hex_id} on the map")
        upgrade = board.colour(g, hex_id) != "white"
        name = board.tile_name_of(str(action.get("tile")))
        if lay_ is None:
            raise illegal("track.count", "no more tile lays this turn")
        if upgrade and not lay_.get("upgrade"):
            raise illegal("track.count", "cannot upgrade a tile now")
        if upgrade and lay_.get("fresh_hex") and hex_id in self.rdata.get("laid_hexes", []):
            raise illegal("track.same_hex", f"{hex_id} was laid this turn: this tile action may not upgrade it")
        if name in g.book.tiles and g.book.tiles[name]["color"] == "yellow" and not lay_.get("lay"):
            raise illegal("track.count", "cannot lay a yellow tile now")
        lay(g, entity, action, corp=entity, extra=int(lay_.get("cost") or 0))
        r = self.rdata
        if upgrade:
            r["upgraded_track"] = True
        r["num_laid_track"] = r.get("num_laid_track", 0) + 1
        r["laid_hexes"].append(hex_id)
        if not self.can_lay(entity) and self.st.data.get("tokened"):
            self.pass_()

    @cython.locals(self="StepBase")
    def process_place_token(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        if lifted_token(g, entity) is not None:
            replace_lifted_token(g, entity, action)
            return
        if self.st.data.get("tokened") or self.rdata.get("tokened"):
            raise illegal("token.per_turn", "a token was already placed this turn")
        hex_id, ci = stations.parse_city(g, action.get("city"))
        stations.place(g, entity, hex_id, ci)
        self.st.data["tokened"] = True
        self.rdata["tokened"] = True
        if not self.can_lay(entity):
            self.pass_()


class TrackOnly(TrackAndToken):
    """Lay track only (a separate ``token`` step follows)."""

    name = TRACK_STEP
    description = "Lay Track"

    def can_token(self, entity: str) -> bool:
        return False

    def own_token(self, entity: str) -> bool:
        return False

    def _private_token(self, entity: str) -> bool:
        return False

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        if kind_of(entity) == "X":
            found = normal_lay_ability(self.g, entity)
            if found is None or self.g.company(entity).owner != self.current_entity():
                return []
            home = self._home_extra(entity, found[1], None)
            lay_ = current_lay(self.g)
            return ["lay_tile"] if home or (lay_ is not None and lay_.get("lay")) else []
        return super().actions(entity)

    def any_action(self, entity: str) -> bool:
        return bool(self.actions_of(entity)) if kind_of(entity) == "X" else super().any_action(entity)

    def allows(self, entity: str, atype: str) -> bool:
        return atype in self.actions_of(entity) if kind_of(entity) == "X" else super().allows(entity, atype)

    @cython.locals(self="StepBase", a="Ability")
    def _home_extra(self, company: str, a: Ability, hex_id: str | None) -> bool:
        """A free extra lay in the home hex of a listed corporation that has not operated yet."""
        g = self.g
        corp = g.company(company).owner
        params = a.spec.get("params") or {}
        if corp is None or sym_of(corp) not in (params.get("home_extra_for") or []) or g.operator(corp).operated:
            return False
        home = g.book.corporations[sym_of(corp)].get("home")
        homes = {h["hex"] for h in (home if isinstance(home, list) else [home] if home else [])}
        return (hex_id in homes) if hex_id is not None else bool(homes)

    @cython.locals(self="StepBase")
    def process_lay_tile(self, action: dict[str, Any], entity: str) -> None:
        hex_id = str(action.get("hex"))
        if hex_id == self.rdata.get("no_upgrade_hex"):
            raise illegal("track.upgrade", f"{hex_id} cannot be upgraded in the turn its tile was laid")
        if kind_of(entity) == "X":
            self._private_lay(action, entity)
        else:
            super().process_lay_tile(action, entity)
        if not self.can_lay(self.current_entity() or entity):
            self.pass_()

    @cython.locals(self="StepBase")
    def _private_lay(self, action: dict[str, Any], entity: str) -> None:
        """A private's lay that is one of the owning corporation's lays (or a free extra one at home)."""
        g = self.g
        found = normal_lay_ability(g, entity)
        if found is None:
            raise illegal("track.ability", f"{sym_of(entity)} cannot lay track now")
        owner, a = found
        corp = g.company(entity).owner
        assert corp is not None
        hex_id = str(action.get("hex"))
        if hex_id not in (a.spec.get("hexes") or [hex_id]):
            raise illegal("track.ability", f"{sym_of(entity)} cannot lay track on {hex_id}")
        tiles = a.spec.get("tiles") or None
        if self._home_extra(entity, a, hex_id):
            lay(g, entity, action, corp=corp, free=True, tiles=tiles)
            self.rdata["no_upgrade_hex"] = hex_id
        else:
            lay_ = current_lay(g)
            if lay_ is None or not lay_.get("lay") or board.colour(g, hex_id) != "white":
                raise illegal("track.count", f"{sym_of(entity)} may only lay a yellow tile as one of the turn's lays")
            discount = int((a.spec.get("params") or {}).get("discount") or 0)
            lay(g, entity, action, corp=corp, discount=discount, tiles=tiles, extra=int(lay_.get("cost") or 0))
            r = self.rdata
            r["num_laid_track"] = r.get("num_laid_track", 0) + 1
            r["laid_hexes"].append(hex_id)
        g.use_ability(owner, a)

    @cython.locals(self="StepBase")
    def setup(self) -> None:
        super().setup()
        self.rdata["no_upgrade_hex"] = None

    @cython.locals(self="StepBase")
    def process_place_token(self, action: dict[str, Any], entity: str) -> None:
        if lifted_token(self.g, entity) is not None:
            replace_lifted_token(self.g, entity, action)
            return
        raise illegal("token.order", "a token is placed after the track step")


class TokenOnly(TrackAndToken):
    """Place one station token (after a separate ``track`` step)."""

    name = TOKEN_STEP
    description = "Place a Token"

    def can_lay(self, entity: str) -> bool:
        return False

    def process_lay_tile(self, action: dict[str, Any], entity: str) -> None:
        raise illegal("track.order", "track is laid before the token step")


def legal_lays(g: Context, corp: str, limit: int = 400) -> list[dict[str, Any]]:
    """Tile lays the corporation may make now (hex, tile, rotation)."""
    out: list[dict[str, Any]] = []
    lay_ = current_lay(g)
    if lay_ is None:
        return out
    net = board.network(g, corp)
    laid_now = (g.state.round.data.get("laid_hexes") or []) if lay_.get("fresh_hex") else []
    for hex_id, edges in sorted(net.hex_edges.items()):
        if not edges or blocked_hex(g, hex_id):
            continue
        upgrade = board.colour(g, hex_id) != "white"
        if (upgrade and not lay_.get("upgrade")) or (not upgrade and not lay_.get("lay")):
            continue
        if upgrade and hex_id in laid_now:
            continue  # ``not_on_hex_laid_this_turn``
        for name in board.upgrade_options(g, hex_id):
            tid = board.next_copy_id(g, name)
            try:  # plan_lay refuses the other rotations: not asked
                rotations = sorted(board.rotations_keeping_track(g, hex_id, name))
            except KeyError:
                continue
            for rot in rotations:
                try:
                    plan = board.plan_lay(g, hex_id, tid, rot, key=corp)
                except Exception:
                    continue
                too_dear = lay_cost(g, corp, plan) + int(lay_.get("cost") or 0) > g.cash(corp)
                if too_dear or not g.hooks("lay_allowed", corp, hex_id, name, rot):
                    continue
                if upgrade and PARAMS.of(g).new_track_must_be_usable and not _adds_usable_track(g, corp, plan, edges):
                    continue
                out.append({"hex": hex_id, "tile": tid, "rotation": rot})
                if len(out) >= limit:
                    return out
    return out


def _adds_usable_track(g: Context, corp: str, plan: board.LayPlan, edges: set[int]) -> bool:
    """The new-track rule for a listed upgrade, judged on the network the tile would give."""
    old = board.track(g, plan.hex)
    net = board.network_after(g, corp, plan)
    new = g.book.track(plan.tile, plan.hex, plan.rotation)
    revenues = {n: node.revenue for n, node in old.nodes.items()}
    saved = g.state.hexes[plan.hex]
    g.state.hexes[plan.hex] = board._laid_hex(g, plan)  # (the exact route search reads the board)
    try:
        return board.uses_new_track(g, corp, plan.hex, old, revenues, net=net, new_track=new)
    finally:
        g.state.hexes[plan.hex] = saved


# ------------------------------------------------------------------------------------ special lays


def special_lay_ability(g: Context, company: str) -> tuple[str, Ability] | None:
    if kind_of(company) != "X":
        return None
    r = g.state.round
    if r is not None and r.data.get("special_lays_closed"):
        return None  # (``special_lays_end_at_forfeit``: a paired lay was forfeited in this round)
    for owner, a in g.abilities_of(company):
        if _normal_lay(a):
            continue
        if _turn_lay(a):
            holder = g.company(company).owner
            if abilities.right_owner(g, owner, a) and holder is not None and turn_lay_open(g, holder):
                return owner, a
            continue
        if a.type == "tile_lay" and abilities.usable(g, owner, a, passive_ok=False) and _may_start(g, a):
            if _order_ok(g, a):
                return owner, a
    return None


@cython.locals(g="Context", a="Ability")
def private_lay_for(g: Context, corp: str, hex_id: str, param: str) -> tuple[str, Ability] | None:
    """A private's extra lay that ``corp`` could use now for ``hex_id`` without laying a tile (an ability carrying
    ``params.<param>``, usable as its lays are: the owning company's track step, its order and its count this round,
    the hexes it may still go to), with its owner key; None when there is none."""
    for owner, a in g.abilities_of(corp):
        if kind_of(owner) != "X" or a.type != "tile_lay" or not abilities.spec_param(a, param):
            continue
        found = special_lay_ability(g, owner)
        if found is not None and found[1] is a and ability_hex_ok(g, a, hex_id):
            if blocked_for_ability(g, hex_id, a) is None:
                return found
    return None


@cython.locals(g="Context", a="Ability")
def spend_private_lay(g: Context, owner: str, a: Ability, hex_id: str) -> None:
    """A private's lay (:func:`private_lay_for`) is used up for ``hex_id`` without a tile: it counts as laid there.
    A private that closes when its lays are used up (``closes_when_used``) does not close so: it closes as its last
    tile is laid (a last lay paying for a mine's rights leaves it open)."""
    a.laid_hexes.append(hex_id)
    g.use_ability(owner, a, True, False)


def _order_ok(g: Context, a: Ability) -> bool:
    """``params.after_normal_lay``: the lay waits until the owning corporation has made one of its own lays this
    turn (a tile of its track step, or what takes a lay's place, e.g. a mine token bought with the yellow lay)."""
    if not abilities.spec_param(a, "after_normal_lay"):
        return True
    r = g.state.round
    return r is not None and bool(r.data.get("num_laid_track"))


def _turn_lay(a: Ability) -> bool:
    """A ``tile_lay`` with ``when: track`` and ``params.consumes_tile_lay``: a yellow lay in the owning corporation's
    track step that is one of its lays of the turn (its own hexes and tiles, connection as ``connected`` says)."""
    return a.type == "tile_lay" and a.spec.get("when") == "track" and bool(abilities.spec_param(a, "consumes_tile_lay"))


def _turn_lay_fee(g: Context, a: Ability) -> int:
    """What a ``consumes_tile_lay`` ability's lay adds for being one of the turn's lays: that lay's own cost (e.g.
    1817 §6.3: $20 for a second tile action; its private "counts as a yellow tile lay", §1.2.6)."""
    if not _turn_lay(a):
        return 0
    return int((current_lay(g) or {}).get("cost") or 0)


def _normal_lay(a: Ability) -> bool:
    """A ``tile_lay`` with ``params.normal_lay``: one of the owning corporation's own lays (step ``track``), at
    ``params.discount`` off, connected as usual; ``params.home_extra_for`` lists corporations that may instead use
    it, before their first operation, for a free extra lay in their home hex (not upgraded that turn)."""
    return a.type == "tile_lay" and bool((a.spec.get("params") or {}).get("normal_lay"))


def normal_lay_ability(g: Context, company: str) -> tuple[str, Ability] | None:
    if kind_of(company) != "X":
        return None
    for owner, a in g.abilities_of(company):
        if _normal_lay(a) and abilities.right_owner(g, owner, a) and (a.count is None or a.count > 0):
            return owner, a
    return None


def _may_start(g: Context, a: Ability) -> bool:
    """``params.requires_unconnected: [A, B]``: the lays may begin only while no track joins A and B."""
    pair = (a.spec.get("params") or {}).get("requires_unconnected")
    return a.laid_hexes or not pair or not board.hexes_joined(g, pair[0], pair[1])


def _check_joined(g: Context, company: str, a: Ability) -> None:
    """``params.must_connect: [A, B]``: once the lays are done, track joins A and B, and each tile
    laid adds track that takes part (one of its new exits is on the track reached from A)."""
    pair = (a.spec.get("params") or {}).get("must_connect")
    if not pair:
        return
    before = g.state.round.data.get("exits_before") or {}
    problem = _join_problem(g, pair, {h: before.get(h, ()) for h in a.laid_hexes})
    if problem:
        raise illegal("track.ability", f"{sym_of(company)}: {problem}")


def _join_problem(g: Context, pair: list[str], laid: dict[str, Any]) -> str | None:
    """Why the tiles laid (hex -> exits it had before) do not join ``pair`` (None when they do): each must add
    track that lies on a way from ``pair[0]`` to ``pair[1]`` (new track elsewhere on the tile joins nothing)."""
    if not board.hexes_joined(g, pair[0], pair[1]):
        return f"the tiles must join {pair[0]} and {pair[1]}"
    joining = _joining_paths(g, pair)
    # (a network too large to walk: any new track reached from pair[0] counts)
    net = (
        None
        if joining is not None
        else board.compute_network(g, "", starts=board.stop_nodes(g, pair[0]), blocking=False)
    )
    for h, old_exits in laid.items():
        th = board.track(g, h)
        new_exits = set(th.exits) - set(old_exits)
        if net is not None:
            hi = g.book.hex_index[h]
            on_way = [pi for pi in range(len(th.paths)) if net.reaches_path(hi, pi)]
        else:
            on_way = [pi for hx, pi in joining if hx == h]
        used = {e for pi in on_way for e in th.ends[pi] if e < 8}
        if not used & new_exits:
            return f"the new track on {h} must help join {pair[0]} and {pair[1]}"
    return None


def _joining_paths(g: Context, pair: list[str], budget: int = 50000) -> set[tuple[str, int]] | None:
    """The track paths ``(hex, path index)`` on some way from a stop of ``pair[0]`` to a stop of ``pair[1]`` that
    takes no path and passes no stop twice (cities are passed whatever their slots: a join is track, not a route);
    None where the walk would take more than ``budget`` steps."""
    targets = set(board.stop_nodes(g, pair[1]))
    neighbours = g.book.neighbours
    found: set[tuple[str, int]] = set()
    way: list[tuple[str, int]] = []
    on_way: set[tuple[str, int]] = set()
    passed: set[tuple[str, str]] = set()
    steps = 0

    def take(h: str, pi: int, end: int) -> bool:
        """Walk path ``pi`` of ``h`` out through its end ``end``; False once the budget is spent."""
        nonlocal steps
        steps += 1
        if steps > budget:
            return False
        way.append((h, pi))
        on_way.add((h, pi))
        ok = True
        t = board.track(g, h)
        if end >= 8:
            node = (h, t.node_list[end - 8])
            if node in targets:
                found.update(way)
            elif node not in passed and t.nodes[node[1]].kind != "offboard":
                ok = leave(node)
        elif (nxt := neighbours.get(h, {}).get(end)) is not None:
            tn = board.track(g, nxt)
            back = opposite(end)
            for pj in tn.edge_paths_l[back] if back < len(tn.edge_paths_l) else ():
                if (nxt, pj) not in on_way:
                    out = tn.end_b[pj] if tn.end_a[pj] == back else tn.end_a[pj]
                    if not take(nxt, pj, out):
                        ok = False
                        break
        way.pop()
        on_way.discard((h, pi))
        return ok

    def leave(node: tuple[str, str]) -> bool:
        """Walk on from a stop or junction by each of its paths not yet taken."""
        passed.add(node)
        t = board.track(g, node[0])
        index = t.node_list.index(node[1])
        code = 8 + index
        ok = True
        for pi in t.node_paths_l[index]:
            if (node[0], pi) not in on_way:
                out = t.end_b[pi] if t.end_a[pi] == code else t.end_a[pi]
                if not take(node[0], pi, out):
                    ok = False
                    break
        passed.discard(node)
        return ok

    for start in board.stop_nodes(g, pair[0]):
        if not leave(start):
            return None
    return found


def _special_candidates(
    g: Context, a: Ability, corp: str | None = None, first: bool = False, leaving: bool = False
) -> list[tuple[str, str, int, board.LayPlan]]:
    """Every lay the ability allows on the current board: (hex, tile id, rotation, plan); with ``connected: true``
    only those whose new track joins the network of ``corp`` (the owning corporation). ``first``: at most the first
    found (whether there is one), with ``leaving`` the first that leaves the ability a next lay it binds to."""
    spec = a.spec
    connected = bool(spec.get("connected")) and corp is not None
    one_per_hex = (spec.get("params") or {}).get("one_per_hex")
    any_label = bool(abilities.spec_param(a, "any_label"))
    out = []
    # (a connected lay goes only where the company's network may build: plan_lay refuses every tile elsewhere)
    reachable = board.network(g, corp).hex_edges if connected else None
    blocked = _blocked_to(g, a)
    listed = spec.get("hexes")
    for h in listed or g.book.hexes:
        if reachable is not None and not reachable.get(h):
            continue
        if not listed and not ability_hex_ok(g, a, h):
            continue
        if one_per_hex and h in a.laid_hexes:
            continue
        if h in blocked:
            continue
        own = spec.get("tiles") or None
        # a private's own tiles may go where the upgrade chart would not put them (``any_label``)
        for name in own if own and any_label else board.upgrade_options(g, h):
            if own and name not in own:
                continue
            tile_id = board.next_copy_id(g, name)
            for rot in range(6):
                try:
                    plan = board.plan_lay(
                        g,
                        h,
                        tile_id,
                        rot,
                        key=corp if connected else None,
                        check_connection=connected,
                        allowed_tiles=own,
                        any_label=any_label,
                    )
                except EngineError:
                    continue
                if _pairs_ok(g, a, h, name, rot):
                    if first:
                        if not leaving or _leaves_a_lay(g, a, h, plan):
                            return [(h, tile_id, rot, plan)]
                        continue
                    out.append((h, tile_id, rot, plan))
    return out


def _can_complete(g: Context, a: Ability, pair: list[str], laid: dict[str, Any], left: int) -> bool:
    """With the tiles of ``laid`` on the board: are ``pair`` joined, or can ``left`` more lays join them?"""
    if not _join_problem(g, pair, laid):
        return True
    if left <= 0:
        return False
    done = list(a.laid_hexes)
    for h, _tile, _rot, plan in _special_candidates(g, a):
        saved = g.state.hexes[h]
        exits = sorted(board.track(g, h).exits)
        g.state.hexes[h] = board._laid_hex(g, plan)
        a.laid_hexes.append(h)
        try:
            if _can_complete(g, a, pair, {**laid, h: laid.get(h, exits)}, left - 1):
                return True
        finally:
            g.state.hexes[h] = saved
            a.laid_hexes[:] = done
    return False


class SpecialTrack(Step):
    name = SPECIAL_TRACK_STEP
    description = "Lay track with a private company"

    @cython.locals(self="StepBase")
    def blocks(self) -> bool:
        return bool(self.rdata.get("special_company"))

    @cython.locals(self="StepBase")
    def active_entities(self) -> list[str]:
        comp = self.rdata.get("special_company")
        return [comp] if comp else super().active_entities()

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        comp = self.rdata.get("special_company")
        if comp and comp != entity and _finishing(self.g, comp):
            return []  # another private's ``must_lay_all`` lays come first
        return ["lay_tile", "pass"] if special_lay_ability(self.g, entity) else []

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        found = special_lay_ability(self.g, entity) if self.actions(entity) else None
        if not found:
            return []
        g = self.g
        a = found[1]
        pair = (a.spec.get("params") or {}).get("must_connect")
        before = self.rdata.get("exits_before") or {}
        laid = {h: before.get(h, ()) for h in a.laid_hexes}
        left = (a.count - 1) if isinstance(a.count, int) else 0
        payer = g.company(entity).owner
        free, discount = special_lay_terms(a)
        extra = _turn_lay_fee(g, a) + ability_fee(a)
        choices = []
        for h, tile_id, rot, plan in _special_candidates(g, a, payer):
            if payer is not None and lay_cost(g, payer, plan, free=free, discount=discount) + extra > g.cash(payer):
                continue  # the lay's terrain (and the turn lay's or the ability's fee) cost more than its payer has
            if pair and not _completable_with(g, a, pair, laid, h, plan, left):
                continue
            if not _leaves_a_lay(g, a, h, plan):
                continue
            choices.append({"hex": h, "tile": tile_id, "rotation": rot})
        out = [{"type": "lay_tile", "choices": choices}] if choices else []
        if _must_go_on(a) and choices:
            return out  # ``must_lay_all``: once begun, every lay that can be made is made
        if not (pair and a.laid_hexes and _join_problem(g, pair, laid)):
            out.append({"type": "pass"})
        return out

    @cython.locals(self="StepBase")
    def process_lay_tile(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        found = special_lay_ability(g, entity)
        if found is None:
            raise illegal("track.ability", f"{sym_of(entity)} cannot lay track now")
        comp = self.rdata.get("special_company")
        if comp and comp != entity:
            raise illegal("track.ability", f"{sym_of(comp)} must finish its tile lays first")
        owner, a = found
        corp = g.company(entity).owner
        hex_id = str(action.get("hex"))
        exits = sorted(board.track(g, hex_id).exits) if hex_id in g.book.hexes else []
        if _turn_lay(a):
            lay_ = current_lay(g)
            if lay_ is None or not lay_.get("lay"):
                raise illegal("track.count", f"{sym_of(entity)} may only lay a yellow tile as one of the turn's lays")
        if _binds_later_lays(a):
            same = _same_lay_plans(g, a, action, hex_id)
            if same and not any(_leaves_a_lay(g, a, hex_id, plan_) for plan_ in same):
                raise illegal("track.ability", f"{sym_of(entity)}'s first tile must leave room for its other lays")
        pair = (a.spec.get("params") or {}).get("must_connect")
        left = (a.count - 1) if isinstance(a.count, int) else 0
        if pair and left > 0:
            # a lay after which no later lay could join the pair would leave the company bound to lays it cannot make
            before = self.rdata.get("exits_before") or {}
            laid = {h: before.get(h, ()) for h in a.laid_hexes}
            same = _same_lay_plans(g, a, action, hex_id, corp)
            if same and not any(_completable_with(g, a, pair, laid, hex_id, plan_, left) for plan_ in same):
                raise illegal("track.ability", f"{sym_of(entity)}: no later lay could then join {' and '.join(pair)}")
        plan = lay(g, entity, action, corp=corp, special=found, extra=_turn_lay_fee(g, a))
        if _turn_lay(a):
            self.rdata["num_laid_track"] = self.rdata.get("num_laid_track", 0) + 1
        self.rdata.setdefault("exits_before", {}).setdefault(plan.hex, exits)
        a.laid_hexes.append(plan.hex)
        self.rdata.setdefault("laid_hexes", []).append(plan.hex)
        params = a.spec.get("params") or {}
        if params.get("must_connect_each_other") and len(a.laid_hexes) >= 2:
            _check_connected_lays(g, a.laid_hexes)
        g.use_ability(owner, a)
        if not (a.count and a.count > 0):
            _check_joined(g, entity, a)
        if params.get("lay_together"):
            self.rdata["special_company"] = entity if a.count and a.count > 0 else None

    @cython.locals(self="StepBase")
    def process_pass(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        found = special_lay_ability(g, entity)
        if found is None:
            raise illegal("turn.order", f"{sym_of(entity)} has no tile lay to pass")
        if found[1].laid_hexes:
            _check_joined(g, entity, found[1])
        if _must_go_on(found[1]) and any(d["type"] == "lay_tile" for d in self.legal(entity)):
            raise illegal("track.ability", f"{sym_of(entity)} must make all its tile lays once it has begun")
        g.remove_ability(found[0], found[1])
        self.rdata["special_company"] = None


def _same_lay_plans(
    g: Context, a: Ability, action: dict[str, Any], hex_id: str, corp: str | None = None
) -> list[board.LayPlan]:
    """The plans of the ability's candidate lays (:func:`_special_candidates`) that are the action's lay: its hex,
    tile and rotation."""
    name, rot = board.tile_name_of(str(action.get("tile"))), action.get("rotation")
    return [
        plan
        for h, t, r, plan in _special_candidates(g, a, corp)
        if h == hex_id and r == rot and board.tile_name_of(t) == name
    ]


def _completable_with(
    g: Context, a: Ability, pair: list[str], laid: dict[str, Any], hex_id: str, plan: board.LayPlan, left: int
) -> bool:
    """``params.must_connect``: with ``plan`` laid too, are ``pair`` joined, or can the ``left`` lays after it join
    them? (``laid``: the hexes laid so far, with the exits each had before.)"""
    saved = g.state.hexes[hex_id]
    exits = sorted(board.track(g, hex_id).exits)
    g.state.hexes[hex_id] = board._laid_hex(g, plan)
    done = list(a.laid_hexes)
    a.laid_hexes.append(hex_id)
    try:
        return _can_complete(g, a, pair, {**laid, hex_id: laid.get(hex_id, exits)}, left)
    finally:
        g.state.hexes[hex_id] = saved
        a.laid_hexes[:] = done


def _leaves_a_lay(g: Context, a: Ability, hex_id: str, plan: board.LayPlan) -> bool:
    """``params.must_lay_all``: a lay that is not the last of the ability leaves a next lay to make (a first tile
    the second cannot join would leave the company bound to a lay it cannot make)."""
    if not _binds_later_lays(a):
        return True
    saved = g.state.hexes[hex_id]
    done = list(a.laid_hexes)
    g.state.hexes[hex_id] = board._laid_hex(g, plan)
    a.laid_hexes.append(hex_id)
    try:
        return bool(_special_candidates(g, a, None, True))
    finally:
        g.state.hexes[hex_id] = saved
        a.laid_hexes[:] = done


def _binds_later_lays(a: Ability) -> bool:
    """``params.must_lay_all`` with more than this lay left: the lay made now binds the company to the next."""
    return bool(abilities.spec_param(a, "must_lay_all")) and isinstance(a.count, int) and a.count > 1


def _finishing(g: Context, comp: str) -> bool:
    """The private ``comp`` has begun a ``must_lay_all`` lay of several tiles and not finished it."""
    c = g.state.companies.get(sym_of(comp))
    return c is not None and any(a.type == "tile_lay" and _must_go_on(a) for a in c.abilities)


def _must_go_on(a: Ability) -> bool:
    """``params.must_lay_all``: a lay of several tiles, begun and not finished."""
    return bool(abilities.spec_param(a, "must_lay_all") and a.laid_hexes and a.count and a.count > 0)


def _pairs_ok(g: Context, a: Ability, hex_id: str, tile: str, rotation: int) -> bool:
    """For a two-tile lay that must join up: would this second tile connect to the first?"""
    if not (a.spec.get("params") or {}).get("must_connect_each_other") or not a.laid_hexes:
        return True
    first = a.laid_hexes[-1]
    exits = g.book.track(tile, hex_id, rotation).exits
    for e, nb in g.book.neighbours[hex_id].items():
        if nb == first and e in exits and opposite(e) in board.track(g, first).exits:
            return True
    return False


def _check_connected_lays(g: Context, hexes: list[str]) -> None:
    a, b = hexes[-2], hexes[-1]
    for e, nb in g.book.neighbours[a].items():
        if nb == b and e in board.track(g, a).exits and opposite(e) in board.track(g, b).exits:
            return
    raise illegal("track.ability", f"the tiles on {a} and {b} must connect to each other")


def _forfeit(g: Context, entity: str, closes: bool = True) -> None:
    """The second lay of a pair laid together (``params.lay_together``) is forfeited when anything else is done after
    the first; with ``special_lays_end_at_forfeit`` and ``closes`` (the action is not another such pair's lay, which
    binds the private-lay step to itself), no private lays track for the rest of the round."""
    last = g.state.last_action_entity
    if g.state.last_action_type != "lay_tile" or last is None or kind_of(last) != "X" or last == entity:
        return
    comp = g.state.companies.get(sym_of(last))
    if comp is None:
        return
    for a in list(comp.abilities):
        if a.type == "tile_lay" and (a.spec.get("params") or {}).get("lay_together") and a.used:
            if _must_go_on(a):
                continue  # ``must_lay_all``: not forfeited; nobody else acts before its lays are made
            g.remove_ability(last, a)
            g.log(f"{sym_of(last)} forfeits its second tile lay")
            r = g.state.round
            if r is not None and r.data.get("special_company") == last:
                r.data["special_company"] = None
            if r is not None and closes and PARAMS.of(g).special_lays_end_at_forfeit:
                r.data["special_lays_closed"] = True


def turn_lay(
    g: Context, entity: str, corp: str, action: dict[str, Any], tiles: list[str] | None, discount: int
) -> str | None:
    """A private's yellow lay that is one of ``corp``'s lays this turn (``TileLays.lay``)."""
    lay_ = current_lay(g)
    hex_id = str(action.get("hex"))
    if lay_ is None or not lay_.get("lay") or hex_id not in g.book.hexes or board.colour(g, hex_id) != "white":
        raise illegal("track.count", f"{sym_of(entity)} may only lay a yellow tile as one of the turn's lays")
    lay(g, entity, action, corp=corp, discount=discount, tiles=tiles, extra=int(lay_.get("cost") or 0))
    r = g.state.round.data
    r["num_laid_track"] = r.get("num_laid_track", 0) + 1
    r.setdefault("laid_hexes", []).append(hex_id)
    return hex_id


@cython.locals(g="Context", a="Ability")
def unconnected_turn_lay(g: Context, entity: str, corp: str, action: dict[str, Any], owner: str, a: Ability) -> str:
    """A private's lay under its own ability (its hexes and tiles, no connection) that is one of ``corp``'s lays this
    turn (``TileLays.unconnected_lay``, e.g. a teleport)."""
    lay_ = current_lay(g)
    if lay_ is None or not lay_.get("lay"):
        raise illegal("track.count", f"{sym_of(entity)} may only lay a tile as one of the turn's lays")
    plan = lay(g, entity, action, corp=corp, special=(owner, a), extra=int(lay_.get("cost") or 0))
    r = g.state.round.data
    r["num_laid_track"] = r.get("num_laid_track", 0) + 1
    r.setdefault("laid_hexes", []).append(plan.hex)
    return plan.hex


@cython.locals(g="Context", a="Ability")
def ability_lay(g: Context, entity: str, corp: str, action: dict[str, Any], owner: str, a: Ability) -> str:
    """A private's lay under its own ability, besides the turn's lays (``TileLays.ability_lay``, e.g. on its sale)."""
    return lay(g, entity, action, corp=corp, special=(owner, a)).hex


def turn_lay_open(g: Context, corp: str) -> bool:
    r = g.state.round
    if r is None or r.kind != "operating" or r.data.get("current_operator") != corp:
        return False
    lay_ = current_lay(g)
    if lay_ is None or not lay_.get("lay"):
        return False
    return any(s.name in (TRACK_AND_TOKEN_STEP, TRACK_STEP) and s.active() for s in rounds.steps(g))


def next_turn_lay_cost(g: Context, corp: str) -> int | None:
    """What ``corp``'s next yellow lay of the turn costs beyond terrain (``TileLays.cost``)."""
    if not turn_lay_open(g, corp):
        return None
    lay_ = current_lay(g)
    return min_cost(g) + int((lay_ or {}).get("cost") or 0)


def next_turn_lay_price(g: Context, corp: str, plan: board.LayPlan, discount: int) -> int | None:
    """What laying ``plan`` as ``corp``'s next yellow lay of the turn costs in all, as :func:`turn_lay` charges it
    (``TileLays.price``)."""
    if not turn_lay_open(g, corp):
        return None
    return lay_cost(g, corp, plan, discount=discount) + int((current_lay(g) or {}).get("cost") or 0)


def use_turn_lay(g: Context, corp: str) -> bool | None:
    """One of ``corp``'s yellow lays of the turn is used by something other than a tile (``TileLays.use``)."""
    if not turn_lay_open(g, corp):
        return None
    r = g.state.round.data
    r["num_laid_track"] = r.get("num_laid_track", 0) + 1
    g.epoch += 1
    return True


def forbidden_rotation(g: Context, corp: str, hex_id: str, tile: str, rotation: int) -> bool:
    """``forbidden_rotations``: no tile takes a rotation listed for it on its hex (hook ``lay_allowed``)."""
    banned = PARAMS.of(g).forbidden_rotations.get(hex_id)
    return not banned or rotation not in banned.get(board.tile_name_of(tile), [])


def lay_allowed(g: Context, corp: str, hex_id: str, tile: str, rotation: int) -> bool:
    """Hook ``lay_allowed``: ``forbidden_rotations`` and ``brown_city_max_exits``."""
    return forbidden_rotation(g, corp, hex_id, tile, rotation) and max_exits_ok(g, hex_id, tile, rotation)


def _brown_ordinary_city(g: Context, name: str) -> bool:
    spec = g.book.tiles[name]
    return spec["color"] == "brown" and bool(spec.get("cities")) and not spec.get("label")


def max_exits_ok(g: Context, hex_id: str, tile: str, rotation: int) -> bool:
    """``brown_city_max_exits``: a brown tile on an ordinary city has as many exits as any brown tile that fits."""
    name = board.tile_name_of(tile)
    if not PARAMS.of(g).brown_city_max_exits or not _brown_ordinary_city(g, name):
        return True
    exits = len(g.book.track(name, hex_id, rotation).exits)
    for other in board.upgrade_options(g, hex_id):
        if other == name or not _brown_ordinary_city(g, other):
            continue
        for rot in range(6):
            if len(g.book.track(other, hex_id, rot).exits) <= exits:
                continue
            try:
                board.plan_lay(g, hex_id, board.next_copy_id(g, other), rot, key=None, check_connection=False)
            except EngineError:
                continue
            return False  # ``other`` fits with more exits
    return True


def preprocess(g: Context, action: dict[str, Any], entity: str) -> None:
    if action.get("type") == "lay_tile" and kind_of(entity) == "C":
        return
    closes = True
    if action.get("type") == "lay_tile" and kind_of(entity) == "X":
        found = special_lay_ability(g, entity)
        closes = found is None or not (found[1].spec.get("params") or {}).get("lay_together")
    _forfeit(g, entity, closes)


def action_processed(g: Context, action: dict[str, Any], entity: str) -> None:
    _forfeit(g, entity)


class _TileLays:
    """The :class:`~railbook.engine.interfaces.TileLays` this mechanic provides."""

    lay = staticmethod(turn_lay)
    unconnected_lay = staticmethod(unconnected_turn_lay)
    ability_lay = staticmethod(ability_lay)
    open = staticmethod(turn_lay_open)
    use = staticmethod(use_turn_lay)
    cost = staticmethod(next_turn_lay_cost)
    price = staticmethod(next_turn_lay_price)
    private_lay = staticmethod(private_lay_for)
    spend_private_lay = staticmethod(spend_private_lay)


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={
        TRACK_AND_TOKEN_STEP: TrackAndToken,
        TRACK_STEP: TrackOnly,
        TOKEN_STEP: TokenOnly,
        SPECIAL_TRACK_STEP: SpecialTrack,
    },
    hooks={
        "tile_downgrades": tile_downgrades,
        "preprocess": preprocess,
        "action_processed": action_processed,
        "lay_allowed": lay_allowed,
    },
    provides=[TILE_LAYS.provided_by(_TileLays())],
)
