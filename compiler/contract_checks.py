"""Checks of a title against the mechanic contract: phase events, round kinds and steps, the interfaces its
mechanics require, and the ids its mechanic parameters name, each with a located one-line error."""

from __future__ import annotations

import typing
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, ValidationError
from railbook.params import ALWAYS_ON, declarations
from railbook.params.base import Ref

from .errors import located
from .load import KeyPath, Positions
from .models import GameSource
from .validate import schema_problems


def check_mechanics(src: GameSource, positions: Positions) -> list[str]:
    """Every located problem of ``src`` against the contract of the mechanics it switches on."""
    on = [
        m for name, m in declarations().items() if name in ALWAYS_ON or getattr(src.mechanics, name, None) is not None
    ]
    lines: list[str] = []
    lines += _events(src, positions, on)
    lines += _rounds(src, positions, on)
    lines += _interfaces(positions, on)
    lines += _refs(src, positions)
    return lines


def _events(src: GameSource, positions: Positions, on: list[Any]) -> list[str]:
    handlers = {etype: (m.name, model) for m in on for etype, model in m.events.items()}
    declared = {etype for m in declarations().values() for etype in m.events}
    lines = []
    for pi, phase in enumerate(src.phases):
        for ei, event in enumerate(phase.events):
            path: KeyPath = ("phases", pi, "events", ei)
            found = handlers.get(event.type)
            if found is None:
                hint = "switch on the mechanic that declares it" if event.type in declared else "unknown event"
                lines.append(
                    located(
                        positions.find((*path, "type")),
                        ".".join(map(str, (*path, "type"))),
                        f"no switched-on mechanic handles event {event.type!r} ({hint}; "
                        f"known: {', '.join(sorted(declared))})",
                    )
                )
                continue
            try:
                found[1].model_validate(event.params)
            except ValidationError as exc:
                lines += schema_problems(exc, event.params, positions, (*path, "params"))
    return lines


def _rounds(src: GameSource, positions: Positions, on: list[Any]) -> list[str]:
    steps = {s for m in on for s in m.steps}
    types = {t for m in on for t in m.round_types}
    lines = []
    for kind, spec in src.rounds.kinds.items():
        path: KeyPath = ("rounds", "kinds", kind)
        if spec.type not in types:
            lines.append(
                located(
                    positions.find((*path, "type")),
                    ".".join(map(str, (*path, "type"))),
                    f"no switched-on mechanic plays rounds of type {spec.type!r} (known: {', '.join(sorted(types))})",
                )
            )
        for i, ref in enumerate(spec.steps):
            name = ref.step  # type: ignore[union-attr]
            if name not in steps:
                lines.append(
                    located(
                        positions.find((*path, "steps", i)),
                        ".".join(map(str, (*path, "steps", i))),
                        f"no switched-on mechanic contributes step {name!r} (known: {', '.join(sorted(steps))})",
                    )
                )
    return lines


def _interfaces(positions: Positions, on: list[Any]) -> list[str]:
    """Every interface a switched-on mechanic requires is provided by a switched-on mechanic."""
    provided = {name for m in on for name in m.provides}
    providers: dict[str, list[str]] = {}
    for m in declarations().values():
        for name in m.provides:
            providers.setdefault(name, []).append(m.name)
    lines = []
    for m in on:
        for name in m.requires:
            if name not in provided:
                path: KeyPath = ("mechanics", m.name)
                lines.append(
                    located(
                        positions.find(path),
                        ".".join(map(str, path)),
                        f"mechanic {m.name} requires interface {name}, which no switched-on mechanic provides "
                        f"(switch on {' or '.join(providers.get(name, ['?']))})",
                    )
                )
    return lines


def _refs(src: GameSource, positions: Positions) -> list[str]:
    tables = {
        "corporations": set(src.corporations),
        "minors": set(src.minors),
        "privates": set(src.privates),
        "hexes": set(src.map.hexes),
        "phases": {p.name for p in src.phases},
        "trains": set(src.trains),
    }
    lines = []
    for name, params in src.mechanics:
        if params is None:
            continue
        for path, kind, value in _ids(params, ("mechanics", name)):
            known = tables.get(kind)
            if known is not None and value not in known:
                lines.append(
                    located(positions.find(path), ".".join(map(str, path)), f"no {kind[:-1]} {value!r} in this title")
                )
    return lines


def _ids(model: BaseModel, path: KeyPath) -> Iterator[tuple[KeyPath, str, str]]:
    """(path, table, id) of every value a parameter model marks with :class:`Ref`."""
    for field, info in type(model).model_fields.items():
        value = getattr(model, field)
        key = info.alias or field
        yield from _walk(info.annotation, info.metadata, value, (*path, key))


def _walk(tp: Any, metadata: list[Any], value: Any, path: KeyPath) -> Iterator[tuple[KeyPath, str, str]]:
    if value is None:
        return
    for meta in metadata:
        if isinstance(meta, Ref) and isinstance(value, str):
            yield path, meta.kind, value
            return
    if isinstance(value, BaseModel):
        yield from _ids(value, path)
        return
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Annotated:
        yield from _walk(args[0], [*metadata, *args[1:]], value, path)
        return
    if origin in (list, tuple) and isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from _walk(args[0] if args else Any, [], item, (*path, i))
    elif origin is dict and isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(args[0], [], k, (*path, k))
            yield from _walk(args[1], [], v, (*path, k))
    elif args:  # unions / optionals
        for arg in args:
            if arg is type(None):
                continue
            found = list(_walk(arg, metadata, value, path))
            if found:
                yield from found
                return
