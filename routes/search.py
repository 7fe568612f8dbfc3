"""The exact optimiser: bounded route enumeration, then branch and bound over route sets.

Outline (every step is exact; nothing is cut short by time):

1. **Ceilings.** One depth-first search from the corporation's token cities finds each kind of train's best route
   (its *ceiling* ``U``). A partial route is cut as soon as an optimistic bound on all its extensions cannot pass
   the best found so far, or when an earlier partial route reached the same state over less track.
2. **A starting set.** For each rotation of the trains, each train in turn takes its best route over the track
   the trains before it left free (searches with that track blocked): the best of these sets is ``z``.
3. **Lists.** Any set earning more than ``z`` uses, for each train *i*, a route ``r`` with
   ``rev(r) + partners(r) > z``, where ``partners(r)`` is the most the other trains can earn over track ``r``
   leaves free: their ceilings (and the set bonuses' ceiling) at first, and once a kind's list is made, the best
   route in it clear of ``r``'s track (:class:`Partners`). Kinds are searched one at a time, shortest trains
   first, each cutting partial routes by that bound; each route found is completed into a set with the best
   routes clear of it, and ``z`` rises to the best such set.
4. **Sets.** A branch and bound over the lists finds the best set earning more than ``z``, or ``z``'s set is best.

Routes are enumerated once each: a route is generated from the first token city on it in the search's order
(the best cities first), as a forward arm and an optional backward arm whose first link has a higher id than the
forward arm's.
Track is a bitset of hexsides; stops and groups are bitsets too.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from operator import add
from typing import NamedTuple

from railbook.engine.bonuses import (
    Destination,
    EastWest,
    HexBonus,
    PathHex,
    RouteBetween,
    RouteBonus,
    RouteEnd,
    SetBonus,
    split,
)

from .gcpause import pause_collector, resume_collector
from .model import Problem, Route, Solution, TrainSpec
from .revenue import best_counted

# route bonuses whose value depends on which stops a route visits and counts, never on their order; with any
# other (a bonus at a route's end) routes are evaluated and told apart by their stop sequence
ORDER_FREE = (EastWest, HexBonus, Destination)
# route bonuses that read a route's counted stops and which of them are its first and last (counted or visited) stops
ENDS_ONLY = (RouteEnd, RouteBetween)
NEVER = 1 << 60  # a threshold no route reaches: the kind is not searched
GREEDY_OPENINGS = 3  # trains all alike: the starting sets open with each of the best few routes
LEADERS = 16  # a search completes each route found into a set with the best few routes of its own kind found so far


class Candidate(NamedTuple):
    """A route for one kind of train, as the set search needs it."""

    rev: int  # revenue from its stops and route bonuses
    sides: int
    key: int  # stop bitset
    stops: tuple[int, ...]
    counted: tuple[int, ...]
    extra: tuple[int, ...]  # what it would earn from each set bonus


class _Clash(dict[int, int]):
    """A link's hexsides -> the links sharing a hexside with it, made when first asked for (a search takes few of a
    large graph's links)."""

    def __init__(self, side_links: dict[int, int]) -> None:
        super().__init__()
        self.side_links = side_links

    def __missing__(self, x: int) -> int:
        got = 0
        rest = x
        while rest:
            low = rest & -rest
            got |= self.side_links[low]
            rest ^= low
        self[x] = got
        return got


def _bitset(bits: list[int], width: int) -> int:
    """The int with the given bit numbers set (made in one go: a large bitset grown bit by bit is copied each time)."""
    raw = bytearray((width + 8) // 8)
    for i in bits:
        raw[i >> 3] |= 1 << (i & 7)
    return int.from_bytes(raw, "little")


def minimal_sets(sets: Sequence[int], worth: Callable[[int], int] | None = None) -> list[int]:
    """The inclusion-minimal bitsets among ``sets`` (fewest bits first); with ``worth`` (a path bonus, never lower
    on a superset) a superset stays when it is worth more than each of its kept subsets."""
    out: list[int] = []
    # a strict subset has fewer bits, so it comes first
    if worth is None:
        for s in sorted(set(sets), key=int.bit_count):
            for m in out:
                if m & s == m:
                    break
            else:
                out.append(s)
        return out
    for s in sorted(set(sets), key=int.bit_count):
        for m in out:
            if m & s == m and worth(m) >= worth(s):
                break
        else:
            out.append(s)
    return out


def marked_hexes(sides: int, path_masks: Sequence[tuple[int, int]]) -> int:
    """The marked hexes (path bonuses, as ``(hexside mask, amount)``) that track over ``sides`` passes, as a bitset
    over their positions."""
    got = 0
    for i, (hex_mask, _) in enumerate(path_masks):
        if sides & hex_mask:
            got |= 1 << i
    return got


def by_hexside(routes: Sequence[Candidate]) -> dict[int, int]:
    """Per hexside (its bit): the routes crossing it, as a bitset over their positions in ``routes``."""
    rows: dict[int, bytearray] = {}  # filled byte by byte: cheaper than adding up large ints
    size = (len(routes) + 7) >> 3
    for i, c in enumerate(routes):
        byte, bit = i >> 3, 1 << (i & 7)
        sides = c.sides
        while sides:
            low = sides & -sides
            row = rows.get(low)
            if row is None:
                row = rows[low] = bytearray(size)
            row[byte] |= bit
            sides ^= low
    return {low: int.from_bytes(row, "little") for low, row in rows.items()}


class Partners:
    """The most the other trains of a set can earn beside one route, from the hexsides that route uses.

    ``lists`` hold, for each other train that has one, every route of that train that can belong to a set worth
    finding (sorted by revenue, best first); the trains without a list and the set bonuses add ``fixed`` (their
    ceilings). A hexside set's *conflict mask* has one bit per listed route that shares a hexside with it, each
    list in its own segment; the best partner in a list is the first route the mask leaves clear (or none).
    """

    def __init__(
        self,
        lists: Sequence[Sequence[Candidate]],
        fixed: int,
        made: dict[int, tuple[Sequence[Candidate], dict[int, int]]] | None = None,
    ) -> None:
        """``made`` keeps each list's :func:`by_hexside` (by the list's id) for the next partners over it."""
        self.fixed = fixed
        self.segments: list[tuple[int, int, list[int]]] = []  # (offset, segment mask, revenues and a final 0)
        self.bitconf: dict[int, int] = {}
        offset = 0
        for lst in lists:
            self.segments.append((offset, (1 << (len(lst) + 1)) - 1, [c.rev for c in lst] + [0]))
            kept = made.get(id(lst)) if made is not None else None
            if kept is None or kept[0] is not lst:
                kept = (lst, by_hexside(lst))
                if made is not None:
                    made[id(lst)] = kept
            bitconf = self.bitconf
            for low, row in kept[1].items():
                bitconf[low] = bitconf.get(low, 0) | row << offset
            offset += len(lst) + 1
        self._value: dict[int, int] = {}

    def conf(self, sides: int) -> int:
        """The conflict mask of a hexside set."""
        out = 0
        bitconf = self.bitconf
        while sides:
            low = sides & -sides
            out |= bitconf.get(low, 0)
            sides ^= low
        return out

    def value(self, conf: int) -> int:
        """The most the other trains earn beside track with this conflict mask (the set bonuses' ceiling included)."""
        got = self._value.get(conf)
        if got is None:
            got = self.fixed
            for offset, width, revs in self.segments:
                seg = (conf >> offset) & width
                got += revs[(~seg & (seg + 1)).bit_length() - 1]
            self._value[conf] = got
        return got


class LinkIndex(NamedTuple):
    """The links of the collapsed graph (each stop pair's minimal hexside sets), numbered for bitsets."""

    sides: list[int]  # per link: its hexsides
    at_stop: list[int]  # per stop: the links ending there
    clash: dict[int, int]  # a link's hexsides -> the links sharing a hexside with it (itself included)
    cover: dict[int, int]  # a link's hexsides -> the marked hexes (path bonuses) it passes


class _Kind:
    """Per kind of train: stop values (sorted, with prefix sums for bounds) and its evaluation cache."""

    def __init__(self, train: TrainSpec, solver: Solver) -> None:
        self.train = train
        stops = solver.problem.stops
        self.val = [
            0 if (train.no_towns and s.kind == "town") else s.revenue * train.multiplier for s in solver.problem.stops
        ]
        self.top = sorted((v for v in self.val if v > 0), reverse=True)
        self.prefix = [0]
        for v in self.top:
            self.prefix.append(self.prefix[-1] + v)
        self.visit = train.visit_total
        self.pay = train.pay_total
        self.route_bound = sum(b.bound() for b in solver.route_bonuses)
        self.no_towns = train.no_towns
        # every stop a route may visit counts (towns included, each row paying for all it may visit)
        self.counts_all = not train.no_towns and all(row.pay >= row.visit for row in train.rows)
        self.max_visits = min(len(stops), self.visit) if not train.no_towns else len(stops)
        self.cache: dict[object, tuple[int, tuple[int, ...], tuple[int, ...]]] = {}
        # the stops worth something, best first: (value, stop bit, group bit, ends a route); those in no group that
        # may be passed ("free") also as a bitset with sums by 8-stop chunk, the others ("special") as a list
        gbit, passable = solver.gbit, solver.passable
        self.ranked = sorted(
            ((v, 1 << i, gbit[i], not passable[i]) for i, v in enumerate(self.val) if v > 0), reverse=True
        )
        self.worthy = sum(bit for _, bit, _, _ in self.ranked)
        self.free = sum(bit for _, bit, gb, ends in self.ranked if not gb and not ends)
        self.special = [e for e in self.ranked if e[2] or e[3]]
        self._tables: list[list[int]] = []

    def tables(self) -> list[list[int]]:
        """Per chunk of 8 stops, the values of the free stops summed for each subset of the chunk (made once)."""
        if not self._tables:
            n = len(self.val)
            for base in range(0, n, 8):
                table = [0]
                for i in range(base, base + 8):  # each stop doubles the table: the subsets without it, then with it
                    v = self.val[i] if i < n and self.free >> i & 1 else 0
                    table += [x + v for x in table]
                self._tables.append(table)
        return self._tables


class Solver:
    """Holds the precomputed graph of one problem; :meth:`solve` returns the best route set."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.route_bonuses: list[RouteBonus]
        self.set_bonuses: list[SetBonus]
        self.route_bonuses, self.set_bonuses = split(problem.bonuses)
        # path bonuses (a hex the track passes) are told from the hexsides a route crosses, not from its stops
        path_hexes: dict[str, int] = {}
        for b in self.route_bonuses:
            if isinstance(b, PathHex):
                for h, amount in b.hexes.items():
                    path_hexes[h] = path_hexes.get(h, 0) + amount
        self.route_bonuses = [b for b in self.route_bonuses if not isinstance(b, PathHex)]
        sides_of = problem.hex_sides
        track = 0  # every hexside some link crosses: a marked hex no link reaches pays no route
        for link in problem.links:
            track |= link.sides
        self.path_masks = [(sides_of[h], v) for h, v in path_hexes.items() if v > 0 and sides_of.get(h, 0) & track]
        self.path_ceiling = sum(v for _, v in self.path_masks)
        self._paid: dict[int, int] = {}
        self.worth: Callable[[int], int] | None = self.path_bonus if self.path_masks else None
        self.ordered = any(not isinstance(b, ORDER_FREE) for b in self.route_bonuses)
        # when every visited stop counts and the order-dependent bonuses read only a route's ends, two partial
        # routes over the same stops with the same ends (head, and the forward arm's end) have the same future
        self.by_ends = self.ordered and all(isinstance(b, ORDER_FREE + ENDS_ONLY) for b in self.route_bonuses)
        self.by_ends = self.by_ends and all(
            not t.no_towns and all(r.pay >= r.visit for r in t.rows) for t in problem.trains
        )
        for b in self.route_bonuses:
            prepare = getattr(b, "prepare", None)
            if prepare:
                prepare(problem.stops)
        stops = problem.stops
        n = len(stops)
        # parallel links collapsed: a route's revenue depends on its stops only, so the search walks stop
        # sequences and carries every minimal set of hexsides that realises the sequence
        self.pair_links: dict[tuple[int, int], list[tuple[int, int]]] = {}  # (a, b) -> [(sides, link id)]
        for lid, link in enumerate(problem.links):
            if link.a != link.b:
                self.pair_links.setdefault((link.a, link.b), []).append((link.sides, lid))
                self.pair_links.setdefault((link.b, link.a), []).append((link.sides, lid))
        nbrs: list[list[tuple[int, int, tuple[int, ...]]]] = [[] for _ in range(n)]
        antichains = problem.undominated and self.worth is None
        for (a, b), lst in self.pair_links.items():
            sides = [s for s, _ in lst]
            if len(sides) > 1:  # links already undominated: minimal_sets would only sort them
                sides = sorted(set(sides), key=int.bit_count) if antichains else minimal_sets(sides, self.worth)
            nbrs[a].append((b, 1 << b, tuple(sides)))
        for lst in nbrs:  # good stops first: the bound tightens sooner
            lst.sort(key=lambda e: (-stops[e[0]].revenue, e[0]))
        self.nbrs = nbrs
        groups: dict[str, int] = {}
        self.gbit = [0] * n
        for i, s in enumerate(stops):
            if s.group:
                self.gbit[i] = groups.setdefault(s.group, 1 << len(groups))
        # per route bonus: its most, and the stop sets a route must meet for it to pay at all
        # the groups are marked when all their stops end a route (each then needs an open end)
        self.bonus_reqs: list[tuple[int, list[tuple[int, bool]] | None]] = []
        for b in self.route_bonuses:
            reqs = b.requirements(stops)
            needs = None
            if reqs is not None:
                needs = [(sum(1 << i for i in g), all(not stops[i].passable for i in g)) for g in reqs]
            self.bonus_reqs.append((b.bound(), needs))
        self.kinds_of_stop = [0 if s.kind == "city" else 1 if s.kind == "town" else 2 for s in stops]
        self.passable = [s.passable for s in stops]
        self.passable_bits = sum(1 << i for i, s in enumerate(stops) if s.passable)
        self.adjacent = [sum(obit for _, obit, _ in lst) for lst in nbrs]  # neighbour stops as a bitset
        self.tokens = [i for i, s in enumerate(stops) if s.token]  # token cities, and stops holding a marker
        keys: dict[object, int] = {}
        self.kinds: list[_Kind] = []
        self.train_kind: list[int] = []
        for t in problem.trains:
            k = keys.get(t.kind_key)
            if k is None:
                k = keys[t.kind_key] = len(self.kinds)
                self.kinds.append(_Kind(t, self))
            self.train_kind.append(k)
        self.enumerated = 0
        self.states = 0
        # per kind: may a route visit this many (cities, towns, off-boards)?
        self.fit_memo: list[dict[tuple[int, int, int], bool]] = [{} for _ in self.kinds]
        self._link_index: LinkIndex | None = None

    def link_index(self) -> LinkIndex:
        """The numbered links (made once; a link's clash mask when first asked for)."""
        if self._link_index is None:
            sides: list[int] = []
            ends: list[list[int]] = [[] for _ in self.nbrs]  # per stop: the numbers of the links ending there
            crossing: dict[int, list[int]] = {}  # a hexside -> the numbers of the links that cross it
            for a, lst in enumerate(self.nbrs):
                for b, _, link_sides in lst:
                    if a < b:
                        for x in link_sides:
                            i = len(sides)
                            sides.append(x)
                            ends[a].append(i)
                            ends[b].append(i)
                            while x:
                                low = x & -x
                                crossing.setdefault(low, []).append(i)
                                x ^= low
            side_links = {low: _bitset(links, len(sides)) for low, links in crossing.items()}
            cover = {x: marked_hexes(x, self.path_masks) for x in sides}
            self._link_index = LinkIndex(sides, [_bitset(e, len(sides)) for e in ends], _Clash(side_links), cover)
        return self._link_index

    # ---------------------------------------------------------------- evaluation

    def path_bonus(self, sides: int) -> int:
        """The path bonuses of track crossing ``sides``: each marked hex with a side among them."""
        got = self._paid.get(sides)
        if got is None:
            got = self._paid[sides] = sum(amount for mask, amount in self.path_masks if sides & mask)
        return got

    def _evaluate(self, kind: _Kind, key: object, seq: Sequence[int]) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
        got = kind.cache.get(key)
        if got is None:
            stops = self.problem.stops
            visited_stops = [stops[i] for i in seq]
            if kind.counts_all and any(s.token for s in visited_stops):
                # every stop counts (the search only makes routes the train may run): what best_counted finds first
                counted = tuple(seq)
                counted_stops = visited_stops
                rev = sum(s.revenue for s in visited_stops) * kind.train.multiplier
                rev += sum(b.value(visited_stops, visited_stops) for b in self.route_bonuses)
            else:
                rev, counted = best_counted(kind.train, seq, stops, self.route_bonuses)
                counted_stops = [stops[i] for i in counted]
            extra = tuple(b.route_value(counted_stops, visited_stops) for b in self.set_bonuses)
            got = kind.cache[key] = (rev, counted, extra)
        return got

    # ---------------------------------------------------------------- enumeration

    def enumerate(
        self,
        thresholds: list[int],
        margin: float | None,
        blocked: int = 0,
        partners: Partners | None = None,
        every_side_set: bool = True,
        found_set: Callable[[Candidate], int] | Sequence[Callable[[Candidate], int] | None] | None = None,
    ) -> list[list[Candidate]]:
        """Routes per kind whose revenue exceeds its threshold.

        With ``margin`` (a fraction), each threshold also rises to ``(1 - margin)`` times the best revenue
        found so far for that kind: the search then returns every route within that margin of the best
        (and finds the best). Without it thresholds stay fixed. Routes use no hexside in ``blocked``.
        With ``partners``, a route is kept when its revenue plus the most the other trains can earn beside
        it (over track it leaves free) exceeds the threshold; partial routes are cut by the same test, and
        each of their hexside sets is dropped when its own partners cannot reach it.
        Without ``every_side_set`` one realisation of each route is enough (no route set is built from these): a
        hexside set then also gives way to one that rules out no more of the links the route may still take.
        ``found_set`` gives, for a route just found, the threshold a route set made with it sets (a set must beat
        the best one found): thresholds rise to it. It is one function, or one (or None) per kind.
        """
        kinds = self.kinds
        nk = len(kinds)
        krange = range(nk)
        found: list[list[Candidate]] = [[] for _ in krange]
        found_sets = list(found_set) if isinstance(found_set, Sequence) else [found_set] * nk
        active = [ki for ki in krange if thresholds[ki] < NEVER]  # the kinds searched for
        best_rev = [-1] * nk
        thr = list(thresholds)
        nbrs, gbit, passable, kos = self.nbrs, self.gbit, self.passable, self.kinds_of_stop
        if blocked:
            nbrs = [
                [(o, ob, clear) for o, ob, sides in lst if (clear := tuple(x for x in sides if not x & blocked))]
                for lst in nbrs
            ]
        fit_memo = self.fit_memo
        fit_fn = [k.train.fits_visit for k in kinds]
        vals = [k.val for k in kinds]
        stop_vals = list(zip(*vals, strict=True))  # per stop: its value to each kind
        ranked = [k.ranked for k in kinds]
        special = [k.special for k in kinds]
        worthy = [k.worthy for k in kinds]
        free = [k.free for k in kinds]
        passable_bits = self.passable_bits
        adjacent = [sum(obit for _, obit, _ in lst) for lst in nbrs] if blocked else self.adjacent
        visits = [k.visit for k in kinds]
        pays = [k.pay for k in kinds]
        skip_towns = [k.no_towns for k in kinds]
        worth = self.worth
        pceil = self.path_ceiling
        rbound = [k.route_bound + pceil for k in kinds]
        caches = [k.cache for k in kinds]
        evaluate = self._evaluate
        bonus_reqs = self.bonus_reqs
        ordered = self.ordered
        by_ends = self.by_ends
        every_stop = (1 << len(nbrs)) - 1
        covers: dict[int, int] = {}
        path_masks = self.path_masks

        def cover(sides: int) -> int:
            """The marked hexes (path bonuses) the track passes, as a bitset."""
            got = covers.get(sides)
            if got is None:
                got = covers[sides] = marked_hexes(sides, path_masks)
            return got

        # the path bonuses a cover (a bitset of marked hexes) earns, per cover
        cover_value = [0]
        for _, amount in path_masks:
            cover_value += [x + amount for x in cover_value]
        reach_covers: dict[int, int] = {}
        every_mark = (1 << len(path_masks)) - 1
        touching: list[int] = []

        def path_room(allowed: int, reals: list[int]) -> int:
            """The most path bonuses a route over one of ``reals`` earns once it adds stops among ``allowed`` only: the
            marked hexes it passes, and those that links touching these stops pass."""
            ahead = reach_covers.get(allowed)
            if ahead is None:
                if not touching:  # per stop: the hexsides of its links
                    for lst in nbrs:  # (each link is listed from both its stops)
                        sides = 0
                        for _, _, link_sides in lst:
                            for x in link_sides:
                                sides |= x
                        touching.append(sides)
                sides = 0
                rest = allowed
                while rest:
                    low = rest & -rest
                    sides |= touching[low.bit_length() - 1]
                    rest ^= low
                ahead = reach_covers[allowed] = cover(sides)
            if ahead == every_mark:
                return pceil
            most = 0
            for r in reals:
                cv = covers.get(r)
                got = cover_value[(cover(r) if cv is None else cv) | ahead]
                if got > most:
                    most = got
            return most

        # Without every side set, a hexside set matters to the rest of the search only through the links it rules
        # out (those sharing a hexside with it) among the links a route may still take, and through the marked
        # hexes it passes. Per hexside set: its *clash* mask, one bit per link (a stop pair's minimal hexside
        # set) that shares a hexside with it, grown link by link as the route grows, and its cover.
        clash: dict[int, int] = {0: 0}
        covered: dict[int, int] = {0: 0}
        index = self.link_index()
        link_clash, link_cover, links_at = index.clash, index.cover, index.at_stop
        # a cover's complement sits above the clash bits: "as good for the future" is then one subset test
        clash_width = len(index.sides)
        uncovered_mask = every_mark if worth is not None else 0
        takeable = (1 << clash_width) - 1  # the links clear of the blocked track
        if blocked:
            takeable = sum(1 << i for i, x in enumerate(index.sides) if not x & blocked)
        open_links: dict[int, int] = {}

        def still_open(mask: int, heads: int) -> int:
            """The links a route may still take: an end not yet visited, and the other end one too or a growing head."""
            key = mask | heads << len(nbrs)
            got = open_links.get(key)
            if got is None:
                ahead = 0
                rest = every_stop & ~mask
                while rest:
                    low = rest & -rest
                    ahead |= links_at[low.bit_length() - 1]
                    rest ^= low
                rest = mask & ~heads
                while rest:
                    low = rest & -rest
                    ahead &= ~links_at[low.bit_length() - 1]
                    rest ^= low
                got = open_links[key] = ahead & takeable
            return got

        def future_keys(reals: list[int], live: int) -> dict[int, int]:
            """Per realisation worth keeping, its key: the open links it rules out, then the marked hexes it does
            not pass; a key whose bits include another's is no better for any extension (and pays no more)."""
            by_key: dict[int, int] = {}
            for r in reals:
                k = clash[r] & live | (uncovered_mask & ~covered[r]) << clash_width
                if k not in by_key:
                    by_key[k] = r
            if len(by_key) == 1:
                return by_key
            out: list[int] = []
            for k in sorted(by_key, key=int.bit_count):
                for q in out:
                    if q & k == q:
                        break
                else:
                    out.append(k)
            return {k: by_key[k] for k in out}

        def bonus_room(key: int, open_ends: int = 0) -> int:
            """The most the route bonuses can add to a route visiting the stops in ``key``, or extending
            it at ``open_ends`` ends (a stop that ends routes takes an open end)."""
            room = 0
            for most, groups in bonus_reqs:
                if groups is None:
                    room += most
                    continue
                need = 0
                for m, ending in groups:
                    if not key & m:
                        if not m or not open_ends:
                            break
                        need += ending
                else:
                    if need <= open_ends:
                        room += most
            return room

        def extension_bound(
            ki: int, r: int, allowed: int, gmask: int, ends: int, v: int, fwd: list[int], back: list[int]
        ) -> int:
            """The most a route can earn (bonuses aside) by adding up to ``r`` stops among ``allowed``."""
            reach = []
            if r > 0 and (allowed & worthy[ki]).bit_count() <= r:
                # every stop worth something may be taken: sum the unconstrained ones by table, then the stops in a
                # group or ending a route, best first
                rest = allowed & free[ki]
                got = rest.bit_count()
                total = 0
                chunk = 0
                table = kinds[ki].tables()
                while rest:
                    total += table[chunk][rest & 255]
                    rest >>= 8
                    chunk += 1
                closing = 0
                taken = gmask
                for value, bit, gb, ends_here in special[ki]:
                    if not bit & allowed or gb & taken:
                        continue
                    if ends_here:
                        if closing == ends:
                            continue
                        closing += 1
                    taken |= gb
                    total += value
                    got += 1
                if len(fwd) + len(back) + got <= pays[ki]:
                    return v + total
            if r > 0:
                closing = 0
                for value, bit, gb, ends_here in ranked[ki]:
                    if not bit & allowed or gb & gmask:
                        continue
                    if ends_here:
                        if closing == ends:
                            continue
                        closing += 1
                    gmask |= gb
                    reach.append(value)
                    if len(reach) == r:
                        break
            bound = v + sum(reach)
            extra = len(fwd) + len(back) + len(reach) - pays[ki]
            if extra > 0:  # an N/M train counts only its best stops
                val = vals[ki]
                pool = [val[s] for s in fwd]
                if back:
                    pool += [val[s] for s in back]
                pool += reach
                if extra == 1:
                    bound -= min(pool)
                else:
                    pool.sort()
                    bound -= sum(pool[:extra])
            return bound

        def within(mask: int, starts: list[int], depth: int) -> list[int]:
            """Stops not in ``mask`` within 1, 2, ... ``depth`` links of ``starts``, passing only passable stops."""
            out: list[int] = []
            seen = mask
            acc = 0
            frontier = 0
            for s in starts:
                frontier |= 1 << s
            while frontier and len(out) < depth:
                reached = 0
                while frontier:
                    low = frontier & -frontier
                    reached |= adjacent[low.bit_length() - 1]
                    frontier ^= low
                reached &= ~seen
                if not reached:
                    break
                seen |= reached
                acc |= reached
                out.append(acc)
                frontier = reached & passable_bits
            return out

        states = [0]
        memo: dict[tuple[int, ...], list[int]] = {}
        memo_p: dict[tuple[int, ...], list[int]] = {}  # without every side set: the keys of ``future_keys``
        lone: dict[tuple[int, ...], int] = {}  # (a state met once, with one hexside set: that set)
        # with partners: each hexside set's conflict mask (which partner routes it clashes with)
        pconf: dict[int, int] = {0: 0}
        lconf: dict[int, int] = {}
        pvalue = partners.value if partners is not None else None
        if partners is not None:
            for lst in nbrs:
                for _, _, link_sides in lst:
                    for x in link_sides:
                        if x not in lconf:
                            lconf[x] = partners.conf(x)

        def fits(ki: int, key3: tuple[int, int, int]) -> bool:
            memo = fit_memo[ki]
            ok = memo.get(key3)
            if ok is None:
                ok = memo[key3] = fit_fn[ki](*key3)
            return ok

        def record(
            ki: int,
            key: int,
            rev: int,
            hit: tuple,
            fwd: list[int],
            back: list[int],
            reals: list[int],
            pvs: list[int] | None,
        ) -> None:
            seq = tuple(back[::-1] + fwd) if back else tuple(fwd)
            if worth is None and pvalue is None:
                for sides in reals if every_side_set else reals[:1]:
                    cand = Candidate(rev, sides, key, seq, hit[1], hit[2])
                    found[ki].append(cand)
                    if found_sets[ki] is not None:
                        thr[ki] = max(thr[ki], found_sets[ki](cand))
            else:  # each realisation earns the path bonuses of the hexes its track passes, beside its partners
                paid = sorted(
                    (
                        (rev + (worth(sides) if worth is not None else 0), pv, sides)
                        for sides, pv in zip(reals, pvs or [0] * len(reals), strict=True)
                    ),
                    key=lambda p: -p[0] - p[1],
                )
                for r_rev, pv, sides in paid if every_side_set else paid[:1]:
                    if r_rev + pv > thr[ki]:
                        cand = Candidate(r_rev, sides, key, seq, hit[1], hit[2])
                        found[ki].append(cand)
                        if found_sets[ki] is not None:
                            thr[ki] = max(thr[ki], found_sets[ki](cand))
                rev = max(p[0] for p in paid)
            if margin is not None and rev > best_rev[ki]:
                best_rev[ki] = rev
                floor = int(rev * (1 - margin))
                if floor > thr[ki]:
                    thr[ki] = floor

        # each route is generated from the first of its token cities in this order: the best cities first, so
        # that good routes (and a high threshold) come early
        roots = sorted(self.tokens, key=lambda i: (-max(v[i] for v in vals), i))
        for at, t in enumerate(roots):
            lower = 0
            for other in roots[:at]:
                lower |= 1 << other
            counts0 = [0, 0, 0]
            counts0[kos[t]] += 1
            if not any(fits(ki, (counts0[0], counts0[1], counts0[2])) for ki in active):
                continue

            def walk(
                head: int,
                phase: int,
                first: int,
                mask: int,
                reals: list[int],
                gmask: int,
                c: int,
                tw: int,
                o: int,
                vs: tuple[int, ...],
                fwd: list[int],
                back: list[int],
                t: int = t,
                lower: int = lower,
            ) -> None:
                # ``reals``: the minimal hexside sets over which this stop sequence can run. A state with the
                # same future as one met before, over a superset of its track, can only lead to routes that
                # earn the same over more track: drop those side sets
                if not ordered:
                    mk: tuple[int, ...] = (t, phase, head, mask, first)
                elif by_ends:
                    mk = (t, phase, head, mask, first, fwd[-1])
                else:
                    mk = (t, phase, *back, -1, *fwd)
                if every_side_set:
                    seen = memo.get(mk)
                    if seen is None:
                        memo[mk] = list(reals)
                    else:
                        if worth is None:
                            keep = [r for r in reals if not any(s0 & r == s0 for s0 in seen)]
                        else:
                            keep = [r for r in reals if not any(s0 & r == s0 and worth(s0) >= worth(r) for s0 in seen)]
                        if not keep:
                            return
                        seen.extend(keep)
                        reals = keep
                states[0] += 1
                if pvalue is not None:
                    pvs: list[int] | None = [pvalue(pconf[r]) for r in reals]
                    pmax = max(pvs)
                else:
                    pvs = None
                    pmax = 0
                slack = -1
                nseq = len(fwd) + len(back)
                emit_ok = nseq >= 2 and (phase == 0 or bool(back))
                # the arms that may still grow; each may end at a stop that cannot be passed
                if phase == 0:
                    ends = (len(fwd) == 1 or passable[head]) + passable[t]
                else:
                    ends = int(passable[head] if back else passable[t])
                key3 = (c, tw, o)
                alive = []
                key = mask ^ lower
                room = ends_room = -1
                near: list[int] | None = None
                for ki in active:
                    ok = fit_memo[ki].get(key3)
                    if ok is None:
                        ok = fits(ki, key3)
                    if not ok:
                        continue
                    if emit_ok and vs[ki] + rbound[ki] + pmax > thr[ki]:
                        # a cheap upper bound first: most routes fall below the threshold
                        if room < 0:
                            room = bonus_room(key)
                        quick = vs[ki] + room + pceil + pmax
                        over = nseq - pays[ki]
                        if over > 0 and quick > thr[ki]:
                            val = vals[ki]
                            pool = sorted([val[s] for s in fwd] + [val[s] for s in back])
                            quick -= sum(pool[:over])
                        if quick > thr[ki]:
                            seq = back[::-1] + fwd if back else fwd
                            ckey = key if not ordered else (key, seq[0], seq[-1]) if by_ends else tuple(seq)
                            hit = caches[ki].get(ckey)
                            if hit is None:
                                hit = evaluate(kinds[ki], ckey, seq)
                            if worth is not None and pvs is None:
                                most = hit[0] + max(worth(r) for r in reals)
                            elif worth is not None:
                                most = hit[0] + max(worth(r) + pv for r, pv in zip(reals, pvs, strict=True))
                            else:
                                most = hit[0] + pmax
                            if most > thr[ki]:
                                record(ki, key, hit[0], hit, fwd, back, reals, pvs)
                    if not ends:
                        continue
                    # an upper bound on the revenue of any extension: the best stops not yet visited, one
                    # per group, at most one stop that cannot be passed per growing arm; then, if that does
                    # not cut, only stops within r links of a growing arm's head
                    r = visits[ki] - (c + o + (0 if skip_towns[ki] else tw))
                    if r >= len(vals[ki]):
                        bound = NEVER  # a train that may visit every stop: only the stops it can reach count
                    else:
                        bound = extension_bound(ki, r, ~mask, gmask, ends, vs[ki], fwd, back)
                    if r > 0 and bound + rbound[ki] + pmax > thr[ki]:
                        if near is None:
                            if phase == 0:
                                starts = [t] if len(fwd) == 1 else [h for h in (head, t) if passable[h]]
                            else:
                                starts = [head]
                            depth = r
                            if len(active) > 1:
                                depth = max(visits[kj] - (c + o + (0 if skip_towns[kj] else tw)) for kj in active)
                            near = within(mask, starts, depth)
                        allowed = near[min(r, len(near)) - 1] if near else 0
                        bound = extension_bound(ki, r, allowed, gmask, ends, vs[ki], fwd, back)
                    else:
                        allowed = -1
                    if bound + rbound[ki] + pmax > thr[ki]:
                        if ends_room < 0:
                            ends_room = bonus_room(key, ends)
                        bound += ends_room + (
                            path_room(allowed, reals) if worth is not None and allowed >= 0 else pceil
                        )
                    else:
                        continue
                    if bound + pmax > thr[ki]:
                        alive.append(ki)
                        if bound - thr[ki] > slack:
                            slack = bound - thr[ki]
                if not alive:
                    return
                if not every_side_set:
                    # one realisation is enough: compare hexside sets by the open links they rule out (a state met
                    # first with one hexside set keeps it as is until the state comes again). This comes after the
                    # bounds: most states end there (a state no better than one met before then records its route
                    # again only under a fixed threshold, as a duplicate the set search passes over)
                    seen_p = memo_p.get(mk)
                    if seen_p is None and len(reals) == 1 and mk not in lone:
                        lone[mk] = reals[0]
                    else:
                        live = still_open(mask, 1 << head | 1 << t if phase == 0 else 1 << head)
                        if seen_p is None:
                            seen_p = memo_p[mk] = list(future_keys([lone.pop(mk)], live)) if mk in lone else []
                        keep = []
                        for k, r in future_keys(reals, live).items():
                            for q in seen_p:
                                if q & k == q:
                                    break
                            else:
                                keep.append(r)
                                seen_p.append(k)
                        if not keep:
                            return
                        reals = keep
                    if pvalue is not None:
                        pvs = [pvalue(pconf[r]) for r in reals]
                if pvs is not None and len(reals) > 1:
                    # a hexside set whose partners cannot make up the rest leads nowhere
                    reals = [r for r, pv in zip(reals, pvs, strict=True) if pv + slack > 0]
                if phase == 0 and len(fwd) >= 2:
                    # the other arm, from t (whatever the forward arm's end is)
                    walk(t, 1, first, mask, reals, gmask, c, tw, o, vs, fwd, [])
                if head == t and ((phase == 0 and len(fwd) == 1) or (phase == 1 and not back)):
                    if phase == 1 and not passable[t]:
                        return
                elif not passable[head]:
                    return
                for other, obit, link_sides in nbrs[head]:
                    if obit & mask or gbit[other] & gmask:
                        continue
                    if phase == 1 and not back and other <= first:
                        continue  # each route once: its backward arm starts at a higher stop than its forward arm
                    k = kos[other]
                    c2, t2, o2 = (c + 1, tw, o) if k == 0 else (c, tw + 1, o) if k == 1 else (c, tw, o + 1)
                    key2 = (c2, t2, o2)
                    if len(alive) == 1:
                        ok = fit_memo[alive[0]].get(key2)
                        if ok is None:
                            ok = fits(alive[0], key2)
                        if not ok:
                            continue
                    elif not any(fits(ki, key2) for ki in alive):
                        continue
                    if not every_side_set:
                        nxt = []
                        for r in reals:
                            cr, vr = clash[r], covered[r]
                            for s in link_sides:
                                if not r & s:
                                    x = r | s
                                    nxt.append(x)
                                    if x not in clash:
                                        clash[x] = cr | link_clash[s]
                                        covered[x] = vr | link_cover[s]
                                    if pvalue is not None and x not in pconf:
                                        pconf[x] = pconf[r] | lconf[s]
                    elif pvalue is None:
                        nxt = [r | s for r in reals for s in link_sides if not r & s]
                    else:
                        # a hexside set whose partners cannot make up the rest (this state's bound, which holds for
                        # every extension) leads nowhere: it is dropped before the next state is made
                        nxt = []
                        for r in reals:
                            cr = pconf[r]
                            for s in link_sides:
                                if not r & s:
                                    x = r | s
                                    cx = pconf.get(x)
                                    if cx is None:
                                        cx = pconf[x] = cr | lconf[s]
                                    if pvalue(cx) + slack > 0:
                                        nxt.append(x)
                    if not nxt:
                        continue
                    if len(nxt) > 1 and every_side_set and (len(reals) > 1 or worth is not None):
                        # (one hexside set extended by a link's minimal sets, all clear of it, stays minimal)
                        nxt = minimal_sets(nxt, worth)
                    vs2 = tuple(map(add, vs, stop_vals[other]))
                    if phase == 0:
                        walk(other, 0, other if len(fwd) == 1 else first, mask | obit, nxt, gmask | gbit[other],
                             c2, t2, o2, vs2, [*fwd, other], back)  # fmt: skip
                    else:
                        walk(other, 1, first, mask | obit, nxt, gmask | gbit[other], c2, t2, o2, vs2,
                             fwd, [*back, other])  # fmt: skip

            vs0 = tuple(vals[ki][t] for ki in krange)
            walk(t, 0, -1, (1 << t) | lower, [0], gbit[t], counts0[0], counts0[1], counts0[2], vs0, [t], [])
        # ``walk`` refers to itself (it recurses): unlinked here, the search's tables are freed on return rather than
        # left, as a reference cycle, for the cycle collector
        walk = None  # type: ignore[assignment]
        self.states += states[0]
        self.enumerated += sum(len(f) for f in found)
        return found

    def _links_for(self, seq: tuple[int, ...], sides: int) -> tuple[int, ...]:
        """Links along ``seq``, pairwise track-disjoint, whose hexsides make up ``sides`` (one realisation)."""
        chosen: list[int] = []

        def pick(i: int, used: int) -> bool:
            if i == len(seq) - 1:
                return used == sides
            for s, lid in self.pair_links[(seq[i], seq[i + 1])]:
                if s & sides == s and not s & used:
                    chosen.append(lid)
                    if pick(i + 1, used | s):
                        return True
                    chosen.pop()
            return False

        found = pick(0, 0)
        pick = None  # type: ignore[assignment]  # (a recursive closure: a reference cycle)
        if not found:
            raise AssertionError("no links realise a side set the search produced")
        return tuple(chosen)

    # ---------------------------------------------------------------- route sets

    def combine(
        self, lists: list[list[Candidate]], best_total: int, best_pick: list[Candidate | None] | None
    ) -> tuple[int, list[Candidate | None]]:
        """Branch and bound over one candidate (or none) per train, pairwise track-disjoint.

        The bound of a partial set is its revenue, plus for each train still to place the best revenue of
        a candidate that does not clash with the track already taken, plus for each set bonus the best
        any chosen or remaining candidate earns from it (a set bonus is paid once).
        """
        tk = self.train_kind
        order = sorted(range(len(tk)), key=lambda i: (-(lists[tk[i]][0].rev if lists[tk[i]] else 0), tk[i]))
        kinds = [tk[i] for i in order]
        sorted_lists = [sorted(lst, key=lambda c: (-c.rev, -sum(c.extra), c.stops, c.sides)) for lst in lists]
        m = len(kinds)
        nset = len(self.set_bonuses)
        # best set-bonus earnings among the candidates of the trains from position i on
        extra_after: list[tuple[int, ...]] = [(0,) * nset for _ in range(m + 1)]
        for i in range(m - 1, -1, -1):
            here = [max((c.extra[b] for c in sorted_lists[kinds[i]]), default=0) for b in range(nset)]
            extra_after[i] = tuple(max(a, b) for a, b in zip(here, extra_after[i + 1], strict=True))
        best = [best_total, best_pick]
        pick: list[Candidate | None] = [None] * m

        def fit(lst: list[Candidate], used: int) -> int:
            for c in lst:
                if not c.sides & used:
                    return c.rev
            return 0

        def rec(i: int, used: int, rev: int, gmax: tuple[int, ...], start: int) -> None:
            if i == m:
                total = rev + sum(gmax)
                if total > best[0]:
                    out: list[Candidate | None] = [None] * m
                    for pos, idx in enumerate(order):
                        out[idx] = pick[pos]
                    best[0], best[1] = total, out
                return
            lst = sorted_lists[kinds[i]]
            if i == m - 1 and not nset:
                # the last train: its best completion is the first candidate clear of the track taken
                for idx in range(start, len(lst)):
                    c = lst[idx]
                    if rev + c.rev <= best[0]:
                        break
                    if not c.sides & used:
                        pick[i] = c
                        rec(m, used, rev + c.rev, gmax, 0)
                        break
                pick[i] = None
                if rev > best[0]:
                    rec(m, used, rev, gmax, 0)
                return
            bonus = sum(max(a, b) for a, b in zip(gmax, extra_after[i], strict=True)) if nset else 0
            rest = 0
            for j in range(i + 1, m):
                rest += fit(sorted_lists[kinds[j]], used)
            if rev + fit(lst, used) + rest + bonus <= best[0]:
                return
            same_next = i + 1 < m and kinds[i + 1] == kinds[i]
            for idx in range(start, len(lst)):
                c = lst[idx]
                if rev + c.rev + rest + bonus <= best[0]:
                    break
                if c.sides & used:
                    continue
                pick[i] = c
                g = tuple(max(a, b) for a, b in zip(gmax, c.extra, strict=True)) if nset else gmax
                rec(i + 1, used | c.sides, rev + c.rev, g, idx + 1 if same_next else 0)
            pick[i] = None
            if rev + rest + bonus > best[0]:
                # no route for this train: identical trains after it then run none either
                j = i + 1
                while j < m and kinds[j] == kinds[i]:
                    pick[j] = None
                    j += 1
                rec(j, used, rev, gmax, 0)

        rec(0, 0, 0, (0,) * nset, 0)
        rec = None  # type: ignore[assignment]  # (a recursive closure: a reference cycle)
        return best[0], best[1] or [None] * m

    def set_bonus_ceiling(self) -> int:
        """The most the set bonuses can add to any route set."""
        most = max((k.max_visits for k in self.kinds), default=0)
        return sum(b.bound(most) for b in self.set_bonuses)

    def solve(self) -> Solution:
        """The best route set (the cycle collector paused meanwhile: see :mod:`railbook.routes.gcpause`)."""
        was_on = pause_collector()
        try:
            return self._solve()
        finally:
            resume_collector(was_on)

    def _solve(self) -> Solution:
        start = time.perf_counter()
        problem = self.problem
        if not problem.trains or not self.tokens:
            return Solution(0, [], {"ms": 0.0})
        nk = len(self.kinds)
        # each kind's best route (its ceiling); with one train, one realisation of a route is enough
        first = self.enumerate([-1] * nk, 0.0, every_side_set=len(self.train_kind) > 1)
        ceilings = [max((c.rev for c in lst), default=0) for lst in first]
        t0 = time.perf_counter()
        lb, pick = self.combine(first, -1, None)
        combine_ms = (time.perf_counter() - t0) * 1000
        total_ceiling = sum(ceilings[k] for k in self.train_kind) + self.set_bonus_ceiling()
        passes = 1
        if lb < total_ceiling and len(self.train_kind) > 1:
            lb, pick = self.greedy(first, lb, pick)
        if lb < total_ceiling:
            # every set earning more than lb is made of routes from these lists
            lists, lb, pick = self.lists_above(lb, pick, ceilings)
            t0 = time.perf_counter()
            found, got = self.combine(lists, lb, pick)
            combine_ms += (time.perf_counter() - t0) * 1000
            passes += 1
            if found > lb:
                lb, pick = found, got
        routes = self._routes(pick)
        total = sum(r.revenue for r in routes)
        stats = {
            "ms": (time.perf_counter() - start) * 1000,
            "passes": passes,
            "combine_ms": combine_ms,
            "candidates": self.enumerated,
            "states": self.states,
        }
        return Solution(total, routes, stats)

    def set_total(self, pick: Sequence[Candidate | None]) -> int:
        """What a route set earns: its routes, and each set bonus once (from the route earning most from it)."""
        chosen = [c for c in pick if c is not None]
        if not self.set_bonuses:
            return sum(c.rev for c in chosen)
        return sum(c.rev for c in chosen) + sum(
            max((c.extra[b] for c in chosen), default=0) for b in range(len(self.set_bonuses))
        )

    def greedy(
        self, first: list[list[Candidate]], lb: int, pick: list[Candidate | None]
    ) -> tuple[int, list[Candidate | None]]:
        """A good route set to start from: for each rotation of the trains, each train in turn takes its best route
        over the track the trains before it left free (when the trains are all alike, the first one also opens with
        its next best routes). Returns the best of these and ``(lb, pick)``."""
        n = len(self.train_kind)
        nk = len(self.kinds)
        best_of: dict[tuple[int, int, int], Candidate | None] = {}
        ceilings = [max((c.rev for c in lst), default=0) for lst in first]
        rotations: list[list[int]] = []
        seen: set[tuple[int, ...]] = set()
        for rot in range(n):
            order = [(rot + i) % n for i in range(n)]
            kinds = tuple(self.train_kind[i] for i in order)
            if kinds not in seen:
                seen.add(kinds)
                rotations.append(order)
        for order in rotations:
            openings: list[Candidate] = []
            for c in sorted(first[self.train_kind[order[0]]], key=lambda c: -c.rev):
                if len(openings) == (GREEDY_OPENINGS if len(rotations) == 1 else 1):
                    break
                if all(c.key != o.key for o in openings):
                    openings.append(c)
            for opening in openings:
                used = opening.sides
                chosen: list[Candidate | None] = [None] * n
                chosen[order[0]] = opening
                for at, i in enumerate(order[1:], 2):
                    k = self.train_kind[i]
                    # a route that cannot lift this set above the best one so far is not looked for
                    floor = lb - sum(x.rev for x in chosen if x is not None)
                    floor -= sum(ceilings[self.train_kind[j]] for j in order[at:]) + self.set_bonus_ceiling()
                    floor = max(floor, -1)
                    if (k, used, floor) not in best_of:
                        thresholds = [NEVER] * nk
                        thresholds[k] = floor
                        lst = self.enumerate(thresholds, 0.0, used, every_side_set=False)[k]
                        best_of[(k, used, floor)] = max(lst, key=lambda c: c.rev, default=None)
                    c = best_of[(k, used, floor)]
                    if c is not None:
                        chosen[i] = c
                        used |= c.sides
                total = self.set_total(chosen)
                if total > lb:
                    lb, pick = total, chosen
        return lb, pick

    def _others(self, k: int, lists: list[list[Candidate] | None], ceilings: list[int]) -> tuple[list, int]:
        """Beside one train of kind ``k``: the lists of the other trains that have one, and what the rest add
        at most (their ceilings and the set bonuses' ceiling)."""
        others = list(self.train_kind)
        others.remove(k)
        have: list[list[Candidate]] = []
        fixed = self.set_bonus_ceiling()
        for j in others:
            lst = lists[j]
            if lst is None:
                fixed += ceilings[j]
            else:
                have.append(lst)
        return have, fixed

    def _plain(self, k: int, lists: list[list[Candidate] | None], ceilings: list[int], joining: list[int]) -> bool:
        """Whether kind ``k``'s search would run without partners once the kinds ``joining`` have lists (each
        counted at its ceiling): the listed trains beside it weigh less than those still without a list."""
        others = list(self.train_kind)
        others.remove(k)
        listed = unlisted = 0
        for j in others:
            if lists[j] is not None:
                listed += lists[j][0].rev if lists[j] else 0
            elif j in joining:
                listed += ceilings[j]
            else:
                unlisted += ceilings[j]
        return listed < unlisted

    def lists_above(
        self, z: int, pick: list[Candidate | None], ceilings: list[int]
    ) -> tuple[list[list[Candidate]], int, list[Candidate | None]]:
        """Per kind of train, every route that can belong to a set earning more than ``z`` (or than a better set
        found on the way: returned with the lists).

        Kinds are searched one at a time, shortest trains first; each search bounds a partial route by what it can
        still earn plus the most the other trains can earn beside it: from the lists already made (the best route
        clear of its track), or their ceilings. After each search the lists made before are filtered again. In the
        last search each route found makes a set with the other trains' best routes clear of the track taken.
        """
        nk = len(self.kinds)
        order = sorted(range(nk), key=lambda k: (self.kinds[k].visit, ceilings[k], k))
        lists: list[list[Candidate] | None] = [None] * nk
        done: list[int] = []
        best = [z, pick]
        made: dict[int, tuple[Sequence[Candidate], dict[int, int]]] = {}  # each list's hexside rows, for partners

        def found_set(k: int, offset: int) -> Callable[[Candidate], int]:
            """For the search of kind ``k``: the threshold (``offset`` below the best set found) once each route found
            makes a set with the best routes clear of its track: from the lists made, and for trains of its own kind
            from the best routes of the search so far."""
            trains = list(range(len(self.train_kind)))
            own = self.train_kind.index(k)
            trains.remove(own)
            trains.sort(key=lambda i: -ceilings[self.train_kind[i]])
            # the trains that can join a route found: those of its kind, and those with a list
            trains = [i for i in trains if self.train_kind[i] == k or lists[self.train_kind[i]]]
            same_kind = any(self.train_kind[i] == k for i in trains)
            leaders: list[Candidate] = []  # the best routes found by this search so far, best first

            def completed(c: Candidate) -> int:
                if same_kind and (len(leaders) < LEADERS or c.rev > leaders[-1].rev):
                    at = len(leaders)
                    while at and leaders[at - 1].rev < c.rev:
                        at -= 1
                    leaders.insert(at, c)
                    del leaders[LEADERS:]
                chosen: list[Candidate | None] = [None] * len(self.train_kind)
                chosen[own] = c
                used = c.sides
                for i in trains:
                    j = self.train_kind[i]
                    for other in leaders if j == k else lists[j] or ():
                        if not other.sides & used:
                            chosen[i] = other
                            used |= other.sides
                            break
                total = self.set_total(chosen)
                if total > best[0]:
                    best[0], best[1] = total, chosen
                return best[0] - offset

            return completed

        at = 0
        while at < nk:
            k = order[at]
            have, fixed = self._others(k, lists, ceilings)
            thresholds = [NEVER] * nk
            listed = sum(lst[0].rev for lst in have if lst)
            if have and listed >= fixed - self.set_bonus_ceiling():
                group = [k]
                thresholds[k] = best[0]
                found = self.enumerate(
                    thresholds, None, partners=Partners(have, fixed, made), found_set=found_set(k, 0)
                )
            else:
                # the trains still without a list weigh more than those with one: their partners would seldom cut
                # enough to pay for themselves. The kinds after it for which that holds too (counting its ceiling
                # as its list's best route) are searched with it, in one search
                group = [k]
                while at + len(group) < nk and self._plain(order[at + len(group)], lists, ceilings, group):
                    group.append(order[at + len(group)])
                multi = len(self.train_kind) > 1
                offsets = [0] * nk
                for j in group:
                    have, fixed = self._others(j, lists, ceilings)
                    offsets[j] = fixed + sum(lst[0].rev for lst in have if lst)
                    thresholds[j] = best[0] - offsets[j]
                found = self.enumerate(
                    thresholds,
                    None,
                    every_side_set=multi,
                    found_set=[found_set(j, offsets[j]) if multi and j in group else None for j in range(nk)],
                )
            for j in group:
                lists[j] = sorted(found[j], key=lambda c: -c.rev)
            # the lists made before, filtered against the new ones: tighter partners for the searches still to come
            for j in done + group[:-1]:
                have, fixed = self._others(j, lists, ceilings)
                partners = Partners(have, fixed, made)
                lists[j] = [c for c in lists[j] or [] if c.rev + partners.value(partners.conf(c.sides)) > best[0]]
            done += group
            at += len(group)
        return [lst or [] for lst in lists], best[0], best[1]

    def _routes(self, pick: list[Candidate | None]) -> list[Route]:
        """Routes in train order; each set bonus is paid to the route that earns most from it."""
        routes: list[Route] = []
        carriers: list[int] = []
        for b in range(len(self.set_bonuses)):
            best_i, best_v = -1, 0
            for i, c in enumerate(pick):
                if c is not None and c.extra[b] > best_v:
                    best_i, best_v = i, c.extra[b]
            carriers.append(best_i)
        for i, (train, c) in enumerate(zip(self.problem.trains, pick, strict=True)):
            if c is None:
                continue
            rev = c.rev + sum(c.extra[b] for b, who in enumerate(carriers) if who == i)
            routes.append(Route(train.id, c.stops, self._links_for(c.stops, c.sides), rev, c.counted))
        return routes


def solve(problem: Problem) -> Solution:
    """The best route set for ``problem`` (exact; the cycle collector paused from the start, the solver's tables
    included: a collection that is due would otherwise run at their first allocation)."""
    was_on = pause_collector()
    try:
        return _without_requirements(problem, Solver(problem)._solve())
    finally:
        resume_collector(was_on)


def _without_requirements(problem: Problem, solution: Solution) -> Solution:
    """A required route's weight (bonuses with ``required``, e.g. a connection run's home-to-destination route)
    taken off the total and off the route that earned it; ``stats["required_met"]`` tells whether it was earned
    (if not, no route set meets the requirement)."""
    weights = [
        int(b.get("amount", 0) if isinstance(b, dict) else getattr(b, "amount", 0))
        for b in problem.bonuses
        if (b.get("required") if isinstance(b, dict) else getattr(b, "required", False))
    ]
    if not weights:
        return solution
    met = True
    for weight in weights:
        if solution.total < weight:
            met = False
            continue
        solution.total -= weight
        for i, route in enumerate(solution.routes):
            if route.revenue >= weight:
                solution.routes[i] = dataclasses.replace(route, revenue=route.revenue - weight)
                break
    solution.stats["required_met"] = float(met)
    return solution
