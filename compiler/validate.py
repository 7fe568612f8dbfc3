"""Schema validation of a loaded title, with errors mapped back to file, line and column."""

from __future__ import annotations

import types
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from railbook.jsonio import deep_merge

from .errors import TitleError, located
from .load import KeyPath, LoadedDoc, Positions
from .models import CatalogueSource, GameSource
from .suggest import suggestion


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
            if _is_tag(part):
                continue
            path.append(part)
            node = None
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            path.append(part)
            node = node[part]
        elif _is_tag(part):
            continue
        else:
            path.append(part)
            node = None
    return tuple(path)


_TAGS = {"int", "str", "float", "bool", "list", "dict", "none"}


def _is_tag(part: Any) -> bool:
    """A part of a pydantic error location naming a union member or a validator, not a key of the data."""
    return isinstance(part, str) and (part in _TAGS or "[" in part or part.startswith("constrained-"))


def _strip(ann: Any) -> Any:
    while get_origin(ann) is Annotated:
        ann = get_args(ann)[0]
    return ann


def _is_model(ann: Any) -> bool:
    return isinstance(ann, type) and issubclass(ann, BaseModel)


def _descend(ann: Any, part: Any) -> Any:
    """The annotation one step down ``part`` of a pydantic error location (None when unknown)."""
    ann = _strip(ann)
    if get_origin(ann) in (Union, types.UnionType):
        members = [_strip(m) for m in get_args(ann) if m is not type(None)]
        for member in members:
            if isinstance(part, str) and part == getattr(member, "__name__", None):
                return member  # a union tag names the member the value was checked against
        models = [m for m in members if _is_model(m)]
        containers = [m for m in members if get_origin(m) in (list, dict)]
        candidates = models or containers
        return _descend(candidates[0], part) if len(candidates) == 1 else None
    if _is_model(ann):
        for name, info in ann.model_fields.items():
            if part in (name, info.alias):
                return info.annotation
        return None
    if get_origin(ann) in (list, dict):
        return get_args(ann)[-1]
    return None


def valid_keys(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    """The keys a mapping at ``loc`` may hold, when a model defines them (empty when unknown)."""
    ann: Any = model
    for part in loc:
        ann = _descend(ann, part)
        if ann is None:
            return []
    ann = _strip(ann)
    if get_origin(ann) in (Union, types.UnionType):
        models = [_strip(m) for m in get_args(ann) if _is_model(_strip(m))]
        ann = models[0] if len(models) == 1 else None
    return [info.alias or name for name, info in ann.model_fields.items()] if _is_model(ann) else []


def _message(err: dict[str, Any], model: type[BaseModel] | None = None) -> str:
    msg = str(err["msg"])
    if err["type"] == "missing":
        return "required key is missing"
    if err["type"] == "extra_forbidden":
        loc = tuple(err["loc"])
        keys = valid_keys(model, loc[:-1]) if model is not None and loc else []
        hint = suggestion(loc[-1], keys) or (f" (valid: {', '.join(keys)})" if 0 < len(keys) <= 40 else "")
        return f"unknown key '{loc[-1]}'{hint}" if loc else "unknown key"
    if err["type"] in ("model_type", "int_parsing", "int_type", "int_from_float"):
        shape = "a whole number" if err["type"] != "model_type" else _form(err)
        return f"{_shown(err.get('input'))} should be {shape}"
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            msg = msg[len(prefix) :]
    return msg


_SHAPE_ERRORS = {
    "model_type",
    "model_attributes_type",
    "dict_type",
    "list_type",
    "literal_error",
    "string_type",
    "int_type",
    "int_parsing",
    "float_type",
    "float_parsing",
    "bool_type",
    "bool_parsing",
    "none_required",
}


def _model_named(name: Any) -> type[BaseModel] | None:
    todo: list[type[BaseModel]] = [BaseModel]
    while todo:
        cls = todo.pop()
        if cls.__name__ == name:
            return cls
        todo.extend(cls.__subclasses__())
    return None


def _form(err: dict[str, Any]) -> str:
    """What one member of a union would have accepted, in a few words."""
    ctx = err.get("ctx") or {}
    if err["type"] == "model_type":
        cls = _model_named(ctx.get("class_name"))
        keys = [info.alias or name for name, info in cls.model_fields.items()] if cls is not None else []
        return f"a mapping of {', '.join(keys)}" if keys else "a mapping"
    if err["type"] == "literal_error":
        return str(ctx.get("expected", "one of the listed values"))
    msg = str(err["msg"]).removeprefix("Input should be ").split(", unable")[0]
    return msg


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:36] + "..."


def located_errors(exc: ValidationError, data: Any, model: type[BaseModel] | None = None) -> list[tuple[KeyPath, str]]:
    """``(path in the data, message)`` per problem: the errors of a union's members at one place are merged into
    one line naming what each member accepts, and a member's shape error is dropped when another member matched
    the shape and failed deeper."""
    errors = [(_data_path(data, tuple(err["loc"])), dict(err)) for err in exc.errors()]
    deeper = {path[:n] for path, _ in errors for n in range(len(path))}
    groups: dict[KeyPath, list[dict[str, Any]]] = {}
    for path, err in errors:
        if err["type"] in _SHAPE_ERRORS and path in deeper:
            continue
        groups.setdefault(path, []).append(err)
    out: list[tuple[KeyPath, str]] = []
    for path, errs in groups.items():
        if len(errs) == 1:
            out.append((path, _message(errs[0], model)))
            continue
        custom = [_message(e, model) for e in errs if e["type"] == "value_error"]
        forms = [_form(e) for e in errs if e["type"] != "value_error" and not (custom and e["type"] == "string_type")]
        forms = list(dict.fromkeys(forms))
        if custom:
            text = "; ".join(dict.fromkeys(custom)) + (f"; or {' or '.join(forms)}" if forms else "")
        else:
            text = f"{_shown(errs[0].get('input'))} should be {'; or '.join(forms)}"
        out.append((path, text))
    return out


def schema_problems(
    exc: ValidationError,
    data: Any,
    positions: Positions,
    prefix: KeyPath = (),
    model: type[BaseModel] | None = None,
) -> list[str]:
    """One located line per pydantic error, deduplicated."""
    lines: list[str] = []
    for path, message in located_errors(exc, data, model):
        dotted = ".".join(str(p) for p in (*prefix, *path))
        lines.append(located(positions.find((*prefix, *path)), dotted, message))
    return list(dict.fromkeys(lines))


def validate_model(model: type[BaseModel], doc: LoadedDoc) -> Any:
    """Validate ``doc`` against ``model`` or raise a :class:`TitleError` with located lines."""
    try:
        return model.model_validate(doc.data)
    except ValidationError as exc:
        raise TitleError(schema_problems(exc, doc.data, doc.positions, model=model)) from None


def validate_source(doc: LoadedDoc) -> GameSource:
    """The title's base document and each option overlay applied on it."""
    source = validate_model(GameSource, doc)
    problems: list[str] = []
    for name, option in source.options.items():
        for other in option.excludes:
            if other not in source.options:
                _, loc = doc.positions.nearest(("options", name, "excludes"))
                problems.append(located(loc, f"options.{name}.excludes", f"unknown option {other!r}"))
        merged = deep_merge({k: v for k, v in doc.data.items() if k != "options"}, option.overlay)
        merged["options"] = {}
        try:
            GameSource.model_validate(merged)
        except ValidationError as exc:
            for path, message in located_errors(exc, merged, GameSource):
                overlay_path = ("options", name, "overlay", *path)
                _, loc = doc.positions.nearest(overlay_path)
                dotted = ".".join(str(p) for p in path)
                problems.append(located(loc, dotted, f"with option {name}: {message}"))
    if problems:
        raise TitleError(list(dict.fromkeys(problems)))
    return source


def validate_catalogue(doc: LoadedDoc) -> CatalogueSource:
    return validate_model(CatalogueSource, doc)
