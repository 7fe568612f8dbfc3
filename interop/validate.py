"""Validate an 18xx-maker game document against 18xx-maker's own JSON schemas."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from railbook.errors import RailbookError


def validate_game(game: dict[str, Any], schemas: Path) -> list[str]:
    """One line per schema error (``path: message``); empty when the game validates."""
    import jsonschema
    from referencing import Registry, Resource

    from railbook.records import parse_json, read_text

    files: dict[str, Any] = {}
    for path in sorted(Path(schemas).glob("*.schema.json")):
        doc = parse_json(read_text(path), str(path), depth=64)  # located errors, within the input limits
        if not isinstance(doc, dict):
            raise RailbookError(f"{path}: not a JSON schema (the top level is not an object)")
        files[path.name] = doc
    if "game.schema.json" not in files:
        raise RailbookError(f"{schemas}: no game.schema.json (point at the schemas/ folder of @18xx-maker/schemas)")
    try:
        registry = Registry()
        for name, doc in files.items():
            resource = Resource.from_contents(doc, default_specification=_draft7())
            registry = registry.with_resource(name, resource)
            if isinstance(doc.get("$id"), str):
                registry = registry.with_resource(doc["$id"], resource)
        jsonschema.Draft7Validator.check_schema(files["game.schema.json"])
        validator = jsonschema.Draft7Validator(files["game.schema.json"], registry=registry)
        out = []
        for err in sorted(validator.iter_errors(game), key=lambda e: list(map(str, e.absolute_path))):
            where = "/".join(str(p) for p in err.absolute_path) or "(root)"
            out.append(f"{where}: {' '.join(err.message.split())[:200]}")
    except (jsonschema.exceptions.SchemaError, jsonschema.exceptions.RefResolutionError) as exc:
        raise RailbookError(
            f"{schemas}: not a usable set of 18xx-maker schemas: {' '.join(str(exc).split())[:200]}"
        ) from None
    except Exception as exc:  # a schema the validator cannot follow (a missing $ref, a wrong type deep inside)
        if isinstance(exc, RailbookError):
            raise
        raise RailbookError(f"{schemas}: not a usable set of 18xx-maker schemas ({type(exc).__name__})") from None
    return out


def _draft7() -> Any:
    from referencing.jsonschema import DRAFT7

    return DRAFT7
