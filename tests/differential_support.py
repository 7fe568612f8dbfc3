"""Loading tools/differential.py (a development script, not a package) for the tests of its standing differences."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

TOOL = Path(__file__).resolve().parents[1] / "tools" / "differential.py"


def differential_tool() -> ModuleType:
    """A fresh copy of the tool's module (no state carried from one test to the next)."""
    spec = importlib.util.spec_from_file_location("railbook_differential_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


def stub_reference(tool: ModuleType, first: dict[str, Any]) -> list[list[Any]]:
    """Replace the tool's reference replay with one that accepts every action of the site's copy after ``first``
    (its first line): the (entity, id) of each copy it is given is appended to the list returned."""
    seen: list[list[Any]] = []

    def reference(site_path: Any, strict: bool, cache: Any) -> list[dict[str, Any]]:
        actions = json.loads(site_path.read_text())["actions"]
        seen.append([(a["entity"], a["id"]) for a in actions])
        return [first, *({"id": a["id"]} for a in actions[1:])]  # (the added pass accepted: no failure)

    tool.reference = reference
    return seen
