"""Bounds on every number a title writes, and booleans refused where a number is due.

The models give each value its type; this walk gives each number a size a real title cannot reach and the
engine can afford (``railbook/limits.py``, the input-limits table of ``docs/FORMAT.md``): price moves are at most
``market_steps`` steps, counts (copies of a train or tile, stops, slots, limits) at most ``title_count``, and any
other number (money above all) at most ``title_number`` either way.  The kind of a number is told by the name of
the field that holds it (the same in the title's models and in every mechanic's parameters), so the bound holds
for parameters the compiler does not know one by one.  The walk also catches a boolean or a text that a number
field took (``cash: true`` would otherwise be 1, ``cash: "400"`` 400), and a number or text that a true/false
field took (``free: 1``, ``free: "yes"``).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from railbook import limits
from railbook.jsonio import deep_merge

from .errors import located
from .load import KeyPath, LoadedDoc

COUNT_FIELDS = frozenset(
    {
        "count",
        "manifest",
        "trains_removed",
        "visit",
        "pay",
        "slots",
        "lanes",
        "junctions",
        "train_limit",
        "operating_rounds",
        "cert_limit",
        "repeat",
        "multiplier",
        "city",
    }
)
"""Fields (and mappings) whose numbers are counts."""

FREE_FORM = frozenset({"params"})
"""Mappings of further parameters: a number in them is named by its own key."""

_NO_RAW = object()


def limit_for(field: str) -> limits.Limit:
    """The bound of a number held by ``field``."""
    if field in ("move", "steps") or field.endswith(("_move", "_steps")):
        return limits.MARKET_STEPS
    if field in COUNT_FIELDS or field.endswith(("_count", "_per_turn")):
        return limits.TITLE_COUNT
    return limits.TITLE_NUMBER


def _shown_number(value: float) -> str:
    shown = f"{value:,}" if isinstance(value, int) else f"{value:g}"
    return shown if len(shown) <= 20 else f"a number of {len(str(abs(int(value))))} digits"


def _check_number(value: Any, raw: Any, field: str, path: KeyPath, out: list[tuple[KeyPath, str]]) -> None:
    if isinstance(raw, bool) and not isinstance(value, bool):
        out.append((path, f"{str(raw).lower()} is not a number: write a number"))
        return
    if isinstance(raw, str):
        out.append((path, f"{raw[:20]!r} is text, not a number: write the number without quotes"))
        return
    limit = limit_for(field)
    if abs(value) > limit.value:
        shown = _shown_number(value)
        out.append((path, f"{shown} is out of range: at most {limit.value:,} either way (limit {limit.name})"))


def _raw_item(raw: Any, key: Any) -> tuple[Any, Any]:
    """The key as written and the value the title wrote under ``key`` (``_NO_RAW`` when it wrote none)."""
    if not isinstance(raw, dict):
        return key, _NO_RAW
    for k in (key, str(key)):
        if k in raw:
            return k, raw[k]
    if isinstance(key, str) and key.lstrip("-").isdigit() and int(key) in raw:
        return int(key), raw[int(key)]
    return key, _NO_RAW


def walk(value: Any, raw: Any, path: KeyPath, field: str, out: list[tuple[KeyPath, str]]) -> None:
    """Check every number in ``value`` (a validated model or part of one) against its bound.

    ``raw`` is what the title wrote there (``_NO_RAW`` where the value was derived, e.g. ``distance: 3/5``); only
    what the title wrote is walked, defaults are not.
    """
    if isinstance(value, BaseModel):
        for name, info in type(value).model_fields.items():
            key = info.alias or name
            if name == "overlay":
                continue  # an option's overlay is checked merged over the title, see bound_problems
            if raw is _NO_RAW or not isinstance(raw, dict):
                sub: Any = _NO_RAW
            elif key in raw:
                sub = raw[key]
            else:
                continue
            walk(getattr(value, name), sub, (*path, key), name, out)
        return
    if isinstance(value, dict):
        for k, v in value.items():
            shown, sub = _raw_item(raw, k)
            if raw is not _NO_RAW and sub is _NO_RAW:
                continue
            if isinstance(k, int) and not isinstance(k, bool) and abs(k) > limits.TITLE_COUNT.value:
                out.append(((*path, shown), f"key {k:,} is out of range: at most {limits.TITLE_COUNT.value:,}"))
            walk(v, sub, (*path, shown), str(k) if field in FREE_FORM else field, out)
        return
    if isinstance(value, list | tuple):
        items = raw if isinstance(raw, list) and len(raw) == len(value) else None
        for i, v in enumerate(value):
            walk(v, items[i] if items is not None else _NO_RAW, (*path, i), field, out)
        return
    if isinstance(value, bool):
        if raw is not _NO_RAW and not isinstance(raw, bool):
            shown = repr(raw[:20]) if isinstance(raw, str) else repr(raw)[:20]
            out.append((path, f"{shown} is not true or false: write true or false"))
        return
    if not isinstance(value, int | float):
        return
    _check_number(value, raw, field, path, out)


def _most(count: Any) -> int:
    """The copies a count stands for: a number, the largest of a table by players, or none when unlimited."""
    if isinstance(count, dict):
        return max((v for v in count.values() if isinstance(v, int)), default=0)
    return count if isinstance(count, int) and not isinstance(count, bool) else 0


def size_problems(src: Any) -> list[tuple[KeyPath, str]]:
    """The sizes of the title (a source or a compiled rulebook) as a whole: copies of tiles and trains, hexes,
    companies and options."""
    out: list[tuple[KeyPath, str]] = []
    compiled = hasattr(src, "hexes")
    tiles = [t.count for t in src.tiles.values()] if compiled else list(src.manifest.values())
    hexes = src.hexes if compiled else src.map.hexes
    sizes = [
        (("tiles" if compiled else "manifest",), sum(map(_most, tiles)), limits.TITLE_COPIES, "copies of tiles"),
        (("trains",), sum(_most(t.count) for t in src.trains.values()), limits.TITLE_COPIES, "copies of trains"),
        (("hexes",) if compiled else ("map", "hexes"), len(hexes), limits.TITLE_HEXES, "hexes"),
        (
            ("corporations",),
            len(src.corporations) + len(src.minors) + len(src.privates),
            limits.TITLE_COMPANIES,
            "corporations, minors and privates",
        ),
        (("options",), len(src.options), limits.TITLE_OPTIONS, "options"),
        (("phases",), len(src.phases), limits.TITLE_COUNT, "phases"),
        (("trains",), len(src.trains), limits.TITLE_COUNT, "kinds of train"),
        (("tiles",), len(src.tiles), limits.TITLE_COPIES, "kinds of tile"),
    ]
    for path, size, limit, what in sizes:
        if size > limit.value:
            out.append((path, f"{what}: {_shown_number(size)} in all, at most {limit.value:,} (limit {limit.name})"))
    return out


def bound_problems(src: BaseModel, doc: LoadedDoc) -> list[str]:
    """One located line per number out of its bound (or boolean in a number's place), options included."""
    found: list[tuple[KeyPath, str]] = size_problems(src)
    walk(src, doc.data, (), "", found)
    lines = [located(doc.positions.find(path), ".".join(map(str, path)), msg) for path, msg in found]
    base = {k: v for k, v in doc.data.items() if k != "options"}
    for name, option in getattr(src, "options", {}).items():
        if not option.overlay:
            continue
        merged = deep_merge(base, option.overlay)
        variant = type(src).model_validate({**merged, "options": {}})
        found = size_problems(variant)
        walk(variant, merged, (), "", found)
        for path, msg in found:
            where = ("options", name, "overlay", *path)
            if where in doc.positions.table:  # a value the overlay wrote (the title's own are reported above)
                lines.append(
                    located(doc.positions.table[where], ".".join(map(str, path)), f"with option {name}: {msg}")
                )
    return list(dict.fromkeys(lines))


def rulebook_bound_problems(book: dict[str, Any]) -> list[str]:
    """The bounds of a title, checked on a compiled rulebook read from a file (one problem per line, each naming
    its JSON path): a rulebook.json is not compiled by railbook, so nothing else bounds it."""
    from pydantic import ValidationError

    from .rulebook import Rulebook

    try:
        model = Rulebook.model_validate(book)
    except ValidationError as exc:
        err = exc.errors()[0]
        return [f"{'/'.join(map(str, err['loc'])) or 'top level'}: {err['msg']}"]
    found = size_problems(model)
    walk(model, book, (), "", found)
    return [f"{'/'.join(map(str, path)) or 'top level'}: {msg}" for path, msg in found]
