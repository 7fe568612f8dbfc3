"""Private company cards: name, face value, revenue, what it does, when it closes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import svgwrite

from .abilities import company_text
from .cards import card_pages, frame, heading_lines, paragraphs, plain_back
from .geometry import fmt
from .icons import company_colours
from .pages import Page, Paper
from .style import CONDENSED, INK, contrast, fit_size, money, phase_fill
from .svg import text

CARD_W = 63.0
CARD_H = 88.0
DEFAULT = "#5a4634"


def revenue_label(revenue: Any, currency: str) -> str:
    if isinstance(revenue, dict):
        return " / ".join(f"{money(v, currency)}" for v in revenue.values())
    return money(revenue, currency)


def draw_private(dwg: svgwrite.Drawing, g: Any, item: tuple[str, dict[str, Any], str], w: float, h: float) -> None:
    sym, priv, currency = item
    fill, ink = company_colours(priv, DEFAULT)
    g.add(dwg.rect(insert=(0, 0), size=(fmt(w), fmt(h)), fill="#fffdf6"))
    g.add(dwg.rect(insert=("1.6", "1.6"), size=(fmt(w - 3.2), "18.4"), rx="1.2", fill=fill))
    frame(dwg, g, w, h, fill)
    name = str(priv.get("name", sym))
    heading_lines(dwg, g, w / 2, 8.2, w - 8, name, 4.2, min_size=3.0, max_lines=3, max_height=11.5, fill=ink)
    text(dwg, g, w / 2, 16.5, sym, 2.8, fill=ink, family=CONDENSED)
    # value and revenue boxes
    for i, (label, value) in enumerate(
        (("Cost", money(priv.get("value", 0), currency)), ("Revenue", revenue_label(priv.get("revenue", 0), currency)))
    ):
        bx = 4.5 + i * (w - 9) / 2
        bw = (w - 9) / 2 - 1.5
        g.add(
            dwg.rect(
                insert=(fmt(bx), "23"), size=(fmt(bw), "11"), rx="1", fill="#ffffff", stroke=INK, stroke_width="0.3"
            )
        )
        text(dwg, g, bx + bw / 2, 25.6, label, 2.3, fill="#555555")
        text(dwg, g, bx + bw / 2, 30.6, value, fit_size(value, 4.4, bw - 2, bold=True), bold=True)
    revenue = priv.get("revenue")
    if isinstance(revenue, dict) and revenue:
        bx = 4.5 + (w - 9) / 2
        bw = (w - 9) / 2 - 1.5
        cell = min(7.5, (bw - 2) / len(revenue))
        x0 = bx + (bw - cell * len(revenue)) / 2
        g.add(
            dwg.rect(
                insert=(fmt(bx), "23"), size=(fmt(bw), "11"), rx="1", fill="#ffffff", stroke=INK, stroke_width="0.3"
            )
        )
        text(dwg, g, bx + bw / 2, 25.6, "Revenue", 2.3, fill="#555555")
        for k, (key, value) in enumerate(revenue.items()):
            cx = x0 + k * cell
            g.add(
                dwg.rect(
                    insert=(fmt(cx), "28"), size=(fmt(cell), "5"), fill=phase_fill(key), stroke=INK, stroke_width="0.2"
                )
            )
            label = money(value, currency)
            size = fit_size(label, 2.8, cell - 0.6, bold=True)
            text(dwg, g, cx + cell / 2, 30.5, label, size, bold=True, fill=contrast(phase_fill(key)))
    body = company_text(priv, currency) or ["No special ability."]
    paragraphs(dwg, g, 5, 38.0, w - 10, body, 2.75, h - 12 - 38.0)
    notes = []
    if priv.get("closes_on"):
        notes.append(f"closes in phase {priv['closes_on']}")
    if priv.get("minor"):
        notes.append(f"comes with minor {priv['minor']}")
    if priv.get("group"):
        notes.append(f"group {priv['group']}")
    if notes:
        note = "; ".join(notes)
        text(dwg, g, w / 2, h - 8.2, note, fit_size(note, 2.6, w - 10), fill="#444444", italic=True)
    g.add(dwg.line((fmt(8), fmt(h - 5.8)), (fmt(w - 8), fmt(h - 5.8)), stroke=fill, stroke_width="0.5"))
    text(dwg, g, w / 2, h - 4.0, "private company", 2.2, fill="#666666", family=CONDENSED)


def private_back(title: str) -> Callable[[svgwrite.Drawing, Any, tuple[str, dict[str, Any], str], float, float], None]:
    """The back of a private company card: its colour and symbol."""

    def draw(dwg: svgwrite.Drawing, g: Any, item: tuple[str, dict[str, Any], str], w: float, h: float) -> None:
        sym, priv, _ = item
        fill, ink = company_colours(priv, DEFAULT)
        plain_back(dwg, g, w, h, fill, ink, title, "private company", label=sym)

    return draw


def render_privates(book: dict[str, Any], paper: Paper, backs: bool = False) -> list[Page]:
    currency = book["meta"].get("currency", "${}")
    items = [(sym, priv, currency) for sym, priv in book.get("privates", {}).items()]
    heading = f"{book['meta']['full_name']} — private companies"
    back = private_back(book["meta"]["full_name"]) if backs else None
    return card_pages(items, CARD_W, CARD_H, paper, draw_private, heading, back=back)
