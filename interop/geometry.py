"""18xx-maker hex geometry: where its sides, nodes and track lie, and the connectivity they draw.

An 18xx-maker hex is drawn in one frame for both layouts: side 1 is the bottom edge (its midpoint at
(0, 75), the apothem being 75), sides are numbered clockwise, and positions are ``angle`` (degrees
clockwise from the bottom) and ``percent`` (of the apothem) from an optional ``x``/``y`` origin. A flat
map shows the frame as is; a pointy map turns it a quarter so that side 1 is the left edge. Track pieces
start on their ``side``: ``straight`` runs to the opposite side, ``sharp`` to the next side, ``gentle``
to the side after, the default runs to the centre; ``start``/``end`` cut a piece short.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from typing import Any

APOTHEM = 75.0
SHARP_RADIUS = 43.31025
GENTLE_RADIUS = 129.90375
OFFSET_UNIT = 17.15
PASS_TOLERANCE = 12.0
EDGE_TOLERANCE = 10.0
JUNCTION_TOLERANCE = 15.0


def edge_of_side(side: int, layout: str) -> int:
    """18xx-maker side (1-6) -> railbook edge (0-5, numbered as 18xx.games does)."""
    return (side - 1) % 6 if layout == "flat" else side % 6


def side_of_edge(edge: int, layout: str) -> int:
    """railbook edge (0-5) -> 18xx-maker side (1-6)."""
    return edge + 1 if layout == "flat" else (edge - 1) % 6 + 1


def screen_turn(layout: str) -> float:
    """How far a map hex turns its track on screen: positions are on screen, track in the side-1 frame."""
    return 90.0 if layout == "pointy" else 0.0


def rotate(point: tuple[float, float], degrees: float) -> tuple[float, float]:
    """Turn a point clockwise on screen (SVG ``rotate``) about the centre."""
    r = math.radians(degrees)
    x, y = point
    return (x * math.cos(r) - y * math.sin(r), x * math.sin(r) + y * math.cos(r))


def side_midpoint(side: int) -> tuple[float, float]:
    return rotate((0.0, APOTHEM), (side - 1) * 60)


def position(item: dict[str, Any]) -> tuple[float, float]:
    """The centre of a positioned element (city, town, value ...)."""
    x, y = _num(item.get("x")), _num(item.get("y"))
    angle, percent = _num(item.get("angle")), _num(item.get("percent"))
    if item.get("mid") and "percent" not in item:
        mid = MIDS.get(str(item["mid"]))
        if mid:
            angle = mid[0] + ((_num(item.get("side")) or 1) - 1) * 60
            percent = mid[1]
    r = math.radians(angle)
    d = APOTHEM * percent
    return (x - d * math.sin(r), y + d * math.cos(r))


def _num(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _arc(u: float, radius: float, arc_degrees: float, offset: float) -> tuple[float, float]:
    a = math.radians(arc_degrees) * u
    return (offset - radius + radius * math.cos(a), APOTHEM - radius * math.sin(a))


def _mid_of(radius: float, arc: float) -> tuple[float, float]:
    x, y = _arc(0.5, radius, arc, 0.0)
    return (round(math.degrees(math.atan2(-x, y))) % 360, math.hypot(x, y) / APOTHEM)


MIDS = {"straight": (0.0, 0.0), "sharp": _mid_of(SHARP_RADIUS, 120), "gentle": _mid_of(GENTLE_RADIUS, 60)}
_STEPS = 48
_STRAIGHTS = ("straight", "straightLeft", "straightRight", "straightStop", "stop", "stub", "straightGentleHalf", "mid")


def _linspace(a: float, b: float, n: int = _STEPS) -> list[float]:
    return [a + (b - a) * i / n for i in range(n + 1)]


def _bezier(p0, p1, p2, p3, n: int = 24) -> list[tuple[float, float]]:  # type: ignore[no-untyped-def]
    out = []
    for i in range(n + 1):
        t = i / n
        mt = 1 - t
        out.append(
            (
                mt**3 * p0[0] + 3 * mt * mt * t * p1[0] + 3 * mt * t * t * p2[0] + t**3 * p3[0],
                mt**3 * p0[1] + 3 * mt * mt * t * p1[1] + 3 * mt * t * t * p2[1] + t**3 * p3[1],
            )
        )
    return out


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")


def _custom(path: str) -> list[tuple[float, float]]:
    """The corner points of an SVG path (curves are followed through their control points)."""
    nums = [float(n) for n in _NUMBER.findall(path or "")]
    return [(nums[i], nums[i + 1]) for i in range(0, len(nums) - 1, 2)]


def track_points(track: dict[str, Any]) -> list[tuple[float, float]]:
    """Points along one 18xx-maker track piece, in the hex frame."""
    kind = str(track.get("type") or "city")
    start = _num(track.get("start", track.get("begin", 0)))
    end = _num(track.get("end", track.get("stop", 1))) if ("end" in track or "stop" in track) else 1.0
    offset = _num(track.get("trackOffset"))
    radius_offset = _num(track.get("radiusOffset"))
    mirror = False
    pts: list[tuple[float, float]]
    if kind in _STRAIGHTS:
        off = {"straightLeft": -OFFSET_UNIT, "straightRight": OFFSET_UNIT}.get(kind, offset)
        start, end = {
            "straightStop": (0.0, 0.75),
            "stop": (0.0, 0.25),
            "stub": (0.0, 0.125),
            "straightGentleHalf": (0.0, 0.3667),
            "mid": (0.25, 0.5),
        }.get(kind, (start, end))
        pts = [(off, APOTHEM - 2 * APOTHEM * t) for t in _linspace(start, end)]
    elif kind.startswith(("sharp", "gentle")):
        sharp = kind.startswith("sharp")
        base = (SHARP_RADIUS if sharp else GENTLE_RADIUS) + radius_offset
        arc = 120.0 if sharp else 60.0
        off = {"Inner": -OFFSET_UNIT, "Outer": OFFSET_UNIT}.get(kind[5 if sharp else 6 :], offset)
        legacy = {
            "sharpStop": (0.0, 0.5),
            "sharpStopRev": (0.0, 0.5),
            "gentleHalf": (0.0, 0.5),
            "gentleHalfRev": (0.0, 0.5),
            "gentleStop": (0.0, 0.75),
            "gentleStopRev": (0.0, 0.75),
        }
        start, end = legacy.get(kind, (start, end))
        mirror = kind.endswith("Rev")
        radius = base + off
        pts = [_arc(u, radius, arc, off) for u in _linspace(start, end)]
    elif kind == "bent":
        pts = _bezier((0, 75), (0, 30), (40, 40), (40, 0)) + _bezier((40, 0), (40, -40), (0, -30), (0, -75))[1:]
    elif kind == "offboard":
        pts = [(0.0, APOTHEM - APOTHEM * t) for t in _linspace(0.0, 1.0, 12)]
    elif kind == "custom":
        pts = _custom(str(track.get("path", "")))
    else:
        pts = [(0.0, APOTHEM - APOTHEM * t) for t in _linspace(0.0, 1.0, 24)]
    if mirror:
        pts = [(-x, y) for x, y in pts]
    turn = ((int(_num(track.get("side"))) or 1) - 1) * 60 + _num(track.get("rotation", track.get("rotate")))
    dx, dy = _num(track.get("x")), _num(track.get("y"))
    return [(x + dx, y + dy) for x, y in (rotate(p, turn) for p in pts)]


def point_on(kind: str, side: int, u: float) -> tuple[float, float]:
    """The point a fraction ``u`` along a straight, sharp or gentle piece starting on ``side``."""
    pts = track_points({"type": kind, "side": side, "start": u, "end": min(1.0, u + 1e-6)})
    return pts[0]


@dataclass
class Node:
    name: str  # railbook node name: c0, t1, o0 ...
    at: tuple[float, float]
    radius: float
    slots: tuple[tuple[float, float], ...] = ()

    def near(self, point: tuple[float, float]) -> float:
        """Distance from a point to the node's centre or nearest token space."""
        return min(_dist(point, p) for p in (self.at, *self.slots))


def city_node(name: str, item: dict[str, Any], size: int) -> Node:
    """A city of ``size`` token spaces (25 px circles side by side, in a triangle, a square, a ring)."""
    at = position(item)
    turn = _num(item.get("rotate", item.get("rotation")))
    if size == 2:
        spots = [(-25.0, 0.0), (25.0, 0.0)]
    elif size == 4:
        spots = [(-25.0, -25.0), (25.0, -25.0), (-25.0, 25.0), (25.0, 25.0)]
    elif size >= 3:
        ring = 25.0 / math.sin(math.pi / size)
        spots = [rotate((0.0, -ring), k * 360 / size) for k in range(size)]
    else:
        spots = []
    slots = tuple((at[0] + x, at[1] + y) for x, y in (rotate(p, turn) for p in spots))
    return Node(name, at, 25.0 if size == 1 else 25.0 + max(_dist((0, 0), p) for p in spots), slots)


def _dist(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _side_at(point: tuple[float, float]) -> int | None:
    for side in range(1, 7):
        if _dist(point, side_midpoint(side)) <= EDGE_TOLERANCE:
            return side
    return None


def connectivity(tracks: list[dict[str, Any]], nodes: list[Node], layout: str) -> tuple[list[tuple[str, str]], int]:
    """Paths (pairs of railbook endpoints) drawn by ``tracks`` between hex sides and ``nodes``.

    Returns the paths and the number of junctions (track ends meeting away from any node).
    """
    pieces: list[list[str | tuple[float, float]]] = []
    for track in tracks:
        pts = track_points(track)
        if len(pts) < 2:
            continue
        stops: list[tuple[float, str]] = []
        ends: list[str | tuple[float, float]] = []
        for point in (pts[0], pts[-1]):
            side = _side_at(point)
            if side is not None:
                ends.append(str(edge_of_side(side, layout)))
                continue
            inside = [n for n in nodes if n.near(point) <= 25.0 or _dist(point, n.at) <= n.radius]
            if inside:
                ends.append(min(inside, key=lambda n: n.near(point)).name)
            else:
                ends.append(point)
        for node in nodes:
            if node.name in ends:
                continue
            best = min(range(len(pts)), key=lambda i: node.near(pts[i]))
            if node.near(pts[best]) <= PASS_TOLERANCE:
                stops.append((best / (len(pts) - 1), node.name))
        chain: list[str | tuple[float, float]] = [ends[0], *(name for _, name in sorted(stops)), ends[1]]
        pieces.append(chain)
    # loose ends meeting each other become junctions; a loose end alone is track to nowhere
    loose: list[tuple[float, float]] = [e for chain in pieces for e in chain if isinstance(e, tuple)]
    clusters: list[list[tuple[float, float]]] = []
    for point in loose:
        for cluster in clusters:
            if _dist(cluster[0], point) <= JUNCTION_TOLERANCE:
                cluster.append(point)
                break
        else:
            clusters.append([point])
    junction_of: dict[tuple[float, float], str] = {}
    count = 0
    for cluster in clusters:
        if len(cluster) < 2:
            continue
        for point in cluster:
            junction_of[point] = f"j{count}"
        count += 1
    paths: list[tuple[str, str]] = []
    for chain in pieces:
        named = [junction_of.get(e) if isinstance(e, tuple) else e for e in chain]
        for a, b in itertools.pairwise(named):
            if a is None or b is None or a == b:
                continue
            if (a, b) not in paths and (b, a) not in paths:
                paths.append((a, b))
    return paths, count
