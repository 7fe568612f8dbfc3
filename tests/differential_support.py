"""Loading tools/differential.py (a development script, not a package) for the tests of its standing differences."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

TOOL = Path(__file__).resolve().parents[1] / "tools" / "differential.py"


def differential_tool() -> ModuleType:
    """A fresh copy of the tool's module (no state carried from one test to the next)."""
    spec = importlib.util.spec_from_file_location("railbook_differential_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module
