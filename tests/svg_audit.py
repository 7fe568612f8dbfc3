"""Read every text element of a rendered SVG page as printed: its words and its size on paper."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass

SVG = "{http://www.w3.org/2000/svg}"
PT_MM = 25.4 / 72
MIN_PT = 6.0
"""The smallest text a player reads at the table, in points."""

_SCALE = re.compile(r"(scale|matrix)\(([^)]*)\)")
_SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
_REPR = re.compile(r"\{|\}|\[\s*'|'\s*\]|\bNone\b|\bTrue\b|\bFalse\b|<[a-zA-Z_.]+ object")


@dataclass(frozen=True)
class Text:
    """One text element: its content and its font size on the printed page in points."""

    content: str
    points: float


def _scale(transform: str) -> float:
    """The linear scale factor of an SVG transform list (uniform scales only matter here)."""
    factor = 1.0
    for kind, args in _SCALE.findall(transform or ""):
        nums = [float(n) for n in re.split(r"[\s,]+", args.strip()) if n]
        if kind == "scale" and nums:
            factor *= abs(nums[0] if len(nums) == 1 else (nums[0] * nums[1]) ** 0.5)
        elif kind == "matrix" and len(nums) >= 4:
            factor *= abs(nums[0] * nums[3] - nums[1] * nums[2]) ** 0.5
    return factor


def _page_scale(root: ET.Element) -> float:
    """Millimetres per user unit: the page's width in mm over its viewBox width."""
    width = root.get("width", "")
    box = root.get("viewBox", "").split()
    if width.endswith("mm") and len(box) == 4:
        return float(width[:-2]) / float(box[2])
    return 1.0


def texts(svg: str | bytes) -> Iterator[Text]:
    """Every non-empty text element of ``svg`` with its printed size."""
    root = ET.fromstring(svg)

    def walk(el: ET.Element, scale: float, size: float) -> Iterator[Text]:
        scale *= _scale(el.get("transform", ""))
        if el.get("font-size"):
            size = float(el.get("font-size", "0").removesuffix("px"))
        if el.tag == f"{SVG}text":
            content = "".join(el.itertext()).strip()
            if content:
                yield Text(content, size * scale / PT_MM)
            return
        for child in el:
            yield from walk(child, scale, size)

    yield from walk(root, _page_scale(root), 0.0)


def problems(text: str) -> list[str]:
    """What a player should never read: braces, Python reprs, snake_case parameter names."""
    found = []
    if _REPR.search(text):
        found.append("repr or brace")
    if _SNAKE.search(text):
        found.append(f"parameter name {_SNAKE.search(text).group(0)!r}")  # type: ignore[union-attr]
    return found
