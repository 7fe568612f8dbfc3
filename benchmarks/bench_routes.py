"""Route optimiser: time per decision over every recorded run, and against routes-18xx on 1846 positions."""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from railbook.compiler.compile import build_rulebook
from railbook.engine.state import sym_of
from railbook.routes.positions import Decision, decisions
from railbook.routes.search import solve

from benchmarks import results
from tests.conftest import shared_dir

REFERENCES = {("3099.json", 560): 730, ("1846_game_end_reason_all_closed.json", 589): 760,
              ("12666.json", 388): 850, ("10264.json", 542): 670}  # fmt: skip
COMPARE_POSITIONS = 12  # late-game positions given to routes-18xx (it needs seconds each)
COMPARE_BUDGET_S = 240.0


@dataclass
class Position:
    """One recorded run, with the interpreter's board just before it and who holds what (for routes-18xx)."""

    action_id: int
    corporation: str
    board: Any
    trains: list[Any]
    bonuses: list[dict[str, Any]]
    holdings: dict[str, Any] = field(default_factory=dict)


def holdings(g: Any) -> dict[str, Any]:
    """Who holds what in the interpreter's game: trains (variant names) per owner, privates and their
    assignments, removed corporations, laid tiles and tokens."""
    state = g.state
    trains: dict[str, list[str]] = {}
    for sym, op in [*state.corporations.items(), *state.minors.items()]:
        for tid in op.trains:
            t = state.trains[tid]
            if not getattr(t, "rusted", False):
                trains.setdefault(sym, []).append(str(t.name))
    live = {sym: c for sym, c in state.companies.items() if c.owner and not c.closed and not c.removed}
    privates = {sym: sym_of(c.owner) for sym, c in live.items()}
    hex_assign: dict[str, str] = {}
    for hex_id, hs in state.hexes.items():
        for a in hs.assigned:
            private, _, level = sym_of(a).partition(":")
            if not level:
                hex_assign.setdefault(private, hex_id)
    corp_assign = {sym_of(a): sym for sym, op in state.corporations.items() for a in op.assigned}
    removed = sorted(sym for sym, c in state.corporations.items() if getattr(c, "removed", False) or c.closed)
    tiles = {h: (str(hs.tile).rsplit("-", 1)[0], int(hs.rotation or 0)) for h, hs in state.hexes.items() if hs.tile}
    tokens = {
        h: {ci: [sym_of(k) for k in slots if k] for ci, slots in enumerate(hs.tokens) if any(slots)}
        for h, hs in state.hexes.items()
        if any(any(slots) for slots in hs.tokens)
    }
    return {"trains": trains, "privates": privates, "hex_assign": hex_assign, "corp_assign": corp_assign,
            "removed": removed, "tiles": tiles, "tokens": tokens}  # fmt: skip


def positions(record: dict[str, Any], book: dict[str, Any]) -> list[Position]:
    """Every recorded run of a record as the interpreter replays it (up to where it stops)."""
    from railbook.routes.adapter import board_for, bonuses_of, trains_of
    from railbook.routes.positions import ReplayUnavailable, _kept_actions, start_game

    out: list[Position] = []
    try:
        g = start_game(record, book)
    except ReplayUnavailable:
        return out
    actions, normalise, non_moves = _kept_actions(record)
    for a in actions:
        if a.get("type") in non_moves:
            continue
        if a.get("type") == "run_routes" and a.get("routes"):
            corp = str(a["entity"])
            out.append(Position(int(a["id"]), corp, board_for(g, corp), trains_of(g, corp), bonuses_of(g, corp),
                                holdings(g)))  # fmt: skip
        try:
            for step in [a, *(a.get("auto_actions") or [])]:
                g.process(normalise(step), atomic=False)
        except Exception:
            break
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


SOLVES = 3  # searches per decision: the fastest is its time (as timeit takes), a pause of the machine aside


def time_decision(d: Decision) -> tuple[int, float, float]:
    """The optimum, the wall time of graph building + search, and the search's CPU time (ms): the fastest of
    ``SOLVES`` searches of the same problem (each a fresh solver, nothing kept between them).

    On a shared machine the wall time carries other processes' load; the CPU time does not."""
    walls: list[float] = []
    cpus: list[float] = []
    total = 0
    for _ in range(SOLVES):
        start, cpu = time.perf_counter(), time.process_time()
        total = solve(d.problem).total
        walls.append((time.perf_counter() - start) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return total, d.build_ms + min(walls), min(cpus)


def run() -> None:
    base = shared_dir()
    if base is None:
        print("   shared fixtures not found (set RAILBOOK_SHARED): nothing to time")
        return
    titles = sorted(p.name for p in (base / "fixtures").iterdir() if p.is_dir())
    all_ms: list[float] = []
    for title in titles:
        try:
            book = build_rulebook(title)
        except Exception as exc:
            print(f"   {title}: no rulebook ({type(exc).__name__}); skipped")
            continue
        ms: list[float] = []
        cpu: list[float] = []
        worst = ("", 0, "")
        sources: set[str] = set()
        below = 0
        for path in sorted((base / "fixtures" / title).glob("*.json")):
            record = json.loads(path.read_text(encoding="utf-8"))
            try:
                found, _why = decisions(record, book)
            except Exception as exc:
                print(f"   {title}/{path.name}: cannot read positions ({type(exc).__name__}: {exc})")
                continue
            for d in found:
                total, t, c = time_decision(d)
                if not ms or t > max(ms):
                    worst = (path.name, d.action_id, d.corporation)
                ms.append(t)
                cpu.append(c)
                sources.add(d.source)
                below += d.recorded is not None and total < d.recorded
                ref = REFERENCES.get((path.name, d.action_id))
                if ref is not None:
                    print(f"   reference {path.name} @{d.action_id} {d.corporation}: {total} (site router {ref})")
        if ms:
            all_ms += ms
            src = "/".join(sorted(sources))
            print(
                f"   routes {title}: {len(ms)} decisions ({src}), median {statistics.median(ms):.2f} ms,"
                f" p95 {pct(ms, 0.95):.2f} ms, max {max(ms):.2f} ms (slowest {worst[0]} @{worst[1]} {worst[2]});"
                f" search CPU median {statistics.median(cpu):.2f}, p95 {pct(cpu, 0.95):.2f},"
                f" max {max(cpu):.2f} ms; below recorded: {below}"
            )
            results.record("routes", title, {
                "decisions": len(ms), "median_ms": round(statistics.median(ms), 3), "p95_ms": round(pct(ms, 0.95), 3),
                "max_ms": round(max(ms), 3), "search_cpu_median_ms": round(statistics.median(cpu), 3),
                "search_cpu_p95_ms": round(pct(cpu, 0.95), 3), "search_cpu_max_ms": round(max(cpu), 3),
            })  # fmt: skip
    if all_ms:
        print(
            f"   routes all: {len(all_ms)} decisions, median {statistics.median(all_ms):.2f} ms,"
            f" p95 {pct(all_ms, 0.95):.2f} ms, max {max(all_ms):.2f} ms"
        )
    compare_routes18xx(base)


# ------------------------------------------------------------------------------- routes-18xx comparison

NAMES = {"B&O": "Baltimore & Ohio", "IC": "Illinois Central", "NYC": "New York Central", "C&O": "Chesapeake & Ohio",
         "ERIE": "Erie", "GT": "Grand Trunk", "PRR": "Pennsylvania"}  # fmt: skip
PRIVATES = {"SC": "Steamboat Company", "MPC": "Meat Packing Company", "MAIL": "Mail Contract", "BIG4": "Big 4",
            "MS": "Michigan Southern"}  # fmt: skip


class Inexpressible(ValueError):
    """A position routes-18xx's input format cannot state."""


def _groups_ours(track: dict[str, Any], rotation: int) -> set[frozenset[int]]:
    from railbook.hexgrid import signature

    pairs, nodes = signature(track, rotation)
    groups = {frozenset(p) for p in pairs}
    groups |= {exits for _, exits in nodes if exits}
    return groups


def _orientation(tile_db: dict[str, Any], tile: str, track: dict[str, Any], rotation: int) -> int:
    spec = tile_db.get(tile)
    if spec is None:
        raise Inexpressible(f"tile {tile} is not in routes-18xx's tile list")
    ours = _groups_ours(track, rotation)
    for o in range(6):
        theirs = {frozenset((e + o) % 6 for e in (g if isinstance(g, list) else [g])) for g in spec["edges"]}
        if theirs == ours:
            return o
    raise Inexpressible(f"no orientation of tile {tile} matches its track")


def to_routes18xx(pos: Position, book: dict[str, Any], tile_db: dict[str, Any]) -> tuple[list, list, list]:
    """The three routes-18xx inputs (board, railroads, private companies) as row dicts."""
    h = pos.holdings
    if pos.corporation not in NAMES:
        raise Inexpressible(f"{pos.corporation} is an independent; routes-18xx only runs corporations")
    board_rows = []
    for hex_id, (tile, rot) in sorted(h["tiles"].items()):
        board_rows.append(
            {
                "coord": hex_id,
                "tile_id": tile,
                "orientation": str(_orientation(tile_db, tile, book["tiles"][tile], rot)),
            }
        )
    stations: dict[str, list[str]] = {}
    for hex_id, cities in h["tokens"].items():
        for ci, holders in cities.items():
            for sym in holders:
                if sym not in NAMES:
                    continue
                home = (book["corporations"][sym].get("home") or {}).get("hex")
                if hex_id == home:
                    continue
                entry = hex_id
                if hex_id == "D6":  # Chicago: name the city by its own exit
                    track = pos.board.hexes["D6"].track
                    from railbook.routes.network import connectivity

                    conn = connectivity(track, pos.board.hexes["D6"].rotation)
                    exits = [e for e in conn.get(f"c{ci}", []) if isinstance(e, int)]
                    shared = {e for e in exits if sum(e in conn.get(f"c{k}", []) for k in range(4)) > 1}
                    own = [e for e in exits if e not in shared]
                    if not own:
                        raise Inexpressible("a Chicago city without its own exit")
                    entry = f"D6: {pos.board.hexes['D6'].neighbours[own[0]]}"
                stations.setdefault(sym, []).append(entry)
    in_play = {sym for sym in NAMES if sym in h["trains"] or sym in stations or any(
        sym in holders for cities in h["tokens"].values() for holders in cities.values())}  # fmt: skip
    railroad_rows = []
    for sym in sorted(in_play):
        if sym in h["removed"]:
            railroad_rows.append({"name": NAMES[sym], "trains": "removed", "stations": ""})
            continue
        trains = ", ".join(t.replace("/", " / ") for t in h["trains"].get(sym, []))
        railroad_rows.append({"name": NAMES[sym], "trains": trains, "stations": ", ".join(stations.get(sym, []))})
    private_rows = []
    for sym, name in PRIVATES.items():
        owner = h["corp_assign"].get(sym) or h["privates"].get(sym)
        if owner not in NAMES:
            continue
        coord = h["hex_assign"].get(sym, "")
        if sym in ("SC", "MPC") and not coord:
            continue
        private_rows.append({"name": name, "owner": NAMES[owner], "coord": coord})
    return board_rows, railroad_rows, private_rows


def run_routes18xx(pos: Position, book: dict[str, Any]) -> tuple[int, float]:
    import importlib

    import routes18xx
    from routes18xx import boardstate, railroads
    from routes18xx.game import Game

    finder = importlib.import_module("routes18xx.find_best_routes")

    tile_db = json.loads((Path(routes18xx.__file__).parent / "data" / "tiles-db.json").read_text())
    board_rows, railroad_rows, private_rows = to_routes18xx(pos, book, tile_db)
    start = time.perf_counter()
    try:
        game = Game.load("1846")
        board = boardstate.load(game, board_rows)
        in_play = railroads.load(game, board, railroad_rows)
        game.capture_phase(in_play)
        module = game.get_game_submodule("private_companies")
        if module:
            module.load(game, board, in_play, private_rows)
        board.validate()
        best = finder.find_best_routes(game, board, in_play, in_play[NAMES[pos.corporation]])
    except Inexpressible:
        raise
    except Exception as exc:
        raise Inexpressible(f"routes-18xx rejects it: {type(exc).__name__}: {exc}") from exc
    return int(best.value), (time.perf_counter() - start) * 1000


def compare_routes18xx(base: Path) -> None:
    try:
        import routes18xx  # noqa: F401
    except ImportError:
        print("   routes-18xx not installed (pip install 'railbook[bench]'): comparison skipped")
        return
    import logging

    logging.getLogger("routes18xx").setLevel(logging.ERROR)
    book = build_rulebook("1846")
    pool: list[tuple[str, Position]] = []
    for name in ("3099.json", "10264.json", "12666.json"):
        path = base / "fixtures" / "1846" / name
        if path.is_file():
            record = json.loads(path.read_text(encoding="utf-8"))
            pool += [(name, p) for p in positions(record, book)]
    if not pool:
        print("   no 1846 fixtures for the comparison")
        return
    picked = [p for p in pool if (p[0], p[1].action_id) in REFERENCES]
    late = [p for p in pool if p not in picked][-COMPARE_POSITIONS:]
    spent = 0.0
    ratios: list[float] = []
    agree = differ = 0
    reasons: dict[str, int] = {}
    from railbook.routes.network import build_problem

    for name, pos in picked + late:
        if spent > COMPARE_BUDGET_S * 1000:
            print(f"   (comparison stopped after {spent / 1000:.0f} s)")
            break
        solve(build_problem(pos.board, pos.corporation, pos.trains, pos.bonuses))  # warm the tile caches
        start = time.perf_counter()
        ours = solve(build_problem(pos.board, pos.corporation, pos.trains, pos.bonuses)).total
        our_ms = (time.perf_counter() - start) * 1000
        try:
            theirs, their_ms = run_routes18xx(pos, book)
        except Inexpressible as exc:
            reason = str(exc).split(":")[0] if "rejects" not in str(exc) else str(exc)[:120]
            reasons[reason] = reasons.get(reason, 0) + 1
            continue
        spent += their_ms
        ratios.append(their_ms / max(our_ms, 1e-3))
        agree += theirs == ours
        differ += theirs != ours
        print(f"   {name} @{pos.action_id} {pos.corporation}: railbook {ours} in {our_ms:.1f} ms,"
              f" routes-18xx {theirs} in {their_ms:.0f} ms")  # fmt: skip
    if ratios:
        print(
            f"   routes-18xx vs railbook on {len(ratios)} positions: median {statistics.median(ratios):.0f}x slower,"
            f" min {min(ratios):.0f}x; same total in {agree}, different in {differ}"
        )
    for reason, n in sorted(reasons.items()):
        print(f"   routes-18xx could not state {n} position(s): {reason}")
