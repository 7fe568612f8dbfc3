"""Every id the recorded 18xx.games games use exists in our compiled rulebooks.

These checks need no interpreter: tiles, hexes, companies and market cells named by the records must be
in the data, and consecutive hexes of a recorded route must be neighbours on our map.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from railbook.compiler.load import available_titles

from tests.conftest import fixture_files
from tests.rulebook_support import compiled

CASES = [(title, path) for title in available_titles() for path in fixture_files(title)]


def _book_for(record: dict[str, Any], title: str) -> dict[str, Any]:
    book = compiled(title)
    for option in record.get("settings", {}).get("optional_rules") or []:
        if option in book["options"]:
            book = {**compiled(title, option), "options": book["options"]}
    return book


def _actions(record: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for action in record["actions"]:
        out.append(action)
        out.extend(action.get("auto_actions") or [])
    return out


@pytest.mark.skipif(not CASES, reason="no recorded games found (set RAILBOOK_SHARED to the shared/ folder)")
@pytest.mark.parametrize(("title", "path"), CASES, ids=[f"{t}/{p.stem}" for t, p in CASES])
def test_record_ids_exist(title: str, path: Path) -> None:
    record = json.loads(path.read_text())
    book = _book_for(record, title)
    hexes, tiles = book["hexes"], book["tiles"]
    companies = set(book["corporations"]) | set(book["minors"]) | set(book["privates"])
    grid = book["market"]["grid"]
    problems: list[str] = []
    for action in _actions(record):
        kind = action["type"]
        where = f"action {action.get('id')} ({kind})"
        if kind == "lay_tile":
            tile = action["tile"].rsplit("-", 1)[0]
            if action["hex"] not in hexes:
                problems.append(f"{where}: unknown hex {action['hex']}")
            if tile not in tiles:
                problems.append(f"{where}: unknown tile {tile}")
        elif kind == "run_routes":
            for route in action["routes"]:
                for chain in route.get("connections") or []:
                    for a, b in itertools.pairwise(chain):
                        if b not in hexes.get(a, {}).get("neighbours", {}).values():
                            problems.append(f"{where}: {a} and {b} are not neighbours")
        elif kind == "par":
            price, row, col = (int(v) for v in action["share_price"].split(","))
            cell = grid[row][col] if row < len(grid) and col < len(grid[row]) else None
            if not cell or cell["price"] != price:
                problems.append(f"{where}: market cell {row},{col} is not {price}")
            if action["corporation"] not in companies:
                problems.append(f"{where}: unknown corporation {action['corporation']}")
        elif kind in ("buy_shares", "sell_shares"):
            for share in action.get("shares", []):
                if share.rsplit("_", 1)[0] not in companies:
                    problems.append(f"{where}: unknown share {share}")
    assert not problems, "\n".join(problems[:20])
