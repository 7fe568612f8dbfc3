"""Hex geometry in millimetres: corners, hexside midpoints and map positions for both layouts.

Angles are in degrees, measured clockwise from +x (SVG's y axis points down).  Edge numbers follow
docs/FORMAT.md: pointy edge 0 is the lower-left side, flat edge 0 the bottom side, counting clockwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SQRT3 = math.sqrt(3.0)
Point = tuple[float, float]

DEFAULT_TILE_MM = 38.1
"""1.5 inches across flats: the size of the published tiles."""


def polar(angle: float, radius: float, origin: Point = (0.0, 0.0)) -> Point:
    """The point at ``radius`` from ``origin`` in direction ``angle`` (degrees)."""
    a = math.radians(angle)
    return origin[0] + radius * math.cos(a), origin[1] + radius * math.sin(a)


def add(p: Point, q: Point) -> Point:
    return p[0] + q[0], p[1] + q[1]


def sub(p: Point, q: Point) -> Point:
    return p[0] - q[0], p[1] - q[1]


def scale(p: Point, k: float) -> Point:
    return p[0] * k, p[1] * k


def length(p: Point) -> float:
    return math.hypot(p[0], p[1])


def dist(p: Point, q: Point) -> float:
    return math.hypot(p[0] - q[0], p[1] - q[1])


def unit(p: Point) -> Point:
    n = length(p)
    return (p[0] / n, p[1] / n) if n > 1e-9 else (0.0, 0.0)


def fmt(v: float) -> str:
    """A compact number for SVG attributes (3 decimals, no trailing zeros)."""
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def points_attr(points: list[Point]) -> str:
    return " ".join(f"{fmt(x)},{fmt(y)}" for x, y in points)


@dataclass(frozen=True)
class HexGeom:
    """One hex size and orientation.  ``flats`` is the distance across flats (mm)."""

    layout: str = "pointy"
    flats: float = DEFAULT_TILE_MM

    @property
    def r(self) -> float:
        """Inradius: centre to hexside midpoint."""
        return self.flats / 2

    @property
    def R(self) -> float:
        """Circumradius: centre to corner (also the side length)."""
        return self.flats / SQRT3

    @property
    def width(self) -> float:
        """Bounding-box width of one hex."""
        return self.flats if self.layout == "pointy" else 2 * self.R

    @property
    def height(self) -> float:
        return 2 * self.R if self.layout == "pointy" else self.flats

    def edge_angle(self, edge: int) -> float:
        """Direction from the centre to the midpoint of hexside ``edge``."""
        return ((120.0 if self.layout == "pointy" else 90.0) + 60.0 * edge) % 360.0

    def corner_angle(self, corner: int) -> float:
        """Direction of corner ``corner``: the one between hexsides ``corner`` and ``corner + 1``."""
        return (self.edge_angle(corner) + 30.0) % 360.0

    def edge_mid(self, edge: int, centre: Point = (0.0, 0.0)) -> Point:
        return polar(self.edge_angle(edge), self.r, centre)

    def corner(self, corner: int, centre: Point = (0.0, 0.0), grow: float = 0.0) -> Point:
        """A corner, optionally of the hex grown outwards by ``grow`` mm on every side."""
        return polar(self.corner_angle(corner), self.R + grow * 2 / SQRT3, centre)

    def corners(self, centre: Point = (0.0, 0.0), grow: float = 0.0) -> list[Point]:
        return [self.corner(i, centre, grow) for i in range(6)]

    def edge_ends(self, edge: int, centre: Point = (0.0, 0.0)) -> tuple[Point, Point]:
        """The two corners bounding hexside ``edge``."""
        return self.corner((edge + 5) % 6, centre), self.corner(edge, centre)

    def centre_of(self, x: int, y: int) -> Point:
        """Map position of doubled coordinates (x, y) (hex A1-style ids, see railbook.hexgrid)."""
        if self.layout == "pointy":
            return x * self.flats / 2, y * 1.5 * self.R
        return x * 1.5 * self.R, y * self.flats / 2

    def path_d(self, centre: Point = (0.0, 0.0), grow: float = 0.0) -> str:
        pts = self.corners(centre, grow)
        return "M" + " L".join(f"{fmt(x)},{fmt(y)}" for x, y in pts) + " Z"

    def contains(self, p: Point, margin: float = 0.0) -> bool:
        """Is ``p`` (relative to the centre) inside the hex shrunk by ``margin``?"""
        return all(
            p[0] * math.cos(math.radians(self.edge_angle(e))) + p[1] * math.sin(math.radians(self.edge_angle(e)))
            <= self.r - margin
            for e in range(6)
        )
