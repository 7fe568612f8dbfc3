"""Revenue bonuses as pluggable objects, registered by mechanic name.

Two shapes exist, and the optimiser treats each exactly:

* a **route bonus** adds to one route from the stops it *counts* and *visits* (east–west, a hex bonus
  such as a port or meat-packing marker, a destination). It must never decrease when a route counts
  one more stop.
* a **set bonus** is earned once by the corporation and paid to the route that earns the most from it
  (a mail contract paying per stop of one train).

A bonus is built from a plain mapping ``{"type": NAME, **params}`` by :func:`make_bonus`; the game
adapter reads these from the rulebook (``mechanics.routes.bonuses``) and from private-company
abilities. No bonus knows which title it serves.

Parameters by type (all amounts in the title's currency units):

``east_west``
    ``ends: [SELECTOR_A, SELECTOR_B]`` (default ``["E", "W"]``): a route counting a stop tagged with each
    end earns ``amounts[hex]`` for both stops (``amounts`` defaults to the numeric icons printed on the
    hex, e.g. an icon named ``"30"``). Tags are a stop's group, its hex's label, tags and icon names.
``hex_bonus`` (also ``port``, ``meat_packing``, ``boomtown``)
    ``hexes: {HEX: amount}``: ``amount`` once per route for each hex in which the route counts a stop
    (``visited: true`` to pay for visited rather than counted stops).
``destination``
    ``hexes: [HEX...]``, ``amount``: ``amount`` once when the route visits any of the hexes.
``per_stop_one_train`` (also ``mail_contract``)
    ``per_stop``: one train of the corporation earns ``per_stop`` for each stop it visits; the optimiser
    gives it to the train for which the whole set earns most.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .model import Stop

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
        ends = params.get("ends", ["E", "W"])
        self.a, self.b = str(ends[0]), str(ends[1])
        self.amounts = {str(k): int(v) for k, v in (params.get("amounts") or {}).items()}
        self.max_a = int(params.get("max_a", 0))
        self.max_b = int(params.get("max_b", 0))

    def amount(self, stop: Stop) -> int:
        return self.amounts.get(stop.hex, _icon_amount(stop))

    def triggers(self, stops: Sequence[Stop]) -> list[int] | None:
        return [i for i, s in enumerate(stops) if self.a in s.tags or self.b in s.tags]

    def requirements(self, stops: Sequence[Stop]) -> list[list[int]] | None:
        return [
            [i for i, s in enumerate(stops) if self.a in s.tags],
            [i for i, s in enumerate(stops) if self.b in s.tags],
        ]

    def value(self, counted: Sequence[Stop], visited: Sequence[Stop]) -> int:
        best_a = max((self.amount(s) for s in counted if self.a in s.tags), default=None)
        best_b = max((self.amount(s) for s in counted if self.b in s.tags), default=None)
        if best_a is None or best_b is None:
            return 0
        return best_a + best_b

    def prepare(self, stops: Sequence[Stop]) -> None:
        """Record the largest amounts on this board (for :meth:`bound`)."""
        self.max_a = max((self.amount(s) for s in stops if self.a in s.tags), default=0)
        self.max_b = max((self.amount(s) for s in stops if self.b in s.tags), default=0)

    def bound(self) -> int:
        return self.max_a + self.max_b


@register("hex_bonus", "port", "meat_packing", "boomtown")
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


@register("per_stop_one_train", "mail_contract")
class PerStopOneTrain(SetBonus):
    """``per_stop`` for each stop one train visits (the corporation picks the train)."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.per_stop = int(params.get("per_stop", 10))

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
