"""What a rulebook switches on, resolved once per book: mechanics, their typed parameters, steps, round types,
phase-event handlers and the round programme (rounds as data)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from .contract import Mechanic, Params
from .errors import UnsupportedTitle
from .registry import ALWAYS_ON, REGISTRY

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
    event_params: dict[tuple[int, int], Params] = field(default_factory=dict)  # (phase, event index) -> params
    rounds: dict[str, Any] = field(default_factory=dict)

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
    unknown = sorted(n for n in wanted if n not in REGISTRY or n in ALWAYS_ON)
    if unknown:
        raise UnsupportedTitle(f"{title}: unknown mechanics {', '.join(unknown)}")
    missing = [n for n in wanted if not REGISTRY[n].implemented]
    if missing:
        raise UnsupportedTitle(f"{title}: the engine has no module for mechanics {', '.join(missing)}")
    mechanics = [m for name, m in REGISTRY.items() if name in ALWAYS_ON or name in wanted]
    params: dict[str, Params] = {}
    for m in mechanics:
        try:
            params[m.name] = m.params.model_validate(wanted.get(m.name) or {})
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            raise UnsupportedTitle(f"{title}: mechanics.{m.name}.{where}: {err['msg']}") from None
    out = Installed(mechanics=mechanics, params=params)
    for m in mechanics:
        out.step_types.update(m.steps)
        out.round_types.update(m.round_types)
        out.events.update(m.events)
    for pi, phase in enumerate(book.phases):
        for ei, event in enumerate(phase.get("events") or []):
            spec = out.events.get(event["type"])
            if spec is None:
                raise UnsupportedTitle(f"{title}: phase {phase['name']}: no mechanic handles event {event['type']!r}")
            out.event_params[(pi, ei)] = spec[0].model_validate(event.get("params") or {})
    out.rounds = _rounds(book, out)
    return out


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
