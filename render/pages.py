"""Paper, page furniture (footer, scale bar, crop and registration marks) and SVG to PDF/PNG conversion."""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass
from typing import Any, Protocol

import svgwrite

from .geometry import fmt
from .names import PAPERS
from .style import CUT, INK, MARK, TEXT_MIN, fit_size, text_width
from .svg import drawing, text, to_bytes

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
    """Heading, instructions and page number at the bottom, with a 50 mm bar to check the print scale; every
    word at least ``TEXT_MIN`` high (a long game name is cut to its short name rather than shrunk)."""
    dwg, paper = page.dwg, page.paper
    y = paper.height - MARGIN / 2
    g = dwg.g(id="footer")
    dwg.add(g)
    number_text = f"page {number} of {total}"
    right = paper.width - MARGIN - text_width(number_text, 2.5) - 4
    x0 = right - 50
    room = x0 - 4 - MARGIN
    left = f"{heading} · {component}"
    if text_width(left, 2.5) > room:
        left = f"{heading.split(':')[0]} · {component}"
    text(dwg, g, MARGIN, y - 1.5, left, max(TEXT_MIN, fit_size(left, 2.5, room)), anchor="start", fill="#444444")
    if page.caption:
        size = max(TEXT_MIN, fit_size(page.caption, 2.4, room))
        text(dwg, g, MARGIN, y + 1.5, page.caption, size, anchor="start", fill="#555555")
    text(dwg, g, paper.width - MARGIN, y, number_text, 2.5, anchor="end", fill="#444444")
    bar_y = y - 0.8
    g.add(dwg.line((fmt(x0), fmt(bar_y)), (fmt(x0 + 50), fmt(bar_y)), stroke=INK, stroke_width="0.3"))
    for k in range(6):
        tick = 1.2 if k in (0, 5) else 0.7
        g.add(
            dwg.line(
                (fmt(x0 + 10 * k), fmt(bar_y - tick)), (fmt(x0 + 10 * k), fmt(bar_y)), stroke=INK, stroke_width="0.25"
            )
        )
    label = "50 mm at 100 % (print at actual size)"
    text(dwg, g, x0 + 25, bar_y + 2.0, label, max(TEXT_MIN, fit_size(label, 2.3, 52)), fill="#444444")


def crop_marks(dwg: svgwrite.Drawing, parent: Any, x: float, y: float, w: float, h: float, size: float = 5.0) -> None:
    """Corner crop marks just outside the rectangle (x, y, w, h)."""
    gap = 1.0
    g = dwg.g(stroke=MARK, stroke_width="0.2", class_="crop-marks")
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
    dwg: svgwrite.Drawing,
    parent: Any,
    x0: float,
    y0: float,
    cols: int,
    rows: int,
    w: float,
    h: float,
    gap: float = 0.0,
    count: int | None = None,
) -> None:
    """Grey cut lines around each card of a grid (spaced ``gap`` apart for their bleed), with marks running into
    the margin beside every cut so a ruler can be laid across the sheet."""
    g = dwg.g(stroke=CUT, stroke_width="0.15", fill="none")
    parent.add(g)
    count = cols * rows if count is None else count
    for slot in range(count):
        r, c = divmod(slot, cols)
        g.add(dwg.rect(insert=(fmt(x0 + c * (w + gap)), fmt(y0 + r * (h + gap))), size=(fmt(w), fmt(h))))
    ext = min(5.0, MARGIN - 3)
    out = gap / 2 + 0.8
    width = cols * w + (cols - 1) * gap
    height = rows * h + (rows - 1) * gap
    xs = sorted({x0 + c * (w + gap) + e for c in range(cols) for e in (0.0, w)})
    ys = sorted({y0 + r * (h + gap) + e for r in range(rows) for e in (0.0, h)})
    top = min(ext, y0 - out - (MARGIN + 2.6))  # stay clear of the page heading
    for x in xs:
        if top > 0.5:
            g.add(dwg.line((fmt(x), fmt(y0 - out - top)), (fmt(x), fmt(y0 - out))))
        g.add(dwg.line((fmt(x), fmt(y0 + height + out)), (fmt(x), fmt(y0 + height + out + ext))))
    for y in ys:
        g.add(dwg.line((fmt(x0 - out - ext), fmt(y)), (fmt(x0 - out), fmt(y))))
        g.add(dwg.line((fmt(x0 + width + out), fmt(y)), (fmt(x0 + width + out + ext), fmt(y))))


CARD_EDGE = 6.0
"""Blank paper kept outside a card grid with bleed (mm): the cards, their bleed and the cut marks fit inside."""


@dataclass(frozen=True)
class Grid:
    """Cards of one size in a grid on a page, ``gap`` apart (twice the bleed; 0 for butted cards)."""

    paper: Paper
    cols: int
    rows: int
    card_w: float
    card_h: float
    gap: float = 0.0

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def x0(self) -> float:
        return (self.paper.width - self.cols * self.card_w - (self.cols - 1) * self.gap) / 2

    @property
    def y0(self) -> float:
        return MARGIN + (self.paper.inner_h - self.rows * self.card_h - (self.rows - 1) * self.gap) / 2

    def origin(self, slot: int) -> tuple[float, float]:
        col, row = slot % self.cols, slot // self.cols
        return self.x0 + col * (self.card_w + self.gap), self.y0 + row * (self.card_h + self.gap)


def best_grid(paper: Paper, card_w: float, card_h: float, gap: float = 0.0) -> Grid:
    """The page orientation (and card turn) that fits the most cards; cards with bleed may use the margin
    down to ``CARD_EDGE`` at the sides."""
    best: Grid | None = None
    for p in (paper.portrait(), paper.landscape()):
        avail = p.width - 2 * CARD_EDGE if gap else p.inner_w
        cols = max(1, math.floor((avail + gap + 1e-6) / (card_w + gap)))
        rows = max(1, math.floor((p.inner_h - 4 + gap + 1e-6) / (card_h + gap)))
        grid = Grid(p, cols, rows, card_w, card_h, gap)
        if best is None or grid.per_page > best.per_page:
            best = grid
    assert best is not None
    return best


# ------------------------------------------------------------------------------------------ posters

OVERLAP = 12.0
"""Strip printed on both neighbouring pages of a poster (mm)."""
TOP_BAND = 7.0
"""Space above a poster window for the page label (mm)."""
GUTTER = 8.0
"""Blank band around a poster window that holds its crop marks and registration targets (mm), so neither
prints over the drawing nor runs into the footer."""


class Poster(Protocol):
    """Anything drawn in its own millimetres that may be split over pages (map, stock market)."""

    width: float
    height: float

    def add_to(
        self, dwg: svgwrite.Drawing, parent: Any, window: tuple[float, float, float, float] | None = None
    ) -> None: ...


@dataclass(frozen=True)
class Tiling:
    paper: Paper
    win_w: float
    win_h: float
    starts_x: tuple[float, ...]
    starts_y: tuple[float, ...]

    @property
    def cols(self) -> int:
        return len(self.starts_x)

    @property
    def rows(self) -> int:
        return len(self.starts_y)


def _starts(total: float, window: float) -> tuple[float, ...]:
    if total <= window + 1e-6:
        return (0.0,)
    n = math.ceil((total - OVERLAP) / (window - OVERLAP))
    step = (total - window) / (n - 1)
    return tuple(i * step for i in range(n))


def plan_tiling(width: float, height: float, paper: Paper) -> Tiling:
    """Split a ``width`` x ``height`` drawing over the fewest pages (either orientation), overlapping."""
    best: Tiling | None = None
    for p in (paper.portrait(), paper.landscape()):
        win_w, win_h = p.inner_w - 2 * GUTTER, p.inner_h - TOP_BAND - 2 * GUTTER
        t = Tiling(p, win_w, win_h, _starts(width, win_w), _starts(height, win_h))
        if best is None or t.cols * t.rows < best.cols * best.rows:
            best = t
    assert best is not None
    return best


def poster_pages(poster: Poster, paper: Paper, name: str, caption: str) -> list[Page]:
    """``poster`` at true scale over pages, with overlaps, registration targets, crop marks and labels."""
    t = plan_tiling(poster.width, poster.height, paper)
    pages = []
    for r, y0 in enumerate(t.starts_y):
        for c, x0 in enumerate(t.starts_x):
            pages.append(_poster_page(poster, t, r, c, x0, y0, name, caption))
    return pages


def _poster_page(poster: Poster, t: Tiling, row: int, col: int, x0: float, y0: float, name: str, caption: str) -> Page:
    paper = t.paper
    w, h = min(t.win_w, poster.width), min(t.win_h, poster.height)
    page = Page.new(paper, caption=caption if t.cols * t.rows > 1 else "")
    dwg = page.dwg
    left, top = (paper.width - w) / 2, MARGIN + TOP_BAND + GUTTER
    clip = dwg.defs.add(dwg.clipPath(id="window"))
    clip.add(dwg.rect(insert=(fmt(left), fmt(top)), size=(fmt(w), fmt(h))))
    holder = dwg.g(clip_path="url(#window)")
    dwg.add(holder)
    inner = dwg.g(transform=f"translate({fmt(left - x0)},{fmt(top - y0)})")
    holder.add(inner)
    poster.add_to(dwg, inner, (x0, y0, w, h))
    # registration targets in the gutter, at the middle of each overlap strip: the same spot on both pages
    marks = dwg.g(id="registration")
    dwg.add(marks)
    if col > 0:
        sx = left + (t.starts_x[col - 1] + w + t.starts_x[col]) / 2 - x0
        _seam_targets(dwg, marks, [(sx, top - GUTTER / 2), (sx, top + h + GUTTER / 2)])
    if col + 1 < t.cols:
        sx = left + (t.starts_x[col] + w + t.starts_x[col + 1]) / 2 - x0
        _seam_targets(dwg, marks, [(sx, top - GUTTER / 2), (sx, top + h + GUTTER / 2)])
    if row > 0:
        sy = top + (t.starts_y[row - 1] + h + t.starts_y[row]) / 2 - y0
        _seam_targets(dwg, marks, [(left - GUTTER / 2, sy), (left + w + GUTTER / 2, sy)])
    if row + 1 < t.rows:
        sy = top + (t.starts_y[row] + h + t.starts_y[row + 1]) / 2 - y0
        _seam_targets(dwg, marks, [(left - GUTTER / 2, sy), (left + w + GUTTER / 2, sy)])
    guides = dwg.g(stroke="#888888", stroke_width="0.2", stroke_dasharray="2,1.5", fill="none")
    dwg.add(guides)
    if col + 1 < t.cols:
        gx = left + t.starts_x[col + 1] - x0
        guides.add(dwg.line((fmt(gx), fmt(top - GUTTER)), (fmt(gx), fmt(top + h + GUTTER))))
    if row + 1 < t.rows:
        gy = top + t.starts_y[row + 1] - y0
        guides.add(dwg.line((fmt(left - GUTTER), fmt(gy)), (fmt(left + w + GUTTER), fmt(gy))))
    crop_marks(dwg, dwg, left, top, w, h, size=GUTTER - 2.5)
    label = name if t.cols * t.rows == 1 else f"{name}, row {row + 1} of {t.rows}, column {col + 1} of {t.cols}"
    text(dwg, dwg, left + 2.5, MARGIN + 2.5, label, fit_size(label, 3.0, w - 30), anchor="start", bold=True)
    if t.cols * t.rows > 1:
        _index_diagram(dwg, left + w, MARGIN + 0.5, t, row, col)
    return page


def _seam_targets(dwg: svgwrite.Drawing, parent: Any, spots: list[tuple[float, float]]) -> None:
    for x, y in spots:
        registration_mark(dwg, parent, x, y, r=GUTTER / 4)


def _index_diagram(dwg: svgwrite.Drawing, right: float, top: float, t: Tiling, row: int, col: int) -> None:
    """A tiny grid of the pages with this one filled, in the top-right corner."""
    cell = min(4.0, 5.5 / max(1, t.rows))
    g = dwg.g(stroke=INK, stroke_width="0.15")
    dwg.add(g)
    x0 = right - t.cols * cell * 1.3
    for r in range(t.rows):
        for c in range(t.cols):
            g.add(
                dwg.rect(
                    insert=(fmt(x0 + c * cell * 1.3), fmt(top + r * cell)),
                    size=(fmt(cell * 1.3), fmt(cell)),
                    fill=INK if (r, c) == (row, col) else "#ffffff",
                )
            )


# -------------------------------------------------------------------------------------- conversion


@dataclass
class Recorded:
    """One page drawn once by cairosvg into a cairo recording surface; replayed into PDFs and PNGs."""

    surface: Any
    width: float  # points
    height: float  # points


def record(svg: bytes) -> Recorded:
    """Parse and draw an SVG page once (vector operations are kept, not pixels)."""
    import cairocffi
    import cairosvg.parser
    import cairosvg.surface

    class _Recorder(cairosvg.surface.PDFSurface):  # type: ignore[misc]
        def _create_surface(self, width: float, height: float) -> tuple[Any, float, float]:
            rec = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, (0, 0, width, height))
            return rec, width, height

    tree = cairosvg.parser.Tree(bytestring=svg)
    drawn = _Recorder(tree, None, 96)
    return Recorded(drawn.cairo, float(drawn.width), float(drawn.height))


def pdf_from(pages: list[Recorded]) -> bytes:
    """A PDF with the recorded pages in order, each at its own size."""
    import cairocffi

    out = io.BytesIO()
    surface = cairocffi.PDFSurface(out, 1, 1)
    for page in pages:
        surface.set_size(page.width, page.height)
        ctx = cairocffi.Context(surface)
        ctx.set_source_surface(page.surface, 0, 0)
        ctx.paint()
        ctx.show_page()
    surface.finish()
    return out.getvalue()


def png_from(page: Recorded, dpi: int) -> bytes:
    """A white-backed PNG of a recorded page at ``dpi``."""
    import cairocffi

    k = dpi / 72.0
    w, h = max(1, round(page.width * k)), max(1, round(page.height * k))
    image = cairocffi.ImageSurface(cairocffi.FORMAT_RGB24, w, h)
    ctx = cairocffi.Context(image)
    ctx.set_source_rgb(1, 1, 1)
    ctx.paint()
    ctx.scale(k, k)
    ctx.set_source_surface(page.surface, 0, 0)
    ctx.paint()
    out = io.BytesIO()
    image.write_to_png(out)
    return out.getvalue()


def svg_to_pdf(pages: list[bytes]) -> bytes:
    """One PDF with every SVG page in order."""
    return pdf_from([record(svg) for svg in pages])


def svg_to_png(svg: bytes, dpi: int) -> bytes:
    return png_from(record(svg), dpi)


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
