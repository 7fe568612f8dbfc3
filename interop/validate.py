"""Validate an 18xx-maker game document against 18xx-maker's own JSON schemas."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from railbook.errors import RailbookError


def validate_game(game: dict[str, Any], schemas: Path) -> list[str]:
    """One line per schema error (``path: message``); empty when the game validates."""
    import jsonschema
    from referencing import Registry, Resource

    files = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in Path(schemas).glob("*.schema.json")}
    if "game.schema.json" not in files:
        raise RailbookError(f"{schemas}: no game.schema.json (point at the schemas/ folder of @18xx-maker/schemas)")
    registry = Registry()
    for name, doc in files.items():
        resource = Resource.from_contents(doc, default_specification=_draft7())
        registry = registry.with_resource(name, resource)
        if doc.get("$id"):
            registry = registry.with_resource(doc["$id"], resource)
    validator = jsonschema.Draft7Validator(files["game.schema.json"], registry=registry)
    out = []
    for err in sorted(validator.iter_errors(game), key=lambda e: list(map(str, e.absolute_path))):
        where = "/".join(str(p) for p in err.absolute_path) or "(root)"
        out.append(f"{where}: {err.message[:200]}")
    return out


def _draft7() -> Any:
    from referencing.jsonschema import DRAFT7

    return DRAFT7
