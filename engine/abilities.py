"""When an ability of a private or corporation may be used (typed abilities of the rulebook).

Ability fields used: ``type``, ``when`` (none = passive, always on; ``owning_corp_or_turn`` = during
the owning corporation's operating turn; ``or_start`` = at the start of an operating round, before any
corporation acts; ``par``/``sold`` = applied automatically at that event), ``owner`` (``player`` /
``corporation`` / ``any``: who must own the private), ``count`` and ``params.per_or``.  ``params.steps``
limits an ``owning_corp_or_turn`` ability to some operating steps (``track``, ``route``); ``when: track`` (or
``token``) is usable in the owning corporation's turn while its track (token) step is under way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from railbook.params.routes import ROUTE_STEP
from railbook.params.track import SPECIAL_TRACK_STEP, TOKEN_STEP, TRACK_AND_TOKEN_STEP, TRACK_STEP
from railbook.params.trains import BUY_TRAIN_STEP

from . import rounds
from .state import Ability, kind_of

if TYPE_CHECKING:
    from .context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from . import cython_shim as cython

#: The operating steps an ability's step name covers (a title has either ``track_and_token`` or ``track``/``token``).
STEP_ALIASES = {
    "track": (TRACK_AND_TOKEN_STEP, TRACK_STEP),
    "token": (TRACK_AND_TOKEN_STEP, TOKEN_STEP),
    "route": (ROUTE_STEP,),
    "trains": (BUY_TRAIN_STEP,),
}


def holder_of(g: Context, owner: str) -> str | None:
    """Who holds the ability's bearer: a private's owner, or the corporation itself."""
    if kind_of(owner) == "X":
        return g.company(owner).owner
    return owner


def right_owner(g: Context, owner: str, a: Ability) -> bool:
    want = a.spec.get("owner") or "any"
    if want == "any" or kind_of(owner) != "X":
        return True
    holder = g.company(owner).owner
    if want == "player":
        return holder is None or kind_of(holder) == "P"
    if want == "corporation":
        return holder is not None and kind_of(holder) == "C"
    return True


def per_or_ok(a: Ability) -> bool:
    per_or = (a.spec.get("params") or {}).get("per_or")
    return not per_or or a.count_this_or < int(per_or)


def corp_assign_ok(a: Ability) -> bool:
    params = a.spec.get("params") or {}
    if not params.get("also_assigns"):
        return False
    per_or = params.get("per_or")
    return not per_or or a.corp_count_this_or < int(per_or)


def timing_ok(g: Context, owner: str, a: Ability, passive_ok: bool = True) -> bool:
    when = a.spec.get("when")
    if not when:
        return passive_ok
    r = g.state.round
    if when == "owning_corp_or_turn":
        if r is None or r.kind != "operating":
            return False
        holder = holder_of(g, owner)
        if holder is None or r.data.get("current_operator") != holder:
            return False
        steps = (a.spec.get("params") or {}).get("steps")
        if steps:
            names = {n for x in steps for n in STEP_ALIASES.get(x, (x,))}
            return ability_step(g) in names
        return True
    if when in ("track", "token"):
        # during the owning corporation's operating turn, while its track (or token) step is under way
        holder = holder_of(g, owner)
        if r is None or r.kind != "operating" or holder is None or r.data.get("current_operator") != holder:
            return False
        step = ability_step(g)
        # (a private's lays that must be made together hold the special_track step until the last one)
        return step in STEP_ALIASES[when] or (when == "track" and step == "special_track")
    if when == "or_start":
        return r is not None and r.kind == "operating" and bool(r.data.get("or_start_open"))
    return player_timing_ok(g, owner, a, when)


#: timing words of abilities a player-owned private uses (see :func:`player_timing_ok`)
PLAYER_TIMINGS = (
    "any",
    "stock_round",
    "owning_player_sr_turn",
    "owning_player_or_turn",
    "owning_player_track",
    "owning_player_or_sr_turn",
)


@cython.locals(g="Context")
def round_kind_type(g: Context) -> str | None:
    """The type (``stock``, ``operating``, ...) of the round under way."""
    r = g.state.round
    if r is None:
        return None
    kinds = g.rules.rounds.get("kinds") or {}
    spec = kinds.get(r.kind) or {}
    return str(spec.get("type", r.kind))


@cython.locals(g="Context", a="Ability")
def player_timing_ok(g: Context, owner: str, a: Ability, when: str) -> bool:
    """Timings that name the player owning the private rather than a corporation:

    * ``any``: at any time (in every round, between other entities' turns too);
    * ``stock_round``: at any time in a stock round;
    * ``owning_player_sr_turn``: in the owning player's own stock-round turn;
    * ``owning_player_or_turn``: in the operating turn of a corporation that player presides;
    * ``owning_player_track``: in the track step of such a turn;
    * ``owning_player_or_sr_turn``: either of the first and third.
    """
    if when == "any":
        return True
    rtype = round_kind_type(g)
    holder = holder_of(g, owner)
    if when == "stock_round":
        return rtype == "stock"
    if holder is None or kind_of(holder) != "P":
        return False
    r = g.state.round
    if when in ("owning_player_sr_turn", "owning_player_or_sr_turn") and rtype == "stock":
        return bool(r.entities) and r.entities[r.entity_index] == holder
    if when in ("owning_player_or_turn", "owning_player_track", "owning_player_or_sr_turn") and rtype == "operating":
        op = r.data.get("current_operator")
        if op is None or kind_of(op) != "C" or g.corp(op).owner != holder:
            return False
        if when == "owning_player_track":
            return ability_step(g) in STEP_ALIASES["track"] + ("special_track",)
        return True
    return False


TIMED_STEPS = (TRACK_AND_TOKEN_STEP, SPECIAL_TRACK_STEP, TRACK_STEP, TOKEN_STEP, ROUTE_STEP, BUY_TRAIN_STEP)


def ability_step(g: Context) -> str | None:
    """The step abilities time themselves by: the first unfinished track/token, route or train step (an ability
    limited to ``[track, route]`` is usable until the routes are run, as the rules give)."""
    for s in rounds.steps(g):
        if s.name in TIMED_STEPS and s.active() and s.blocks():
            return s.name
    return None


def usable(g: Context, owner: str, a: Ability, passive_ok: bool = True) -> bool:
    return right_owner(g, owner, a) and per_or_ok(a) and timing_ok(g, owner, a, passive_ok)


def find(g: Context, entity: str, type_: str, passive_ok: bool = True) -> list[tuple[str, Ability]]:
    """Usable abilities of ``type_`` available to ``entity`` (a company, or a corporation and its privates)."""
    return [(o, a) for o, a in g.abilities_of(entity) if a.type == type_ and usable(g, o, a, passive_ok)]


def active_any(g: Context, corp: str) -> bool:
    """Whether the corporation has an active (non-passive) ability it could use now."""
    from . import board

    for o, a in g.abilities_of(corp):
        if not a.spec.get("when"):
            continue
        if a.type in ("reservation", "blocks_hexes", "revenue_bonus", "tile_discount", "base"):
            continue
        if not usable(g, o, a, passive_ok=False):
            continue
        if a.type == "token":
            hexes = a.spec.get("hexes") or []
            if hexes and all(board.hex_tokened_by(g, h, corp) for h in hexes):
                continue
        return True
    return False


def spec_param(a: Ability, key: str, default: Any = None) -> Any:
    return (a.spec.get("params") or {}).get(key, default)
