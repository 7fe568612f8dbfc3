"""The JSON shape of an action's fields, checked before any rule sees the action.

Rules read fields such as ``shares`` or ``routes`` trusting their type; a record or a client that
sends ``"shares": 5`` must get :class:`MalformedAction` naming the field, not a ``TypeError`` from deep
inside a step.  Every field is checked: its type (:data:`FIELD_SHAPES`), its range (:data:`INT_RANGES`), its length
(strings and lists are bounded), and its name — a field that is neither read by the engine nor 18xx.games
bookkeeping (:data:`METADATA`) is refused, so nothing sent is silently ignored and no value is nested deeper than
the shapes allow.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from typing import Any

from .errors import MalformedAction

# shape names: "str", "int" (not bool), "bool", "null", "id" (str or int), "list[str]", "list[list[str]]",
# "list[dict]", "dict"; a field may allow several.
FIELD_SHAPES: dict[str, tuple[str, ...]] = {
    "type": ("str",),
    "entity": ("id",),
    "entity_type": ("str",),
    "id": ("int", "null"),
    "shares": ("list[str]",),
    "percent": ("int", "null"),
    "price": ("int", "null"),
    "share_price": ("int", "str", "bool", "null"),
    "hex": ("str",),
    "tile": ("str",),
    "rotation": ("int",),
    "city": ("id",),
    "slot": ("int", "null"),
    "corporation": ("str", "null"),
    "corporations": ("list[str]", "null"),
    "company": ("str", "null"),
    "train": ("str",),
    "variant": ("str", "null"),
    "exchange": ("str", "null"),
    "routes": ("list[dict]",),
    "extra_revenue": ("int", "null"),
    "kind": ("str",),
    "choice": ("id",),
    "target": ("id", "null"),
    "target_type": ("str", "null"),
    "description": ("str", "null"),
    "size": ("int", "null"),
    "amount": ("int", "null"),
    "loan": ("int", "null"),
}

#: fields 18xx.games records carry that make no move (bookkeeping, or facts the engine works out itself): accepted
#: and not read
METADATA = frozenset(
    {"id", "created_at", "user", "original_id", "skip", "action_id", "tokener", "subsidy", "cost", "message"}
    # the settings of the site's ``program_*`` actions (automatic passes and purchases it plays for a player)
    | {"until_condition", "from_market", "auto_pass_after", "indefinite", "unconditional", "reason", "original_type"}
    | {"corporations_by_round", "options"}
)
#: every field an action may have
ALLOWED_FIELDS = frozenset(FIELD_SHAPES) | METADATA
#: the inclusive range of each integer field (ids aside)
INT_RANGES: dict[str, tuple[int, int]] = {
    "percent": (1, 100),
    "price": (0, 10**7),
    "share_price": (0, 10**7),
    "rotation": (0, 5),
    "slot": (0, 63),
    "size": (1, 100),
    "amount": (0, 10**7),
    "loan": (0, 10**6),
    "extra_revenue": (-(10**7), 10**7),
    "city": (0, 10**6),
    "choice": (-(10**9), 10**9),
    "entity": (-(10**18), 10**18),
}
#: the longest string and list a field may hold (a hex chain of a route is a list too)
MAX_TEXT = 200
MAX_ITEMS = 500

ROUTE_SHAPES: dict[str, tuple[str, ...]] = {
    "train": ("str",),
    "connections": ("list[list[str]]", "null"),
    "hexes": ("list[str]", "null"),
    "nodes": ("list[str]", "null"),
    "revenue": ("int", "null"),
}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


def _is_dict(value: Any) -> bool:
    return isinstance(value, dict)


def _items(value: Any) -> list[Any] | None:
    """``value`` as exactly a list (the compiled build walks it by index), or None when it is no list."""
    if type(value) is list:
        return value  # type: ignore[no-any-return]
    return list(value) if isinstance(value, list) else None


def _is_list_of(value: Any, kind: type) -> bool:
    """A list whose every item is a ``kind`` (share ids come with most actions, routes with runs)."""
    items = _items(value)
    if items is None:
        return False
    for item in items:
        if not isinstance(item, kind):
            return False
    return True


def _is_str_list_list(value: Any) -> bool:
    """A list of lists of strings (a route's connections)."""
    items = _items(value)
    if items is None:
        return False
    for item in items:
        if not _is_list_of(item, str):
            return False
    return True


#: One test per shape name (loops, not generator expressions: every action's fields are tested).
_TESTS: dict[str, Callable[[Any], bool]] = {
    "str": _is_str,
    "int": _is_int,
    "bool": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "id": lambda v: isinstance(v, str) or _is_int(v),
    "dict": _is_dict,
    "list[str]": lambda v: _is_list_of(v, str),
    "list[dict]": lambda v: _is_list_of(v, dict),
    "list[list[str]]": _is_str_list_list,
}


def _test(shapes: tuple[str, ...]) -> Callable[[Any], bool]:
    """One test for a field allowing any of ``shapes``."""
    tests = tuple(_TESTS[s] for s in shapes)
    if len(tests) == 1:
        return tests[0]

    def any_of(value: Any) -> bool:
        for test in tests:
            if test(value):
                return True
        return False

    return any_of


_FIELD_TESTS = {name: _test(shapes) for name, shapes in FIELD_SHAPES.items()}
_ROUTE_TESTS = {name: _test(shapes) for name, shapes in ROUTE_SHAPES.items()}

# the exact types that pass each scalar shape at once (anything else, lists included, takes the field's full test)
_SCALAR_TYPES: dict[str, tuple[type, ...]] = {
    "str": (str,),
    "int": (int,),
    "bool": (bool,),
    "null": (type(None),),
    "id": (str, int),
}


def _plain_types(shapes: tuple[str, ...]) -> frozenset[type]:
    return frozenset(t for s in shapes for t in _SCALAR_TYPES.get(s, ()))


#: per field: (the exact types that pass at once, the field's full test), or None for a bookkeeping field that
#: takes any value -- one lookup per field of an action; a name not here is no field of an action (of a route)
_FIELD_CHECKS: dict[str, tuple[frozenset[type], Callable[[Any], bool]] | None] = {
    **{name: None for name in METADATA},
    **{name: (_plain_types(shapes), _FIELD_TESTS[name]) for name, shapes in FIELD_SHAPES.items()},
}
_ROUTE_CHECKS: dict[str, tuple[frozenset[type], Callable[[Any], bool]] | None] = {
    "revenue_str": None,  # (the site's text of a route's revenue, not read)
    **{name: (_plain_types(shapes), _ROUTE_TESTS[name]) for name, shapes in ROUTE_SHAPES.items()},
}
_NO_FIELD = ("no field",)  # (what a lookup of a name that is no field answers)


_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother, _SHORT.maxlist, _SHORT.maxdict = 2, 30, 30, 4, 4


def _describe(value: Any) -> str:
    text = _SHORT.repr(value)  # (bounded: a deeply nested value has no full repr)
    return text if len(text) <= 40 else text[:37] + "..."


def _where(route: int) -> str:
    """The start of an error's message: which route of the action it is about (none: -1)."""
    return "" if route < 0 else f"routes[{route}]: "


def unknown_fields(action: dict[str, Any]) -> list[str]:
    """The fields of ``action`` that are neither read by the engine nor 18xx.games bookkeeping (a record's
    ``auto_actions`` aside: a replay processes them one by one)."""
    return [name for name in action if name not in ALLOWED_FIELDS and name != "auto_actions"]


def _check_fields(
    fields: dict[str, Any],
    shapes: dict[str, tuple[str, ...]],
    checks: dict[str, tuple[frozenset[type], Callable[[Any], bool]] | None],
    route: int,
) -> None:
    """Each field of the action (``route`` -1) or of its route ``route``, in one pass: a known name, of the right JSON
    type, integers in range, strings and lists (hex chains included) not too long."""
    table: dict[str, tuple[frozenset[type], Callable[[Any], bool]] | None] = checks  # (dicts in the compiled build:
    ranges: dict[str, tuple[int, int]] = INT_RANGES  # action_shape.pxd)
    for name, value in fields.items():
        check = table.get(name, _NO_FIELD)
        if check is _NO_FIELD:
            raise MalformedAction(_unknown(name, route))
        kind = type(value)
        if check is not None and kind not in check[0] and not check[1](value):
            want = " or ".join(shapes[name])
            raise MalformedAction(f"{_where(route)}field {name!r} must be {want}, not {_describe(value)}")
        if kind is int:
            bounds = ranges.get(name)
            if bounds is not None and not bounds[0] <= value <= bounds[1]:
                low, high = bounds
                raise MalformedAction(f"{_where(route)}field {name!r} must be from {low} to {high}, not {value}")
        elif kind is str:
            if len(value) > MAX_TEXT:
                raise MalformedAction(f"{_where(route)}field {name!r} is longer than {MAX_TEXT} characters")
        elif kind is list:
            items = value
            if len(items) > MAX_ITEMS:
                raise MalformedAction(f"{_where(route)}field {name!r} has more than {MAX_ITEMS} items")
            for item in items:
                if (type(item) is str and len(item) > MAX_TEXT) or (type(item) is list and len(item) > MAX_ITEMS):
                    raise MalformedAction(f"{_where(route)}field {name!r} holds an item that is too long")


def _unknown(name: Any, route: int) -> str:
    """The message for a name that is no field of an action (``route`` -1) or of a route."""
    if route >= 0:
        return f"routes[{route}]: unknown field {_describe(name)}"
    if name == "auto_actions":
        return "field 'auto_actions': a record's automatic actions are processed one by one"
    return f"unknown field {_describe(name)} (fields: {', '.join(sorted(FIELD_SHAPES))})"


def check_action_shape(action: dict[str, Any]) -> None:
    """Raise :class:`MalformedAction` when a field the engine reads has the wrong JSON type."""
    if not isinstance(action, dict):
        raise MalformedAction(f"an action is a JSON object, not {type(action).__name__}")
    # (exactly a dict, as a .pxd may declare it)
    fields: dict[str, Any] = action if type(action) is dict else dict(action)
    if "type" not in fields:
        raise MalformedAction("action has no type")
    _check_fields(fields, FIELD_SHAPES, _FIELD_CHECKS, -1)
    for i, route in enumerate(fields.get("routes") or ()):
        if not isinstance(route, dict):
            raise MalformedAction(f"routes[{i}] must be an object, not {_describe(route)}")
        plain_route = route if type(route) is dict else dict(route)
        _check_fields(plain_route, ROUTE_SHAPES, _ROUTE_CHECKS, i)
        if "train" not in route:
            raise MalformedAction(f"routes[{i}] has no train")
