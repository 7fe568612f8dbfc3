"""Cards butted in a grid with shared cut lines: the layout used by certificates, privates, trains, charters."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import svgwrite

from .geometry import fmt
from .pages import MARGIN, Grid, Page, Paper, best_grid, cut_grid
from .style import INK, TEXT_MIN, fit_lines, fit_size, wrap
from .svg import text

T = TypeVar("T")

CARD_BLEED = 1.0
"""Colour printed past each card's cut line (mm), as on tiles; cards are spaced twice this apart."""


Draw = Callable[[svgwrite.Drawing, Any, T, float, float], None]


def card_pages(
    items: Sequence[T],
    card_w: float,
    card_h: float,
    paper: Paper,
    draw: Draw[T],
    heading: str,
    caption: str = "cut on the grey lines",
    back: Draw[T] | None = None,
) -> list[Page]:
    """Pages of cards; ``draw(dwg, group, item, w, h)`` draws one card in a group at its top-left corner.

    With ``back``, each page is followed by the backs of its cards, placed for long-edge duplex printing."""
    grid = best_grid(paper, card_w, card_h, 2 * CARD_BLEED)
    total = max(1, math.ceil(len(items) / grid.per_page))
    pages: list[Page] = []
    for p in range(total):
        chunk = items[p * grid.per_page : (p + 1) * grid.per_page]
        page = Page.new(grid.paper, caption=caption)
        dwg = page.dwg
        text(
            dwg,
            dwg,
            MARGIN,
            MARGIN + 1.0,
            heading,
            fit_size(heading, 3.2, grid.paper.inner_w),
            anchor="start",
            bold=True,
        )
        for slot, item in enumerate(chunk):
            x, y = grid.origin(slot)
            g = dwg.g(transform=f"translate({fmt(x)},{fmt(y)})")
            dwg.add(g)
            draw(dwg, g, item, card_w, card_h)
        rows = max(1, math.ceil(len(chunk) / grid.cols))
        cols = grid.cols if len(chunk) >= grid.cols else max(1, len(chunk))
        cut_grid(dwg, dwg, grid.x0, grid.y0, cols, rows, card_w, card_h, grid.gap, len(chunk))
        pages.append(page)
        if back is not None and chunk:
            pages.append(back_page(grid, chunk, back))
    return pages


def back_origin(grid: Grid, slot: int) -> tuple[float, float]:
    """Where the back of the card in ``slot`` goes: the front's place mirrored across the page's long axis,
    which is how a sheet turns over in long-edge duplex (left-right on portrait, top-bottom on landscape)."""
    x, y = grid.origin(slot)
    paper = grid.paper
    if paper.width <= paper.height:
        return paper.width - x - grid.card_w, y
    return x, paper.height - y - grid.card_h


def back_page(grid: Grid, chunk: Sequence[T], back: Draw[T]) -> Page:
    """The backs of one page of cards, each behind its card when printed double-sided (flip on long edge)."""
    page = Page.new(grid.paper, caption="card backs: print double-sided, flip on the long edge")
    dwg = page.dwg
    g_all = dwg.g(id="backs")
    dwg.add(g_all)
    for slot, item in enumerate(chunk):
        x, y = back_origin(grid, slot)
        g = dwg.g(transform=f"translate({fmt(x)},{fmt(y)})", **{"data-slot": str(slot)})
        g_all.add(g)
        back(dwg, g, item, grid.card_w, grid.card_h)
    return page


def background(
    dwg: svgwrite.Drawing, g: Any, x: float, y: float, bw: float, bh: float, fill: str, w: float, h: float
) -> None:
    """A filled rectangle of a ``w`` × ``h`` card; each side lying on the card's edge runs ``CARD_BLEED`` past it."""
    b = CARD_BLEED
    left = x - b if x <= 0 else x
    top = y - b if y <= 0 else y
    right = x + bw + b if x + bw >= w else x + bw
    bottom = y + bh + b if y + bh >= h else y + bh
    g.add(dwg.rect(insert=(fmt(left), fmt(top)), size=(fmt(right - left), fmt(bottom - top)), fill=fill))


def plain_back(
    dwg: svgwrite.Drawing,
    g: Any,
    w: float,
    h: float,
    fill: str,
    ink: str,
    title: str,
    kind: str,
    label: str | None = None,
    kind_y: float | None = None,
) -> None:
    """A card back: a coloured field, an optional big label, the kind of card (at ``kind_y`` when an emblem
    takes the middle) and the game's name."""
    background(dwg, g, 0, 0, w, h, fill, w, h)
    inset = min(4.0, min(w, h) * 0.08)
    g.add(
        dwg.rect(
            insert=(fmt(inset), fmt(inset)),
            size=(fmt(w - 2 * inset), fmt(h - 2 * inset)),
            rx="2",
            fill="none",
            stroke=ink,
            stroke_width="0.6",
        )
    )
    middle = h / 2
    if label:
        size = fit_size(label, min(h * 0.3, 16.0), w - 4 * inset, bold=True)
        text(dwg, g, w / 2, middle - h * 0.08, label, size, bold=True, fill=ink)
        middle += h * 0.16
    middle = middle if kind_y is None else kind_y
    size = max(TEXT_MIN, fit_size(kind, 3.6, w - 4 * inset, bold=True))
    text(dwg, g, w / 2, middle, kind, size, bold=True, fill=ink)
    heading_lines(dwg, g, w / 2, h - inset - 4.5, w - 4 * inset, title, 2.6, min_size=TEXT_MIN, fill=ink, bold=False)


def paragraph(
    dwg: svgwrite.Drawing,
    parent: Any,
    x: float,
    y: float,
    width: float,
    content: str,
    size: float,
    *,
    max_height: float | None = None,
    bold: bool = False,
    fill: str = INK,
    anchor: str = "start",
    leading: float = 1.22,
) -> float:
    """Word-wrapped text from (x, y) (top of the first line); shrinks to fit ``max_height``; returns the height."""
    lines = wrap(content, size, width, bold)
    while max_height is not None and len(lines) * size * leading > max_height and size > TEXT_MIN:
        size = max(TEXT_MIN, size * 0.92)
        lines = wrap(content, size, width, bold)
    for i, line in enumerate(lines):
        tx = x if anchor == "start" else x + width / 2
        text(dwg, parent, tx, y + size * 0.5 + i * size * leading, line, size, anchor=anchor, bold=bold, fill=fill)
    return len(lines) * size * leading


def paragraphs(
    dwg: svgwrite.Drawing,
    parent: Any,
    x: float,
    y: float,
    width: float,
    texts: Sequence[str],
    size: float,
    height: float,
    *,
    min_size: float = TEXT_MIN,
    gap: float = 1.5,
    leading: float = 1.22,
) -> float:
    """Several wrapped paragraphs at one size: the largest from ``size`` down to ``min_size`` at which they all
    fit ``height`` (at ``min_size`` they may run over); returns the height used."""

    def total(at: float) -> float:
        return sum(len(wrap(t, at, width)) * at * leading for t in texts) + gap * max(0, len(texts) - 1)

    while size > min_size and total(size) > height:
        size = max(min_size, size * 0.95)
    used = 0.0
    for t in texts:
        used += paragraph(dwg, parent, x, y + used, width, t, size, leading=leading) + gap
    return max(0.0, used - gap)


def heading_lines(
    dwg: svgwrite.Drawing,
    parent: Any,
    x: float,
    y: float,
    width: float,
    content: str,
    size: float,
    *,
    min_size: float,
    max_lines: int = 2,
    max_height: float | None = None,
    anchor: str = "middle",
    fill: str = INK,
    bold: bool = True,
) -> float:
    """A name on one line, or wrapped (up to ``max_lines``, within ``max_height``) rather than shrunk below
    ``min_size``, centred on ``y``; returns the font size used."""
    step = 1.12
    best: tuple[list[str], float] | None = None
    for n in range(1, max_lines + 1):
        lines, used = fit_lines(content, size, width, min_size=min_size, max_lines=n, bold=bold)
        if max_height is not None:
            used = min(used, max_height / (len(lines) * step))
        if best is None or used > best[1] + 1e-9:
            best = (lines, used)
    assert best is not None
    lines, used = best
    for i, line in enumerate(lines):
        ly = y + (i - (len(lines) - 1) / 2) * used * step
        text(dwg, parent, x, ly, line, used, anchor=anchor, bold=bold, fill=fill)
    return used


def band(dwg: svgwrite.Drawing, parent: Any, w: float, h: float, fill: str, inset: float = 0.0) -> None:
    """A coloured header band across the top of a card."""
    parent.add(dwg.rect(insert=(fmt(inset), fmt(inset)), size=(fmt(w - 2 * inset), fmt(h)), fill=fill))


def frame(dwg: svgwrite.Drawing, parent: Any, w: float, h: float, colour: str, inset: float = 1.6) -> None:
    """A thin inner frame so a slightly off cut still looks clean."""
    parent.add(
        dwg.rect(
            insert=(fmt(inset), fmt(inset)),
            size=(fmt(w - 2 * inset), fmt(h - 2 * inset)),
            rx="1.2",
            fill="none",
            stroke=colour,
            stroke_width="0.5",
        )
    )
