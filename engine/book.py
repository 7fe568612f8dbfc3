"""A read-only, indexed view of a compiled rulebook (the only input the engine reads).

Everything here is static for a game: tile track precomputed per rotation, hex neighbours, the market
grid, train and phase tables, entity specs.  A :class:`Book` is built once per (rulebook, options) and
shared by every game using it (it is never mutated).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from railbook.hexgrid import OFFSETS, hex_xy, opposite
from railbook.jsonio import apply_merge_patch, interned

from .errors import UnsupportedTitle

if TYPE_CHECKING:
    from .cint import CInt

COLOUR_ORDER = ("white", "yellow", "green", "brown", "gray", "black")
EDGE = 0
NODE = 1

# ------------------------------------------------------------------------------------------- track


@dataclass(frozen=True)
class Node:
    """A stop or junction of a tile: ``c0``/``t0``/``o0``/``j0``."""

    name: str
    kind: str  # city | town | offboard | junction
    index: int
    revenue: Any = 0
    slots: int = 0
    group: str | None = None
    hidden: bool = False


@dataclass(frozen=True)
class TrackPath:
    """One path of a placed tile: ends are ``(EDGE, n)`` or ``(NODE, name)``."""

    index: int
    a: tuple[int, Any]
    b: tuple[int, Any]
    terminal: bool = False

    def other(self, end: tuple[int, Any]) -> tuple[int, Any]:
        return self.b if end == self.a else self.a


@dataclass
class Track:
    """The track of a tile (or a preprinted hex) under one rotation, with lookup tables."""

    paths: list[TrackPath]
    nodes: dict[str, Node]
    exits: frozenset[int]
    edge_paths: dict[int, list[int]] = field(default_factory=dict)
    node_paths: dict[str, list[int]] = field(default_factory=dict)
    node_exits: dict[str, frozenset[int]] = field(default_factory=dict)
    cities: list[str] = field(default_factory=list)
    # compact tables for the graph walk: an end is an edge 0-5, or 8 + index into ``node_list``
    ends: list[tuple[int, int]] = field(default_factory=list)
    node_list: list[str] = field(default_factory=list)
    edge_paths_l: list[list[int]] = field(default_factory=list)  # per edge 0-5: the paths ending there
    node_paths_l: list[list[int]] = field(default_factory=list)  # per node of ``node_list``: the paths ending there
    terminal: list[bool] = field(default_factory=list)
    end_a: list[int] = field(default_factory=list)  # each path's two ends (``ends`` as two lists of ints: walks read
    end_b: list[int] = field(default_factory=list)  # them as C integers)
    # per edge 0-5 and per node of ``node_list``: each path ending there, entered there, as ``path << 1 | side``
    # (side 0: entered by its first end, ``end_a``; 1: by ``end_b``), the last part of the board walk's state
    edge_states_l: list[list[int]] = field(default_factory=list)
    node_states_l: list[list[int]] = field(default_factory=list)

    def __init__(
        self,
        paths: list[TrackPath],
        nodes: dict[str, Node],
        exits: frozenset[int],
        edge_paths: dict[int, list[int]] | None = None,
        node_paths: dict[str, list[int]] | None = None,
        node_exits: dict[str, frozenset[int]] | None = None,
        cities: list[str] | None = None,
        ends: list[tuple[int, int]] | None = None,
        node_list: list[str] | None = None,
        edge_paths_l: list[list[int]] | None = None,
        node_paths_l: list[list[int]] | None = None,
        terminal: list[bool] | None = None,
        end_a: list[int] | None = None,
        end_b: list[int] | None = None,
        edge_states_l: list[list[int]] | None = None,
        node_states_l: list[list[int]] | None = None,
    ) -> None:
        # (written out: the compiled build's generated __init__ would import the dataclasses module again for each
        # field with a default_factory, on every call; a board walk builds the tracks it meets)
        self.paths = paths
        self.nodes = nodes
        self.exits = exits
        self.edge_paths = {} if edge_paths is None else edge_paths
        self.node_paths = {} if node_paths is None else node_paths
        self.node_exits = {} if node_exits is None else node_exits
        self.cities = [] if cities is None else cities
        self.ends = [] if ends is None else ends
        self.node_list = [] if node_list is None else node_list
        self.edge_paths_l = [] if edge_paths_l is None else edge_paths_l
        self.node_paths_l = [] if node_paths_l is None else node_paths_l
        self.terminal = [] if terminal is None else terminal
        self.end_a = [] if end_a is None else end_a
        self.end_b = [] if end_b is None else end_b
        self.edge_states_l = [] if edge_states_l is None else edge_states_l
        self.node_states_l = [] if node_states_l is None else node_states_l


#: a graph walk packs its state -- a hex's index, a path's index and the end it entered by (an edge 0-5 or 8 + a
#: node's index) -- in one int of these many bits for the path and the end (railbook.engine.board)
PATH_BITS, END_BITS = 6, 5


def _end(spec: str, rotation: int) -> tuple[int, Any]:
    return (EDGE, (int(spec) + rotation) % 6) if spec.isdigit() else (NODE, spec)


def build_track(track: dict[str, Any], rotation: int) -> Track:
    """Precompute the lookup tables of ``track`` (compiled JSON shape) laid at ``rotation``."""
    nodes: dict[str, Node] = {}
    for key, kind, prefix in (("cities", "city", "c"), ("towns", "town", "t"), ("offboards", "offboard", "o")):
        for i, spec in enumerate(track.get(key) or []):
            nodes[f"{prefix}{i}"] = Node(
                f"{prefix}{i}",
                kind,
                i,
                spec.get("revenue", 0),
                spec.get("slots", 1) if kind == "city" else 0,
                spec.get("group"),
                bool(spec.get("hidden", False)),
            )
    for i in range(track.get("junctions") or 0):
        nodes[f"j{i}"] = Node(f"j{i}", "junction", i)
    paths = []
    for i, p in enumerate(track.get("paths") or []):
        paths.append(TrackPath(i, _end(str(p["a"]), rotation), _end(str(p["b"]), rotation), bool(p.get("terminal"))))
    edge_paths: dict[int, list[int]] = {}
    node_paths: dict[str, list[int]] = {}
    for p in paths:
        for kind, value in (p.a, p.b):
            if kind == EDGE:
                edge_paths.setdefault(value, []).append(p.index)
            else:
                node_paths.setdefault(value, []).append(p.index)
    node_exits = {}
    for name in nodes:
        exits = set()
        for i in node_paths.get(name, []):
            other = paths[i].other((NODE, name))
            if other[0] == EDGE:
                exits.add(other[1])
        node_exits[name] = frozenset(exits)
    node_list = list(nodes)
    index = {n: i for i, n in enumerate(node_list)}

    def code(end: tuple[int, Any]) -> int:
        return end[1] if end[0] == EDGE else 8 + index[end[1]]

    return Track(
        paths=paths,
        nodes=nodes,
        exits=frozenset(edge_paths),
        edge_paths=edge_paths,
        node_paths=node_paths,
        node_exits=node_exits,
        cities=[n for n in nodes if nodes[n].kind == "city"],
        ends=[(code(p.a), code(p.b)) for p in paths],
        node_list=node_list,
        edge_paths_l=[list(edge_paths.get(e, ())) for e in range(6)],
        node_paths_l=[list(node_paths.get(n, ())) for n in node_list],
        terminal=[p.terminal for p in paths],
        end_a=[code(p.a) for p in paths],
        end_b=[code(p.b) for p in paths],
        edge_states_l=[[i << 1 | (code(paths[i].a) != e) for i in edge_paths.get(e, ())] for e in range(6)],
        node_states_l=[
            [i << 1 | (code(paths[i].a) != 8 + k) for i in node_paths.get(n, ())] for k, n in enumerate(node_list)
        ],
    )


# -------------------------------------------------------------------------------------------- book


def _freeze_key(rulebook: dict[str, Any], options: list[str]) -> str:
    return f"{id(rulebook)}:{','.join(sorted(options))}"


_BOOKS: dict[str, Book] = {}


#: the major version of the rulebook format (docs/RULEBOOK.md) this engine reads
FORMAT_MAJOR = "2"


def _check_format(rulebook: dict[str, Any]) -> None:
    """Refuse a rulebook of another major format version: its fields may mean something else."""
    version = str(rulebook.get("format_version") or "")
    if version.split(".")[0] != FORMAT_MAJOR:
        raise UnsupportedTitle(
            f"{rulebook.get('title')}: rulebook format {version or '(none)'}, this engine reads {FORMAT_MAJOR}.x "
            "(compile the title again with this railbook)"
        )


def book_for(rulebook: dict[str, Any], options: list[str] | tuple[str, ...] = ()) -> Book:
    """The (cached) book of ``rulebook`` with ``options`` applied as their RFC 7386 merge patches."""
    opts = [o for o in options if o]
    key = _freeze_key(rulebook, opts)
    book = _BOOKS.get(key)
    if book is None:
        _check_format(rulebook)
        data = rulebook
        for name in sorted(set(opts)):
            option = (rulebook.get("options") or {}).get(name)
            if option is None:
                raise UnsupportedTitle(f"unknown option {name!r} for {rulebook.get('title')}")
            data = apply_merge_patch(data, option["patch"])  # copies the paths it changes, shares the rest
        data = interned(data)  # the game's tables are keyed by these names
        book = Book(data, tuple(sorted(set(opts))), rulebook)
        _BOOKS[key] = book
    return book


class Book:
    """Indexed rulebook data.  ``raw`` is the option-merged rulebook dict."""

    def __init__(self, raw: dict[str, Any], options: tuple[str, ...] = (), base: dict[str, Any] | None = None):
        self.raw = raw
        self.base = base if base is not None else raw
        self.options = options
        self.title: str = raw["title"]
        self.hexes: dict[str, dict[str, Any]] = raw["hexes"]
        self.tiles: dict[str, dict[str, Any]] = raw["tiles"]
        self.trains: dict[str, dict[str, Any]] = raw["trains"]
        self.train_order: list[str] = raw.get("train_order") or list(self.trains)
        self.phases: list[dict[str, Any]] = raw["phases"]
        self.corporations: dict[str, dict[str, Any]] = raw["corporations"]
        self.minors: dict[str, dict[str, Any]] = raw.get("minors") or {}
        self.privates: dict[str, dict[str, Any]] = raw.get("privates") or {}
        self.mechanics: dict[str, dict[str, Any]] = raw.get("mechanics") or {}
        self.end: list[dict[str, Any]] = raw.get("end") or []
        self.layout: str = raw["layout"]
        self.market: dict[str, Any] = raw["market"]
        self._tracks: dict[str, list[Track | None]] = {}  # tile name -> its track at each rotation, as built
        self._printed: dict[str, list[Track | None]] = {}  # hex -> its printed track at each rotation, as built
        self.share_units: dict[str, int] = {}  # corporation -> percent of one share (filled by the share rules)
        self.derived: dict[Any, Any] = {}  # facts the rules derive from the book alone, kept once worked out
        self._check_walk_limits()
        self._index_neighbours()
        self.market_grid: list[list[dict[str, Any] | None]] = self.market["grid"]
        self.cells_by_kind = self._cells_by_kind()
        self.market_1d: bool = self.market.get("type") == "1d" or len(self.market_grid) == 1
        self.phase_index: dict[str, int] = {p["name"]: i for i, p in enumerate(self.phases)}

    # ------------------------------------------------------------------------------------ track

    def track(self, tile: str | None, hex_id: str, rotation: int) -> Track:
        """Track of ``tile`` (None = the hex's printed track) at ``rotation``."""
        # (two lookups by name and rotation: no key is built per call)
        table: dict[str, list[Track | None]] = self._tracks if tile is not None else self._printed
        name = tile if tile is not None else hex_id
        found = table.get(name)
        if found is None:
            found = table[name] = [None] * 6
        rotations: list[Track | None] = found
        r: CInt = rotation  # (C integers in compiled builds: railbook.engine.cint)
        turn: CInt = r % 6  # (a rotation counts modulo 6, as the track is built)
        t = rotations[turn]
        if t is None:
            t = rotations[turn] = build_track(self.tiles[tile] if tile is not None else self.hexes[hex_id], turn)
        return t

    def tile_spec(self, tile: str | None, hex_id: str) -> dict[str, Any]:
        return self.tiles[tile] if tile is not None else self.hexes[hex_id]

    def _check_walk_limits(self) -> None:
        """Every tile and printed hex has few enough paths and stops for a walk's packed state (PATH_BITS, END_BITS)."""
        for kind, table in (("tile", self.tiles), ("hex", self.hexes)):
            for name, spec in table.items():
                paths = len(spec.get("paths") or [])
                stops = sum(len(spec.get(k) or []) for k in ("cities", "towns", "offboards"))
                stops += int(spec.get("junctions") or 0)
                if paths > 1 << PATH_BITS or 8 + stops > 1 << END_BITS:
                    raise UnsupportedTitle(
                        f"{kind} {name} has {paths} paths and {stops} stops: a walk of the map takes at most "
                        f"{1 << PATH_BITS} and {(1 << END_BITS) - 8}"
                    )

    def _index_neighbours(self) -> None:
        """All map neighbours, and the passable ones as 18xx.games connects them at setup."""
        self.all_neighbours: dict[str, dict[int, str]] = {}
        for hex_id, h in self.hexes.items():
            self.all_neighbours[hex_id] = {int(e): n for e, n in (h.get("neighbours") or {}).items()}
        if not any(self.all_neighbours.values()):
            axes = self.raw.get("axes") or {}
            by_xy = {hex_xy(h, axes): h for h in self.hexes}
            for h in self.hexes:
                x, y = hex_xy(h, axes)
                self.all_neighbours[h] = {
                    e: by_xy[(x + dx, y + dy)]
                    for e, (dx, dy) in OFFSETS[self.layout].items()
                    if (x + dx, y + dy) in by_xy
                }
        self.impassable: dict[str, set[int]] = {}
        for hex_id, h in self.hexes.items():
            self.impassable[hex_id] = {
                int(b["edge"]) for b in h.get("borders") or [] if (b.get("type") or "impassable") == "impassable"
            }
        self.neighbours: dict[str, dict[int, str]] = {}
        closed_colours = ("blue", "gray", "red")
        for hex_id, nbrs in self.all_neighbours.items():
            ok = {}
            for edge, other in nbrs.items():
                oh = self.hexes[other]
                if oh.get("color", "white") in closed_colours:
                    back = opposite(edge)
                    if back not in self.track(None, other, 0).exits:
                        continue
                if edge in self.impassable[hex_id]:
                    continue
                ok[edge] = other
            self.neighbours[hex_id] = ok
        # the same by number, for the graph walk: each hex's index, and per index the passable neighbour's index at
        # each edge 0-5 (-1: none)
        self.hex_ids: list[str] = list(self.hexes)
        self.hex_index: dict[str, int] = {h: i for i, h in enumerate(self.hex_ids)}
        self.neighbour_index: list[list[int]] = [
            [self.hex_index[self.neighbours[h][e]] if e in self.neighbours[h] else -1 for e in range(6)]
            for h in self.hex_ids
        ]

    # ----------------------------------------------------------------------------------- market

    def cell(self, row: int, col: int) -> dict[str, Any] | None:
        grid = self.market_grid
        if 0 <= row < len(grid) and 0 <= col < len(grid[row]):
            return grid[row][col]
        return None

    def _cells_by_kind(self) -> dict[str, frozenset[tuple[int, int]]]:
        """Each cell kind of the market (``close``, ``unlimited``...) -> the (row, column) of every cell of it."""
        out: dict[str, set[tuple[int, int]]] = {}
        for r, row in enumerate(self.market_grid):
            for c, cell in enumerate(row):
                for kind in (cell or {}).get("kinds") or ():
                    out.setdefault(kind, set()).add((r, c))
        return {kind: frozenset(cells) for kind, cells in out.items()}

    # ----------------------------------------------------------------------------------- phases

    def revenue_of(self, revenue: Any, phase: int) -> int:
        """A revenue value in force at phase index ``phase`` (colour or phase-name keyed)."""
        if isinstance(revenue, int):
            return revenue
        if not revenue:
            return 0
        best = None
        best_rank = -1
        colours = self.phases[phase]["tiles"]
        current_colour = colours[-1] if colours else "yellow"
        offboard = self.phases[phase].get("offboard") or current_colour
        for key, value in revenue.items():
            if key in self.phase_index:
                rank = self.phase_index[key] * 10 + 5
                if self.phase_index[key] > phase:
                    continue
            elif key in COLOUR_ORDER:
                rank = COLOUR_ORDER.index(key) * 10
                if COLOUR_ORDER.index(key) > COLOUR_ORDER.index(offboard):
                    continue
            else:
                continue
            if rank > best_rank:
                best, best_rank = value, rank
        if best is None:
            best = min(revenue.values())
        return int(best)

    # ------------------------------------------------------------------------------------ misc

    def players_setup(self, n: int) -> dict[str, Any]:
        spec = self.raw["players"].get(str(n))
        if spec is None:
            raise UnsupportedTitle(f"{self.title} is not playable by {n} players")
        return spec

    def train_count(self, name: str, players: int) -> int | None:
        """Copies of train ``name`` for ``players`` players, less those this player count takes out of the game
        (``players.<n>.trains_removed``); None = unlimited."""
        count = self.trains[name]["count"]
        if count == "unlimited":
            return None
        if isinstance(count, dict):
            value = count.get(str(players), count.get(players))
            if value is None:
                raise UnsupportedTitle(f"train {name}: no count for {players} players")
        else:
            value = int(count)
        setup = self.raw["players"].get(str(players)) or {}
        return max(0, int(value) - int((setup.get("trains_removed") or {}).get(name, 0)))

    def fingerprint(self) -> str:
        """A short stable identity of the rulebook data (for saved states)."""
        import hashlib

        return hashlib.sha1(json.dumps(self.raw, sort_keys=True).encode()).hexdigest()[:12]
