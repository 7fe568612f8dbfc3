"""``destinations``: a company reaching its destination (``corporations.<X>.destination``) triggers an effect.

A company is connected when it can trace from its home station to its destination hex (see the tracing
switches); unless distance is ignored, one of its trains must have a legal route between the two (no track used
twice, no city passed that others' stations block; the exact optimiser decides).  ``checked`` says when that is
looked at, for every company.  The ``effect`` happens once per
company (with ``once_per_company``).

``connection_run``: the company at once runs its trains for a bonus income, one of them exactly from home to
destination, the others normally.  When several companies connect at the same time, the one that just
operated runs first, then the others in share price order; a connection made by a closure in a stock round
is run at the start of the next operating round.  Before the run the company gets its destination marker
(``marker``): a ``choose`` action, ``Map`` (free at the hex edge, the destination then counts twice at a route
end) or ``Charter`` (one more station marker of ``otherwise_token_cost``); then ``run_routes`` and ``dividend``
(``payout`` or ``withhold``) as its ``connection_run`` says.  The route stage's legal action names the required
route: ``route_between: [[home hexes], [destination]]``.  ``release_escrow``: money held for the company is
released (hook ``destination_reached``, answered by ``escrow``).  Every effect notifies ``destination_reached``.

The step ``connection_run`` (first in the operating round's steps) plays the runs.  The 18xx.games
``destination_connection`` notice in records is checked against the rules (hook ``record_notice``).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from railbook.params.destinations import CONNECTION_RUN_STEP, DECLARATION, Params

from .. import board, market, rounds, shares
from .. import memo as _memo
from .. import routes as R
from ..access import params_of, state_of
from ..book import PATH_BITS, Track
from ..contract import Mechanic
from ..errors import IllegalAction, illegal
from ..state import BANK, POOL, Token, ckey, kind_of, sym_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..cint import CInt
    from ..context import Context
    from ..state import Corporation, Train

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


@dataclass(slots=True)
class State:
    """Companies that reached their destination, runs waiting (in order) and the stage of the one under way."""

    reached: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    stage: str = "marker"  # marker | route | dividend
    revenue: int = 0
    marked: dict[str, str] = field(default_factory=dict)  # corporation -> destination hex of its edge marker


PARAMS = params_of(DECLARATION, Params)
STATE = state_of(DECLARATION, State)


def destination_of(g: Context, corp: str) -> str | None:
    dest = g.book.corporations[corp].get("destination")
    return str(dest) if dest else None


def home_hexes(g: Context, corp: str) -> set[str]:
    """The hexes where ``corp`` has its home station (none before its home station is down)."""
    c: Corporation = g.state.corporations[corp]
    start = PARAMS.of(g).start_hexes.get(corp)
    if start:
        return {start}
    if not c.tokens:
        return set()
    home: Token = c.tokens[0]
    if not home.used or home.hex is None:
        return set()
    return {home.hex}


def connected(g: Context, corp: str) -> bool:
    """``corp`` can trace from its destination (or a hex of ``also_reached_at``) to its home station."""
    dest = destination_of(g, corp)
    if not dest:
        return False
    homes = home_hexes(g, corp)
    if not homes:
        return False
    p = PARAMS.of(g)
    if _connected_to(g, p, corp, dest, homes):
        return True
    for d in p.also_reached_at.get(corp) or ():
        if _connected_to(g, p, corp, d, homes):
            return True
    return False


def _connected_to(g: Context, p: Params, corp: str, dest: str, homes: set[str]) -> bool:
    if dest in homes:
        return True
    if p.ignore_distance:
        return _home_stops(g, corp, dest, homes) is not None
    c: Corporation = g.state.corporations[corp]
    trains = c.trains
    if not trains:
        return False  # no train to run there, wherever the track goes (asked before walking the board)
    if not p.ignore_station_markers and not _network_reaches(g, corp, dest):
        # a train's route from a home station to the destination is a walk of the company's network: where that
        # network (its tokens' walk, grown lay by lay) does not reach a stop of the destination, no train can run
        # there, and the fewest-stops search (which the changes in its region would make again) is not needed
        if g.audit:
            _memo.audit(f"destinations: {corp} cannot reach {dest}", False, _run_home_to(g, corp, dest, homes))
        return False
    return _run_home_to(g, corp, dest, homes)


def _network_reaches(g: Context, corp: str, dest: str) -> bool:
    """Whether ``corp``'s network (blocking as routes are blocked) reaches a stop of hex ``dest``."""
    nodes = board.network(g, ckey(corp)).nodes
    for stop in board.stop_nodes(g, dest):
        if stop in nodes:
            return True
    return False


def _run_home_to(g: Context, corp: str, dest: str, homes: set[str]) -> bool:
    """Whether a train of ``corp`` (which has trains) can run from a home station to ``dest``: a path of few enough
    stops (the fewest-stops search), and a legal route (see :func:`_train_can_run`)."""
    reach = 0
    for t in g.state.corporations[corp].trains:
        n = _train_stops(g, t)
        if n > reach:
            reach = n
    stops = _home_stops(g, corp, dest, homes, reach)  # (a path with more stops than any train visits is no use)
    if stops is None or stops > reach:
        return False
    return _train_can_run(g, corp, dest, homes)


def _train_can_run(g: Context, corp: str, dest: str, homes: set[str]) -> bool:
    """One of ``corp``'s trains has a legal route (no track twice, no blocked city passed) from a home station to
    ``dest``: the fewest-stops trace may use track twice.  That trace is tried as a route first; where it is not
    one, the exact optimiser is asked with such a route required.  Cached until the board or the company's trains
    change."""
    cache = g.table("destination_runs")
    k = (corp, dest, frozenset(homes))
    trains = g.state.corporations[corp].trains
    now = (g.board_version, tuple(trains))
    hit = cache.get(k)
    if hit is not None and hit[0] == now and not g.audit:
        return hit[1]  # type: ignore[no-any-return]
    value = _trace_runs(g, corp, dest, homes, trains)
    if not value:
        from railbook.routes import can_run_between  # the exact optimiser, asked with that route required

        if _walk_reaches(g, corp, dest, homes):
            value = can_run_between(g, corp, [sorted(homes), [dest]])
        elif g.audit:
            _memo.audit(f"destinations walk {k!r}", False, can_run_between(g, corp, [sorted(homes), [dest]]))
    if hit is not None and hit[0] == now:
        _memo.audit(f"destinations run {k!r}", hit[1], value)
    cache[k] = (now, value)
    return value


def _walk_reaches(g: Context, corp: str, dest: str, homes: set[str]) -> bool:
    """The board's walk from ``dest`` (passing no stop that would stop a route: a city full of other companies'
    tokens, an off-board, a terminal path) reaches a stop in a home hex.  When it does not, no route joins them
    and the optimiser need not be asked.  (The walk is the board's cached one, grown lay by lay.)"""
    net = _walk_from(g, corp, dest)
    if net is None:
        return False
    for h, _ in net.nodes:
        if h in homes:
            return True
    return False


def _walk_from(g: Context, corp: str, dest: str) -> board.Network | None:
    """The board's cached walk of ``corp`` from the stops of ``dest`` (through cities full of other companies' tokens
    where station markers are ignored); None when the hex has no stop."""
    starts = board.stop_nodes(g, dest)
    if not starts:
        return None
    return board.reach(g, ckey(corp), starts, blocking=not PARAMS.of(g).ignore_station_markers)


@cython.locals(g="Context")
def _home_stops(g: Context, corp: str, dest: str, homes: set[str], most: int | None = None) -> int | None:
    """The fewest stops on a track path from ``dest`` to a home stop that passes no stop blocking ``corp``, None when
    there is no such path (or, given ``most``, none with at most that many stops: the search reads no further).
    When distance is ignored: 0 when any track joins ``dest`` to a home hex (through blocked cities too if station
    markers are ignored), else None.  Depends on the hexes the search or the walk read: cached until a change of
    tiles or tokens touches one of them."""
    cache = g.table("destination_stops")
    k = (corp, dest, most)
    hit = cache.get(k)
    valid = hit is not None and hit[3] == homes and board.unchanged_since(g, hit[0], hit[2])
    if valid and not g.audit:
        if hit[0] != g.board_version:
            cache[k] = (g.board_version, *hit[1:])
        return hit[1]  # type: ignore[no-any-return]
    value: int | None = None
    read: set[str] = {dest}
    if not PARAMS.of(g).ignore_distance:
        # the fewest-stops search finds a path exactly when one exists (and reads less of the board than a walk)
        chains = _fewest_stops_trace(g, corp, dest, homes, read, most)
        value = None if chains is None else len(chains) + 1
    else:
        net = _walk_from(g, corp, dest)
        if net is not None:
            read.update(net.hex_edges, (h for h, _ in net.nodes))
            index = g.book.hex_index
            for h in homes:
                if net.reaches_hex(index[h]):
                    value = 0
                    break
    if valid:
        _memo.audit(f"destinations stops {k!r}", hit[1], value)  # type: ignore[index]
    cache[k] = (g.board_version, value, frozenset(read), frozenset(homes))
    return value


def _trace_runs(g: Context, corp: str, dest: str, homes: set[str], trains: list[str]) -> bool:
    """A fewest-stops trace from ``dest`` to a home stop is a legal route for one of ``trains``."""
    chains = _fewest_stops_trace(g, corp, dest, homes)
    if chains is None:
        return False
    key = ckey(corp)
    for tid in trains:
        try:
            route = R.rebuild(g, key, tid, chains, set())
            R.check_route(g, key, route)
        except IllegalAction:
            continue
        ends = {route.stops[0][0], route.stops[-1][0]}
        if dest in ends and ends & homes:
            return True
    return False


def _fewest_stops_trace(
    g: Context, corp: str, dest: str, homes: set[str], read: set[str] | None = None, most: int | None = None
) -> list[list[str]] | None:
    """The hex chains, stop to stop, of a path with the fewest stops from a destination stop to a home stop, passing
    no stop that blocks ``corp`` (breadth-first; the path may use track twice); given ``most``, only a path of at
    most that many stops (the search goes no further).  Every hex whose track or tokens it reads is added to
    ``read``."""
    key = ckey(corp)
    starts = board.stop_nodes(g, dest)
    came: dict[tuple[str, str], tuple[tuple[str, str], list[str]] | None] = dict.fromkeys(starts)
    depth: dict[tuple[str, str], int] = dict.fromkeys(starts, 0)  # connections from the destination
    frontier = deque(starts)
    kept = _adjacent_now(g)  # (the board does not change during the search)
    while frontier:
        node = frontier.popleft()
        if node[0] in homes:
            chains = []
            step = came[node]
            while step is not None:
                chains.append(step[1])
                step = came[step[0]]
            return chains or None
        further = depth[node] + 1
        if most is not None and further + 1 > most:
            continue  # a stop beyond it would make more stops than ``most`` (asked first: the cheaper question)
        if came[node] is not None and board.node_blocks(g, node[0], node[1], key, R.node_info(g, node).kind):
            continue
        for nxt, chain in _adjacent_in(g, kept, node, read):
            if nxt not in came:
                came[nxt] = (node, chain)
                depth[nxt] = further
                frontier.append(nxt)
    return None


def _train_stops(g: Context, tid: str) -> int:
    """The most stops a train visits (kept per train type and face: it reads the book alone)."""
    t: Train = g.state.trains[tid]
    kept: dict[tuple[str, str], int] = g.table("destination_train_stops")
    found = kept.get((t.sym, t.name))
    if found is None:
        found = 0
        for d in R.distance_of(g, tid):
            n = d.get("visit")
            if not isinstance(n, int):
                found = 10**6
                break
            found = max(found, n)
        kept[(t.sym, t.name)] = found
    return found


def _adjacent_now(g: Context) -> list[Any]:
    """The table of kept adjacent stops, brought up to the board's version (see :func:`_adjacent_table`)."""
    kept = g.cache.get("destination_adjacent")
    if kept is None or kept[0] != g.board_version:
        kept = _adjacent_table(g, kept)
    return kept  # type: ignore[no-any-return]


def _adjacent_in(
    g: Context, kept: list[Any], node: tuple[str, str], read: set[str] | None
) -> list[tuple[tuple[str, str], list[str]]]:
    """:func:`_adjacent_chains` of ``node``, kept in the table ``kept`` (:func:`_adjacent_now`) between searches until a
    change of tiles or tokens touches a hex it read (the search starts again after every lay in its region, and most
    of what it walks is as it was); the hexes read go into ``read``."""
    table: dict[tuple[str, str], Any] = kept[1]
    hit = table.get(node)
    if hit is None or g.audit:
        hexes = {node[0]}
        chains = _adjacent_chains(g, node, hexes)
        if hit is not None:
            _memo.audit(f"destinations adjacent stops of {node!r}", hit[0], chains)
        hit = table[node] = (chains, hexes)
        by_hex = kept[2]
        for h in hexes:
            by_hex.setdefault(h, set()).add(node)
    if read is not None:
        read.update(hit[1])
    return hit[0]  # type: ignore[no-any-return]


def _adjacent_table(g: Context, kept: list[Any] | None) -> list[Any]:
    """The table of kept adjacent stops ([board version, node -> (chains, hexes read), hex -> nodes that read it]),
    without the entries a change since touched."""
    if kept is not None:
        changed = board.hexes_changed_since(g, kept[0])
        if changed is not None:
            table, by_hex = kept[1], kept[2]
            for h in changed:
                for node in by_hex.pop(h, ()):
                    table.pop(node, None)
            kept[0] = g.board_version
            return kept
    kept = g.cache["destination_adjacent"] = [g.board_version, {}, {}]
    return kept


def _adjacent_chains(
    g: Context, node: tuple[str, str], read: set[str] | None = None
) -> list[tuple[tuple[str, str], list[str]]]:
    """Stops one track step away from ``node`` (through junctions and hex edges, not through other stops), each
    with the hexes of one track from ``node`` to it (a route's connection); the hexes looked at go into ``read``.
    (A walk over the tracks' compact tables, as the board's: an end is an edge 0-5 or 8 + a node's index, a path is
    ``hex index << PATH_BITS | path``.)"""
    out: list[tuple[tuple[str, str], list[str]]] = []
    found: set[tuple[str, str]] = set()
    home, name = node
    t: Track = board.track(g, home)
    if name not in t.nodes:
        return out
    book = g.book
    ids: list[str] = book.hex_ids
    neighbour_index: list[list[int]] = book.neighbour_index
    start = t.node_list.index(name)
    first: CInt = book.hex_index[home]
    stack: list[tuple[int, int, list[str]]] = [
        ((first << PATH_BITS) | pi, 8 + start, [home]) for pi in t.node_paths_l[start]
    ]
    seen: set[int] = set()
    tracks: dict[int, Track] = {first: t}  # (each hex's track looked up once: the walk passes a hex many times)
    tn: Track
    into: list[int]
    path: CInt
    hi: CInt
    pi: CInt
    entered: CInt
    a: CInt
    b: CInt
    other: CInt
    nb: CInt
    back: CInt
    pj: CInt
    path_bits: CInt = PATH_BITS
    mask: CInt = (1 << PATH_BITS) - 1
    while stack:
        path, entered, hexes = stack.pop()
        if path in seen:
            continue
        seen.add(path)
        hi = path >> path_bits
        pi = path & mask
        t = tracks[hi]
        a = t.end_a[pi]
        b = t.end_b[pi]
        other = b if entered == a else a
        if other < 8:
            nb = neighbour_index[hi][other]
            if nb < 0:
                continue
            back = (other + 3) % 6
            nh = ids[nb]
            if read is not None:
                read.add(nh)
            tn = tracks.get(nb)
            if tn is None:
                tn = tracks[nb] = board.track(g, nh)
            into = tn.edge_paths_l[back]
            for pj in into:
                stack.append(((nb << path_bits) | pj, back, [*hexes, nh]))
            continue
        ni = other - 8
        stop = t.node_list[ni]
        if t.nodes[stop].kind == "junction":
            into = t.node_paths_l[ni]
            for pj in into:
                if pj != pi:
                    stack.append(((hi << path_bits) | pj, other, hexes))
        else:
            reached = (ids[hi], stop)
            if reached != node and reached not in found:
                found.add(reached)
                out.append((reached, hexes))
    return out


def check(g: Context, operator: str | None = None) -> None:
    """Queue the companies that can now reach their destination (the one that just operated first, then share
    price order)."""
    st = STATE.of(g)
    once = PARAMS.of(g).once_per_company
    asked: list[tuple[str, tuple[str, ...]]] = []  # the companies to look at, with their trains
    c: Corporation
    for corp in g.state.corp_order:
        c = g.state.corporations[corp]
        if c.closed or not c.floated or corp in st.pending or (once and corp in st.reached):
            continue
        asked.append((corp, tuple(c.trains)))
    # whether a company can connect depends on the board (tiles and tokens: its version) and its trains only, so a
    # check that finds nobody stands until one of them changes (checks come at the end of one company's turn and
    # again at the start of the next)
    seen = (g.board_version, asked)
    if g.cache.get("destinations_none_since") == seen:
        if g.audit:
            _memo.audit("destinations: nobody can connect", [], [corp for corp, _ in asked if connected(g, corp)])
        return
    found = [corp for corp, _ in asked if connected(g, corp)]
    if not found:
        g.cache["destinations_none_since"] = seen
        return
    # (a list of keys, not a key function: a lambda reading ``g`` would leave ``g`` untyped in the compiled build)
    order = [(0 if operator == ckey(corp) else 1, market.sort_key(g, corp), i, corp) for i, corp in enumerate(found)]
    order.sort()
    for entry in order:
        reached(g, entry[-1])


@cython.locals(g="Context")
def reached(g: Context, corp: str) -> None:
    st = STATE.of(g)
    st.reached.append(corp)
    g.log(f"{corp} can connect to its destination")
    g.hooks("destination_reached", corp)
    if PARAMS.of(g).effect == "connection_run":
        if not st.pending:
            st.stage = "marker"
        st.pending.append(corp)
        g.epoch += 1


def operator_started(g: Context, operator: str) -> None:
    if PARAMS.of(g).checked == "after_each_operator_turn":
        check(g)


def after_operating_action(g: Context, action: dict[str, Any]) -> None:
    p = PARAMS.of(g)
    if p.checked == "after_every_tile_lay":
        if action.get("type") == "lay_tile":
            check(g)
        return
    if STATE.of(g).pending or g.state.round is None or g.state.round.kind != "operating":
        return
    if rounds.active_step(g) is None:
        check(g, g.state.round.data.get("current_operator"))


def record_notice(g: Context, action: dict[str, Any]) -> bool:
    """18xx.games' ``destination_connection`` notice: the companies it names must have reached their destination
    by the rules (this engine checks by itself)."""
    if action.get("type") != "destination_connection":
        return False
    named = [str(c) for c in action.get("corporations") or []]
    missing = [c for c in named if c not in STATE.of(g).reached]
    if missing and g.state.round is not None and g.state.round.kind == "operating":
        check(g, g.state.round.data.get("current_operator"))
        missing = [c for c in named if c not in STATE.of(g).reached]
    if missing and PARAMS.of(g).site_notices:
        st = STATE.of(g)
        for corp in missing:  # (the site's notice stands: their effect follows, in the notice's order)
            if corp in g.state.corporations and corp not in st.reached:
                reached(g, corp)
        return True
    if missing:
        raise illegal("destination.connection", f"{', '.join(missing)} cannot reach the destination by the rules")
    return True


def extra_bonus_specs(g: Context, corp: str, out: list[dict[str, Any]]) -> None:
    """A destination marker at the hex edge: the destination counts twice at a route's end."""
    marker = PARAMS.of(g).marker
    hex_id = STATE.of(g).marked.get(corp)
    if hex_id is None or marker is None or not marker.doubles_destination_at_route_end:
        return
    t = board.track(g, hex_id)
    values = [R.stop_revenue(g, (hex_id, n)) for n, node in t.nodes.items() if node.kind != "junction"]
    if values:
        out.append({"type": "route_end", "hexes": {hex_id: max(values)}})


class ConnectionRunStep(Step):
    """A connected company's bonus run: its destination marker, one run home -> destination, a dividend."""

    name = CONNECTION_RUN_STEP
    description = "Connection run"
    offers = frozenset({"choose", "run_routes", "dividend"})

    @cython.locals(self="StepBase")
    def skip(self) -> None:
        """Stays live all round: a run may be due after any operator's turn."""

    @cython.locals(self="StepBase")
    def active_entities(self) -> list[str]:
        pending = STATE.of(self.g).pending
        return [ckey(pending[0])] if pending else []

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        st = STATE.of(self.g)
        if not st.pending or entity != ckey(st.pending[0]):
            return []
        return {"marker": ["choose"], "route": ["run_routes"], "dividend": ["dividend"]}[st.stage]

    @cython.locals(self="StepBase")
    def blocks(self) -> bool:
        return bool(STATE.of(self.g).pending)

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        st = STATE.of(self.g)
        if not st.pending or entity != ckey(st.pending[0]):
            return []
        if st.stage == "marker":
            return [{"type": "choose", "choices": [{"choice": c} for c in self.marker_choices(st.pending[0])]}]
        if st.stage == "route":
            corp = st.pending[0]
            return [
                {
                    "type": "run_routes",
                    "routes": "one train home -> destination, the others as usual",
                    "route_between": [sorted(home_hexes(self.g, corp)), [destination_of(self.g, corp)]],
                }
            ]
        return [{"type": "dividend", "choices": [{"kind": k} for k in self.kinds()]}]

    @cython.locals(self="StepBase")
    def marker_choices(self, corp: str) -> list[str]:
        g = self.g
        marker = PARAMS.of(g).marker
        dest = destination_of(g, corp)
        if marker is None or not marker.free_at_hex_edge or dest is None or board.hex_tokened_by(g, dest, ckey(corp)):
            return ["Charter"]
        return ["Map", "Charter"]

    @cython.locals(self="StepBase")
    def kinds(self) -> list[str]:
        run = PARAMS.of(self.g).connection_run
        opts = run.dividend_options if run else ["full", "withhold"]
        return ["payout" if k == "full" else k for k in opts]

    @cython.locals(self="StepBase")
    def process_choose(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        st = STATE.of(g)
        corp = sym_of(entity)
        choice = str(action.get("choice"))
        if choice not in self.marker_choices(corp):
            raise illegal("destination.marker", f"{corp} cannot put its destination marker on the {choice}")
        marker = PARAMS.of(g).marker
        c = g.state.corporations[corp]
        dest = destination_of(g, corp)
        if choice == "Map" and dest is not None:
            hs = g.state.hexes[dest]
            if not hs.tokens:
                hs.tokens.append([])
            hs.tokens[0].append(entity)
            c.tokens.append(Token(price=0, used=True, hex=dest, city=0, extra=True))
            st.marked[corp] = dest
            board.invalidate(g, {dest}, entity)
            g.log(f"{corp} places its destination marker at {dest}")
        else:
            cost = marker.otherwise_token_cost if marker else 0
            c.tokens.append(Token(price=cost, extra=True))
            g.log(f"{corp} keeps its destination marker on the charter")
        for tid in c.trains:
            g.state.trains[tid].operated = False
        st.stage = "route"
        g.epoch += 1
        if not c.trains or not board.network(g, entity).route_available:
            self._finish(0)

    @cython.locals(self="StepBase")
    def process_run_routes(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        corp = sym_of(entity)
        specs = action.get("routes")
        if not isinstance(specs, list):
            raise illegal("route.malformed", "run_routes needs a list of routes")
        found = R.evaluate(g, entity, specs)
        dest = destination_of(g, corp)
        homes = home_hexes(g, corp)
        ends_ok = any(
            len(r.stops) >= 2
            and {r.stops[0][0], r.stops[-1][0]} <= homes | {dest}
            and {r.stops[0][0], r.stops[-1][0]} & homes
            and dest in {r.stops[0][0], r.stops[-1][0]}
            for r in found
        )
        if not ends_ok:
            raise illegal("destination.run", "one train must run from the home station to the destination")
        total = sum(r.revenue for r in found)
        recorded = [sp.get("revenue") for sp in specs]
        g.state.extra["route_checks"] = [
            [r.train, rec, r.revenue] for r, rec in zip(found, recorded, strict=True) if rec is not None
        ]
        g.log(f"{corp} runs for {total} (connection run)")
        st = STATE.of(g)
        st.revenue = total
        st.stage = "dividend"
        g.epoch += 1
        if total <= 0:
            self._finish(0)

    @cython.locals(self="StepBase")
    def process_dividend(self, action: dict[str, Any], entity: str) -> None:
        kind = str(action.get("kind"))
        if kind not in self.kinds():
            raise illegal("destination.dividend", f"a connection run may not pay {kind!r}")
        st = STATE.of(self.g)
        self._pay(sym_of(entity), kind, st.revenue)
        self._finish(st.revenue)

    @cython.locals(self="StepBase")
    def _pay(self, corp: str, kind: str, revenue: int) -> None:
        g = self.g
        entity = ckey(corp)
        run = PARAMS.of(g).connection_run
        if kind == "withhold":
            if revenue > 0:
                g.spend(BANK, entity, revenue)
            if run is not None and run.withhold_moves_price:
                market.move(g, corp, "left")
            g.log(f"{corp} withholds {revenue}")
            return
        unit = shares.share_percent(g, corp)
        per_share = revenue // (100 // unit)
        for holder, by_corp in list(g.state.holdings.items()):
            if holder == POOL or kind_of(holder) not in ("P", "C"):
                continue
            pct = sum(g.state.shares[s].percent for s in by_corp.get(corp, []))
            amount = pct * per_share // unit
            if amount > 0:
                g.spend(BANK, holder, amount)
        if per_share > 0:
            market.move(g, corp, "right")
        g.log(f"{corp} pays {revenue}")

    @cython.locals(self="StepBase")
    def _finish(self, revenue: int) -> None:
        g = self.g
        st = STATE.of(g)
        corp = st.pending.pop(0)
        st.stage = "marker"
        st.revenue = 0
        for tid in g.state.corporations[corp].trains:
            g.state.trains[tid].operated = False
        while st.pending and not connected(g, st.pending[0]):  # a run is made only while still eligible
            later = st.pending.pop(0)
            st.reached.remove(later)  # noticed again once it is
            g.log(f"{later} can no longer connect to its destination")
        rounds.recalculate_order(g)
        g.epoch += 1


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={CONNECTION_RUN_STEP: ConnectionRunStep},
    hooks={
        "operator_started": operator_started,
        "after_operating_action": after_operating_action,
        "extra_bonus_specs": extra_bonus_specs,
        "record_notice": record_notice,
    },
    state=State,
)
