"""JSON Schemas generated from the models (``railbook schema`` writes them to ``schemas/``)."""

from __future__ import annotations

from pathlib import Path

from railbook.jsonio import dump_json, write_atomic
from railbook.paths import schemas_dir

from . import mechanics_doc
from .models import CatalogueSource, GameSource
from .rulebook import Rulebook

SCHEMA_DIR = schemas_dir()
SCHEMAS = {
    "rulebook.schema.json": (Rulebook, "railbook compiled rulebook"),
    "game.schema.json": (GameSource, "railbook title source (merged YAML files)"),
    "tiles.schema.json": (CatalogueSource, "railbook tile catalogue"),
}


def schema_texts() -> dict[str, str]:
    """Each schema file name with its canonical JSON text."""
    out = {}
    for name, (model, title) in SCHEMAS.items():
        schema = model.model_json_schema(mode="serialization" if model is Rulebook else "validation")
        schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title, **schema}
        out[name] = dump_json(schema)
    return out


MECHANICS_DOC = SCHEMA_DIR.parent / "docs" / "MECHANICS.md"


def write_schemas(directory: Path = SCHEMA_DIR) -> list[Path]:
    """The JSON Schemas, and (in a source checkout) docs/MECHANICS.md generated from the same models."""
    written = []
    for name, text in schema_texts().items():
        path = directory / name
        write_atomic(path, text)
        written.append(path)
    if directory == SCHEMA_DIR and MECHANICS_DOC.parent.is_dir():
        write_atomic(MECHANICS_DOC, mechanics_doc.render())
        written.append(MECHANICS_DOC)
    return written
