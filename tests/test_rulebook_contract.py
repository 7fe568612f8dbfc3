"""The compiled rulebook is a contract: every field described, documented, and readable with jsonschema alone."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from railbook.compiler.load import available_titles
from railbook.compiler.schema import SCHEMA_DIR
from railbook.engine.book import FORMAT_MAJOR

from tests.conftest import ROOT, run_cli

EXEMPT = {"mechanics"}  # each mechanic's parameters are described by its own model (docs/MECHANICS.md)


def _schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))


def properties(schema: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(where, name, property) of every property reachable from the root, outside the exempt subtrees."""
    defs = schema.get("$defs", {})
    seen: set[str] = set()
    todo: list[tuple[str, Any]] = [("#", schema)]
    while todo:
        where, node = todo.pop()
        if isinstance(node, list):
            todo.extend((where, item) for item in node)
            continue
        if not isinstance(node, dict):
            continue
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and ref not in seen:
            seen.add(ref)
            todo.append((ref[len("#/$defs/") :], defs[ref[len("#/$defs/") :]]))
        for name, prop in (node.get("properties") or {}).items():
            yield where, name, prop
            if name not in EXEMPT:
                todo.append((where, prop))
        for key, value in node.items():
            if key not in ("properties", "$defs", "$ref"):
                todo.append((where, value))


@pytest.mark.parametrize("name", ["rulebook.schema.json", "game.schema.json"])
def test_every_schema_property_has_a_description(name: str) -> None:
    missing = sorted(
        {f"{where}.{prop}" for where, prop, node in properties(_schema(name)) if not node.get("description")}
    )
    missing = [m for m in missing if m.split(".")[-1] not in EXEMPT]
    assert not missing, f"{name}: properties without a description (add Field(description=...)): {missing}"


def test_rulebook_doc_names_every_field() -> None:
    text = (ROOT / "docs" / "RULEBOOK.md").read_text(encoding="utf-8")
    names = {prop for _, prop, _ in properties(_schema("rulebook.schema.json"))}
    missing = sorted(n for n in names if f"`{n}`" not in text)
    assert not missing, f"docs/RULEBOOK.md does not mention: {missing}"
    for added in ("neighbours", "tile_upgrades", "homes", "reserved", "lanes", "origin", "train_order"):
        assert f"| `{added}`" in text, added


def test_format_doc_names_every_field_a_designer_writes() -> None:
    text = (ROOT / "docs" / "FORMAT.md").read_text(encoding="utf-8")
    names = {prop for _, prop, _ in properties(_schema("game.schema.json"))}
    missing = sorted(n for n in names if f"`{n}`" not in text and f"{n}:" not in text)
    assert not missing, f"docs/FORMAT.md does not mention: {missing}"


def _merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386, written out here so that the consumer needs nothing of railbook."""
    if not isinstance(patch, dict):
        return patch
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = _merge_patch(out.get(key), value)
    return out


def test_a_consumer_reads_every_rulebook_with_jsonschema_alone(tmp_path: Path) -> None:
    proc = run_cli("compile", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    validator = jsonschema.Draft202012Validator(_schema("rulebook.schema.json"))
    for title in available_titles():
        book = json.loads((tmp_path / title / "rulebook.json").read_text(encoding="utf-8"))
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(book)]
        assert not errors, f"{title}: {errors[:5]}"
        major = book["format_version"].split(".")[0]
        assert major == FORMAT_MAJOR, f"{title}: format {book['format_version']}"
        for option, spec in book["options"].items():
            variant = _merge_patch({**book, "options": {}}, spec["patch"])
            errors = [e.message for e in validator.iter_errors(variant)]
            assert not errors, f"{title} with {option}: {errors[:5]}"


def test_the_engine_refuses_a_rulebook_of_another_major_format() -> None:
    from railbook.engine.errors import UnsupportedTitle
    from railbook.engine.game import Game

    from railbook.api import rulebook_for_title

    book = rulebook_for_title("1846")
    assert book["format_version"].split(".")[0] == FORMAT_MAJOR
    older = {**book, "format_version": "1.1"}
    with pytest.raises(UnsupportedTitle, match=r"format 1\.1, this engine reads 2\.x"):
        Game.start(older, ["a", "b", "c"], seed=1)


def test_the_engine_refuses_a_tile_with_more_track_than_its_walk_takes() -> None:
    from railbook.engine.errors import UnsupportedTitle
    from railbook.engine.game import Game

    from railbook.api import rulebook_for_title

    book = rulebook_for_title("1846")
    name, spec = next(iter(book["tiles"].items()))
    crowded = {**spec, "paths": [{"a": str(i % 6), "b": str((i + 1) % 6)} for i in range(65)]}
    with pytest.raises(UnsupportedTitle, match=rf"tile {name} has 65 paths and \d+ stops"):
        Game.start({**book, "tiles": {**book["tiles"], name: crowded}}, ["a", "b", "c"], seed=1)
