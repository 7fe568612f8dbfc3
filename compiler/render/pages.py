"""Paper, page furniture (footer, scale bar, crop and registration marks) and SVG to PDF/PNG conversion."""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass
from typing import Any

import svgwrite

from .geometry import fmt
from .style import CUT, INK, MARK, fit_size
from .svg import drawing, text, to_bytes

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN = 9.0
"""Unprinted border kept clear on every page (most printers cannot print closer than ~5 mm)."""

PT_PER_MM = 72.0 / 25.4
_PAGE = re.compile(rb"/Type\s*/Page\b")


@dataclass(frozen=True)
class Paper:
    name: str
    width: float
    height: float

    @classmethod
    def named(cls, name: str) -> Paper:
        w, h = PAPERS[name]
        return cls(name, w, h)

    def landscape(self) -> Paper:
        return Paper(self.name, max(self.width, self.height), min(self.width, self.height))

    def portrait(self) -> Paper:
        return Paper(self.name, min(self.width, self.height), max(self.width, self.height))

    @property
    def inner_w(self) -> float:
        return self.width - 2 * MARGIN

    @property
    def inner_h(self) -> float:
        return self.height - 2 * MARGIN


@dataclass
class Page:
    """One page being drawn: its SVG drawing and the paper it is on."""

    paper: Paper
    dwg: svgwrite.Drawing
    caption: str = ""

    @classmethod
    def new(cls, paper: Paper, caption: str = "") -> Page:
        return cls(paper, drawing(paper.width, paper.height), caption)

    def add(self, element: Any) -> Any:
        return self.dwg.add(element)


def finish(pages: list[Page], heading: str, component: str) -> list[bytes]:
    """Add footers ("page i of n", a 50 mm scale bar) and serialise each page."""
    out: list[bytes] = []
    for i, page in enumerate(pages, 1):
        footer(page, heading, component, i, len(pages))
        out.append(to_bytes(page.dwg))
    return out


def footer(page: Page, heading: str, component: str, number: int, total: int) -> None:
    dwg, paper = page.dwg, page.paper
    y = paper.height - MARGIN / 2
    g = dwg.g(id="footer")
    dwg.add(g)
    left = f"{heading} · {component}" + (f" · {page.caption}" if page.caption else "")
    size = fit_size(left, 2.6, paper.width - 2 * MARGIN - 90)
    text(dwg, g, MARGIN, y, left, size, anchor="start", fill="#444444")
    text(dwg, g, paper.width - MARGIN, y, f"page {number} of {total}", 2.6, anchor="end", fill="#444444")
    # a scale bar: prints exactly 50 mm long at 100 %
    x0 = paper.width / 2 - 25
    g.add(dwg.line((fmt(x0), fmt(y)), (fmt(x0 + 50), fmt(y)), stroke=INK, stroke_width="0.3"))
    for k in range(6):
        tick = 1.2 if k in (0, 5) else 0.7
        g.add(dwg.line((fmt(x0 + 10 * k), fmt(y - tick)), (fmt(x0 + 10 * k), fmt(y)), stroke=INK, stroke_width="0.25"))
    text(dwg, g, paper.width / 2, y + 2.2, "50 mm at 100 % (print at actual size)", 1.7, fill="#444444")


def crop_marks(dwg: svgwrite.Drawing, parent: Any, x: float, y: float, w: float, h: float, size: float = 5.0) -> None:
    """Corner crop marks just outside the rectangle (x, y, w, h)."""
    gap = 1.0
    g = dwg.g(stroke=MARK, stroke_width="0.2")
    parent.add(g)
    for cx, sx in ((x, -1), (x + w, 1)):
        for cy, sy in ((y, -1), (y + h, 1)):
            g.add(dwg.line((fmt(cx + sx * gap), fmt(cy)), (fmt(cx + sx * (gap + size)), fmt(cy))))
            g.add(dwg.line((fmt(cx), fmt(cy + sy * gap)), (fmt(cx), fmt(cy + sy * (gap + size)))))


def registration_mark(dwg: svgwrite.Drawing, parent: Any, x: float, y: float, r: float = 2.2) -> None:
    """A target (circle and cross) used to line up overlapping pages."""
    g = dwg.g(stroke=MARK, stroke_width="0.2", fill="none")
    parent.add(g)
    g.add(dwg.circle(center=(fmt(x), fmt(y)), r=fmt(r)))
    g.add(dwg.circle(center=(fmt(x), fmt(y)), r=fmt(r / 2.5)))
    g.add(dwg.line((fmt(x - r * 1.5), fmt(y)), (fmt(x + r * 1.5), fmt(y))))
    g.add(dwg.line((fmt(x), fmt(y - r * 1.5)), (fmt(x), fmt(y + r * 1.5))))


def cut_grid(
    dwg: svgwrite.Drawing, parent: Any, x0: float, y0: float, cols: int, rows: int, w: float, h: float
) -> None:
    """Thin cut lines around a grid of butted cards, with marks running into the margin."""
    g = dwg.g(stroke=CUT, stroke_width="0.15", fill="none")
    parent.add(g)
    ext = min(6.0, MARGIN - 2)
    for c in range(cols + 1):
        x = x0 + c * w
        g.add(dwg.line((fmt(x), fmt(y0 - ext)), (fmt(x), fmt(y0 + rows * h + ext))))
    for r in range(rows + 1):
        y = y0 + r * h
        g.add(dwg.line((fmt(x0 - ext), fmt(y)), (fmt(x0 + cols * w + ext), fmt(y))))


@dataclass(frozen=True)
class Grid:
    """Cards of one size butted in a grid on a page."""

    paper: Paper
    cols: int
    rows: int
    card_w: float
    card_h: float

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def x0(self) -> float:
        return (self.paper.width - self.cols * self.card_w) / 2

    @property
    def y0(self) -> float:
        return MARGIN + (self.paper.inner_h - self.rows * self.card_h) / 2

    def origin(self, slot: int) -> tuple[float, float]:
        return self.x0 + (slot % self.cols) * self.card_w, self.y0 + (slot // self.cols) * self.card_h


def best_grid(paper: Paper, card_w: float, card_h: float) -> Grid:
    """The page orientation (and card turn) that fits the most cards."""
    best: Grid | None = None
    for p in (paper.portrait(), paper.landscape()):
        cols = max(1, math.floor((p.inner_w + 1e-6) / card_w))
        rows = max(1, math.floor((p.inner_h - 4 + 1e-6) / card_h))
        grid = Grid(p, cols, rows, card_w, card_h)
        if best is None or grid.per_page > best.per_page:
            best = grid
    assert best is not None
    return best


# -------------------------------------------------------------------------------------- conversion


def svg_to_pdf(pages: list[bytes]) -> bytes:
    """One PDF with every SVG page in order (each page keeps its own size)."""
    import cairocffi
    import cairosvg.parser
    import cairosvg.surface

    out = io.BytesIO()
    shared = cairocffi.PDFSurface(out, 1, 1)

    class _Page(cairosvg.surface.PDFSurface):  # type: ignore[misc]
        def _create_surface(self, width: float, height: float) -> tuple[Any, float, float]:
            shared.set_size(width, height)
            return shared, width, height

    for svg in pages:
        tree = cairosvg.parser.Tree(bytestring=svg)
        page = _Page(tree, None, 96)
        page.context.show_page()
    shared.finish()
    return out.getvalue()


def svg_to_png(svg: bytes, dpi: int) -> bytes:
    import cairosvg

    data = cairosvg.svg2png(bytestring=svg, dpi=dpi, background_color="white")
    assert isinstance(data, bytes)
    return data


def pdf_page_count(data: bytes) -> int:
    """Pages in a PDF written by cairo (its page objects are not compressed)."""
    return len(_PAGE.findall(data))


def pdf_page_sizes(data: bytes) -> list[tuple[float, float]]:
    """Each page's MediaBox size in millimetres, in file order."""
    sizes = []
    for m in re.finditer(rb"/Type\s*/Page\b.*?/MediaBox\s*\[\s*([\d.\s-]+)\]", data, re.S):
        nums = [float(v) for v in m.group(1).split()]
        sizes.append(((nums[2] - nums[0]) / PT_PER_MM, (nums[3] - nums[1]) / PT_PER_MM))
    return sizes
