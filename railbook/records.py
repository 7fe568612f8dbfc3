"""Reading game records (18xx.games exports and railbook action logs) within the input limits.

:func:`read_record` is what every command that takes a record file calls: it refuses what is not a regular
file, too big, not UTF-8 JSON, nested too deep or with too many actions, and checks the record's shape
(actions are objects with a ``type``; an export's actions have ids, and an undo's target is one action), each
problem one line naming the file and the action.  :func:`kept_actions` applies undo and redo in linear time
with a bounded amount of work.
"""

from __future__ import annotations

import json
import math
import re
import stat
import sys
from pathlib import Path
from typing import Any

from . import limits
from .engine import undo
from .errors import RailbookError
from .jsonio import interned

LOG_FORMAT = "railbook-log"
LATEST_TIME = 253_402_300_799  # 9999-12-31 23:59:59 UTC, the last second a date can hold


FIELDS: dict[str, type | tuple[type, ...]] = {
    "title": (str, int),
    "players": list,
    "settings": dict,
    "result": dict,
    "game_end_reason": str,
    "seed": int,
    "options": list,
}
FIELD_NAMES = {(str, int): "a string", list: "a list", dict: "an object", str: "a string", int: "a whole number"}


class RecordError(RailbookError):
    """A record that cannot be read or is malformed; ``where`` is the file (and action) it concerns."""

    def __init__(self, where: str, message: str):
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}")


def _action_where(shown: str, index: int, action: Any) -> str:
    aid = action.get("id") if isinstance(action, dict) else None
    return f"{shown}: action {index} (id {aid})"


def _spot(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _too_deep_at(text: str, cap: int) -> int | None:
    """Offset of the first bracket that opens level ``cap + 1`` (strings skipped), or None."""
    depth = 0
    for m in _TOKENS.finditer(text):
        ch = m.group()
        if ch in "[{":
            depth += 1
            if depth > cap:
                return m.start()
        elif ch in "]}":
            depth -= 1
    return None


def _depth_ok(data: Any, cap: int) -> bool:
    """Whether ``data`` nests at most ``cap`` levels of objects and arrays (iterative)."""
    stack = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth > cap:
            return False
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return True


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:20]} is too large a number")
    return value


def read_text(path: Path, cap: int = limits.RECORD_BYTES.value) -> str:
    """The UTF-8 text of a regular file of at most ``cap`` bytes (a BOM is dropped)."""
    shown = str(path)
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise RecordError(shown, "is a folder, not a record file")
        if not stat.S_ISREG(info.st_mode):
            raise RecordError(shown, "not a regular file")
        if info.st_size > cap:
            raise RecordError(shown, f"file is larger than {cap:,} bytes")
        with path.open("rb") as fh:
            data = fh.read(cap + 1)
    except OSError as exc:
        raise RecordError(shown, f"cannot read record: {exc.strerror or exc}") from None
    if len(data) > cap:
        raise RecordError(shown, f"file is larger than {cap:,} bytes")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line, col = _spot(data.decode("latin-1"), exc.start)
        raise RecordError(f"{shown}:{line}:{col}", f"not UTF-8 text (byte 0x{data[exc.start]:02x})") from None


def parse_json(text: str, shown: str, depth: int = limits.RECORD_DEPTH.value) -> Any:
    """JSON text nested at most ``depth`` levels; problems are located ``file:line:col``."""
    try:
        data = json.loads(text, parse_constant=_reject_constant, parse_float=_finite)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{shown}:{exc.lineno}:{exc.colno}", f"not JSON: {exc.msg}") from None
    except RecursionError:
        data = None
    except MemoryError:
        raise RecordError(shown, "record too large to read into memory") from None
    except ValueError as exc:  # NaN, Infinity, a number with thousands of digits
        if "digits" in str(exc):
            raise RecordError(shown, f"a number with more than {sys.get_int_max_str_digits():,} digits") from None
        raise RecordError(shown, f"not JSON: {' '.join(str(exc).split())}") from None
    else:
        if _depth_ok(data, depth):
            return data
    deep = _too_deep_at(text, depth)
    line, col = _spot(text, deep or 0)
    raise RecordError(f"{shown}:{line}:{col}", f"nested deeper than {depth} levels")


def check_record(data: Any, shown: str) -> dict[str, Any]:
    """The record's shape: an object with an ``actions`` list of well-formed actions."""
    if not isinstance(data, dict) or not isinstance(data.get("actions"), list):
        raise RecordError(shown, "not a game record (no actions list)")
    for key, kinds in FIELDS.items():
        if data.get(key) is not None and not isinstance(data[key], kinds):
            raise RecordError(shown, f"record.malformed: '{key}' must be {FIELD_NAMES[kinds]}")
    settings = data.get("settings") or {}
    for key, value in (("settings.optional_rules", settings.get("optional_rules")), ("options", data.get("options"))):
        if value is not None and not (isinstance(value, list) and all(isinstance(o, str) for o in value)):
            raise RecordError(shown, f"record.malformed: '{key}' must be a list of strings")
    created = data.get("created_at")
    if isinstance(created, int | float) and not isinstance(created, bool) and not 0 <= created <= LATEST_TIME:
        raise RecordError(shown, "record.malformed: 'created_at' is seconds since 1970 up to the year 9999")
    result = data.get("result") or {}
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in result.values()):
        raise RecordError(shown, "record.malformed: 'result' maps players to numbers")
    actions = data["actions"]
    if len(actions) > limits.RECORD_ACTIONS.value:
        raise RecordError(shown, f"more than {limits.RECORD_ACTIONS.value:,} actions")
    export = data.get("format") != LOG_FORMAT
    first: dict[Any, int] = {}
    duplicated: set[Any] = set()
    for index, action in enumerate(actions):
        where = _action_where(shown, index, action)
        if not isinstance(action, dict):
            raise RecordError(where, f"record.malformed: an action is an object, not {type(action).__name__}")
        if not isinstance(action.get("type"), str):
            raise RecordError(where, "record.malformed: an action needs a 'type' string")
        autos = action.get("auto_actions")
        if autos is not None and not (isinstance(autos, list) and all(isinstance(a, dict) for a in autos)):
            raise RecordError(where, "record.malformed: 'auto_actions' must be a list of objects")
        if not export:
            continue
        aid = action.get("id")
        if aid is None:
            raise RecordError(where, "record.id: an action of an 18xx.games export needs an id")
        if isinstance(aid, bool) or not isinstance(aid, int):
            raise RecordError(where, f"record.id: an id is a whole number, not {aid!r}")
        if aid in first:
            duplicated.add(aid)
        else:
            first[aid] = index
        if action["type"] == "undo" and "action_id" in action:
            target = action["action_id"]
            if target is not None and (isinstance(target, bool) or not isinstance(target, int)):
                raise RecordError(where, f"record.undo: undo's action_id is a whole number, not {target!r}")
            if target in duplicated:
                raise RecordError(where, f"record.id: undo to id {target}, which more than one action has")
    return data


def read_record(path: str | Path) -> dict[str, Any]:
    """A record file read and checked within the limits; raises :class:`RecordError`."""
    path = Path(path)
    return check_record(interned(parse_json(read_text(path), str(path))), str(path))


def kept_actions(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions left once undo and redo are applied, as the 18xx.games site does (see
    :func:`railbook.engine.undo.kept_actions`), moving at most ``limits.RECORD_UNDO_WORK`` actions."""
    most = limits.RECORD_UNDO_WORK.value
    try:
        return undo.kept_actions(actions, most)
    except undo.UndoWorkExceeded as exc:
        raise RecordError(
            f"action {exc.index} (id {exc.action_id})", f"record.undo: undo and redo move more than {most:,} actions"
        ) from None
