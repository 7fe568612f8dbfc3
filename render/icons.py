"""Small pictures shared by components: station tokens, terrain symbols, map icons."""

from __future__ import annotations

from typing import Any

import svgwrite

from .geometry import Point, fmt
from .style import CONDENSED, INK, MOUNTAIN, TEXT_MIN, WATER, contrast, fit_size, safe_colour
from .svg import text


def company_colours(entity: dict[str, Any], default: str = "#888888") -> tuple[str, str]:
    """Fill and text colour of a corporation, minor or private."""
    fill = safe_colour(entity.get("color"), default)
    ink = entity.get("text_color")
    return fill, safe_colour(ink, contrast(fill)) if ink else contrast(fill)


def token(
    dwg: svgwrite.Drawing,
    parent: Any,
    centre: Point,
    radius: float,
    fill: str,
    ink: str,
    label: str,
    *,
    ring: bool = True,
    dashed: bool = False,
    outline: str = INK,
    sub: str | None = None,
) -> None:
    """A round station token: coloured disc, white ring, the company symbol."""
    x, y = centre
    parent.add(
        dwg.circle(center=(fmt(x), fmt(y)), r=fmt(radius), fill=fill, stroke=outline, stroke_width=fmt(radius * 0.05))
    )
    if ring:
        parent.add(
            dwg.circle(
                center=(fmt(x), fmt(y)),
                r=fmt(radius * 0.82),
                fill="none",
                stroke="#ffffff" if ink != "#ffffff" or fill != "#ffffff" else INK,
                stroke_width=fmt(radius * 0.07),
                stroke_dasharray=f"{fmt(radius * 0.25)},{fmt(radius * 0.15)}" if dashed else None,
            )
        )
    size = fit_size(label, radius * 0.62, radius * 1.45, bold=True, family=CONDENSED)
    dy = -radius * 0.14 if sub else 0.0
    text(dwg, parent, x, y + dy, label, size, bold=True, fill=ink, family=CONDENSED)
    if sub:
        s2 = max(TEXT_MIN, fit_size(sub, radius * 0.34, radius * 1.3, family=CONDENSED))
        text(dwg, parent, x, y + radius * 0.47, sub, s2, fill=ink, family=CONDENSED)


def terrain_icon(dwg: svgwrite.Drawing, parent: Any, kind: str, centre: Point, size: float) -> None:
    """A small symbol for a terrain type, about ``size`` mm wide."""
    x, y = centre
    h = size / 2
    if kind in ("mountain", "hill"):
        k = 1.0 if kind == "mountain" else 0.7
        pts = [
            (x - h, y + h * 0.55),
            (x - h * 0.25, y - h * 0.75 * k),
            (x + h * 0.15, y - h * 0.1 * k),
            (x + h * 0.45, y - h * 0.55 * k),
            (x + h, y + h * 0.55),
        ]
        colour = MOUNTAIN if kind == "mountain" else "#7a9a3a"
        parent.add(
            dwg.polygon(
                points=[(fmt(a), fmt(b)) for a, b in pts], fill=colour, stroke=INK, stroke_width=fmt(size * 0.03)
            )
        )
        snow = [(x - h * 0.45, y - h * 0.35 * k), (x - h * 0.25, y - h * 0.75 * k), (x - h * 0.05, y - h * 0.35 * k)]
        if kind == "mountain":
            parent.add(dwg.polygon(points=[(fmt(a), fmt(b)) for a, b in snow], fill="#ffffff"))
    elif kind in ("water", "river", "lake"):
        g = dwg.g(fill="none", stroke=WATER, stroke_width=fmt(size * 0.09), stroke_linecap="round")
        parent.add(g)
        for row in (-0.3, 0.05, 0.4):
            yy = y + row * h * 1.2
            d = f"M{fmt(x - h)},{fmt(yy)}"
            for i in range(4):
                x0 = x - h + i * h / 2
                d += f" Q{fmt(x0 + h / 8)},{fmt(yy - h * 0.22)} {fmt(x0 + h / 4)},{fmt(yy)}"
                d += f" Q{fmt(x0 + 3 * h / 8)},{fmt(yy + h * 0.22)} {fmt(x0 + h / 2)},{fmt(yy)}"
            g.add(dwg.path(d=d))
    elif kind == "swamp":
        g = dwg.g(fill="none", stroke="#4d7a2a", stroke_width=fmt(size * 0.07), stroke_linecap="round")
        parent.add(g)
        for dx in (-0.55, 0.0, 0.55):
            bx = x + dx * h
            g.add(dwg.path(d=f"M{fmt(bx)},{fmt(y + h * 0.4)} L{fmt(bx)},{fmt(y - h * 0.4)}"))
            g.add(dwg.path(d=f"M{fmt(bx)},{fmt(y + h * 0.4)} L{fmt(bx - h * 0.25)},{fmt(y - h * 0.2)}"))
            g.add(dwg.path(d=f"M{fmt(bx)},{fmt(y + h * 0.4)} L{fmt(bx + h * 0.25)},{fmt(y - h * 0.2)}"))
        g.add(dwg.path(d=f"M{fmt(x - h)},{fmt(y + h * 0.45)} L{fmt(x + h)},{fmt(y + h * 0.45)}", stroke=WATER))
    elif kind == "forest":
        for dx, k in ((-0.45, 0.8), (0.35, 1.0)):
            bx = x + dx * h
            pts = [(bx, y - h * 0.8 * k), (bx + h * 0.45 * k, y + h * 0.35), (bx - h * 0.45 * k, y + h * 0.35)]
            parent.add(
                dwg.polygon(
                    points=[(fmt(a), fmt(b)) for a, b in pts],
                    fill="#2f7d32",
                    stroke=INK,
                    stroke_width=fmt(size * 0.025),
                )
            )
            parent.add(
                dwg.line(
                    (fmt(bx), fmt(y + h * 0.35)),
                    (fmt(bx), fmt(y + h * 0.6)),
                    stroke="#6b4423",
                    stroke_width=fmt(size * 0.07),
                )
            )
    elif kind == "desert":
        g = dwg.g(fill="#c8a24a")
        parent.add(g)
        for dx, dy in ((-0.6, 0.2), (-0.2, -0.2), (0.2, 0.3), (0.55, -0.1), (0.0, 0.05), (-0.35, 0.45), (0.4, 0.5)):
            g.add(dwg.circle(center=(fmt(x + dx * h), fmt(y + dy * h)), r=fmt(size * 0.05)))
    else:
        parent.add(
            dwg.circle(center=(fmt(x), fmt(y)), r=fmt(h * 0.6), fill="none", stroke=INK, stroke_width=fmt(size * 0.05))
        )


def badge(
    dwg: svgwrite.Drawing, parent: Any, centre: Point, label: str, size: float, fill: str = "#ffffff", ink: str = INK
) -> float:
    """A rounded label box (used for icons and private markers); returns its width."""
    from .style import text_width

    w = text_width(label, size, bold=True, family=CONDENSED) + size * 0.8
    h = size * 1.45
    x, y = centre
    parent.add(
        dwg.rect(
            insert=(fmt(x - w / 2), fmt(y - h / 2)),
            size=(fmt(w), fmt(h)),
            rx=fmt(h * 0.3),
            fill=fill,
            stroke=INK,
            stroke_width=fmt(size * 0.08),
        )
    )
    text(dwg, parent, x, y, label, size, bold=True, fill=ink, family=CONDENSED)
    return w
