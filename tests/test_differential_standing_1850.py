"""The 1850 standing disagreements of tools/differential.py (docs/CONFORMANCE.md), checked on hand-made digest
lines with no reference engine (the tool itself is a development tool)."""

from __future__ import annotations

from typing import Any

from tests.differential_support import differential_tool as _tool


def _line(np_open: bool, np_private: bool, kind: str = "sell_shares", rnd: str = "Stock") -> dict[str, Any]:
    corporations = {"NP": {"cash": 0, "price": 10}} if np_open else {}
    return {
        "id": 1,
        "type": kind,
        "round": rnd,
        "corporations": {"GN": {"cash": 100, "price": 60}, **corporations},
        "companies": {"GBC": "NP"} if np_private else {},
    }


def test_1850_a_closing_sale_closes_the_corporations_privates_later_on_the_site_sale_price() -> None:
    """p1's sale drops NP into the black area: railbook closes NP with its privates at once ([5.1.1]), the site
    when it moves the price, after price protection is declined (differential seed 80000, action 604: the Gant
    Brothers still NP's on the site). Standing `sale_price` while the site's private closes within the window
    (the corporation's own closing already is); a private that stays NP's on the site, or one of a corporation
    railbook still has open, is a difference."""
    tool = _tool()
    ref = [_line(True, True), _line(True, True, "pass"), _line(False, False, "pass")]
    mine = [_line(False, False), _line(False, False, "pass"), _line(False, False, "pass")]
    assert tool.standing_kind("companies.GBC", "NP", tool.MISSING, 0, ref, mine, "1850", {}) == "sale_price"
    stays = [ref[0], ref[1], _line(False, True, "pass")]
    assert tool.standing_kind("companies.GBC", "NP", tool.MISSING, 0, stays, mine, "1850", {}) is None
    still_open = [_line(True, False), mine[1], mine[2]]
    assert tool.standing_kind("companies.GBC", "NP", tool.MISSING, 0, ref, still_open, "1850", {}) is None
    operating = [_line(True, True, rnd="Operating"), ref[1], ref[2]]
    assert tool.standing_kind("companies.GBC", "NP", tool.MISSING, 0, operating, mine, "1850", {}) is None
