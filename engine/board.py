"""The map: tiles laid on hexes (with rotation), station tokens in city slots, and the track graph.

Static facts (each tile's connectivity under each rotation, passable neighbours) come from
:class:`railbook.engine.book.Book`; this module holds the operations on the mutable
:class:`railbook.engine.state.HexState` map and the graph queries the rules need:

* :func:`network` — what a corporation's tokens reach (hex edges where it may build, nodes where it may
  token, whether it can run a route), cached per board version;
* :func:`check_lay` / :func:`apply_lay` — tile-lay legality (colour, supply, upgrade path, rotation,
  connection, new-track use) and its cost (terrain, hexsides);
* city slot helpers used by token placement and route checks.

The graph is never rebuilt from scratch per action: tiles carry precomputed per-rotation path tables and a
network is recomputed lazily only after the board changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from railbook.hexgrid import opposite, upgrade_rotations

from .book import COLOUR_ORDER, EDGE, NODE, PATH_BITS, Node, Track, build_track
from .errors import illegal
from .memo import AUDIT, audit
from .state import HexState, kind_of, sym_of

if TYPE_CHECKING:
    from .cint import CInt
    from .context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from . import cython_shim as cython

NodeKey = tuple[str, str]  # (hex, node name)


# ------------------------------------------------------------------------------------------- setup


def init_hexes(g: Context) -> dict[str, HexState]:
    """The printed map as a fresh board state."""
    out = {}
    for hex_id, spec in g.book.hexes.items():
        cities = spec.get("cities") or []
        out[hex_id] = HexState(
            tile=None,
            tile_id=None,
            rotation=0,
            tokens=[[None] * int(c.get("slots", 1)) for c in cities],
            reservations=[[None] * int(c.get("slots", 1)) for c in cities],
            icons=[i["name"] for i in spec.get("icons") or []],
            borders=[int(b["edge"]) for b in spec.get("borders") or [] if b.get("cost")],
        )
    return out


def track(g: Context, hex_id: str) -> Track:
    hs: HexState = g.state.hexes[hex_id]
    return g.book.track(hs.tile, hex_id, hs.rotation)


def tile_spec(g: Context, hex_id: str) -> dict[str, Any]:
    return g.book.tile_spec(g.state.hexes[hex_id].tile, hex_id)


def colour(g: Context, hex_id: str) -> str:
    return tile_spec(g, hex_id).get("color", "white")


def label(g: Context, hex_id: str) -> str | None:
    return tile_spec(g, hex_id).get("label")


# ------------------------------------------------------------------------------------------ cities


def city_index(name: str) -> int:
    return int(name[1:])


def tokened_by(g: Context, hex_id: str, city: int, key: str) -> bool:
    return key in g.state.hexes[hex_id].tokens[city]


def hex_tokened_by(g: Context, hex_id: str, key: str) -> bool:
    hs: HexState = g.state.hexes[hex_id]
    for slots in hs.tokens:
        if key in slots:
            return True
    return False


def city_blocks(g: Context, hex_id: str, city: int, key: str | None) -> bool:
    """A full city without a token of ``key`` cannot be passed through by ``key``'s routes (a city with no token space
    at all is never full: nobody may token it and every route passes)."""
    if key is None:
        return False
    slots = g.state.hexes[hex_id].tokens[city]
    if key in slots:
        return False
    return bool(slots) and None not in slots


def free_slot(g: Context, hex_id: str, city: int, key: str) -> int | None:
    """The slot ``key`` would fill: its reserved slot, else the first open unreserved slot."""
    hs = g.state.hexes[hex_id]
    slots, res = hs.tokens[city], hs.reservations[city]
    for i, r in enumerate(res):
        if r == key and slots[i] is None:
            return i
    for i, occupant in enumerate(slots):
        if occupant is None and (i >= len(res) or res[i] is None):
            return i
    return None


def reserved_for(g: Context, hex_id: str, city: int, key: str) -> bool:
    return key in g.state.hexes[hex_id].reservations[city]


# ------------------------------------------------------------------------------------ reservations


def reserve(g: Context, hex_id: str, city: int, slot: int | None, key: str) -> None:
    hs = g.state.hexes[hex_id]
    if city >= len(hs.reservations):
        return
    res = hs.reservations[city]
    if slot is None:
        for i, r in enumerate(res):
            if r is None:
                res[i] = key
                return
        res.append(key)
        return
    while len(res) <= slot:
        res.append(None)
    res[slot] = key


def unreserve(g: Context, key: str, hexes: list[str] | None = None) -> set[str]:
    """Drop ``key``'s reservations (in ``hexes`` only, when given); returns the hexes that had one."""
    changed: set[str] = set()
    for hex_id, hs in g.state.hexes.items():
        if hexes is not None and hex_id not in hexes:
            continue
        for res in hs.reservations:
            for i, r in enumerate(res):
                if r == key:
                    res[i] = None
                    changed.add(hex_id)
    return changed


# ----------------------------------------------------------------------------------------- network


#: bytes per hex of a bit set of paths (``Network.path_bits``)
PATH_BYTES_PER_HEX = 1 << (PATH_BITS - 3)
#: one hex's bytes of ``Network.path_bits`` with no path reached
_NO_PATHS = bytes(PATH_BYTES_PER_HEX)


@dataclass
class Network:
    """What one entity's station tokens reach on the current board."""

    hex_edges: dict[str, set[int]] = field(default_factory=dict)  # where it may build (18xx connected_hexes)
    nodes: set[NodeKey] = field(default_factory=set)  # nodes reached (it may token there)
    route_available: bool = False
    # the paths reached, one bit each: bit ``hex index << PATH_BITS | path`` (see _state), bits counted from the first
    # byte's lowest
    path_bits: bytearray = field(default_factory=bytearray)
    hex_ids: list[str] = field(default_factory=list)  # the book's hexes by index (``Book.hex_ids``), to name them

    def __init__(
        self,
        hex_edges: dict[str, set[int]] | None = None,
        nodes: set[NodeKey] | None = None,
        route_available: bool = False,
        path_bits: bytearray | None = None,
        hex_ids: list[str] | None = None,
    ) -> None:
        # (written out: the compiled build's generated __init__ would import the dataclasses module again for each
        # field with a default_factory, on every call)
        self.hex_edges = {} if hex_edges is None else hex_edges
        self.nodes = set() if nodes is None else nodes
        self.route_available = route_available
        self.path_bits = bytearray() if path_bits is None else path_bits
        self.hex_ids = [] if hex_ids is None else hex_ids

    @property
    def paths(self) -> set[tuple[str, int]]:
        """(hex, path index) of every path reached."""
        out = set()
        for hi in self._hexes_reached():
            for pi in range(1 << PATH_BITS):
                if self.reaches_path(hi, pi):
                    out.add((self.hex_ids[hi], pi))
        return out

    def path_hexes(self) -> set[str]:
        """The hexes where the walk reached some path."""
        return {self.hex_ids[hi] for hi in self._hexes_reached()}

    def reaches_path(self, hex_index: int, path: int) -> bool:
        """Whether the walk reached path ``path`` of the hex of index ``hex_index``."""
        p = (hex_index << PATH_BITS) | path
        return bool(self.path_bits[p >> 3] >> (p & 7) & 1)

    def reaches_hex(self, hex_index: int) -> bool:
        """Whether the walk reached some path of the hex of index ``hex_index`` (one look at its bytes)."""
        start = hex_index * PATH_BYTES_PER_HEX
        return self.path_bits.find(_NO_PATHS, start, start + PATH_BYTES_PER_HEX) != start

    def _hexes_reached(self) -> list[int]:
        return [hi for hi in range(len(self.hex_ids)) if self.reaches_hex(hi)]


def node_blocks(g: Context, hex_id: str, node: str, key: str | None, kind: str) -> bool:
    if kind == "offboard":
        return True
    if kind == "city":
        return city_blocks(g, hex_id, city_index(node), key)
    return False


def stop_nodes(g: Context, hex_id: str) -> list[NodeKey]:
    """The stops of a hex's track now: its nodes but junctions."""
    return [(hex_id, n) for n, node in track(g, hex_id).nodes.items() if node.kind != "junction"]


def token_nodes(g: Context, key: str) -> list[NodeKey]:
    """The stops holding a token of ``key``: its cities, and the stops of a hex without cities that holds
    its marker (a destination marker at an off-board's edge)."""
    out: list[NodeKey] = []
    hs: HexState
    for hex_id, hs in g.state.hexes.items():
        for ci, slots in enumerate(hs.tokens):
            if key in slots:
                t = track(g, hex_id)
                if t.cities:
                    out.append((hex_id, f"c{ci}"))
                else:
                    out += stop_nodes(g, hex_id)
    return out


def network(g: Context, key: str) -> Network:
    """The network of ``key``, recomputed only when a change touched a hex it reaches, and then grown from the
    old one where the change allows (see :func:`_grown`)."""
    return _cached(g, g.table("network"), key, key, None, True)


#: the track a walk finds on a hex it may not enter
_NO_TRACK = build_track({}, 0)


def _walk_tracks(g: Context, key: str) -> list[Track | None]:
    """A walk's table of tracks by hex index (filled as the walk meets hexes), where the hexes a corporation ``key``
    may not enter on a route (hook ``route_forbidden_hexes``: a mine without its rights) hold no track: its walks do
    not pass them (new track is reached by a train run, and no run of it enters them; e.g. 1850 [6.1], [8.2])."""
    tracks: list[Track | None] = [None] * len(g.book.hex_ids)
    if key and kind_of(key) in ("C", "M"):
        forbidden: list[str] = []
        g.hooks("route_forbidden_hexes", sym_of(key), forbidden)
        for h in forbidden:
            tracks[g.book.hex_index[h]] = _NO_TRACK
    return tracks


def reach(g: Context, key: str, starts: list[NodeKey], blocking: bool = True) -> Network:
    """:func:`compute_network` of ``key`` from ``starts``, cached until a change touches a hex it reaches (as
    :func:`network`; treat it as read-only).  Not for walks on a board changed for a moment (tile probes)."""
    k = (key, tuple(starts), blocking)
    return _cached(g, g.table("reach"), k, key, tuple(starts), blocking)


def _cached(g: Context, cache: dict, k: Any, key: str, starts: tuple[NodeKey, ...] | None, blocking: bool) -> Network:
    """The walk of ``key`` from ``starts`` (None: from its tokens) cached in ``cache[k]`` as (board version,
    network, hexes it touches, walk states, stops tried and whether they blocked, start nodes)."""
    version = g.board_version
    hit = cache.get(k)
    if hit is not None:
        if hit[0] == version:
            return hit[1]
        if _still_valid(g, key, hit[0], hit[2], starts is None):
            cache[k] = (version, *hit[1:])
            return hit[1]
        grown = _grown(g, key, hit, starts is None, blocking)
        if grown is not None:
            net, states, blocked, tokens = grown
            if AUDIT:
                fresh = _compute(g, key, list(starts) if starts is not None else token_nodes(g, key), blocking)
                audit(f"board network of {k!r} grown", (net, states), fresh[:2])
            cache[k] = (version, net, _touched(net, tokens), states, blocked, tokens)
            return net
    walked_from = list(starts) if starts is not None else token_nodes(g, key)
    net, states, blocked = _compute(g, key, walked_from, blocking)
    cache[k] = (version, net, _touched(net, walked_from), states, blocked, frozenset(walked_from))
    return net


def _touched(net: Network, starts: Any) -> dict[str, set[int]]:
    """The hexes a walk touched: those it may build in, which hold every stop it reached and every start (a walk
    enters a hex only from a start in it or across an edge, and both put the hex among them).  The network's own
    table, not a copy: it grows with the network."""
    if AUDIT:
        audit(
            "hexes a network touched",
            set(net.hex_edges) | {h for h, _ in net.nodes} | {h for h, _ in starts},
            set(net.hex_edges),
        )
    return net.hex_edges


def _touches(hexes: frozenset[str], touched: dict[str, set[int]]) -> bool:
    for h in hexes:
        if h in touched:
            return True
    return False


@cython.locals(g="Context")
def _grown(
    g: Context, key: str, hit: tuple, own_tokens: bool, blocking: bool
) -> tuple[Network, bytearray, dict, frozenset[NodeKey]] | None:
    """The cached walk ``hit`` grown by the tile lays since (see :func:`_extend`) and, for a walk from ``key``'s
    tokens (``own_tokens``), by its new tokens; kept through other token changes that block no city its walks
    passed.  None when something else changed near it."""
    since, old, touched, states, blocked, tokens = hit
    changes = _changes_after(g, since)
    if changes is None:
        return None
    lays: dict[str, HexState] = {}
    others: set[str] = set()  # hexes where tokens changed (other companies', or any for a walk from fixed starts)
    placed = False
    retokened = False  # tokens changed near the walk (its own may have gone)
    for _, hexes, who, before in changes:
        if hexes is None:
            return None
        if who == key and own_tokens:
            placed = True
        elif _touches(hexes, touched):
            if before is None:
                # tokens in a hex laid since are judged with the lay (its state before the lay is what the walk saw)
                others.update(h for h in hexes if h not in lays)
                retokened = True
            elif len(hexes) != 1:
                return None
            else:
                hex_id = next(iter(hexes))
                if hex_id not in lays:
                    lays[hex_id] = before
                    others.discard(hex_id)  # tokens changed before the lay: judged below by the state before it
    # a city the walks tried to pass must block them as it did: now, or where a lay followed, just before the lay
    hexes_now = g.state.hexes
    for (h, n), was in blocked.items():
        if n[0] == "c" and (h in others or h in lays):
            slots = (lays[h] if h in lays else hexes_now[h]).tokens[int(n[1:])]
            blocks_now = blocking and key not in slots and bool(slots) and None not in slots
            if was != blocks_now:
                return None
    now = tokens
    if own_tokens and (placed or retokened):
        now = frozenset(token_nodes(g, key))
        if not tokens <= now or (retokened and not placed and now != tokens):
            return None
    if not lays and now == tokens:
        return old, states, blocked, tokens
    grown = _extend(g, key, old, states, blocked, now, now - tokens, lays, blocking)
    return None if grown is None else (*grown, now)


def _changes_after(
    g: Context, since: int
) -> list[tuple[int, frozenset[str] | None, str | None, HexState | None]] | None:
    """The board's changes (see :func:`invalidate`) after version ``since``, oldest first; None when the kept
    history no longer reaches back to it."""
    changes = g.cache.get("board_changes") or []
    if not changes or changes[0][0] > since + 1:
        return None
    i = len(changes)
    while i and changes[i - 1][0] > since:  # from the newest: the history is in version order
        i -= 1
    return changes[i:]


def _still_valid(g: Context, key: str, since: int, touched: dict[str, set[int]], own_tokens: bool = True) -> bool:
    changes = _changes_after(g, since)
    if changes is None:
        return False
    for _, hexes, who, _ in changes:
        if hexes is None or (who == key and own_tokens) or _touches(hexes, touched):
            return False
    return True


def compute_network(g: Context, key: str, starts: list[NodeKey] | None = None, blocking: bool = True) -> Network:
    """Walk the track from every token node of ``key`` (or from ``starts``).

    The walk follows paths across hex edges and through stops; it does not pass an off-board, a city
    filled by other corporations' tokens (when ``blocking``), a terminal path, or another of the
    corporation's token cities (those are walked from themselves).  A token reaching another stop
    makes a route available.
    """
    return _compute(g, key, starts, blocking)[0]


State = int  # a walk's state, packed: see _state
#: a walk keeps the states it explored as a bit set (a ``bytearray``: state ``s`` is bit ``s & 7`` of byte ``s >> 3``),
#: and so many bytes of it per hex of the map (two states per path)
STATE_BYTES_PER_HEX = 1 << (PATH_BITS + 1 - 3)


def _state(hi: int, pi: int, side: int) -> State:
    """A walk's state -- path ``pi`` of the hex of index ``hi`` (in ``Book.hex_ids``), entered by its first end
    (``side`` 0: ``Track.end_a``) or its second (1) -- as one int (``path << 1 | side`` as ``Track.edge_states_l``
    lists them, for the path ``hi << PATH_BITS | pi``): a bit of the walk's bit set of states."""
    return (((hi << PATH_BITS) | pi) << 1) | side


def _compute(
    g: Context, key: str, starts: list[NodeKey] | None, blocking: bool
) -> tuple[Network, bytearray, dict[NodeKey, bool]]:
    """:func:`compute_network`, the walk states it explored (every state the tokens reach, as a bit set) and the stops
    it tried to pass (whether each blocked it)."""
    neighbours = g.book.neighbours
    n_hexes = len(g.book.hex_ids)
    net = Network(path_bits=bytearray(n_hexes * PATH_BYTES_PER_HEX), hex_ids=g.book.hex_ids)
    tokens = starts if starts is not None else token_nodes(g, key)
    token_set = set(tokens)
    hex_edges = net.hex_edges
    for hex_id, _ in tokens:
        hex_edges.setdefault(hex_id, set()).update(neighbours[hex_id])
    net.nodes.update(tokens)
    tracks: list[Track | None] = _walk_tracks(g, key)
    blocked: dict[NodeKey, bool] = {}
    # Where a walk goes on from a state (hex, path, end entered) does not depend on the token it
    # started from (every token city stops every walk), so states explored once are not explored
    # again -- except while no route has been found yet: that needs each token's own reach.
    explored = bytearray(n_hexes * STATE_BYTES_PER_HEX)
    for start in tokens:
        own = not net.route_available
        local: set[NodeKey] | None = set() if own else None  # the nodes a token's own walk reaches
        visited = bytearray(len(explored)) if own else explored
        _walk(
            g, key, blocking, net, _start_states(g, start, tracks), visited, token_set, tracks, blocked, local, explored
        )
        if local is not None:
            stops = sum(1 for (h, n) in local if _trk(g, tracks, h).nodes[n].kind != "junction")
            if stops > 1:
                net.route_available = True
    return net, explored, blocked


def _trk(g: Context, tracks: list[Track | None], h: str) -> Track:
    """The track on hex ``h``, kept in ``tracks`` (by the hex's index) for one walk."""
    return _trk_at(g, tracks, g.book.hex_index[h])


def _trk_at(g: Context, tracks: list[Track | None], hi: int) -> Track:
    t: Track | None = tracks[hi]
    if t is None:
        h = g.book.hex_ids[hi]
        hs: HexState = g.state.hexes[h]
        t = tracks[hi] = g.book.track(hs.tile, h, hs.rotation)
    return t


def _start_states(g: Context, start: NodeKey, tracks: list[Track | None]) -> list[State]:
    shex, sname = start
    hi = g.book.hex_index[shex]
    t0 = _trk_at(g, tracks, hi)
    if sname not in t0.nodes:
        return []
    base = hi << (PATH_BITS + 1)
    return [base | code for code in t0.node_states_l[t0.node_list.index(sname)]]


def _walk(
    g: Context,
    key: str,
    blocking: bool,
    net: Network,
    stack: list[State],
    visited: bytearray,
    token_set: set[NodeKey],
    tracks: list[Track | None],
    blocked: dict[NodeKey, bool],
    local: set[NodeKey] | None,
    explored: bytearray | None = None,
) -> None:
    """Explore every state reachable from ``stack`` not in the bit set ``visited``, recording what it reaches in
    ``net`` (and the nodes first reached in ``local``, unless None; and the states explored in ``explored`` too, where
    it is not ``visited``)."""
    book = g.book
    hexes = g.state.hexes
    ids: list[str] = book.hex_ids
    neighbour_index: list[list[int]] = book.neighbour_index
    hex_edges: dict[str, set[int]] = net.hex_edges
    nodes: set[NodeKey] = net.nodes
    # (the containers passed in, declared as such in board.pxd)
    reached: bytearray = net.path_bits
    todo: list[State] = stack
    seen: bytearray = visited
    also: bytearray = explored if explored is not None else visited
    marks_also: CInt = explored is not None and explored is not visited
    local_set: set[NodeKey] | None = local
    track_at: list[Track | None] = tracks
    blocked_at: dict[NodeKey, bool] = blocked
    t: Track | None
    tn: Track | None
    hs: HexState
    edges: set[int]
    nbrs: list[int]
    into: list[int]
    # C integers in compiled builds (railbook.engine.cint): the state's parts, unpacked as _state packs them
    path_bits: CInt = PATH_BITS
    path_mask: CInt = (1 << PATH_BITS) - 1
    s: CInt
    path: CInt
    hi: CInt
    pi: CInt
    a: CInt
    b: CInt
    end: CInt
    other: CInt
    nb: CInt
    back: CInt
    code: CInt
    k: CInt
    byte: CInt
    bit: CInt
    base: CInt
    while todo:
        s = todo.pop()
        byte = seen[s >> 3]
        bit = 1 << (s & 7)
        if byte & bit:
            continue
        seen[s >> 3] = byte | bit
        if marks_also:
            also[s >> 3] |= bit
        path = s >> 1
        pi = path & path_mask
        hi = path >> path_bits
        t = track_at[hi]
        h = ids[hi]
        if t is None:
            hs = hexes[h]
            t = track_at[hi] = book.track(hs.tile, h, hs.rotation)
        a = t.end_a[pi]
        b = t.end_b[pi]
        nbrs = neighbour_index[hi]
        byte = reached[path >> 3]
        bit = 1 << (path & 7)
        if not byte & bit:  # a path reached for the first time: its ends are reached
            reached[path >> 3] = byte | bit
            for k in range(2):
                end = a if k == 0 else b
                if end >= 8:
                    nk = (h, t.node_list[end - 8])
                    nodes.add(nk)
                    if local_set is not None:
                        local_set.add(nk)
                else:
                    found = hex_edges.get(h)
                    edges = found if found is not None else hex_edges.setdefault(h, set())
                    edges.add(end)
                    nb = nbrs[end]
                    if nb >= 0:
                        nh = ids[nb]
                        found = hex_edges.get(nh)
                        edges = found if found is not None else hex_edges.setdefault(nh, set())
                        edges.add((end + 3) % 6)
        other = b if s & 1 == 0 else a  # (entered by the first end, it leaves by the second)
        if other < 8:
            nb = nbrs[other]
            if nb < 0:
                continue
            back = (other + 3) % 6
            tn = track_at[nb]
            if tn is None:
                nh = ids[nb]
                hs = hexes[nh]
                tn = track_at[nb] = book.track(hs.tile, nh, hs.rotation)
            base = nb << (path_bits + 1)
            into = tn.edge_states_l[back]
            for code in into:
                todo.append(base | code)
        else:
            nk = (h, t.node_list[other - 8])
            if nk in token_set or t.terminal[pi]:
                continue
            stops = blocked_at.get(nk)
            if stops is None:
                node: Node = t.nodes[nk[1]]
                if node.kind == "offboard":
                    stops = True
                elif node.kind == "city" and blocking:
                    slots = hexes[h].tokens[int(nk[1][1:])]
                    stops = key not in slots and bool(slots) and None not in slots
                else:
                    stops = False
                blocked_at[nk] = stops
            if stops:
                continue
            base = hi << (path_bits + 1)
            into = t.node_states_l[other - 8]
            for code in into:
                if code >> 1 != pi:
                    todo.append(base | code)


@cython.locals(old="Network", t="Track", tn="Track", was="Track")
def _extend(
    g: Context,
    key: str,
    old: Network,
    states: bytearray,
    blocked: dict[NodeKey, bool],
    tokens: frozenset[NodeKey],
    new_tokens: frozenset[NodeKey],
    lays: dict[str, HexState],
    blocking: bool = True,
) -> tuple[Network, bytearray, dict[NodeKey, bool]] | None:
    """``key``'s network after tile lays (hex -> its state before) and new tokens of its own, grown from the
    network before them -- or None when a lay may have taken reach away (then the network is walked afresh).

    The old network stays reached when every path of each old tile is kept with the same ends and the same
    stops (no path turned terminal, no city fuller for ``key``, its tokens where they were), and a new token
    only starts walks where the old ones passed: then the walk re-explores only the laid hexes and whatever
    their new track and the new tokens reach."""
    # before a route is found each token walks on its own (see _compute): grown only from a lone token
    lone = not old.route_available and len(tokens) == 1 and not new_tokens
    if not (old.route_available or lone):
        return None
    for h, b in lays.items():
        if not _lay_keeps(g, key, h, b, blocking, new_tokens):
            return None
    # grown in place (no copies): the cache entry holding the old network and states is replaced by the grown one
    net, visited = old, states
    net.nodes |= new_tokens
    reached: bytearray = net.path_bits
    explored: bytearray = visited
    book = g.book
    index: dict[str, int] = book.hex_index
    was: Track
    path_bits: CInt = PATH_BITS
    hi: CInt
    pi: CInt
    a: CInt
    path: CInt
    state: CInt
    for hex_id, before in lays.items():
        was = book.track(before.tile, hex_id, before.rotation)  # the tile the walk saw on the hex
        hi = index[hex_id]
        for pi in range(len(was.paths)):
            path = (hi << path_bits) | pi
            reached[path >> 3] &= ~(1 << (path & 7)) & 255
            state = path << 1  # (the path's two states, entered by either end, are neighbouring bits of one byte)
            explored[state >> 3] &= ~(3 << (state & 7)) & 255
    tracks: list[Track | None] = _walk_tracks(g, key)
    stack: list[State] = []
    for start in tokens:
        if start in new_tokens or start[0] in lays:
            stack += _start_states(g, start, tracks)
    for h, _ in new_tokens:
        net.hex_edges.setdefault(h, set()).update(book.neighbours[h])
    t: Track
    tn: Track
    nbrs: list[int]
    into: list[int]
    back_paths: list[int]
    e: CInt
    f: CInt
    nb: CInt
    pj: CInt
    code: CInt
    for hex_id in lays:
        hi = index[hex_id]
        t = _trk_at(g, tracks, hi)
        nbrs = book.neighbour_index[hi]
        for e in range(6):
            nb = nbrs[e]
            into = t.edge_states_l[e]
            if nb < 0 or not into:
                continue
            f = (e + 3) % 6
            tn = _trk_at(g, tracks, nb)
            back_paths = tn.edge_paths_l[f]
            for pj in back_paths:  # a walk came to the edge from the other side: it goes on into the hex
                a = tn.end_a[pj]
                # the state that leaves path pj by edge f: entered by its other end (side 1 when its first end is f)
                state = (((nb << path_bits) | pj) << 1) | (1 if a == f else 0)
                if explored[state >> 3] >> (state & 7) & 1:
                    for code in into:
                        stack.append((hi << (path_bits + 1)) | code)
                    break
    for hex_id, before in lays.items():  # the stops tried on changed hexes are judged afresh
        _forget_stops(blocked, hex_id, book.track(before.tile, hex_id, before.rotation))
        _forget_stops(blocked, hex_id, _trk_at(g, tracks, index[hex_id]))
    for hex_id, _ in new_tokens:
        _forget_stops(blocked, hex_id, _trk_at(g, tracks, index[hex_id]))
    _walk(g, key, blocking, net, stack, visited, set(tokens), tracks, blocked, None)
    if lone:  # a route once the token reaches a second stop (as _compute counts its walk's stops)
        net.route_available = sum(1 for h, n in net.nodes if _trk(g, tracks, h).nodes[n].kind != "junction") > 1
    return net, visited, blocked


def _forget_stops(blocked: dict[NodeKey, bool], hex_id: str, t: Track) -> None:
    """Drop what ``blocked`` says of the stops of track ``t`` on ``hex_id``."""
    for name in t.node_list:
        blocked.pop((hex_id, name), None)


def _lay_keeps(
    g: Context,
    key: str,
    hex_id: str,
    old_hs: HexState,
    blocking: bool = True,
    new_tokens: frozenset[NodeKey] = frozenset(),
) -> bool:
    """Whether the lay on ``hex_id`` keeps, for ``key``, every walk the old tile allowed (see :func:`_extend`); a
    token of ``key`` in ``new_tokens`` may have been placed in the hex since (its walks start afresh)."""
    hs = g.state.hexes[hex_id]
    new_t = track(g, hex_id)
    n_old, n_new = len(old_hs.tokens), len(hs.tokens)
    holds = False  # a token of ``key`` is on the hex now
    for ci in range(max(n_old, n_new)):
        had = ci < n_old and key in old_hs.tokens[ci]
        has = ci < n_new and key in hs.tokens[ci]
        holds = holds or has
        if had != has and (had or (hex_id, f"c{ci}") not in new_tokens):
            return False
        full = ci < n_new and None not in hs.tokens[ci]
        if blocking and ci < n_old and full and not has and None in old_hs.tokens[ci]:
            return False  # a city the old tile let ``key`` pass is full now
    if holds and not new_t.cities:
        return False
    geometry = ("keeps", hex_id, old_hs.tile, old_hs.rotation, hs.tile, hs.rotation)
    kept = g.book.derived.get(geometry)
    if kept is None:
        old_t = g.book.track(old_hs.tile, hex_id, old_hs.rotation)
        kept = g.book.derived[geometry] = _paths_kept(old_t, new_t)
    return kept  # type: ignore[no-any-return]


@cython.locals(new_t="Track", old_t="Track")
def _paths_kept(old_t: Track, new_t: Track) -> bool:
    """Whether the new tile keeps every stop of the old one (same kind) and every path with its ends, none turned
    terminal (plain track may instead be joined through a junction)."""
    for name, node in old_t.nodes.items():
        nn = new_t.nodes.get(name)
        if nn is None or nn.kind != node.kind:
            return False
    new_paths = {}
    via: dict[str, set[tuple[int, Any]]] = {}  # junction -> the ends its open paths lead to
    for p in new_t.paths:
        new_paths[frozenset((p.a, p.b))] = p.terminal
        for j, end in ((p.a, p.b), (p.b, p.a)):
            if j[0] == NODE and new_t.nodes[j[1]].kind == "junction" and not p.terminal:
                via.setdefault(j[1], set()).add(end)
    seen = set()
    for p in old_t.paths:
        ends = frozenset((p.a, p.b))
        if ends in seen:
            return False
        seen.add(ends)
        if ends in new_paths:
            if new_paths[ends] and not p.terminal:
                return False
        elif p.a[0] != EDGE or p.b[0] != EDGE or not any(p.a in e and p.b in e for e in via.values()):
            return False  # neither kept nor joined through a junction (plain track becoming a junction tile)
    return len(new_paths) == len(new_t.paths)


def hexes_joined(g: Context, a: str, b: str) -> bool:
    """Whether track joins a stop of hex ``a`` to a stop of hex ``b``, ignoring tokens (off-boards
    still end a walk)."""
    starts = stop_nodes(g, a)
    if not starts:
        return False
    net = compute_network(g, "", starts=starts, blocking=False)  # not cached: tile probes call it mid-swap
    return any(h == b and track(g, h).nodes[n].kind != "junction" for h, n in net.nodes)


def unchanged_since(g: Context, since: int, hexes: set[str] | frozenset[str]) -> bool:
    """Whether no change of tiles or tokens after board version ``since`` touched ``hexes`` (a change naming no
    hexes, or one older than the kept history, counts as touching them)."""
    if since == g.board_version:
        return True
    changes = _changes_after(g, since)
    if changes is None:
        return False
    for _, changed, _, _ in changes:
        if changed is None or changed & hexes:
            return False
    return True


def hexes_changed_since(g: Context, since: int) -> set[str] | None:
    """The hexes whose tiles or tokens changed after board version ``since``; None when a change named no hexes or
    the kept history no longer reaches back to it."""
    changes = _changes_after(g, since)
    if changes is None:
        return None
    out: set[str] = set()
    for _, hexes, _, _ in changes:
        if hexes is None:
            return None
        out |= hexes
    return out


def invalidate(
    g: Context, hexes: set[str] | None = None, key: str | None = None, before: HexState | None = None
) -> None:
    """Call after any change of tiles or tokens (``hexes`` changed; ``key`` placed a token; ``before``: the
    state of the one hex a tile lay replaced, which lets networks grow from the lay instead of being walked
    again).  A change of a hex's tile must either give ``before`` or no ``hexes`` at all: a change naming hexes
    without ``before`` is taken for a change of tokens only."""
    g.board_version += 1
    g.epoch += 1
    changes = g.cache.setdefault("board_changes", [])
    changes.append((g.board_version, frozenset(hexes) if hexes is not None else None, key, before))
    if len(changes) > 256:
        del changes[:128]


# ------------------------------------------------------------------------------------------ tiles


def tile_name_of(tile_id: str) -> str:
    """``"7-0"`` -> ``"7"`` (tile names may themselves contain no dash)."""
    return tile_id.rsplit("-", 1)[0] if "-" in tile_id else tile_id


def available_copies(g: Context, name: str) -> int | None:
    count = g.book.tiles[name]["count"]
    if count == "unlimited":
        return None
    return int(count) - len(g.state.tiles_out.get(name, []))


def next_copy_id(g: Context, name: str) -> str:
    out = set(g.state.tiles_out.get(name, []))
    i = 0
    while f"{name}-{i}" in out:
        i += 1
    return f"{name}-{i}"


def upgrade_options(g: Context, hex_id: str) -> list[str]:
    hs = g.state.hexes[hex_id]
    if hs.tile is None:
        ups = list(g.book.hexes[hex_id].get("tile_upgrades") or [])
    else:
        ups = list(g.book.tiles[hs.tile].get("upgrades") or [])
    extra = g.book.raw.get("upgrade_exceptions")
    if extra:
        source = f"hex:{hex_id}" if hs.tile is None else hs.tile
        phase = g.phase_spec()["name"]
        for exc in extra:
            if source not in exc["tiles"] or hex_id not in (exc.get("hexes") or [hex_id]):
                continue
            if phase not in (exc.get("phases") or [phase]):
                continue
            to = exc["to"]
            ups = [u for u in ups if u not in to] if exc.get("forbid") else ups + [u for u in to if u not in ups]
    down = downgrade_of(g, hex_id)
    if down is not None and down not in ups:
        ups.append(down)
    return ups


def downgrade_of(g: Context, hex_id: str) -> str | None:
    """The tile that may replace this hex's tile now, dropping its towns (a mechanic's downgrades)."""
    tile = g.state.hexes[hex_id].tile
    if tile is None:
        return None
    table = g.hooks("tile_downgrades", hex_id)
    return None if not table else table.get(tile)


def listed_upgrades(g: Context, hex_id: str) -> set[str]:
    """Tiles the title's upgrade exceptions name for this hex now (they may keep the colour, e.g. a yellow town
    becoming a yellow city)."""
    hs = g.state.hexes[hex_id]
    source = f"hex:{hex_id}" if hs.tile is None else hs.tile
    phase = g.phase_spec()["name"]
    out: set[str] = set()
    for exc in g.book.raw.get("upgrade_exceptions") or []:
        if exc.get("forbid") or source not in exc["tiles"] or hex_id not in (exc.get("hexes") or [hex_id]):
            continue
        if phase in (exc.get("phases") or [phase]):
            out.update(exc["to"])
    return out


def rotations_keeping_track(g: Context, hex_id: str, new: str) -> list[int]:
    hs = g.state.hexes[hex_id]
    old_spec = g.book.tile_spec(hs.tile, hex_id)
    new_spec = g.book.tiles[new]
    # a listed exception (a small city becoming a large one) may turn towns into cities
    town_to_city = hs.tile is not None and new in listed_upgrades(g, hex_id)
    drop_towns = downgrade_of(g, hex_id) == new
    key = ("keep", hs.tile or "@" + hex_id, hs.rotation, new, town_to_city, drop_towns)
    cached: list[int] | None = g.book.derived.get(key)
    if cached is None:
        if not old_spec.get("paths"):
            cached = list(range(6))
        else:
            cached = upgrade_rotations(
                old_spec, hs.rotation, new_spec, town_to_city=town_to_city, drop_towns=drop_towns
            )
        g.book.derived[key] = cached
    return cached


@dataclass
class LayPlan:
    """A checked tile lay: what :func:`apply_lay` will do."""

    hex: str
    tile: str
    tile_id: str
    rotation: int
    upgrade: bool
    terrain_cost: int
    border_edges: list[tuple[str, int, str, int, int, str]]  # (hex, edge, other hex, other edge, cost, type)
    city_map: dict[int, int]


@cython.locals(g="Context")
def plan_lay(
    g: Context,
    hex_id: str,
    tile_id: str,
    rotation: int,
    *,
    key: str | None,
    check_phase: bool = True,
    check_connection: bool = True,
    allowed_tiles: list[str] | None = None,
    any_label: bool = False,
) -> LayPlan:
    """Validate a tile lay for entity ``key`` and describe its effects (no mutation).  ``any_label``: a tile of
    ``allowed_tiles`` (a private's own tiles) may go on the hex of the next colour whatever its label."""
    book = g.book
    if hex_id not in book.hexes:
        raise illegal("track.hex", f"no hex {hex_id} on the map")
    if not isinstance(rotation, int) or not 0 <= rotation <= 5:
        raise illegal("track.rotation", f"rotation {rotation!r} is not 0-5")
    name = tile_name_of(str(tile_id))
    if name not in book.tiles:
        raise illegal("track.tile", f"tile {tile_id} is not in this title's manifest")
    if allowed_tiles is not None and name not in allowed_tiles:
        raise illegal("track.tile", f"tile {name} may not be laid here with this ability")
    hs = g.state.hexes[hex_id]
    old_colour = colour(g, hex_id)
    new_spec = book.tiles[name]
    new_colour = new_spec["color"]
    left = available_copies(g, name)
    if left is not None and left <= 0:
        raise illegal("track.supply", f"no tile {name} left in the supply")
    if str(tile_id) in g.state.tiles_out.get(name, []):
        raise illegal("track.supply", f"tile {tile_id} is already on the map")
    if check_phase and new_colour not in g.phase_spec()["tiles"]:
        raise illegal("track.phase", f"{new_colour} tiles are not available in phase {g.phase_spec()['name']}")
    special_tile = any_label and allowed_tiles is not None and name in allowed_tiles
    if name not in upgrade_options(g, hex_id) and not special_tile:
        raise illegal("track.upgrade", f"{hex_id} ({old_colour}) cannot be replaced by tile {name}")
    if COLOUR_ORDER.index(new_colour) != COLOUR_ORDER.index(old_colour) + 1 and old_colour in COLOUR_ORDER:
        if not (new_colour == old_colour and (name in listed_upgrades(g, hex_id) or name == downgrade_of(g, hex_id))):
            raise illegal("track.upgrade", f"tile {name} ({new_colour}) does not follow {old_colour} on {hex_id}")
    if rotation not in rotations_keeping_track(g, hex_id, name):
        raise illegal("track.rotation", f"tile {name} at rotation {rotation} does not keep the track of {hex_id}")
    new_track = book.track(name, hex_id, rotation)
    nbrs = book.neighbours[hex_id]
    for e in new_track.exits:
        if e not in nbrs:
            raise illegal("track.rotation", f"tile {name} at rotation {rotation} points track off the map at {hex_id}")
    old_track = track(g, hex_id)
    # cities of the old tile map onto the new tile's cities that keep their exits
    city_map: dict[int, int] = {}
    used = set()
    merging = len(new_track.cities) < len(old_track.cities)  # e.g. two cities joined into one: tokens merge
    for oc in old_track.cities:
        oex = old_track.node_exits[oc]
        for nc in new_track.cities:
            if (nc not in used or merging) and oex <= new_track.node_exits[nc]:
                city_map[city_index(oc)] = city_index(nc)
                used.add(nc)
                break
        else:
            if old_track.cities and len(new_track.cities) >= len(old_track.cities):
                for nc in new_track.cities:
                    if nc not in used:
                        city_map[city_index(oc)] = city_index(nc)
                        used.add(nc)
                        break
    if check_connection and key is not None:
        net = network(g, key)
        edges = net.hex_edges.get(hex_id, set())
        if not (new_track.exits & edges):
            raise illegal("track.connection", f"tile {name} on {hex_id} does not connect to {key[2:]}'s network")
        for e in sorted(new_track.exits & edges):
            if route_reaches_side(g, key, hex_id, e):
                break
        else:
            raise illegal(
                "track.connection", f"no legal route of {key[2:]} reaches the track of tile {name} on {hex_id}"
            )
    upgrade = old_colour != "white"
    terrain_cost = 0
    if not hs.cost_paid:
        terrain_cost = int(book.hexes[hex_id].get("cost") or 0)
    borders = []
    spec_borders = {int(b["edge"]): b for b in book.hexes[hex_id].get("borders") or [] if b.get("cost")}
    for e in hs.borders:
        if e not in new_track.exits:
            continue
        nb = nbrs.get(e)
        if nb is None:
            continue
        back = opposite(e)
        if back not in track(g, nb).exits:
            continue
        b = spec_borders[e]
        borders.append((hex_id, e, nb, back, int(b.get("cost") or 0), b.get("type") or ""))
    return LayPlan(hex_id, name, str(tile_id), rotation, upgrade, terrain_cost, borders, city_map)


@cython.locals(g="Context")
def _laid_hex(g: Context, plan: LayPlan) -> HexState:
    """The hex state after a lay: tokens and reservations follow their city onto the new tile."""
    hs = g.state.hexes[plan.hex]
    new_track = g.book.track(plan.tile, plan.hex, plan.rotation)
    slots = [g.book.tiles[plan.tile]["cities"][i].get("slots", 1) for i in range(len(new_track.cities))]
    tokens: list[list[str | None]] = [[None] * n for n in slots]
    reservations: list[list[str | None]] = [[None] * n for n in slots]
    old_cities = tile_spec(g, plan.hex).get("cities") or []
    extras: dict[int, list[str]] = {}
    moved: list[tuple[int, int, str]] = []
    for old_ci, new_ci in plan.city_map.items():
        base = int(old_cities[old_ci].get("slots", 1)) if old_ci < len(old_cities) else 0
        for si, tok in enumerate(hs.tokens[old_ci] if old_ci < len(hs.tokens) else []):
            if tok is None:
                continue
            if si >= base:  # a token in an extra slot (a destination marker) stays in an extra slot
                extras.setdefault(new_ci, []).append(tok)
                continue
            target = si if si < len(tokens[new_ci]) and tokens[new_ci][si] is None else None
            if target is None and None in tokens[new_ci]:
                target = tokens[new_ci].index(None)
            if target is None:
                tokens[new_ci].append(tok)
            else:
                tokens[new_ci][target] = tok
        for si, res in enumerate(hs.reservations[old_ci] if old_ci < len(hs.reservations) else []):
            if res is not None:
                moved.append((new_ci, si, res))
    # a reservation keeps a slot of its own where cities merge: not one a token of the other city took, nor one
    # another reservation holds (a home reserved in one city of an OO hex, a marker in the other)
    for new_ci, si, res in moved:
        row, toks_ = reservations[new_ci], tokens[new_ci]
        if si >= len(row) or row[si] is not None or toks_[si] is not None:
            si = next((i for i in range(len(row)) if row[i] is None and toks_[i] is None), si)
        if si < len(row) and row[si] is None:
            row[si] = res
        else:
            row.append(res)
    for new_ci, toks in extras.items():
        tokens[new_ci] += toks
    return HexState(
        tile=plan.tile,
        tile_id=plan.tile_id,
        rotation=plan.rotation,
        tokens=tokens,
        reservations=reservations,
        icons=hs.icons,
        borders=[e for e in hs.borders if not any(e == b[1] for b in plan.border_edges)],
        cost_paid=True,
        assigned=hs.assigned,
    )


def apply_lay(g: Context, plan: LayPlan) -> None:
    """Put the tile on the map, moving tokens and reservations and paying off crossed hexsides."""
    hs = g.state.hexes[plan.hex]
    if hs.tile is not None and hs.tile_id is not None:
        out = g.state.tiles_out.get(hs.tile, [])
        if hs.tile_id in out:
            out.remove(hs.tile_id)
    g.state.tiles_out.setdefault(plan.tile, []).append(plan.tile_id)
    g.state.hexes[plan.hex] = _laid_hex(g, plan)
    _tokens_follow_cities(g, plan, hs)
    for _, _, nb, back, _, _ in plan.border_edges:
        if back in g.state.hexes[nb].borders:
            g.state.hexes[nb].borders.remove(back)
    invalidate(g, {plan.hex}, before=hs)


def _tokens_follow_cities(g: Context, plan: LayPlan, before: HexState) -> None:
    """Each operator's record of a marker on the hex names the city the marker moved to (``plan.city_map``), as the
    hex's slots do (what reads the record, such as a national railway's marker exchange, finds the marker where it
    stands: docs/CONFORMANCE.md, "Disagreements found and fixed")."""
    moves: list[tuple[Any, int]] = []
    for old_ci, new_ci in plan.city_map.items():
        if old_ci == new_ci or old_ci >= len(before.tokens):
            continue
        for key in before.tokens[old_ci]:
            if key is None or kind_of(key) not in ("C", "M"):
                continue
            for tok in g.operator(key).tokens:
                if tok.used and tok.hex == plan.hex and tok.city == old_ci:
                    moves.append((tok, new_ci))
                    break
    for tok, new_ci in moves:
        tok.city = new_ci


def network_after(g: Context, key: str, plan: LayPlan) -> Network:
    """The network ``key`` would have with the tile of ``plan`` laid (the board is left unchanged): a copy of its
    network now grown by the lay (see :func:`_extend`) where the lay keeps every old walk, else walked afresh."""
    network(g, key)
    hit = g.cache["network"][key]  # (board version, network, hexes touched, walk states, stops tried, tokens)
    saved = g.state.hexes[plan.hex]
    g.state.hexes[plan.hex] = _laid_hex(g, plan)
    try:
        _, old, _, states, blocked, tokens = hit
        copy = Network(
            {h: set(e) for h, e in old.hex_edges.items()},
            set(old.nodes),
            old.route_available,
            bytearray(old.path_bits),
            old.hex_ids,
        )
        grown = _extend(g, key, copy, bytearray(states), dict(blocked), tokens, frozenset(), {plan.hex: saved})
        if grown is None:
            return compute_network(g, key)
        if AUDIT:
            fresh = compute_network(g, key)
            audit(f"network of {key!r} after {plan.tile} on {plan.hex}", _facts(grown[0]), _facts(fresh))
        return grown[0]
    finally:
        g.state.hexes[plan.hex] = saved


def _facts(net: Network) -> tuple[dict[str, set[int]], set[NodeKey], set[tuple[str, int]], bool]:
    return net.hex_edges, net.nodes, net.paths, net.route_available


@cython.locals(g="Context", net="Network", new_track="Track", old_track="Track")
def uses_new_track(
    g: Context,
    key: str,
    hex_id: str,
    old_track: Track,
    old_revenues: dict[str, Any],
    net: Network | None = None,
    new_track: Track | None = None,
) -> bool:
    """18xx 'semi-restrictive' rule: some connected path of the new tile is new, or a city changed value.

    The answer is an "any" over the tile's connected paths; the cheap test (a kept path whose city changed value)
    is made on every path before the route search (:func:`route_reaches_path`, which can take thousands of steps)
    is made on any new one: the same answer, searched for less often."""
    net = net or network(g, key)
    t = new_track or track(g, hex_id)
    old_sigs = []
    for p in old_track.paths:
        old_sigs.append(_sig(old_track, p))
    hi = g.book.hex_index[hex_id]
    new_paths: list[int] = []
    for p in t.paths:
        if not net.reaches_path(hi, p.index):
            continue
        sig = _sig(t, p)
        match = None
        for i, osig in enumerate(old_sigs):
            if _sub(osig, sig):
                match = old_track.paths[i]
                break
        if match is None:
            new_paths.append(p.index)
            continue
        old_nodes = sorted(str(old_revenues.get(e[1])) for e in (match.a, match.b) if e[0] == NODE)
        new_nodes = sorted(str(t.nodes[e[1]].revenue) for e in (p.a, p.b) if e[0] == NODE)
        if old_nodes != new_nodes:
            return True
    for index in new_paths:
        if route_reaches_path(g, key, hex_id, index):
            return True
    return False


def route_reaches_path(g: Context, key: str, hex_id: str, target: int, budget: int = 20000) -> bool:
    """Whether a legal train route of ``key`` runs from one of its tokens to and along path ``target`` of the tile
    now on ``hex_id``: no track used twice (no path, no hexside), no stop visited twice, no passing through an
    off-board or a city full of others' tokens. (The network's walk, which stops at nothing it has seen, reaches
    more: e.g. a path entered from a city the route could reach only by passing the same city twice.)

    The route is searched backwards, depth first from the path out of either end, until it meets a stop holding
    a token of ``key`` (where the route may start): the tokens are usually near new track, the whole network far
    larger.  Past ``budget`` steps it gives up and answers yes, as the network does."""
    search = _route_search(g, key, hex_id, target, budget)
    if search is None:
        return False
    thi: int = g.book.hex_index[hex_id]
    for side in (0, 1):
        if search.start(thi, target << 1 | side) != _NOT_FOUND:
            return True  # found, or out of budget (then yes, as the network would say)
    return False


def route_reaches_node(g: Context, key: str, hex_id: str, name: str, budget: int = 20000) -> bool:
    """Whether a legal train route of ``key`` runs from one of its tokens to stop ``name`` of the tile on ``hex_id``
    (the rulebooks' test for placing a station: a legal route "from one of its station markers to the city"): a
    route that ends there along one of the stop's paths, as :func:`route_reaches_path` searches it.  The network's
    walk reaches more: e.g. a city the route could reach only by crossing one hexside twice.  The answer is kept
    until the board (tiles, tokens) changes."""
    cache = g.table("route_to_node")
    k = (key, hex_id, name, budget)
    hit = cache.get(k)
    if hit is not None and hit[0] == g.board_version and not AUDIT:
        return bool(hit[1])
    found = _route_to_node(g, key, hex_id, name, budget)
    cache[k] = (g.board_version, found)
    return found


def _route_to_node(g: Context, key: str, hex_id: str, name: str, budget: int) -> bool:
    t = track(g, hex_id)
    if name not in t.nodes:
        return False
    return _route_along_to(g, key, hex_id, t.node_list.index(name) + 8, budget)


def _route_along_to(g: Context, key: str, hex_id: str, end: int, budget: int) -> bool:
    """Whether a legal route of ``key`` runs along a path of the tile on ``hex_id`` to its ``end`` (an edge 0-5, or
    a stop: its index + 8) from the path's other end: one search for every such path (its tracks, origins and
    budget), each path searched out of its other end."""
    t = track(g, hex_id)
    thi: int = g.book.hex_index[hex_id]
    search: _RouteSearch | None = None
    for pi in range(len(t.end_a)):
        if t.end_a[pi] != end and t.end_b[pi] != end:
            continue
        if search is None:
            search = _route_search(g, key, hex_id, pi, budget)
            if search is None:
                return False
        else:
            search.used = {thi << PATH_BITS | pi}
        if search.start(thi, pi << 1 | (0 if t.end_a[pi] == end else 1)) != _NOT_FOUND:
            return True
    return False


def route_reaches_side(g: Context, key: str, hex_id: str, edge: int, budget: int = 20000) -> bool:
    """Whether ``key``'s track reaches side ``edge`` of ``hex_id`` for a tile lay there ("Track is connected if a
    path of any length can be traced from any station token of that corporation to that piece of track without
    backtracking", 1846 §6; the others alike): ``key`` has a token on the hex, or a legal train route runs along
    a path of the hex or of its neighbour to that side (:func:`route_reaches_path`).  The network's walk reaches
    more: e.g. a side a route could reach only by crossing another hexside twice.  Kept until the board changes."""
    cache = g.table("route_to_side")
    k = (key, hex_id, edge, budget)
    hit = cache.get(k)
    if hit is not None and hit[0] == g.board_version and not AUDIT:
        return bool(hit[1])
    found = _route_to_side(g, key, hex_id, edge, budget)
    cache[k] = (g.board_version, found)
    return found


def _route_to_side(g: Context, key: str, hex_id: str, edge: int, budget: int) -> bool:
    if hex_tokened_by(g, hex_id, key):
        return True
    if _route_along_to(g, key, hex_id, edge, budget):
        return True
    nb = g.book.neighbours[hex_id].get(edge)
    return nb is not None and _route_along_to(g, key, nb, opposite(edge), budget)


def _route_search(g: Context, key: str, hex_id: str, target: int, budget: int) -> _RouteSearch | None:
    """A search for a route of ``key`` along path ``target`` of ``hex_id`` (None: ``key`` has no token)."""
    book = g.book
    tracks: list[Track | None] = _walk_tracks(g, key)
    origins: set[int] = set()
    network(g, key)  # (its cache entry keeps the token nodes it was walked from, kept up to date with the board)
    entry = g.table("network").get(key)
    for shex, sname in entry[5] if entry is not None and not AUDIT else token_nodes(g, key):
        hi = book.hex_index[shex]
        t0 = _trk_at(g, tracks, hi)
        if sname in t0.nodes:
            origins.add(hi << _NODE_BITS | t0.node_list.index(sname))
    if not origins:
        return None
    thi: int = book.hex_index[hex_id]
    return _RouteSearch(g, key, tracks, origins, {thi << PATH_BITS | target}, budget)


_NODE_BITS = 6  # a stop of a walk as ``hex index << _NODE_BITS | node index``
_NOT_FOUND, _FOUND, _OUT_OF_BUDGET = 0, 1, 2


class _RouteSearch:
    """One route search (:func:`route_reaches_path`): the tracks met (by hex index), the paths and hexsides the route
    uses and the stops it visits so far, the stops it may start from (``origins``) and the steps left of its budget.
    A hexside is one piece of track however many paths end at it: a route crosses it once."""

    def __init__(
        self, g: Context, key: str, tracks: list[Track | None], origins: set[int], used: set[int], budget: int
    ) -> None:
        self.g = g
        self.key = key
        self.tracks = tracks
        self.origins = origins
        self.used = used
        self.seen: set[int] = set()
        self.sides: set[int] = set()
        self.left = budget

    def side(self, hi: int, edge: int) -> int:
        """The hexside at ``edge`` of hex ``hi``, one number seen from either hex."""
        nb = self.g.book.neighbour_index[hi][edge]
        mine = hi * 6 + edge
        if nb >= 0:
            theirs = nb * 6 + (edge + 3) % 6
            if theirs < mine:
                return theirs
        return mine

    def start(self, hi: int, code: int) -> int:
        """:meth:`out` from path ``code >> 1`` of hex ``hi``, the route going on past the end it entered by: a
        hexside there is the route's too."""
        t = _trk_at(self.g, self.tracks, hi)
        pi = code >> 1
        entered = t.end_a[pi] if code & 1 == 0 else t.end_b[pi]
        if entered >= 8:
            return self.out(hi, code)
        s = self.side(hi, entered)
        self.sides.add(s)
        try:
            return self.out(hi, code)
        finally:
            self.sides.discard(s)

    def out(self, hi: int, code: int) -> int:
        """The route runs through path ``code >> 1`` of hex ``hi`` (entered by its first end when ``code & 1`` is 0)
        and on out of its other end; whether it reaches one of ``origins``."""
        g = self.g
        t = _trk_at(g, self.tracks, hi)
        pi = code >> 1
        other = t.end_b[pi] if code & 1 == 0 else t.end_a[pi]
        if other < 8:
            nb = g.book.neighbour_index[hi][other]
            if nb < 0:
                return _NOT_FOUND
            s = self.side(hi, other)
            if s in self.sides:
                return _NOT_FOUND
            self.sides.add(s)
            try:
                for c in _trk_at(g, self.tracks, nb).edge_states_l[(other + 3) % 6]:
                    found = self.into(nb, c)
                    if found != _NOT_FOUND:
                        return found
                return _NOT_FOUND
            finally:
                self.sides.discard(s)
        ni = other - 8
        stop = hi << _NODE_BITS | ni
        if stop in self.origins:
            return _FOUND
        if stop in self.seen:
            return _NOT_FOUND
        node: Node = t.nodes[t.node_list[ni]]
        if node.kind == "offboard":
            return _NOT_FOUND
        if node.kind == "city":
            slots = g.state.hexes[g.book.hex_ids[hi]].tokens[int(t.node_list[ni][1:])]
            if self.key not in slots and slots and None not in slots:
                return _NOT_FOUND
        self.seen.add(stop)
        try:
            for c in t.node_states_l[ni]:
                # the route runs on through the stop (forwards it came this way: a terminal path ends it there)
                if c >> 1 != pi and not t.terminal[c >> 1]:
                    found = self.into(hi, c)
                    if found != _NOT_FOUND:
                        return found
            return _NOT_FOUND
        finally:
            self.seen.discard(stop)

    def into(self, hi: int, code: int) -> int:
        """The route enters path ``code >> 1`` of hex ``hi`` (see :meth:`out`), unless it used that track already."""
        self.left -= 1
        if self.left < 0:
            return _OUT_OF_BUDGET
        path = hi << PATH_BITS | code >> 1
        if path in self.used:
            return _NOT_FOUND
        self.used.add(path)
        try:
            return self.out(hi, code)
        finally:
            self.used.discard(path)


def _sig(t: Track, p: Any) -> tuple:
    def end(e: tuple[int, Any]) -> tuple:
        return ("e", e[1]) if e[0] == EDGE else ("n", t.nodes[e[1]].kind)

    return (end(p.a), end(p.b))


def _sub(old: tuple, new: tuple) -> bool:
    return (old[0] == new[0] and old[1] == new[1]) or (old[0] == new[1] and old[1] == new[0])
