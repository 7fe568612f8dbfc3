"""Track artwork of one tile or preprinted hex: paths, cities, towns, off-board arrows, revenue, labels.

Everything is drawn around the hex centre (0, 0) in millimetres.  Track leaves a hexside at its
midpoint at a right angle: edge-to-edge paths are straights, gentle arcs (centre on the neighbour two
sides away, radius 1.5 x side) or sharp arcs (centre on the shared corner, radius half a side).
Stops sit at the centre when alone, otherwise towards the sides they serve; a town on through track
is drawn on the track itself (bar across it, or a dot).  Track that crosses earlier track is drawn
over a white gap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import svgwrite

from .geometry import HexGeom, Point, add, dist, fmt, length, polar, scale, sub, unit
from .style import INK, PHASE_COLOURS, TRACK, contrast, fit_size, phase_fill, rgb, text_width
from .svg import text

# proportions of the inradius r (published tiles: 1.5 in across flats, tokens about 11 mm)
TRACK_W = 0.095
SLOT_R = 0.29
TOWN_R = 0.12
BAR_L = 0.42
BAR_W = 0.13
REV_R = 0.2
OUTLINE = 0.028


@dataclass
class Curve:
    """One drawn piece of track: a line, a circular arc or a quadratic curve from p0 to p1."""

    kind: str
    p0: Point
    p1: Point
    centre: Point = (0.0, 0.0)
    radius: float = 0.0
    ctrl: Point = (0.0, 0.0)
    ends: tuple[str, str] = ("", "")

    def d(self) -> str:
        m = f"M{fmt(self.p0[0])},{fmt(self.p0[1])}"
        if self.kind == "line":
            return f"{m} L{fmt(self.p1[0])},{fmt(self.p1[1])}"
        if self.kind == "quad":
            return f"{m} Q{fmt(self.ctrl[0])},{fmt(self.ctrl[1])} {fmt(self.p1[0])},{fmt(self.p1[1])}"
        return m + " " + self._arc_beziers()

    def _arc_beziers(self) -> str:
        """The arc as cubic Béziers of at most 60° each (exact to print tolerance in any renderer)."""
        cx, cy = self.centre
        a0 = math.atan2(self.p0[1] - cy, self.p0[0] - cx)
        a1 = math.atan2(self.p1[1] - cy, self.p1[0] - cx)
        delta = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi
        n = max(1, math.ceil(abs(delta) / (math.pi / 3) - 1e-9))
        step = delta / n
        k = 4 / 3 * math.tan(step / 4) * self.radius
        out = []
        for i in range(n):
            s0, s1 = a0 + i * step, a0 + (i + 1) * step
            x0, y0 = cx + self.radius * math.cos(s0), cy + self.radius * math.sin(s0)
            x1, y1 = cx + self.radius * math.cos(s1), cy + self.radius * math.sin(s1)
            c0 = (x0 - k * math.sin(s0), y0 + k * math.cos(s0))
            c1 = (x1 + k * math.sin(s1), y1 - k * math.cos(s1))
            if i == n - 1:
                x1, y1 = self.p1
            out.append(f"C{fmt(c0[0])},{fmt(c0[1])} {fmt(c1[0])},{fmt(c1[1])} {fmt(x1)},{fmt(y1)}")
        return " ".join(out)

    def point(self, t: float) -> Point:
        """The point at parameter ``t`` in [0, 1]."""
        if self.kind == "line":
            return add(self.p0, scale(sub(self.p1, self.p0), t))
        if self.kind == "quad":
            u = 1 - t
            return (
                u * u * self.p0[0] + 2 * u * t * self.ctrl[0] + t * t * self.p1[0],
                u * u * self.p0[1] + 2 * u * t * self.ctrl[1] + t * t * self.p1[1],
            )
        a0 = math.atan2(self.p0[1] - self.centre[1], self.p0[0] - self.centre[0])
        a1 = math.atan2(self.p1[1] - self.centre[1], self.p1[0] - self.centre[0])
        delta = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi
        a = a0 + delta * t
        return self.centre[0] + self.radius * math.cos(a), self.centre[1] + self.radius * math.sin(a)

    def tangent(self, t: float) -> Point:
        e = 1e-3
        return unit(sub(self.point(min(1.0, t + e)), self.point(max(0.0, t - e))))

    def samples(self, step: float) -> list[Point]:
        n = max(2, int(self.approx_length() / step) + 1)
        return [self.point(i / (n - 1)) for i in range(n)]

    def approx_length(self) -> float:
        pts = [self.point(i / 8) for i in range(9)]
        return sum(dist(pts[i], pts[i + 1]) for i in range(8))

    def sub_d(self, t0: float, t1: float, steps: int = 12) -> str:
        """An SVG polyline following the curve from ``t0`` to ``t1``."""
        pts = [self.point(t0 + (t1 - t0) * i / steps) for i in range(steps + 1)]
        return "M" + " L".join(f"{fmt(x)},{fmt(y)}" for x, y in pts)


@dataclass
class Node:
    name: str
    kind: str
    index: int
    data: dict[str, Any]
    exits: list[int] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    pos: Point = (0.0, 0.0)
    radius: float = 0.0
    through: tuple[int, int] | None = None
    t: float = 0.5
    angle: float = 0.0


def _segments_cross(p: Point, p2: Point, q: Point, q2: Point) -> Point | None:
    d1 = sub(p2, p)
    d2 = sub(q2, q)
    den = d1[0] * d2[1] - d1[1] * d2[0]
    if abs(den) < 1e-12:
        return None
    w = sub(q, p)
    t = (w[0] * d2[1] - w[1] * d2[0]) / den
    u = (w[0] * d1[1] - w[1] * d1[0]) / den
    if 0 <= t <= 1 and 0 <= u <= 1:
        return add(p, scale(d1, t))
    return None


def slot_offsets(slots: int, s: float, angle: float) -> list[Point]:
    """Centres of a city's token slots around its centre, the group turned by ``angle`` degrees."""
    if slots <= 1:
        base: list[Point] = [(0.0, 0.0)]
    elif slots == 2:
        base = [(-s, 0.0), (s, 0.0)]
    elif slots == 3:
        k = s / math.cos(math.radians(30))
        base = [polar(a, k) for a in (-90.0, 30.0, 150.0)]
    elif slots == 4:
        base = [(-s, -s), (s, -s), (s, s), (-s, s)]
    else:
        k = s / math.sin(math.pi / slots)
        base = [polar(-90.0 + 360.0 * i / slots, k) for i in range(slots)]
    if not angle:
        return base
    c, si = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return [(x * c - y * si, x * si + y * c) for x, y in base]


def draw_city(
    dwg: svgwrite.Drawing, parent: Any, pos: Point, slots: int, s: float, angle: float, outline: float
) -> list[Point]:
    """A white city of ``slots`` token circles with a black outline around the whole; returns slot centres."""
    centres = [add(pos, o) for o in slot_offsets(max(1, slots), s, angle)]
    if len(centres) == 1:
        parent.add(dwg.circle(center=_p(centres[0]), r=fmt(s), fill="#ffffff", stroke=INK, stroke_width=fmt(outline)))
        return centres
    hull = "M" + " L".join(f"{fmt(x)},{fmt(y)}" for x, y in centres) + (" Z" if len(centres) > 2 else "")
    parent.add(
        dwg.path(
            d=hull,
            fill=INK if len(centres) > 2 else "none",
            stroke=INK,
            stroke_width=fmt(2 * s + outline),
            stroke_linejoin="round",
            stroke_linecap="round",
        )
    )
    parent.add(
        dwg.path(
            d=hull,
            fill="#ffffff" if len(centres) > 2 else "none",
            stroke="#ffffff",
            stroke_width=fmt(2 * s - outline),
            stroke_linejoin="round",
            stroke_linecap="round",
        )
    )
    for c in centres:
        parent.add(
            dwg.circle(center=_p(c), r=fmt(s - outline / 2), fill="none", stroke=INK, stroke_width=fmt(outline * 0.7))
        )
    return centres


def _p(p: Point) -> tuple[str, str]:
    return fmt(p[0]), fmt(p[1])


class TrackArt:
    """Layout and drawing of the track printed on one tile or hex."""

    def __init__(self, track: dict[str, Any], geom: HexGeom):
        self.track = track
        self.geom = geom
        r = geom.r
        self.tw = TRACK_W * r
        self.s = SLOT_R * r
        self.outline = OUTLINE * r
        self.nodes: dict[str, Node] = {}
        self.curves: list[Curve] = []
        self.stubs: list[tuple[int, int]] = []  # (edge, lanes) off-board arrows
        self.terminals: list[Curve] = []
        self.obstacles: list[tuple[Point, float]] = []
        self._build_nodes()
        self._place_nodes()
        self._build_curves()
        self._build_obstacles()

    # ------------------------------------------------------------------------------------- layout

    def _build_nodes(self) -> None:
        """Stops, off-boards and junctions with the sides and nodes their paths reach."""
        for kind, key in (("c", "cities"), ("t", "towns"), ("o", "offboards")):
            for i, data in enumerate(self.track.get(key, []) or []):
                self.nodes[f"{kind}{i}"] = Node(f"{kind}{i}", kind, i, data)
        for i in range(int(self.track.get("junctions", 0) or 0)):
            self.nodes[f"j{i}"] = Node(f"j{i}", "j", i, {})
        for p in self.track.get("paths", []):
            a, b = str(p["a"]), str(p["b"])
            for x, y in ((a, b), (b, a)):
                if x in self.nodes:
                    if y.isdigit():
                        self.nodes[x].exits.append(int(y))
                    else:
                        self.nodes[x].links.append(y)
        for n in self.nodes.values():
            if n.kind == "c":
                slots = int(n.data.get("slots", 1) or 1)
                n.radius = (
                    self.s
                    if slots <= 1
                    else (2 * self.s if slots == 2 else max(length(o) for o in slot_offsets(slots, self.s, 0)) + self.s)
                )
            elif n.kind == "t":
                n.radius = TOWN_R * self.geom.r * (1.4 if n.data.get("style") == "bar" else 1.0)
                if len(n.exits) == 2 and not n.links and (n.exits[0] - n.exits[1]) % 6:
                    n.through = (n.exits[0], n.exits[1])

    def _place_nodes(self) -> None:
        """A lone stop in the middle; several towards the sides only they use, then pushed apart."""
        g, r = self.geom, self.geom.r
        free = [n for n in self.nodes.values() if n.kind in "ct" and n.through is None]
        for n in self.nodes.values():
            if n.kind in "oj":
                n.pos = (0.0, 0.0)
            elif n.through is not None:
                n.pos = self.edge_curve(*n.through).point(0.5)
        self._space_through_towns()
        busy = any(n.through for n in self.nodes.values())
        if len(free) == 1 and not busy:
            free[0].pos = (0.0, 0.0)
        else:
            loose: list[Node] = []
            use: dict[int, int] = {}
            for n in free:
                for e in set(n.exits):
                    use[e] = use.get(e, 0) + 1
            for n in free:
                own = [e for e in n.exits if use[e] == 1] or n.exits
                vec = (0.0, 0.0)
                for e in own:
                    vec = add(vec, polar(g.edge_angle(e), 1.0))
                if not n.exits:
                    loose.append(n)
                elif length(vec) < 0.35:
                    n.pos = (0.0, 0.0)
                else:
                    reach = 0.62 if len(own) == 1 else 0.5
                    n.pos = scale(unit(vec), reach * r - max(0.0, n.radius - self.s) * 0.6)
            base = g.edge_angle(1)
            k = len(loose)
            taken = [m.pos for m in self.nodes.values() if m.kind in "ct" and m not in loose]
            for i, n in enumerate(loose):
                if k == 1:
                    n.pos = self._away_from(taken, 0.45 * r) if taken else (0.0, 0.0)
                else:
                    n.pos = polar(base + 360.0 * i / k, (0.42 + 0.04 * k) * r)
            self._relax(free)
        for n in self.nodes.values():
            if n.kind == "c" and int(n.data.get("slots", 1) or 1) > 1 and length(n.pos) > 0.05 * r:
                n.angle = math.degrees(math.atan2(n.pos[1], n.pos[0])) + 90.0

    def _space_through_towns(self) -> None:
        """Towns on crossing or neighbouring through track slide along it until they no longer touch."""
        towns = [n for n in self.nodes.values() if n.through is not None]
        need = BAR_L * self.geom.r * 1.15
        for i, n in enumerate(towns):
            others = towns[:i]
            if not others or min(dist(n.pos, o.pos) for o in others) >= need:
                continue
            curve = self.edge_curve(*n.through)  # type: ignore[misc]
            best, score = n.t, -1.0
            for t in (0.5, 0.34, 0.66, 0.26, 0.74):
                p = curve.point(t)
                d = min(dist(p, o.pos) for o in others)
                if d > score + 1e-6:
                    best, score = t, d
                if d >= need:
                    best = t
                    break
            n.t, n.pos = best, curve.point(best)

    def _away_from(self, taken: list[Point], radius: float) -> Point:
        best, score = (0.0, 0.0), -1.0
        for i in range(12):
            p = polar(self.geom.edge_angle(0) + 30.0 * i, radius)
            d = min(dist(p, q) for q in taken)
            if d > score + 1e-6:
                best, score = p, d
        return best

    def _relax(self, nodes: list[Node]) -> None:
        """Push overlapping stops apart, keeping them inside the hex."""
        r = self.geom.r
        gap = 0.05 * r
        others = [n for n in self.nodes.values() if n.kind in "ct" and n.through is not None]
        for _ in range(60):
            moved = False
            for i, a in enumerate(nodes):
                for b in nodes[i + 1 :] + others:
                    need = a.radius + b.radius + gap
                    d = dist(a.pos, b.pos)
                    if d < need - 1e-3:
                        direction = (
                            unit(sub(a.pos, b.pos)) if d > 1e-6 else polar(self.geom.edge_angle(1) + 17 * i, 1.0)
                        )
                        push = (need - d) / (2 if b in nodes else 1)
                        a.pos = add(a.pos, scale(direction, push))
                        if b in nodes:
                            b.pos = sub(b.pos, scale(direction, push))
                        moved = True
            for n in nodes:
                limit = r - n.radius - 0.04 * r
                if length(n.pos) > limit:
                    n.pos = scale(unit(n.pos), max(0.0, limit))
            if not moved:
                break

    def edge_curve(self, a: int, b: int) -> Curve:
        """Track from hexside ``a`` to hexside ``b``."""
        g = self.geom
        p0, p1 = g.edge_mid(a), g.edge_mid(b)
        d = (b - a) % 6
        ends = (str(a), str(b))
        if d == 3 or d == 0:
            return Curve("line", p0, p1, ends=ends)
        if d in (1, 5):
            corner = a if d == 1 else b
            return Curve("arc", p0, p1, centre=g.corner(corner), radius=g.R / 2, ends=ends)
        middle = (a + 1) % 6 if d == 2 else (a - 1) % 6
        return Curve("arc", p0, p1, centre=polar(g.edge_angle(middle), 2 * g.r), radius=1.5 * g.R, ends=ends)

    def edge_node_curve(self, edge: int, node: Node) -> Curve:
        """Track from a hexside to a stop, leaving the side at a right angle."""
        m = self.geom.edge_mid(edge)
        inward = unit(scale(m, -1))
        rel = sub(node.pos, m)
        along = rel[0] * inward[0] + rel[1] * inward[1]
        lateral = abs(rel[0] * inward[1] - rel[1] * inward[0])
        ends = (str(edge), node.name)
        if lateral < 0.02 * self.geom.r or along <= 0:
            return Curve("line", m, node.pos, ends=ends)
        ctrl = add(m, scale(inward, max(along * 0.75, 0.15 * self.geom.r)))
        return Curve("quad", m, node.pos, ctrl=ctrl, ends=ends)

    def _build_curves(self) -> None:
        """The drawn pieces of track (a through town's two paths become one side-to-side curve)."""
        done_through: set[str] = set()
        for p in self.track.get("paths", []):
            a, b = str(p["a"]), str(p["b"])
            terminal = bool(p.get("terminal"))
            if a.isdigit() and b.isdigit():
                self.curves.append(self.edge_curve(int(a), int(b)))
                continue
            if not a.isdigit() and b.isdigit():
                a, b = b, a
            if a.isdigit():
                node = self.nodes[b]
                if node.kind == "o":
                    self.stubs.append((int(a), max(1, int(p.get("lanes", 1) or 1))))
                elif node.through is not None:
                    if node.name not in done_through:
                        done_through.add(node.name)
                        self.curves.append(self.edge_curve(*node.through))
                elif terminal:
                    self.terminals.append(self.edge_node_curve(int(a), node))
                else:
                    self.curves.append(self.edge_node_curve(int(a), node))
            else:
                na, nb = self.nodes[a], self.nodes[b]
                self.curves.append(Curve("line", na.pos, nb.pos, ends=(a, b)))

    def _build_obstacles(self) -> None:
        """Discs covering track and stops, for placing text and symbols clear of them."""
        step = 0.12 * self.geom.r
        pad = self.tw / 2 + 0.03 * self.geom.r
        for c in self.curves + self.terminals:
            for q in c.samples(step):
                self.obstacles.append((q, pad))
        for edge, _ in self.stubs:
            m = self.geom.edge_mid(edge)
            for k in (0.0, 0.12, 0.24, 0.36, 0.46):
                self.obstacles.append((scale(m, 1 - k), pad * 1.6))
        for n in self.nodes.values():
            if n.kind == "c":
                for c in slot_offsets(int(n.data.get("slots", 1) or 1), self.s, n.angle):
                    self.obstacles.append((add(n.pos, c), self.s + self.outline))
            elif n.kind == "t":
                self.obstacles.append((n.pos, TOWN_R * self.geom.r * (2.0 if n.through else 1.2)))

    # ---------------------------------------------------------------------------------- free space

    def clearance(self, p: Point, radius: float) -> float:
        """How far a disc of ``radius`` at ``p`` stays from track, stops, placed items and the hexside."""
        g = self.geom
        best = min(
            (g.r - (p[0] * math.cos(math.radians(g.edge_angle(e))) + p[1] * math.sin(math.radians(g.edge_angle(e)))))
            for e in range(6)
        )
        best -= radius
        for q, qr in self.obstacles:
            d = math.hypot(p[0] - q[0], p[1] - q[1]) - qr - radius
            if d < best:
                best = d
        return best

    def free_spot(
        self,
        radius: float,
        near: Point | None = None,
        prefer: Point | None = None,
        pull: float = 0.12,
        near_radius: float = 0.0,
    ) -> Point:
        """The roomiest place for a disc of ``radius`` (near a point, or towards a preferred one)."""
        r = self.geom.r
        cands: list[Point] = []
        if near is not None:
            for ring in (0.03, 0.1, 0.18, 0.27, 0.38, 0.5):
                for i in range(24):
                    cands.append(polar(15.0 * i, near_radius + radius + ring * r, near))
        else:
            cands.append((0.0, 0.0))
            for ring in (0.22, 0.36, 0.5, 0.62, 0.74, 0.84):
                for i in range(24):
                    cands.append(polar(7.5 + 15.0 * i, ring * r))
        best, score = cands[0], -1e9
        for p in cands:
            c = self.clearance(p, radius)
            if near is not None:
                c -= pull * max(0.0, dist(p, near) - near_radius - radius) / r * radius * 2
            if prefer is not None:
                c -= pull * dist(p, prefer) / r * radius
            if c > score + 1e-9:
                best, score = p, c
        return best

    def reserve(self, p: Point, radius: float) -> None:
        self.obstacles.append((p, radius))

    @staticmethod
    def _box_discs(p: Point, w: float, h: float) -> list[tuple[Point, float]]:
        """Discs covering a w x h box centred on ``p`` (for clearance tests of text)."""
        rad = h / 2
        n = max(1, math.ceil(w / h))
        span = max(0.0, w - h)
        return [((p[0] - span / 2 + (span * i / (n - 1) if n > 1 else span / 2), p[1]), rad) for i in range(n)]

    def free_box(self, w: float, h: float, prefer: Point | None = None, pull: float = 0.12) -> Point:
        """The roomiest place for a w x h box of text (towards ``prefer``)."""
        r = self.geom.r
        cands: list[Point] = [(0.0, 0.0)]
        for ring in (0.2, 0.32, 0.44, 0.56, 0.66, 0.76, 0.86, 0.96):
            for i in range(24):
                cands.append(polar(7.5 + 15.0 * i, ring * r))
        best, score = cands[0], -1e9
        for p in cands:
            c = min(self.clearance(q, rad) for q, rad in self._box_discs(p, w, h))
            if prefer is not None:
                c -= pull * dist(p, prefer) / r * h
            if c > score + 1e-9:
                best, score = p, c
        return best

    def reserve_box(self, p: Point, w: float, h: float) -> None:
        self.obstacles.extend(self._box_discs(p, w, h))

    def slot_centres(self, city: int) -> list[Point]:
        n = self.nodes.get(f"c{city}")
        if n is None:
            return []
        return [add(n.pos, o) for o in slot_offsets(int(n.data.get("slots", 1) or 1), self.s, n.angle)]

    # ------------------------------------------------------------------------------------- drawing

    def crossings(self) -> dict[int, list[float]]:
        """For each curve that crosses an earlier one (away from shared ends and cities): where, as t values."""
        step = 0.08 * self.geom.r
        samples = [c.samples(step) for c in self.curves]
        hidden = [(n.pos, n.radius) for n in self.nodes.values() if n.kind == "c"]
        out: dict[int, list[float]] = {}
        for j in range(len(self.curves)):
            for i in range(j):
                shared = [self._end_point(e) for e in set(self.curves[i].ends) & set(self.curves[j].ends)]
                for t in self._cross(samples[i], samples[j], shared, hidden):
                    out.setdefault(j, []).append(t)
        return out

    def _end_point(self, end: str) -> Point:
        return self.geom.edge_mid(int(end)) if end.isdigit() else self.nodes[end].pos

    def _cross(
        self, a: list[Point], b: list[Point], shared: list[Point], hidden: list[tuple[Point, float]]
    ) -> list[float]:
        """Parameters along ``b`` where it crosses ``a``."""
        near = 0.3 * self.geom.r
        found: list[float] = []
        for i in range(len(a) - 1):
            for j in range(len(b) - 1):
                x = _segments_cross(a[i], a[i + 1], b[j], b[j + 1])
                if x is None:
                    continue
                if any(dist(x, s) < near for s in shared):
                    continue
                if any(dist(x, c) < cr for c, cr in hidden):
                    continue
                t = (j + dist(b[j], x) / max(1e-9, dist(b[j], b[j + 1]))) / (len(b) - 1)
                if not any(abs(t - u) < 0.05 for u in found):
                    found.append(t)
        return found

    def draw_track(self, dwg: svgwrite.Drawing, parent: Any, colour: str = TRACK) -> None:
        """Paths, off-board arrows, towns and cities (no text).  Crossing track goes over a white gap."""
        tw = self.tw
        cross = self.crossings()
        g = dwg.g(fill="none", stroke=colour, stroke_width=fmt(tw), stroke_linecap="butt")
        parent.add(g)
        for i, c in enumerate(self.curves):
            if i in cross:
                over = dwg.g(fill="none", stroke_linecap="butt")
                parent.add(over)
                half = 2.2 * tw / max(1e-6, c.approx_length())
                for t in cross[i]:
                    t0, t1 = max(0.0, t - half), min(1.0, t + half)
                    over.add(dwg.path(d=c.sub_d(t0, t1, 6), stroke="#ffffff", stroke_width=fmt(tw * 2.2)))
                over.add(dwg.path(d=c.d(), stroke=colour, stroke_width=fmt(tw)))
                g = dwg.g(fill="none", stroke=colour, stroke_width=fmt(tw), stroke_linecap="butt")
                parent.add(g)
            else:
                g.add(dwg.path(d=c.d()))
        for n in self.nodes.values():
            if n.kind == "j" and (n.exits or n.links):
                parent.add(dwg.circle(center=_p(n.pos), r=fmt(tw / 2), fill=colour))
        for c in self.terminals:
            self._draw_terminal(dwg, parent, c, colour)
        for edge, lanes in self.stubs:
            for k in range(lanes):
                self._draw_stub(dwg, parent, edge, colour, (k - (lanes - 1) / 2) * self.tw * 2.8)
        self._draw_stops(dwg, parent, colour)

    def _draw_terminal(self, dwg: svgwrite.Drawing, parent: Any, c: Curve, colour: str) -> None:
        n = 14
        left: list[Point] = []
        right: list[Point] = []
        for i in range(n + 1):
            t = i / n
            p = c.point(t * 0.85)
            tan = c.tangent(t * 0.85)
            nrm = (-tan[1], tan[0])
            half = self.tw * 0.9 * (1 - t)
            left.append(add(p, scale(nrm, half)))
            right.append(sub(p, scale(nrm, half)))
        parent.add(dwg.polygon(points=[_p(q) for q in left + right[::-1]], fill=colour))

    def _draw_stub(self, dwg: svgwrite.Drawing, parent: Any, edge: int, colour: str, offset: float = 0.0) -> None:
        """An arrow from a hexside into an off-board area (``offset`` sideways for a second lane)."""
        g = self.geom
        m0 = g.edge_mid(edge)
        inward = unit(scale(m0, -1))
        side = (-inward[1], inward[0])
        m = add(m0, scale(side, offset))
        w = self.tw / 2
        shaft = add(m, scale(inward, 0.24 * g.r))
        tip = add(m, scale(inward, 0.46 * g.r))
        pts = [
            add(m, scale(side, w)),
            add(shaft, scale(side, w)),
            add(shaft, scale(side, w * 2.4)),
            tip,
            sub(shaft, scale(side, w * 2.4)),
            sub(shaft, scale(side, w)),
            sub(m, scale(side, w)),
        ]
        parent.add(dwg.polygon(points=[_p(q) for q in pts], fill=colour))

    def _draw_stops(self, dwg: svgwrite.Drawing, parent: Any, colour: str) -> None:
        r = self.geom.r
        for n in self.nodes.values():
            if n.kind != "t":
                continue
            bar = n.data.get("style") == "bar"
            if bar:
                if n.through is not None:
                    tan = self.edge_curve(*n.through).tangent(n.t)
                else:
                    vec = (0.0, 0.0)
                    for e in n.exits:
                        vec = add(vec, polar(self.geom.edge_angle(e), 1.0))
                    tan = unit((-vec[1], vec[0])) if length(vec) > 0.1 else (1.0, 0.0)
                    tan = (tan[1], -tan[0]) if length(vec) > 0.1 else tan
                angle = math.degrees(math.atan2(tan[1], tan[0])) + 90.0
                L, W = BAR_L * r, BAR_W * r
                parent.add(
                    dwg.rect(
                        insert=(fmt(-L / 2), fmt(-W / 2)),
                        size=(fmt(L), fmt(W)),
                        fill=colour,
                        transform=f"translate({fmt(n.pos[0])},{fmt(n.pos[1])}) rotate({fmt(angle)})",
                    )
                )
            else:
                parent.add(
                    dwg.circle(
                        center=_p(n.pos),
                        r=fmt(TOWN_R * r),
                        fill=colour,
                        stroke="#ffffff",
                        stroke_width=fmt(self.outline * 0.8),
                    )
                )
        for n in self.nodes.values():
            if n.kind == "c":
                draw_city(dwg, parent, n.pos, int(n.data.get("slots", 1) or 1), self.s, n.angle, self.outline)

    def draw_revenues(self, dwg: svgwrite.Drawing, parent: Any) -> None:
        """Revenue circles (or phase boxes) beside the stops; one shared circle when they all agree."""
        stops = [n for n in self.nodes.values() if n.kind in "ct"]
        offboards = [n for n in self.nodes.values() if n.kind == "o" and not n.data.get("hidden")]
        values = [n.data.get("revenue", 0) for n in stops]
        rr = REV_R * self.geom.r
        if len(stops) > 1 and all(n.kind == "c" for n in stops) and all(v == values[0] for v in values):
            if values[0]:
                self._draw_value(dwg, parent, values[0], rr, near=None)
        else:
            for n in stops:
                v = n.data.get("revenue", 0)
                if v:
                    size = rr * (0.85 if n.kind == "t" else 1.0)
                    self._draw_value(dwg, parent, v, size, near=n.pos, near_radius=n.radius)
        for n in offboards:
            v = n.data.get("revenue", 0)
            if v:
                self._draw_value(dwg, parent, v, rr * 1.1, near=None, offboard=True)

    def _draw_value(
        self,
        dwg: svgwrite.Drawing,
        parent: Any,
        value: Any,
        rr: float,
        near: Point | None,
        offboard: bool = False,
        near_radius: float = 0.0,
    ) -> None:
        if isinstance(value, dict):
            self._draw_phase_values(dwg, parent, value, near, offboard, near_radius)
            return
        label = str(value)
        if near is not None:
            pos = self.free_spot(rr, near=near, near_radius=near_radius, prefer=self._away(near, near_radius + rr))
        else:
            pos = self.free_spot(rr, prefer=self._prefer())
        self.reserve(pos, rr)
        parent.add(
            dwg.circle(center=_p(pos), r=fmt(rr), fill="#ffffff", stroke=INK, stroke_width=fmt(self.outline * 0.8))
        )
        size = fit_size(label, rr * 1.15, rr * 1.7, bold=True)
        text(dwg, parent, pos[0], pos[1], label, size, bold=True)

    def _away(self, pos: Point, reach: float) -> Point | None:
        """The point ``reach`` from ``pos`` on the side facing away from the track leaving it."""
        for n in self.nodes.values():
            if dist(n.pos, pos) < 1e-6 and n.exits:
                vec = (0.0, 0.0)
                for e in n.exits:
                    vec = add(vec, polar(self.geom.edge_angle(e), 1.0))
                if length(vec) > 0.3:
                    return add(pos, scale(unit(vec), -reach))
        return None

    def _prefer(self) -> Point:
        return polar(self.geom.edge_angle(2) + 30.0, 0.6 * self.geom.r)

    def _draw_phase_values(
        self,
        dwg: svgwrite.Drawing,
        parent: Any,
        value: dict[str, Any],
        near: Point | None,
        offboard: bool,
        near_radius: float = 0.0,
    ) -> None:
        r = self.geom.r
        items = list(value.items())
        n = len(items)
        cols = n if n <= 2 else (2 if n <= 4 else 3)
        rows = math.ceil(n / cols)
        bw, bh = 0.36 * r, 0.27 * r
        w, h = cols * bw, rows * bh
        half = math.hypot(w, h) / 2
        if offboard:
            centre = self.free_spot(half * 0.7, prefer=(0.0, 0.0), pull=0.4)
        else:
            centre = self.free_spot(half * 0.75, near=near, near_radius=near_radius)
        self.reserve(centre, half * 0.8)
        x0, y0 = centre[0] - w / 2, centre[1] - h / 2
        for i, (key, v) in enumerate(items):
            cx, cy = x0 + (i % cols) * bw, y0 + (i // cols) * bh
            colour_key = key in PHASE_COLOURS or rgb(key) is not None
            fill = phase_fill(key) if colour_key else "#ffffff"
            parent.add(
                dwg.rect(
                    insert=(fmt(cx), fmt(cy)),
                    size=(fmt(bw), fmt(bh)),
                    fill=fill,
                    stroke=INK,
                    stroke_width=fmt(self.outline * 0.8),
                )
            )
            label = str(v) if colour_key else f"{key}:{v}"
            size = fit_size(label, bh * 0.72, bw * 0.86, bold=True)
            text(dwg, parent, cx + bw / 2, cy + bh / 2, label, size, bold=True, fill=contrast(fill))

    def draw_label(self, dwg: svgwrite.Drawing, parent: Any, label: str | None, fill: str = INK) -> None:
        """A tile or hex label (Z, OO, Chi), shrunk if it only fits smaller."""
        if not label:
            return
        r = self.geom.r
        base = 0.34 * r if len(label) <= 2 else 0.26 * r
        base = fit_size(label, base, 0.9 * r, bold=True)
        prefer = polar(self.geom.edge_angle(1) + 30.0, 0.65 * r)
        pos, size = (0.0, 0.0), base
        for k in (1.0, 0.85, 0.7):
            size = base * k
            w, h = text_width(label, size, bold=True), size * 0.8
            pos = self.free_box(w, h, prefer=prefer, pull=0.2)
            if min(self.clearance(q, rad) for q, rad in self._box_discs(pos, w, h)) >= 0:
                break
        self.reserve_box(pos, text_width(label, size, bold=True), size * 0.8)
        text(dwg, parent, pos[0], pos[1], label, size, bold=True, fill=fill)

    def draw_number(self, dwg: svgwrite.Drawing, parent: Any, number: str, fill: str = INK) -> None:
        """The tile number tucked into the lower-right corner (another corner if track is there)."""
        g = self.geom
        size = 0.075 * g.flats
        size = fit_size(number, size, 0.45 * g.r)
        w = text_width(number, size)
        want = 30.0 if g.layout == "pointy" else 60.0
        corners = sorted(range(6), key=lambda c: abs(((g.corner_angle(c) - want + 180) % 360) - 180))
        best, score = None, -1e9
        for rank, c in enumerate(corners):
            pos = polar(g.corner_angle(c), g.R - 0.3 * g.r)
            clear = self.clearance(pos, max(w, size) / 2) - rank * 0.3
            if clear > score:
                best, score = pos, clear
            if clear > 0 and rank == 0:
                break
        assert best is not None
        self.reserve(best, max(w, size) / 2)
        text(dwg, parent, best[0], best[1], number, size, fill=fill)
