"""What a rulebook switches on, resolved once per book: mechanics, their typed parameters, steps, round types,
phase-event handlers and the round programme (rounds as data)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from . import params_cache
from .contract import Mechanic, Params, check_priorities, read_only
from .errors import UnsupportedTitle
from .registry import ALWAYS_ON, ORDER, in_order, mechanic

if TYPE_CHECKING:
    from .book import Book


@dataclass
class Installed:
    """The rules of one book, ready to play."""

    mechanics: list[Mechanic]
    params: dict[str, Params]
    step_types: dict[str, type] = field(default_factory=dict)
    round_types: dict[str, Any] = field(default_factory=dict)
    events: dict[str, tuple[type[Params], Callable[..., Any]]] = field(default_factory=dict)
    # (phase, event index) -> params; a train type's events under train_event_key
    event_params: dict[tuple[int, int], Params] = field(default_factory=dict)
    rounds: dict[str, Any] = field(default_factory=dict)
    programs: dict[str, list[tuple[str, dict[str, Any]]]] = field(default_factory=dict)  # round kind -> its steps
    #: round kind -> its steps as (state name, step class, options, whether the class adds round data)
    plans: dict[str, list[tuple[str, type, dict[str, Any], bool]]] = field(default_factory=dict)
    step_classes: dict[str, type] = field(default_factory=dict)  # a step state's name ("track#6") -> its class
    #: interface name -> its provider among the switched-on mechanics (railbook.engine.interfaces)
    interfaces: dict[str, Any] = field(default_factory=dict)

    def on(self, name: str) -> bool:
        """Whether mechanic ``name`` is switched on."""
        return name in self.params


_CACHE: dict[int, tuple[Book, Installed]] = {}


def installed(book: Book) -> Installed:
    """The (cached) rules of ``book``; raises :class:`UnsupportedTitle` for what the engine cannot play."""
    hit = _CACHE.get(id(book))
    if hit is not None and hit[0] is book:
        return hit[1]
    result = _install(book)
    _CACHE[id(book)] = (book, result)
    return result


def _install(book: Book) -> Installed:
    title = book.title
    wanted = book.mechanics
    unknown = sorted(n for n in wanted if n not in ORDER or n in ALWAYS_ON)
    if unknown:
        raise UnsupportedTitle(f"{title}: unknown mechanics {', '.join(unknown)}")
    missing = [n for n in wanted if not mechanic(n).implemented]
    if missing:
        raise UnsupportedTitle(f"{title}: the engine has no module for mechanics {', '.join(missing)}")
    mechanics = in_order(wanted)
    try:
        check_priorities(mechanics)
    except TypeError as exc:
        raise UnsupportedTitle(f"{title}: {exc}") from None
    out = Installed(mechanics=mechanics, params={})
    out.interfaces = _interfaces(title, mechanics)
    for m in mechanics:
        out.step_types.update(m.steps)
        out.round_types.update(m.round_types)
        out.events.update(m.events)
    for phase in book.phases:
        for event in phase.get("events") or []:
            if event["type"] not in out.events:
                raise UnsupportedTitle(f"{title}: phase {phase['name']}: no mechanic handles event {event['type']!r}")
    for sym in book.train_order:
        for event in book.trains[sym].get("events") or []:
            if event["type"] not in out.events:
                raise UnsupportedTitle(f"{title}: train {sym}: no mechanic handles event {event['type']!r}")
    inputs = {
        "mechanics": {m.name: wanted.get(m.name) or {} for m in mechanics},
        "events": [[e["type"], e.get("params") or {}] for phase in book.phases for e in phase.get("events") or []],
        "train_events": [
            [e["type"], e.get("params") or {}] for sym in book.train_order for e in book.trains[sym].get("events") or []
        ],
    }
    params, event_params = params_cache.cached(inputs, lambda: _validated(book, out))
    # (keys interned, as the readers' names are: a cached copy's keys are new strings, which a lookup compares by
    # content on every read)
    out.params = {sys.intern(name): read_only(p) for name, p in params.items()}
    out.event_params = {at: read_only(p) for at, p in event_params.items()}
    out.rounds = _rounds(book, out)
    return out


def _interfaces(title: str, mechanics: list[Mechanic]) -> dict[str, Any]:
    """The interfaces the switched-on ``mechanics`` provide, by name; every one a mechanic requires provided, by one
    mechanic (else :class:`UnsupportedTitle`)."""
    out: dict[str, Any] = {}
    by: dict[str, str] = {}
    for m in mechanics:
        for name, provider in m.provides.items():
            if name in by:
                raise UnsupportedTitle(f"{title}: mechanics {by[name]} and {m.name} both provide interface {name}")
            out[name], by[name] = provider, m.name
    for m in mechanics:
        for name in m.requires:
            if name not in out:
                raise UnsupportedTitle(
                    f"{title}: mechanic {m.name} requires interface {name}, which no switched-on mechanic provides"
                )
    return out


def _validated(book: Book, out: Installed) -> tuple[dict[str, Params], dict[tuple[int, int], Params]]:
    """Each switched-on mechanic's parameters and each phase event's, validated by their models."""
    params: dict[str, Params] = {}
    for m in out.mechanics:
        try:
            params[m.name] = m.params.model_validate(book.mechanics.get(m.name) or {})
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            raise UnsupportedTitle(f"{book.title}: mechanics.{m.name}.{where}: {err['msg']}") from None
    event_params: dict[tuple[int, int], Params] = {}
    for pi, phase in enumerate(book.phases):
        for ei, event in enumerate(phase.get("events") or []):
            event_params[(pi, ei)] = out.events[event["type"]][0].model_validate(event.get("params") or {})
    for ti, sym in enumerate(book.train_order):  # a train type's events: keys (-1 - its index in the order, event)
        for ei, event in enumerate(book.trains[sym].get("events") or []):
            event_params[train_event_key(ti, ei)] = out.events[event["type"]][0].model_validate(
                event.get("params") or {}
            )
    return params, event_params


def train_event_key(train_index: int, event_index: int) -> tuple[int, int]:
    """The key of a train type's event in ``Installed.event_params`` (phases use their own index, >= 0)."""
    return (-1 - train_index, event_index)


def _rounds(book: Book, rules: Installed) -> dict[str, Any]:
    spec = book.raw.get("rounds")
    if not spec:
        raise UnsupportedTitle(f"{book.title}: the rulebook states no rounds")
    for kind, ks in spec["kinds"].items():
        if ks["type"] not in rules.round_types:
            raise UnsupportedTitle(f"{book.title}: round kind {kind}: no mechanic plays rounds of type {ks['type']!r}")
        for step in ks["steps"]:
            if step["step"] not in rules.step_types:
                raise UnsupportedTitle(
                    f"{book.title}: round kind {kind}: no mechanic contributes step {step['step']!r}"
                )
    return spec
