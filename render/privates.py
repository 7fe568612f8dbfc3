"""Private company cards: name, face value, revenue, what it does, when it closes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import svgwrite

from .abilities import Words, company_text
from .cards import background, card_pages, frame, heading_lines, paragraphs, plain_back
from .geometry import fmt
from .icons import company_colours
from .pages import Page, Paper
from .style import CONDENSED, INK, TEXT_MIN, contrast, fit_size, money, phase_fill, text_width
from .svg import text

CARD_W = 63.0
CARD_H = 88.0
DEFAULT = "#5a4634"


def phase_label(key: str, phases: list[str]) -> str:
    """A revenue key as players read it: "Phase II" for a phase name, "Green" for a tile colour."""
    return f"Phase {key}" if key in phases else str(key).replace("_", " ").capitalize()


def revenue_label(revenue: Any, currency: str, phases: list[str] | None = None) -> str:
    """ "$10", or by phase: "Phase II: $10 · Phase III: $15"."""
    if isinstance(revenue, dict):
        return " · ".join(f"{phase_label(k, phases or [])}: {money(v, currency)}" for k, v in revenue.items())
    return money(revenue, currency)


def _box(dwg: svgwrite.Drawing, g: Any, x: float, bw: float, label: str, value: str) -> None:
    """A framed box with a small label over a big value (cost, revenue)."""
    g.add(dwg.rect(insert=(fmt(x), "23"), size=(fmt(bw), "11"), rx="1", fill="#ffffff", stroke=INK, stroke_width="0.3"))
    text(dwg, g, x + bw / 2, 25.6, label, 2.3, fill="#555555")
    text(dwg, g, x + bw / 2, 30.6, value, max(TEXT_MIN, fit_size(value, 4.4, bw - 2, bold=True)), bold=True)


def _phase_revenue(
    dwg: svgwrite.Drawing,
    g: Any,
    x: float,
    bw: float,
    revenue: dict[str, Any],
    currency: str,
    phases: list[str],
    book: dict[str, Any],
) -> None:
    """Revenue by phase: one cell per phase, its name over its value, in the phase's colour."""
    g.add(dwg.rect(insert=(fmt(x), "23"), size=(fmt(bw), "11"), rx="1", fill="#ffffff", stroke=INK, stroke_width="0.3"))
    text(dwg, g, x + bw / 2, 25.3, "Revenue in phase", 2.3, fill="#555555")
    colours = {str(p.get("name")): (p.get("tiles") or ["white"])[-1] for p in book.get("phases", [])}
    cell = (bw - 2) / len(revenue)
    for k, (key, value) in enumerate(revenue.items()):
        cx = x + 1 + k * cell
        colour = phase_fill(colours.get(str(key), str(key)))
        g.add(dwg.rect(insert=(fmt(cx), "27"), size=(fmt(cell), "6.4"), fill=colour, stroke=INK, stroke_width="0.2"))
        name = str(key) if str(key) in phases else str(key).capitalize()
        text(dwg, g, cx + cell / 2, 28.6, name, TEXT_MIN, fill=contrast(colour), family=CONDENSED)
        label = money(value, currency)
        text(
            dwg,
            g,
            cx + cell / 2,
            31.6,
            label,
            max(TEXT_MIN, fit_size(label, 2.8, cell - 0.6, bold=True)),
            bold=True,
            fill=contrast(colour),
        )


def draw_private(
    dwg: svgwrite.Drawing, g: Any, item: tuple[str, dict[str, Any], dict[str, Any]], w: float, h: float
) -> None:
    sym, priv, book = item
    currency = book["meta"].get("currency", "${}")
    phases = [str(p.get("name")) for p in book.get("phases", [])]
    fill, ink = company_colours(priv, DEFAULT)
    background(dwg, g, 0, 0, w, h, "#fffdf6", w, h)
    g.add(dwg.rect(insert=("1.6", "1.6"), size=(fmt(w - 3.2), "18.4"), rx="1.2", fill=fill))
    frame(dwg, g, w, h, fill)
    name = str(priv.get("name", sym))
    heading_lines(dwg, g, w / 2, 8.2, w - 8, name, 4.2, min_size=3.0, max_lines=3, max_height=11.5, fill=ink)
    text(dwg, g, w / 2, 16.5, sym, 2.8, fill=ink, family=CONDENSED)
    revenue = priv.get("revenue", 0)
    by_phase = isinstance(revenue, dict) and bool(revenue)
    cost_w = 18.0 if by_phase else (w - 9) / 2 - 1.5
    _box(dwg, g, 4.5, cost_w, "Cost", money(priv.get("value", 0), currency))
    rx = 4.5 + cost_w + 1.5
    rw = w - 4.5 - rx
    cell = (rw - 2) / max(1, len(revenue)) if by_phase else 0.0
    cells_fit = by_phase and all(
        text_width(money(v, currency), TEXT_MIN, bold=True) <= cell - 0.6 for v in revenue.values()
    )
    if cells_fit:
        _phase_revenue(dwg, g, rx, rw, revenue, currency, phases, book)
    else:
        _box(dwg, g, rx, rw, "Revenue", "by phase ↓" if by_phase else revenue_label(revenue, currency))
    words = Words.of(book)
    body = company_text(priv, currency, book) or ["No special ability."]
    if by_phase and not cells_fit:  # too many phases for a cell each: the revenue as a line of text
        body.insert(0, f"Revenue: {revenue_label(revenue, currency, phases)}.")
    if priv.get("minor"):
        minor = words.names.get(str(priv["minor"]), str(priv["minor"]))
        body.append(f"Comes with the minor company {minor}.")
    if priv.get("closes_on"):
        body.append(f"Closes when phase {priv['closes_on']} starts.")
    paragraphs(dwg, g, 5, 38.0, w - 10, body, 2.75, h - 9 - 38.0, min_size=TEXT_MIN)
    g.add(dwg.line((fmt(8), fmt(h - 5.8)), (fmt(w - 8), fmt(h - 5.8)), stroke=fill, stroke_width="0.5"))
    text(dwg, g, w / 2, h - 4.0, "private company", 2.2, fill="#666666", family=CONDENSED)


def private_back(
    title: str,
) -> Callable[[svgwrite.Drawing, Any, tuple[str, dict[str, Any], dict[str, Any]], float, float], None]:
    """The back of a private company card: its colour and symbol."""

    def draw(
        dwg: svgwrite.Drawing, g: Any, item: tuple[str, dict[str, Any], dict[str, Any]], w: float, h: float
    ) -> None:
        sym, priv, _ = item
        fill, ink = company_colours(priv, DEFAULT)
        plain_back(dwg, g, w, h, fill, ink, title, "private company", label=sym)

    return draw


def render_privates(book: dict[str, Any], paper: Paper, backs: bool = False) -> list[Page]:
    items = [(sym, priv, book) for sym, priv in book.get("privates", {}).items()]
    heading = f"{book['meta']['full_name']} — private companies"
    back = private_back(book["meta"]["full_name"]) if backs else None
    return card_pages(items, CARD_W, CARD_H, paper, draw_private, heading, back=back)
