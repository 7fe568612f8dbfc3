"""The optimiser on recorded games: the 18xx.games router's answers, and never below what was run.

Boards come from the interpreter's replay of the record. Every test skips with its reason when the shared
fixtures are absent.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from railbook.routes import solve
from railbook.routes.positions import ReplayUnavailable, decisions, interpreter_decisions

from tests.conftest import fixture_files, run_cli, shared_dir

# (record, action id, corporation, total found by the 18xx.games router)
REFERENCES = [
    ("3099.json", 560, "ERIE", 730),
    ("1846_game_end_reason_all_closed.json", 589, "IC", 760),
    ("12666.json", 388, "ERIE", 850),
    ("10264.json", 542, "B&O", 670),
]


def fixture(name: str) -> Path:
    base = shared_dir()
    path = base / "fixtures" / "1846" / name if base else None
    if path is None or not path.is_file():
        pytest.skip(f"fixture 1846/{name} not found (set RAILBOOK_SHARED to the shared/ folder)")
    return path


@lru_cache(maxsize=1)
def rulebook_1846() -> dict[str, Any]:
    from railbook.compiler.compile import build_rulebook

    return build_rulebook("1846")


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(("name", "at", "corp", "total"), REFERENCES)
def test_reference_positions_interpreter(name: str, at: int, corp: str, total: int) -> None:
    record = load(fixture(name))
    try:
        found, _ = decisions(record, rulebook_1846(), at=at, source="interpreter")
    except ReplayUnavailable as exc:
        pytest.skip(f"the interpreter cannot replay {name} to action {at} yet: {exc}")
    assert found[0].corporation == corp
    assert solve(found[0].problem).total == total


def _check_not_below(found: list) -> None:
    below = []
    for d in found:
        if d.recorded is None:
            continue
        got = solve(d.problem).total
        if got < d.recorded:
            below.append((d.action_id, d.corporation, d.recorded, got, d.notes))
    assert not below, below


@pytest.mark.parametrize("path", fixture_files("1846"), ids=lambda p: p.name)
def test_optimum_at_least_recorded_interpreter(path: Path) -> None:
    """Every run the interpreter reaches: the optimum is at least what was run."""
    found = []
    stopped = None
    try:
        for d in interpreter_decisions(load(path), rulebook_1846()):
            found.append(d)
    except ReplayUnavailable as exc:
        stopped = exc
    _check_not_below(found)
    if stopped is not None and not found:
        pytest.skip(f"the interpreter cannot replay {path.name} to its first run yet: {stopped}")


def test_boards_come_from_the_interpreter_only() -> None:
    """The board-only record reader is retired: asking for it is a one-line error."""
    proc = run_cli("routes", str(fixture("3099.json")), "--source", "record", "--json")
    assert proc.returncode == 1
    assert "boards come from the interpreter" in json.loads(proc.stdout)["error"]


def test_cli_at_json() -> None:
    path = fixture("3099.json")
    proc = run_cli("routes", str(path), "--at", "560", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["corporation"] == "ERIE" and out["total"] == 730
    assert sum(r["revenue"] for r in out["routes"]) == 730
    assert {"train", "stops", "hexes", "revenue"} <= set(out["routes"][0])


def test_cli_all_runs_json() -> None:
    path = fixture("12666.json")
    proc = run_cli("routes", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    s = out["summary"]
    assert s["runs"] == len(out["decisions"]) > 0
    assert s["optimum_ge_recorded"] == s["runs"]
    assert s["max_ms"] < 2000  # generous: CI machines vary; benchmarks/bench_routes.py measures properly


def test_best_routes_on_a_game() -> None:
    """``best_routes(game)`` on the interpreter's game, just before the first recorded run."""
    from railbook.routes import best_routes
    from railbook.routes.positions import _kept_actions, start_game

    record = load(fixture("3099.json"))
    try:
        g = start_game(record, rulebook_1846())
        actions, normalise, non_moves = _kept_actions(record)
        for a in actions:
            if a["type"] == "run_routes":
                break
            if a["type"] not in non_moves:
                g.process(normalise(a))
    except Exception as exc:
        pytest.skip(f"the interpreter cannot replay 3099.json to its first run yet: {type(exc).__name__}: {exc}")
    out = best_routes(g, str(a["entity"]))
    assert out.corporation == a["entity"]
    assert out.total == sum(int(r["revenue"]) for r in out.routes) > 0  # type: ignore[call-overload]
    assert {"train", "stops", "hexes", "revenue"} <= set(out.routes[0])
    found = decisions(record, rulebook_1846(), at=int(a["id"]))[0][0]
    assert out.total == solve(found.problem).total


@pytest.mark.parametrize("name", ["3099.json", "1846_game_end_reason_all_closed.json"])
def test_interpreter_accepts_the_optimal_routes(name: str) -> None:
    """At every recorded run, the interpreter's own route check accepts the optimal set and scores it the same."""
    from railbook.routes.adapter import problem_from_game
    from railbook.routes.model import route_connections
    from railbook.routes.positions import _kept_actions, start_game

    record = load(fixture(name))
    try:
        g = start_game(record, rulebook_1846())
        from railbook.engine import routes as engine_routes
    except (ReplayUnavailable, ImportError) as exc:
        pytest.skip(f"the interpreter is not available: {exc}")
    actions, normalise, non_moves = _kept_actions(record)
    checked = 0
    for a in actions:
        if a.get("type") in non_moves:
            continue
        if a.get("type") == "run_routes" and a.get("routes"):
            corp = str(a["entity"])
            problem = problem_from_game(g.context, corp)
            solution = solve(problem)
            specs = [{"train": r.train, "connections": route_connections(problem, r)} for r in solution.routes]
            key = ("C|" if corp in g.state.corporations else "M|") + corp
            scored = engine_routes.evaluate(g.context, key, specs)
            assert sum(r.revenue for r in scored) == solution.total, (a["id"], corp)
            checked += 1
        try:
            for step in [a, *(a.get("auto_actions") or [])]:
                g.process(normalise(step), atomic=False)
        except Exception as exc:
            if not checked:
                pytest.skip(f"the interpreter cannot replay {name} to a run yet: {exc}")
            return
    assert checked


# (title, record, action id): positions where the optimiser once found less than was run
MARKER_POSITIONS = [
    ("1870", "1870_game_end_bank.json", 918),  # a destination marker's extra city space leaves a city passable
    ("1870", "1870_game_end_bankrupt.json", 592),  # a destination marker at an off-board's edge starts routes
]


@pytest.mark.parametrize(("title", "name", "at"), MARKER_POSITIONS, ids=lambda v: str(v))
def test_destination_markers_on_the_board_the_optimiser_sees(title: str, name: str, at: int) -> None:
    """The optimiser's board has the interpreter's token spaces and marker stops: it finds what was run, and the
    interpreter accepts its routes and scores them the same."""
    from railbook.engine import routes as engine_routes
    from railbook.routes.adapter import problem_from_game
    from railbook.routes.model import route_connections

    from railbook.api import record_rulebook

    base = shared_dir()
    path = base / "fixtures" / title / name if base else None
    if path is None or not path.is_file():
        pytest.skip(f"fixture {title}/{name} not found (set RAILBOOK_SHARED to the shared/ folder)")
    record = load(path)
    book = record_rulebook(record)
    found, _ = decisions(record, book, at=at, source="interpreter")
    solution = solve(found[0].problem)
    assert found[0].recorded is not None and solution.total >= found[0].recorded
    from railbook.routes.positions import _kept_actions, start_game

    g = start_game(record, book)
    actions, normalise, non_moves = _kept_actions(record)
    for a in actions:
        if a.get("id") == at:
            break
        if a.get("type") not in non_moves:
            for step in [a, *(a.get("auto_actions") or [])]:
                g.process(normalise(step), atomic=False)
    corp = found[0].corporation
    problem = problem_from_game(g.context, corp)
    specs = [{"train": r.train, "connections": route_connections(problem, r)} for r in solve(problem).routes]
    assert sum(r.revenue for r in engine_routes.evaluate(g.context, f"C|{corp}", specs)) == solution.total


def test_cutting_dominated_walks_keeps_the_same_links(monkeypatch: pytest.MonkeyPatch) -> None:
    """``build_graph`` cuts a walk that enters a hex by the same edge as an earlier one from the same stop over more
    hexsides (once a stop's walks pass ``CUT_AFTER`` steps), and a walk that leaves a hex by a way it could have
    taken on an earlier visit: on the boards of a recorded 1817 game, cutting from the first step gives the links
    of every simple walk of plain track, kept when no other link joins the same stops over fewer hexsides (with and
    without marked hexes, where only the first cut applies)."""
    from railbook.compiler.compile import build_rulebook
    from railbook.routes import network, positions

    base = shared_dir()
    path = base / "fixtures" / "1817" / "15528.json" if base else None
    if path is None or not path.is_file():
        pytest.skip("fixture 1817/15528.json not found (set RAILBOOK_SHARED to the shared/ folder)")
    boards: list[tuple[Any, str]] = []
    build = positions._timed_build

    def keep(board: Any, corp: str, trains: Any, bonuses: Any) -> Any:
        boards.append((board, corp))
        return build(board, corp, trains, bonuses)

    monkeypatch.setattr(positions, "_timed_build", keep)
    decisions(load(path), build_rulebook("1817"))
    assert len(boards) > 20
    monkeypatch.setattr(network, "GRAPH_CACHE", 0)
    monkeypatch.setattr(network, "CUT_AFTER", 0)
    for board, corp in boards[-40:]:
        for marked in (frozenset(), frozenset(sorted(board.hexes)[::4])):
            stops, links, hex_sides = network.build_graph(board, corp, marked)
            named = {
                bit: frozenset(h for h, all_ in hex_sides.items() if all_ >> bit & 1)
                for bit in range(max(hex_sides.values(), default=0).bit_length())
            }
            want_stops, want_links = _every_walk(board, corp, marked)
            assert stops == want_stops
            assert _canonical(links, named) == want_links


def _canonical(links: list, named: dict[int, frozenset[str]]) -> set[tuple[Any, ...]]:
    """Links with their hexsides named by the hexes on either side (one hex: track inside it)."""
    out = set()
    for lk in links:
        bits = [i for i in range(lk.sides.bit_length()) if lk.sides >> i & 1]
        out.add((lk.a, lk.b, frozenset(named.get(i) or frozenset() for i in bits), lk.hexes))
    return out


def _every_walk(board: Any, corp: str, marked: frozenset[str]) -> tuple[list, set[tuple[Any, ...]]]:
    """The reachable stops and undominated links of ``board`` from every simple walk of plain track (no cut), as
    ``_canonical`` names them: the plain definition ``build_graph``'s cuts must agree with."""
    from railbook.routes import network
    from railbook.routes.model import Link

    from railbook.hexgrid import opposite

    stops: list = []
    index: dict[tuple[str, str], int] = {}
    for h in board.hexes.values():
        if h.track:
            for name, stop in network._stops_of(h, board, corp):
                index[(h.id, name)] = len(stops)
                stops.append(stop)
    sides: dict[frozenset[Any], int] = {}
    names: dict[int, frozenset[str]] = {}

    def bit_of(key: frozenset[Any], hexes: frozenset[str]) -> int:
        if key not in sides:
            sides[key] = len(sides)
            names[sides[key]] = hexes
        return 1 << sides[key]

    def side(hex_id: str, edge: int, other: str) -> int:
        return bit_of(frozenset({(hex_id, edge), (other, opposite(edge))}), frozenset({hex_id, other}))

    found: dict[tuple[int, int, int], Link] = {}

    def walk(a: int, at: str, edge: int, used: int, hexes: list[str]) -> None:
        nb = board.hexes[at].neighbours.get(edge)
        if nb is None or nb not in board.hexes or not board.hexes[nb].track:
            return
        bit = side(at, edge, nb)
        if used & bit:
            return
        n = board.hexes[nb]
        for y in network.connectivity(n.track, n.rotation).get(opposite(edge), ()):
            if isinstance(y, str):
                j = index.get((nb, y))
                if j is not None and j != a:
                    k = (min(a, j), max(a, j), used | bit)
                    way = [*hexes, nb]
                    found.setdefault(k, Link(*k, tuple(way if a < j else reversed(way))))
            else:
                walk(a, nb, y, used | bit, [*hexes, nb])

    for (hex_id, name), a in index.items():
        h = board.hexes[hex_id]
        for y in network.connectivity(h.track, h.rotation).get(name, ()):
            if isinstance(y, str):
                j = index.get((hex_id, y))
                if j is not None and j != a:
                    k = (min(a, j), max(a, j), bit_of(frozenset({hex_id, name, y}), frozenset({hex_id})))
                    found.setdefault(k, Link(*k, (hex_id,)))
            else:
                walk(a, hex_id, y, 0, [hex_id])
    kept_stops, kept_links = network._reachable(stops, network._undominated(list(found.values()), marked))
    return kept_stops, _canonical(kept_links, names)
