"""The 1856 standing disagreements of tools/differential.py (docs/CONFORMANCE.md), checked on hand-made digest
lines with no reference engine (the tool itself is a development tool)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

TOOL = Path(__file__).resolve().parents[1] / "tools" / "differential.py"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("railbook_differential_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


def _line(cash: int, acting: list[str]) -> dict[str, Any]:
    corps = {"CV": {"cash": cash}}
    return {"id": 1, "type": "pass", "round": "Operating", "acting": {"CV": acting}, "corporations": corps}


def test_1856_a_private_listed_while_the_site_still_holds_the_interest_is_interest_at_once() -> None:
    """CV ends its track step owing $20 interest: railbook charges it at once ($18 left, too little for any private),
    the site after the next action ($38 meanwhile, and `buy_company` listed): standing `interest_at_once` while the
    cash gap is the interest and closes (differential seeds 50013, 50022). A gap that never closes, or a listing
    with the same cash, is a difference."""
    tool = _tool()
    ref = [_line(38, ["buy_company", "buy_train", "pass"]), _line(15, ["buy_train", "pass"])]
    mine = [_line(18, ["buy_train", "pass"]), _line(15, ["buy_train", "pass"])]
    assert tool.standing_kind("acting.CV", ["buy_company"], [], 0, ref, mine, "1856", {}) == "interest_at_once"
    never = [ref[0], _line(35, ["buy_train", "pass"])]
    assert tool.standing_kind("acting.CV", ["buy_company"], [], 0, never, mine, "1856", {}) is None
    same = [_line(18, ["buy_company", "buy_train", "pass"]), ref[1]]
    assert tool.standing_kind("acting.CV", ["buy_company"], [], 0, same, mine, "1856", {}) is None
    assert tool.standing_kind("acting.CV", ["buy_company"], [], 0, ref, mine, "1870", {}) is None
