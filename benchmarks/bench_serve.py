"""railbook serve: server time from an action to the updated table on a late 1817 board (median), and page weight."""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

from benchmarks.results import record as note

REPEATS = 15
#: actions before the end of the record where the board is taken
BEFORE_END = 12


def _late_record() -> Path | None:
    from tests.conftest import fixture_files

    files = fixture_files("1817")
    return max(files, key=lambda p: p.stat().st_size) if files else None


def _pick(table: Any) -> Any:
    """A tile lay when there is one (it redraws a hex of the map), else the first action that is no pass."""
    legal = table.game.legal_actions()
    lays = [la for la in legal if la.type == "lay_tile" and la.complete]
    others = [la for la in legal if la.type != "pass" and la.complete]
    return (lays or others or legal)[0]


def run() -> None:
    from railbook.engine.replay import load

    from railbook.serve.catalogue import Catalogue
    from railbook.serve.pages import table_html
    from railbook.serve.store import Store
    from railbook.serve.tables import Tables

    path = _late_record()
    if path is None:
        print("   serve skipped: no 1817 record (set RAILBOOK_SHARED to the shared/ folder)")
        return
    record = load(path)
    moves = [a for a in record["actions"] if a.get("type") not in ("message", "log", "undo", "redo")]
    tables = Tables(Store(":memory:"), Catalogue.build())
    table = tables.from_record(record, len(moves) - BEFORE_END)
    token = next(iter(table.seats.values()))
    player = table.seat_of(token)
    start = time.perf_counter()
    first = table_html(table, token, player)
    cold = time.perf_counter() - start
    times = []
    for _ in range(REPEATS):
        action = _pick(table)
        start = time.perf_counter()
        table.act(action)
        html = table_html(table, token, player)
        times.append(time.perf_counter() - start)
        table.undo()
        table_html(table, token, player)
    ms = statistics.median(times) * 1000
    run_ms = _to_a_run(tables, record, moves, token)
    static = Path(__file__).resolve().parent.parent / "railbook" / "serve" / "static"
    assets = sum(p.stat().st_size for p in static.iterdir() if p.is_file())
    weight = len(html.encode()) + assets
    hexes = sum(1 for h in table.game.state.hexes.values() if h.tile)
    print(
        f"   serve 1817 {path.name} action {len(table.game.actions)}, {hexes} tiles laid: action -> table "
        f"{ms:6.1f} ms median ({action.type}); an action that leads to a run (the table shows the best routes) "
        f"{run_ms:6.1f} ms; first table {cold * 1000:.0f} ms; page {weight / 1024:.0f} KiB "
        f"(table {len(first.encode()) / 1024:.0f} KiB + assets {assets / 1024:.0f} KiB)"
    )
    note("serve", "action_to_table_ms_1817_late", round(ms, 2))
    note("serve", "action_to_run_table_ms_1817_late", round(run_ms, 2))
    note("serve", "first_table_ms_1817", round(cold * 1000, 1))
    note("serve", "page_bytes_1817_late", weight)


def _to_a_run(tables: Any, record: dict[str, Any], moves: list[dict[str, Any]], token: str) -> float:
    """Median time of the record's last action before a run of routes, to the table with the best routes drawn
    (the action undone and redone)."""
    from railbook.serve.pages import table_html

    last = max((i for i, a in enumerate(moves) if a.get("type") == "run_routes"), default=None)
    if last is None:
        return float("nan")
    table = tables.from_record(record, last)
    token = next(iter(table.seats.values()))
    player = table.seat_of(token)
    table_html(table, token, player)
    times = []
    for _ in range(REPEATS):
        table.undo()
        table_html(table, token, player)
        start = time.perf_counter()
        table.redo()
        table_html(table, token, player)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000
