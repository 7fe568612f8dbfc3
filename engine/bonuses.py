"""Route revenue bonuses: one implementation, used by the interpreter to score routes and by the route optimiser.

Two shapes exist:

* a **route bonus** adds to one route from the stops it *counts* and *visits* (east-west, a bonus on a marked
  hex, a destination).  It must never decrease when a route counts one more stop.
* a **set bonus** is earned once by the corporation and paid to one route (per stop of one train): the route
  that earns the most from it, the greater train id on a tie.

A bonus is built from a plain mapping ``{"type": NAME, **params}`` by :func:`make_bonus`.  :func:`bonus_specs`
reads which bonuses a corporation has from the rulebook (``mechanics.routes.east_west``) and from the
private companies' ``revenue_bonus`` abilities; :func:`game_bonuses` does it for a game in play.  A stop is
anything with ``hex`` and ``tags`` (its group, its hex's label and tags, ``icon:<name>`` per icon).

Parameters by type (amounts in the title's currency units):

``east_west``
    ``ends: [TAG_A, TAG_B]``: a route counting a stop tagged with each end earns ``amounts[hex]`` for both
    stops (``amounts`` defaults to the numeric icons printed on the hex, e.g. an icon named ``"30"``).
``hex_bonus``
    ``hexes: {HEX: amount}``: ``amount`` once per route for each hex in which the route counts a stop
    (``visited: true`` to pay for visited rather than counted stops).
``destination``
    ``hexes: [HEX...]``, ``amount``: ``amount`` once when the route visits any of the hexes.
``per_stop_one_train``
    ``per_stop``: one train of the corporation earns ``per_stop`` for each stop it visits.
``route_end``
    ``hexes: {HEX: amount}``: ``amount`` once when the route's first or last counted stop is in ``HEX`` (a
    destination marker doubling the destination's value at a route end).
``path_hex``
    ``hexes: {HEX: amount}``: ``amount`` once per route whose track passes through (or ends in) ``HEX``, a stop
    there or not (a mine token on plain track).
``route_between``
    ``ends: [[HEX...], [HEX...]]``, ``amount``: ``amount`` once when the route starts at a stop in one list and
    ends at a stop in the other (its first and last *visited* stops).  A large amount turns it into a
    requirement: the optimiser's best set then includes such a route whenever one exists (a connection run).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

if TYPE_CHECKING:
    from .context import Context
    from .state import HexState

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from . import cython_shim as cython


class Stop(Protocol):
    """What a bonus needs of a stop."""

    hex: str
    tags: frozenset[str]


BonusFactory = Callable[[Mapping[str, Any]], "RouteBonus | SetBonus"]
BONUSES: dict[str, BonusFactory] = {}


def register(*names: str) -> Callable[[BonusFactory], BonusFactory]:
    """Class decorator: make a bonus type available under these mechanic names."""

    def deco(factory: BonusFactory) -> BonusFactory:
        for name in names:
            BONUSES[name] = factory
        return factory

    return deco


def make_bonus(spec: Mapping[str, Any]) -> RouteBonus | SetBonus:
    """Build a bonus from ``{"type": name, **params}``."""
    name = str(spec.get("type", ""))
    if name not in BONUSES:
        raise ValueError(f"unknown route bonus {name!r}; known: {', '.join(sorted(BONUSES))}")
    return BONUSES[name]({k: v for k, v in spec.items() if k != "type"})


class RouteBonus:
    """Adds to a single route. Subclasses define :meth:`value` and :meth:`bound`."""

    #: whether counting one more stop never lowers the bonus, wherever that stop lies on the route (a bonus that reads
    #: which counted stops come first and last cannot promise it: the shortcuts that rely on it are not taken)
    monotone: ClassVar[bool] = True

    def value(self, counted: Sequence[Stop], visited: Sequence[Stop]) -> int:
        raise NotImplementedError

    def bound(self) -> int:
        """The most this bonus can add to any one route."""
        raise NotImplementedError

    def requirements(self, stops: Sequence[Stop]) -> list[list[int]] | None:
        """Groups of positions in ``stops``: the bonus is 0 unless a route visits one stop of every group.

        None when there is no such condition (the optimiser then assumes the bonus may always apply).
        """
        return None

    def triggers(self, stops: Sequence[Stop]) -> list[int] | None:
        """Positions in ``stops`` whose being counted can change this bonus (None: any of them may).

        The value must depend on the counted stops only through these, and never fall when one more of
        them counts. ``revenue.best_counted`` then only tries the ways of forcing triggers in.
        """
        return None


class SetBonus:
    """Earned once per run and paid to one route: the set total adds ``max(route_value)``."""

    def route_value(self, counted: Sequence[Stop], visited: Sequence[Stop]) -> int:
        raise NotImplementedError

    def bound(self, max_visits: int) -> int:
        """The most a route visiting at most ``max_visits`` stops can earn from it."""
        raise NotImplementedError


def _icon_amount(stop: Stop) -> int:
    total = 0
    for tag in stop.tags:
        if tag.startswith("icon:") and tag[5:].isdigit():
            total += int(tag[5:])
    return total


@register("east_west")
class EastWest(RouteBonus):
    """Both ends' printed bonuses when a route counts a stop of each of two tagged areas."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        ends = params["ends"]
        self.a, self.b = str(ends[0]), str(ends[1])
        self.amounts = {str(k): int(v) for k, v in (params.get("amounts") or {}).items()}
        self.max_a = int(params.get("max_a", 0))
        self.max_b = int(params.get("max_b", 0))

    def amount(self, stop: Stop) -> int:
        printed = self.amounts.get(stop.hex)
        return _icon_amount(stop) if printed is None else printed

    def triggers(self, stops: Sequence[Stop]) -> list[int] | None:
        return [i for i, s in enumerate(stops) if self.a in s.tags or self.b in s.tags]

    def requirements(self, stops: Sequence[Stop]) -> list[list[int]] | None:
        return [
            [i for i, s in enumerate(stops) if self.a in s.tags],
            [i for i, s in enumerate(stops) if self.b in s.tags],
        ]

    def value(self, counted: Sequence[Stop], visited: Sequence[Stop]) -> int:
        a, b = self.a, self.b
        best_a: int | None = None  # (a loop: routes are scored in the engine's inner loops)
        best_b: int | None = None
        for s in counted:
            tags = s.tags
            in_a, in_b = a in tags, b in tags
            if not (in_a or in_b):
                continue
            v = self.amount(s)
            if in_a and (best_a is None or v > best_a):
                best_a = v
            if in_b and (best_b is None or v > best_b):
                best_b = v
        if best_a is None or best_b is None:
            return 0
        return best_a + best_b

    def prepare(self, stops: Sequence[Stop]) -> None:
        """Record the largest amounts on this board (for :meth:`bound`)."""
        self.max_a = max((self.amount(s) for s in stops if self.a in s.tags), default=0)
        self.max_b = max((self.amount(s) for s in stops if self.b in s.tags), default=0)

    def bound(self) -> int:
        return self.max_a + self.max_b


@register("hex_bonus")
class HexBonus(RouteBonus):
    """A fixed amount per marked hex in which the route counts (or visits) a stop."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.hexes = {str(k): int(v) for k, v in (params.get("hexes") or {}).items()}
        self.visited = bool(params.get("visited", False))

    def value(self, counted: Sequence[Stop], visited: Sequence[Stop]) -> int:
        pool = visited if self.visited else counted
        return sum(self.hexes[h] for h in {s.hex for s in pool} if h in self.hexes)

    def triggers(self, stops: Sequence[Stop]) -> list[int] | None:
        return [] if self.visited else [i for i, s in enumerate(stops) if s.hex in self.hexes]

    def requirements(self, stops: Sequence[Stop]) -> list[list[int]] | None:
        return [[i for i, s in enumerate(stops) if s.hex in self.hexes]]

    def bound(self) -> int:
        return sum(v for v in self.hexes.values() if v > 0)


@register("destination")
class Destination(RouteBonus):
    """A fixed amount when the route visits one of the destination hexes."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.hexes = {str(h) for h in params.get("hexes", [])}
        self.amount = int(params.get("amount", 0))

    def value(self, counted: Sequence[Stop], visited: Sequence[Stop]) -> int:
        return self.amount if any(s.hex in self.hexes for s in visited) else 0

    def triggers(self, stops: Sequence[Stop]) -> list[int] | None:
        return []

    def requirements(self, stops: Sequence[Stop]) -> list[list[int]] | None:
        return [[i for i, s in enumerate(stops) if s.hex in self.hexes]]

    def bound(self) -> int:
        return max(self.amount, 0)


@register("path_hex")
class PathHex(RouteBonus):
    """A fixed amount per marked hex the route's track passes through or ends in, whether or not a stop there
    counts (a mine token on plain track). Not a stop bonus: :meth:`passed_value` takes the hexes passed; the
    optimiser reads them from the hexsides a route crosses."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.hexes = {str(k): int(v) for k, v in (params.get("hexes") or {}).items()}

    def value(self, counted: Sequence[Stop], visited: Sequence[Stop]) -> int:
        return 0

    def triggers(self, stops: Sequence[Stop]) -> list[int] | None:
        return []

    def bound(self) -> int:
        return 0

    def passed_value(self, passed: Iterable[str]) -> int:
        """The bonus of a route whose track passes ``passed`` (each hex counts once)."""
        return sum(self.hexes.get(h, 0) for h in set(passed))

    def ceiling(self) -> int:
        return sum(v for v in self.hexes.values() if v > 0)


@register("route_end")
class RouteEnd(RouteBonus):
    """A fixed amount when the route starts or ends in a marked hex (once per route)."""

    monotone = False  # (a stop counted beyond a marked end makes it an end no more)

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.hexes = {str(k): int(v) for k, v in (params.get("hexes") or {}).items()}

    def value(self, counted: Sequence[Stop], visited: Sequence[Stop]) -> int:
        if len(counted) < 2:
            return 0
        for stop in (counted[0], counted[-1]):
            if stop.hex in self.hexes:
                return self.hexes[stop.hex]
        return 0

    def triggers(self, stops: Sequence[Stop]) -> list[int] | None:
        return [i for i, s in enumerate(stops) if s.hex in self.hexes]

    def requirements(self, stops: Sequence[Stop]) -> list[list[int]] | None:
        return [[i for i, s in enumerate(stops) if s.hex in self.hexes]]

    def bound(self) -> int:
        return max(self.hexes.values(), default=0)


@register("route_between")
class RouteBetween(RouteBonus):
    """A fixed amount when the route's first and last visited stops lie one in each of two hex lists."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        ends = params["ends"]
        self.a = {str(h) for h in ends[0]}
        self.b = {str(h) for h in ends[1]}
        self.amount = int(params.get("amount", 0))

    def value(self, counted: Sequence[Stop], visited: Sequence[Stop]) -> int:
        if len(visited) < 2:
            return 0
        first, last = visited[0].hex, visited[-1].hex
        if (first in self.a and last in self.b) or (first in self.b and last in self.a):
            return self.amount
        return 0

    def triggers(self, stops: Sequence[Stop]) -> list[int] | None:
        return []

    def requirements(self, stops: Sequence[Stop]) -> list[list[int]] | None:
        return [[i for i, s in enumerate(stops) if s.hex in ends] for ends in (self.a, self.b)]

    def bound(self) -> int:
        return max(self.amount, 0)


@register("route_between_once")
class RouteBetweenOnce(SetBonus):
    """A fixed amount, once per run, when one route's first and last visited stops lie one in each of two hex lists
    (a connection run's "one train must run from the starting city to the destination": with an amount no real
    run earns, the best set has such a route whenever one exists, and the other trains run freely)."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        ends = params["ends"]
        self.a = {str(h) for h in ends[0]}
        self.b = {str(h) for h in ends[1]}
        self.amount = int(params.get("amount", 0))
        self.required = bool(params.get("required"))  # the amount is a requirement's weight, not money

    def route_value(self, counted: Sequence[Stop], visited: Sequence[Stop]) -> int:
        if len(visited) < 2:
            return 0
        first, last = visited[0].hex, visited[-1].hex
        if (first in self.a and last in self.b) or (first in self.b and last in self.a):
            return self.amount
        return 0

    def bound(self, max_visits: int) -> int:
        return max(self.amount, 0)


@register("per_stop_one_train")
class PerStopOneTrain(SetBonus):
    """``per_stop`` for each stop one train visits (the corporation picks the train)."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.per_stop = int(params["per_stop"])

    def route_value(self, counted: Sequence[Stop], visited: Sequence[Stop]) -> int:
        return self.per_stop * len(visited)

    def bound(self, max_visits: int) -> int:
        return max(0, self.per_stop * max_visits)


def split(bonuses: Sequence[object]) -> tuple[list[RouteBonus], list[SetBonus]]:
    """Separate route bonuses from set bonuses (specs given as mappings are built first)."""
    route: list[RouteBonus] = []
    whole: list[SetBonus] = []
    for b in bonuses:
        obj = make_bonus(b) if isinstance(b, Mapping) else b
        if isinstance(obj, SetBonus):
            whole.append(obj)
        elif isinstance(obj, RouteBonus):
            route.append(obj)
        else:
            raise TypeError(f"not a bonus: {b!r}")
    return route, whole


# ------------------------------------------------------------------------------------------- which bonuses


def bonus_specs(
    book: Mapping[str, Any],
    corp: str,
    owner: Mapping[str, str],
    hex_assign: Mapping[str, str | list[str]],
    corp_assign: Mapping[str, str],
    icons: Callable[[str], list[str]],
    marker_levels: Mapping[str, int] | None = None,
) -> list[dict[str, Any]]:
    """The bonus specs in force for corporation ``corp`` (a symbol).

    ``mechanics.routes.east_west`` gives an ``east_west`` bonus.  A private's ``assign_hexes`` ability with an
    ``amount`` pays it on the hex its marker is on to the corporation that placed the marker (the marker's
    private is assigned to that corporation when placed); with ``params.markers`` (the states of one marker, e.g.
    an open then a closed port) the state the marker is in (``marker_levels``: private -> index, default 0) may
    set its own ``amount`` and pays ``others_amount`` on its hex to every other corporation.  A private's
    ``revenue_bonus`` ability with ``params.per: visited_stop`` pays its ``amount`` per stop visited by one train
    of the corporation owning it;
    with ``params.where: assigned_hex`` it pays ``amount`` (times the hex's ``params.per_icon`` icons) on the hex
    the private is assigned to, to the corporation it is assigned to.  ``owner``, ``hex_assign`` and
    ``corp_assign`` map private symbols to their owner's symbol, their hex and their corporation.
    """
    out: list[dict[str, Any]] = []
    east_west, entries = _bonus_plan(book)
    if east_west is not None:
        out.append({**east_west, "ends": list(east_west["ends"])})
    for kind, private, amount, params in entries:
        if kind == "marker":
            # a marker that earns its amount on its hex for the corporation that placed it (or, with
            # params.bonus_for: all_companies, for every company)
            placed = _hexes_of(hex_assign.get(private))
            states = params.get("markers") or [{}]
            state = states[min((marker_levels or {}).get(private, 0), len(states) - 1)]
            if corp_assign.get(private) == corp or params.get("bonus_for") == "all_companies":
                paid = int(state.get("amount", amount))
            else:
                paid = int(state.get("others_amount", 0))
            if placed and paid:
                out.append({"type": "hex_bonus", "hexes": {h: paid for h in placed}})
        elif kind == "per_stop":
            if owner.get(private) == corp:
                out.append({"type": "per_stop_one_train", "per_stop": amount})
        else:  # assigned_hex
            hex_id = next(iter(_hexes_of(hex_assign.get(private))), None)
            if hex_id and corp_assign.get(private) == corp:
                icon = params.get("per_icon")
                paid = amount * sum(1 for i in icons(hex_id) if i == icon) if icon else amount
                out.append({"type": "hex_bonus", "hexes": {hex_id: paid}})
    return out


#: the bonus abilities of each rulebook seen, worked out once: (the rulebook, its plan), by the rulebook's id
_PLANS: dict[int, tuple[Mapping[str, Any], tuple[dict[str, Any] | None, list[tuple[str, str, int, Any]]]]] = {}


def _bonus_plan(book: Mapping[str, Any]) -> tuple[dict[str, Any] | None, list[tuple[str, str, int, Any]]]:
    """What of the rulebook can pay a bonus: the east-west spec, and each private's bonus ability as
    ``(kind, private, amount, params)`` with kind ``marker``, ``per_stop`` or ``assigned_hex``, in book order."""
    kept = _PLANS.get(id(book))
    if kept is not None and kept[0] is book:
        return kept[1]
    ew = ((book.get("mechanics") or {}).get("routes") or {}).get("east_west")
    east_west = (
        {"type": "east_west", "ends": [ew["east_group"], ew["west_label"]], "amounts": ew["bonus"]} if ew else None
    )
    entries: list[tuple[str, str, int, Any]] = []
    for private, pspec in (book.get("privates") or {}).items():
        for ability in pspec.get("abilities") or []:
            params = ability.get("params") or {}
            if ability.get("type") == "assign_hexes" and ability.get("amount"):
                entries.append(("marker", private, ability["amount"], params))
            elif ability.get("type") == "revenue_bonus":
                amount = int(ability.get("amount") or 0)
                if params.get("per") == "visited_stop":
                    entries.append(("per_stop", private, amount, params))
                elif params.get("where") == "assigned_hex":
                    entries.append(("assigned_hex", private, amount, params))
    if len(_PLANS) > 64:
        _PLANS.clear()
    _PLANS[id(book)] = (book, (east_west, entries))
    return east_west, entries


def _hexes_of(value: str | list[str] | None) -> list[str]:
    """A private's marker hexes: one hex id or a list of them."""
    if not value:
        return []
    return [value] if isinstance(value, str) else list(value)


def _sym(key: Any) -> str:
    s = str(key)
    return s[2:] if len(s) > 1 and s[1] == "|" else s


def _no_icons(hex_id: str) -> list[str]:
    return []


@cython.locals(g="Context", hs="HexState")
def game_bonus_specs(g: Context, corp: str) -> list[dict[str, Any]]:
    """The bonus specs in force for corporation (or minor) symbol ``corp`` in a game in play."""
    if not _bonus_plan(g.book.raw)[1]:  # no private pays a bonus: nothing on the board or in hands to look at
        out = bonus_specs(g.book.raw, corp, {}, {}, {}, _no_icons)
        g.hooks("extra_bonus_specs", corp, out)
        return out
    state = g.state
    owner = {sym: _sym(c.owner) for sym, c in state.companies.items() if c.owner and not c.removed and not c.closed}
    hex_assign: dict[str, list[str]] = {}
    levels: dict[str, int] = {}
    hs: HexState
    for hex_id, hs in state.hexes.items():
        for a in hs.assigned:
            private, _, level = _sym(a).partition(":")
            if level:  # a marker's later state (see private_companies.marker_state)
                levels[private] = int(level)
            else:
                hex_assign.setdefault(private, []).append(hex_id)
    corp_assign: dict[str, str] = {}
    for sym, major in state.corporations.items():
        for a in major.assigned:
            corp_assign[_sym(a)] = sym
    for sym, minor in state.minors.items():
        for a in minor.assigned:
            corp_assign[_sym(a)] = sym
    hexes = state.hexes
    out = bonus_specs(
        g.book.raw, corp, owner, hex_assign, corp_assign, lambda h, hexes=hexes: list(hexes[h].icons), levels
    )
    g.hooks("extra_bonus_specs", corp, out)
    return out


def hex_tags(g: Context, hex_id: str) -> set[str]:
    """The tags a stop takes from its hex: the hex's tags, ``icon:<name>`` per icon on it, its labels."""
    spec = g.book.hexes[hex_id]
    hs: HexState = g.state.hexes[hex_id]
    tags: set[str] = set(spec.get("tags") or [])
    for name in hs.icons:
        tags.add(f"icon:{name}")
    for label in (g.book.tile_spec(hs.tile, hex_id).get("label"), spec.get("label")):
        if label:
            tags.add(str(label))
    return tags
