"""Schema validation of a loaded title, with errors mapped back to file, line and column."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from railbook.jsonio import deep_merge

from .errors import TitleError, located
from .load import KeyPath, LoadedDoc, Positions
from .models import CatalogueSource, GameSource


def _data_path(data: Any, loc: tuple[Any, ...]) -> KeyPath:
    """Keep the parts of a pydantic error location that exist in the data (drop union tags)."""
    path: list[Any] = []
    node = data
    for part in loc:
        if isinstance(node, dict):
            key = part
            if key not in node and isinstance(part, str) and part.lstrip("-").isdigit():
                key = int(part)
            if key in node:
                path.append(key)
                node = node[key]
                continue
            if part in {"int", "str", "float", "bool", "list", "dict"} or "[" in str(part):
                continue
            path.append(part)
            node = None
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            path.append(part)
            node = node[part]
        elif isinstance(part, str) and (part in {"int", "str", "float", "bool", "list", "dict"} or "[" in part):
            continue
        else:
            path.append(part)
            node = None
    return tuple(path)


def _message(err: dict[str, Any]) -> str:
    msg = str(err["msg"])
    if err["type"] == "missing":
        return "required key is missing"
    if err["type"] == "extra_forbidden":
        return "unknown key"
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            msg = msg[len(prefix) :]
    return msg


def schema_problems(exc: ValidationError, data: Any, positions: Positions, prefix: KeyPath = ()) -> list[str]:
    """One located line per pydantic error, deduplicated."""
    lines: list[str] = []
    for err in exc.errors():
        path = _data_path(data, tuple(err["loc"]))
        dotted = ".".join(str(p) for p in (*prefix, *path))
        lines.append(located(positions.find((*prefix, *path)), dotted, _message(err)))
    return list(dict.fromkeys(lines))


def validate_model(model: type[BaseModel], doc: LoadedDoc) -> Any:
    """Validate ``doc`` against ``model`` or raise a :class:`TitleError` with located lines."""
    try:
        return model.model_validate(doc.data)
    except ValidationError as exc:
        raise TitleError(schema_problems(exc, doc.data, doc.positions)) from None


def validate_source(doc: LoadedDoc) -> GameSource:
    """The title's base document and each option overlay applied on it."""
    source = validate_model(GameSource, doc)
    problems: list[str] = []
    for name, option in source.options.items():
        merged = deep_merge({k: v for k, v in doc.data.items() if k != "options"}, option.overlay)
        merged["options"] = {}
        try:
            GameSource.model_validate(merged)
        except ValidationError as exc:
            for err in exc.errors():
                path = _data_path(merged, tuple(err["loc"]))
                overlay_path = ("options", name, "overlay", *path)
                _, loc = doc.positions.nearest(overlay_path)
                dotted = ".".join(str(p) for p in path)
                problems.append(located(loc, dotted, f"with option {name}: {_message(err)}"))
    if problems:
        raise TitleError(list(dict.fromkeys(problems)))
    return source


def validate_catalogue(doc: LoadedDoc) -> CatalogueSource:
    return validate_model(CatalogueSource, doc)
