"""Train specifications from rulebook data (``Train.distance`` rows) or from short names."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from .model import UNLIMITED, Row, TrainSpec

ALL_KINDS = frozenset({"city", "town", "offboard"})


def _count(v: Any) -> int:
    return UNLIMITED if v in ("unlimited", None) else int(v)


def rows_from_distance(distance: Any) -> tuple[Row, ...]:
    """Rows from a compiled distance list, or from the short forms ``N``, ``"N/M"``, ``"N+M"``, ``unlimited``."""
    if isinstance(distance, int):
        return (Row(ALL_KINDS, distance, distance),)
    if isinstance(distance, str):
        if distance == "unlimited":
            return (Row(ALL_KINDS, UNLIMITED, UNLIMITED),)
        if distance.isdigit():
            n = int(distance)
            return (Row(ALL_KINDS, n, n),)
        m = re.fullmatch(r"(\d+)/(\d+)", distance)
        if m:
            return (Row(ALL_KINDS, int(m.group(2)), int(m.group(1))),)
        m = re.fullmatch(r"(\d+)\+(\d+)", distance)
        if m:
            n, k = int(m.group(1)), int(m.group(2))
            return (Row(frozenset({"town"}), k, k), Row(frozenset({"city", "offboard"}), n, n))
        raise ValueError(f"bad distance {distance!r}")
    rows = []
    for r in distance:
        kinds = frozenset(r.get("nodes") or ALL_KINDS)
        rows.append(Row(kinds, _count(r.get("visit")), _count(r.get("pay", r.get("visit")))))
    rows.sort(key=lambda r: (len(r.kinds), sorted(r.kinds)))
    return tuple(rows)


def train_spec(train_id: str, name: str, data: Mapping[str, Any] | None = None) -> TrainSpec:
    """A :class:`TrainSpec` for the train ``train_id`` (``"4-1"``) of type ``name`` (``"4"`` or a variant).

    ``data`` is the rulebook's train entry (``rulebook["trains"][base]``); a variant named ``name`` is
    looked up among its ``variants``. Without data the name itself is parsed (``"3/5"``, ``"2+2"``).
    """
    if data is None:
        return TrainSpec(train_id, name, rows_from_distance(name))
    entry: Mapping[str, Any] = data
    for v in data.get("variants", []) or []:
        if v.get("name") == name:
            entry = v
            break
    return TrainSpec(
        id=train_id,
        name=name,
        rows=rows_from_distance(entry.get("distance", name)),
        multiplier=int(entry.get("multiplier", data.get("multiplier", 1)) or 1),
        no_towns=bool(entry.get("no_towns", data.get("no_towns", False))),
    )


def specs_from_names(names: Sequence[str]) -> list[TrainSpec]:
    """Trains from bare names, ids ``"<name>-<i>"`` (handy in tests)."""
    return [train_spec(f"{n}-{i}", n) for i, n in enumerate(names)]
