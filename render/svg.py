"""Thin helpers over svgwrite: a millimetre drawing, text that is centred as printed, serialising."""

from __future__ import annotations

from typing import Any

import svgwrite
from svgwrite.container import Group

from .geometry import fmt
from .style import FONT_FAMILY, INK

CAP = 0.36
"""Offset (in em) from a line's visual middle to its baseline, for digits and capitals."""


def drawing(width: float, height: float) -> svgwrite.Drawing:
    """A drawing whose user unit is one millimetre."""
    dwg = svgwrite.Drawing(
        size=(f"{fmt(width)}mm", f"{fmt(height)}mm"),
        viewBox=f"0 0 {fmt(width)} {fmt(height)}",
        debug=False,
        profile="full",
    )
    dwg.attribs["font-family"] = FONT_FAMILY
    return dwg


def text(
    dwg: svgwrite.Drawing,
    parent: Any,
    x: float,
    y: float,
    content: str,
    size: float,
    *,
    anchor: str = "middle",
    bold: bool = False,
    fill: str = INK,
    middle: bool = True,
    italic: bool = False,
    family: str | None = None,
    **extra: Any,
) -> Any:
    """Text at (x, y); with ``middle`` the point is the visual centre of the line, else its baseline."""
    attrs: dict[str, Any] = {"font_size": fmt(size), "fill": fill}
    if anchor != "start":
        attrs["text_anchor"] = anchor
    if bold:
        attrs["font_weight"] = "bold"
    if italic:
        attrs["font_style"] = "italic"
    if family:
        attrs["font_family"] = family
    attrs.update(extra)
    base = y + CAP * size if middle else y
    el = dwg.text(content, insert=(fmt(x), fmt(base)), **attrs)
    parent.add(el)
    return el


def translate(dwg: svgwrite.Drawing, parent: Any, x: float, y: float, **attrs: Any) -> Group:
    """A child group moved to (x, y)."""
    g = dwg.g(transform=f"translate({fmt(x)},{fmt(y)})", **attrs)
    parent.add(g)
    return g


def to_bytes(dwg: svgwrite.Drawing) -> bytes:
    """The SVG document as UTF-8 bytes with an XML declaration."""
    return ('<?xml version="1.0" encoding="utf-8" ?>\n' + dwg.tostring() + "\n").encode("utf-8")


def safe_id(value: str) -> str:
    """An XML id fragment from any string."""
    return "".join(ch if ch.isalnum() or ch in "-_" else f"_{ord(ch):x}" for ch in value)
