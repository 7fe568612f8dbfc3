"""Typed legal actions: what :meth:`railbook.engine.game.Game.legal_actions` offers.

Each :class:`LegalAction` is one action the acting entity may take, with every field the rules fix already set
(``fields``) and the choices still open (``open``: an :class:`IntRange` of allowed integers, or :class:`RoutesChoice`
for a run of routes).  Fill the open choices with :meth:`LegalAction.with_` and pass the result straight to
``Game.process``::

    option = next(a for a in game.legal_actions() if a.type == "bid")
    game.process(option.with_(price=option.open["price"].min))

A :class:`LegalAction` with nothing open is a complete action; :meth:`LegalAction.to_action` gives its plain JSON
form (the 18xx.games action shape the engine takes).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalAction

#: the keys of an action every legal action carries
HEAD = ("type", "entity", "entity_type")
#: keys of a description that describe a range, not an action field
_RANGE_KEYS = ("min", "max", "step")


@dataclass(frozen=True)
class IntRange:
    """The integers ``min``, ``min + step``, ... up to ``max`` (both ends included)."""

    min: int
    max: int
    step: int = 1

    def __contains__(self, value: object) -> bool:
        return (
            isinstance(value, int)
            and not isinstance(value, bool)
            and self.min <= value <= self.max
            and (value - self.min) % self.step == 0
        )

    def values(self) -> range:
        """Every allowed value, smallest first."""
        return range(self.min, self.max + 1, self.step)

    def to_json(self) -> dict[str, Any]:
        return {"kind": "range", "min": self.min, "max": self.max, "step": self.step}


@dataclass(frozen=True)
class RoutesChoice:
    """A run of routes: a list of routes, at most one per train in ``trains`` (``railbook.best_routes`` gives the
    best; the engine checks any other against the rules)."""

    trains: tuple[str, ...]

    def __contains__(self, value: object) -> bool:
        return isinstance(value, list)

    def to_json(self) -> dict[str, Any]:
        return {"kind": "routes", "trains": list(self.trains)}


Open = IntRange | RoutesChoice


@dataclass(frozen=True)
class LegalAction:
    """One action the rules allow now: ``type``, the acting ``entity`` (and its ``entity_type``: player,
    corporation, minor or company), the fields already fixed and the choices still open."""

    type: str
    entity: str
    entity_type: str
    fields: Mapping[str, Any] = field(default_factory=dict)
    open: Mapping[str, Open] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        """Whether every choice is made: the action can be processed as it is."""
        return not self.open

    def with_(self, **values: Any) -> LegalAction:
        """This action with open choices filled (each value checked against its allowed values); IllegalAction
        naming the field for a value outside them or a field that is not open."""
        open_ = dict(self.open)
        fields = dict(self.fields)
        for name, value in values.items():
            allowed = open_.pop(name, None)
            if allowed is None:
                raise IllegalAction("action.choice", f"{self.type}: {name!r} is not an open choice of this action")
            if value not in allowed:
                raise IllegalAction("action.choice", f"{self.type}: {name}={value!r} is not allowed ({allowed})")
            fields[name] = value
        return LegalAction(self.type, self.entity, self.entity_type, fields, open_)

    def to_action(self) -> dict[str, Any]:
        """The plain JSON action; IllegalAction naming the first open choice when one is left."""
        if self.open:
            name = next(iter(self.open))
            raise IllegalAction("action.choice", f"{self.type}: choose {name!r} first ({self.open[name]})")
        return {"type": self.type, "entity": self.entity, "entity_type": self.entity_type, **self.fields}

    def to_json(self) -> dict[str, Any]:
        """This legal action as JSON: the head, the fixed ``fields`` and the ``open`` choices."""
        return {
            "type": self.type,
            "entity": self.entity,
            "entity_type": self.entity_type,
            "fields": dict(self.fields),
            "open": {k: v.to_json() for k, v in self.open.items()},
        }


def from_descriptions(descriptions: list[dict[str, Any]]) -> list[LegalAction]:
    """The typed legal actions of the rule steps' descriptions (``rounds.legal_actions``): one per choice."""
    out: list[LegalAction] = []
    for desc in descriptions:
        out.extend(_expand(desc))
    return out


def _expand(desc: dict[str, Any]) -> Iterator[LegalAction]:
    head = (str(desc["type"]), str(desc["entity"]), str(desc["entity_type"]))
    if head[0] == "run_routes":
        trains = tuple(desc.get("trains") or ())
        yield LegalAction(*head, {}, {"routes": RoutesChoice(trains)})
        return
    fixed = {k: v for k, v in desc.items() if k not in (*HEAD, "choices", *_RANGE_KEYS)}
    step = int(desc.get("step") or 1)
    choices = desc.get("choices")
    if choices is None:
        choices = [{}]
    for choice in choices:
        fields = dict(fixed)
        open_: dict[str, Open] = {}
        choice = dict(choice)
        choice_step = int(choice.pop("step", None) or step)
        lo, hi = choice.pop("min", desc.get("min")), choice.pop("max", desc.get("max"))
        if lo is not None and hi is not None:
            open_["price"] = _range(int(lo), int(hi), choice_step)
        for key, value in choice.items():
            if isinstance(value, dict) and "min" in value and "max" in value:
                open_[key] = _range(int(value["min"]), int(value["max"]), int(value.get("step") or choice_step))
            else:
                fields[key] = value
        if any(isinstance(r, IntRange) and r.max < r.min for r in open_.values()):
            continue  # (a range that allows no value offers nothing)
        yield LegalAction(*head, fields, open_)


def _range(lo: int, hi: int, step: int) -> IntRange:
    """The multiples of ``step`` from ``lo`` (rounded up to one) to ``hi``."""
    step = max(1, step)
    first = -(-lo // step) * step
    last = first + (hi - first) // step * step if hi >= first else first - step
    return IntRange(first, last, step)
