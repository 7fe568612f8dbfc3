"""Train cards: one per train in the bank, coloured by the phase the train starts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import svgwrite

from .cards import background, card_pages, frame, paragraphs, plain_back
from .pages import Page, Paper
from .phases import event_text
from .style import CONDENSED, INK, TEXT_MIN, contrast, fit_size, money, phase_fill
from .svg import text

CARD_W = 63.0
CARD_H = 41.0


@dataclass(frozen=True)
class TrainCard:
    name: str
    train: dict[str, Any]
    colour: str
    index: int
    total: int
    currency: str
    unlimited: bool = False
    events: tuple[str, ...] = ()
    """What buying the first one does, in words (``phases.event_text``)."""


def train_count(count: Any, unlimited: int) -> int:
    if count == "unlimited":
        return unlimited
    if isinstance(count, dict):
        return max((int(v) for v in count.values()), default=0)
    return int(count)


def distance_text(distance: list[dict[str, Any]], no_towns: bool = False) -> str:
    """How far a train runs, in words."""
    if not distance:
        return ""
    if len(distance) == 1:
        d = distance[0]
        visit, pay = d.get("visit"), d.get("pay")
        nodes = d.get("nodes", ["city", "town", "offboard"])
        what = "stops" if len(nodes) >= 3 else " or ".join(f"{n}s" for n in nodes)
        if visit == "unlimited":
            text = f"any number of {what}"
        elif visit == pay:
            text = f"{visit} {what}"
        else:
            text = f"visits {visit} {what}, counts the best {pay}"
    else:
        parts = []
        for d in distance:
            nodes = [n for n in d.get("nodes", []) if n != "offboard"] or d.get("nodes", [])
            parts.append(f"{d.get('visit')} {'/'.join(nodes)}{'s' if d.get('visit') != 1 else ''}")
        text = " + ".join(parts)
    return text + (", skips towns" if no_towns else "")


def phase_colours(book: dict[str, Any]) -> dict[str, str]:
    """Each train's card colour: the newest tile colour of the phase it starts (or the one before)."""
    by_train: dict[str, str] = {}
    for ph in book.get("phases", []):
        if ph.get("on") and ph.get("tiles"):
            by_train[ph["on"]] = ph["tiles"][-1]
    out: dict[str, str] = {}
    last = "yellow"
    for name in book.get("train_order", list(book.get("trains", {}))):
        last = by_train.get(name, last)
        out[name] = last
    return out


def train_cards(book: dict[str, Any], unlimited: int) -> list[TrainCard]:
    colours = phase_colours(book)
    currency = book["meta"].get("currency", "${}")
    cards = []
    for name in book.get("train_order", list(book.get("trains", {}))):
        train = book["trains"][name]
        n = train_count(train.get("count", 0), unlimited)
        endless = train.get("count") == "unlimited"
        events = tuple(event_text(ev, book) for ev in train.get("events", []) or [])
        for i in range(n):
            cards.append(TrainCard(name, train, colours.get(name, "yellow"), i, n, currency, endless, events))
    return cards


def draw_train(dwg: svgwrite.Drawing, g: Any, card: TrainCard, w: float, h: float) -> None:
    fill = phase_fill(card.colour)
    train = card.train
    background(dwg, g, 0, 0, w, h, "#ffffff", w, h)
    background(dwg, g, 0, 0, 22, h, fill, w, h)
    frame(dwg, g, w, h, "#333333", inset=1.4)
    size = fit_size(card.name, 17.0, 19.0, bold=True)
    text(dwg, g, 11.5, h / 2 - 2, card.name, size, bold=True)
    text(dwg, g, 11.5, h - 6.5, "train", 2.6, fill=INK, family=CONDENSED)
    x = 25.0
    price = money(train.get("price", 0), card.currency)
    text(dwg, g, x, 6.5, price, 5.0, anchor="start", bold=True)
    dist = distance_text(train.get("distance", []), bool(train.get("no_towns")))
    if train.get("multiplier", 1) and int(train.get("multiplier", 1)) > 1:
        dist += f", revenue ×{train['multiplier']}"
    text(dwg, g, x, 12.5, dist, max(TEXT_MIN, fit_size(dist, 2.7, w - x - 3)), anchor="start")
    lines = []
    if train.get("rusts_on"):
        lines.append(f"rusts when the first {train['rusts_on']} is bought")
    if train.get("obsolete_on"):
        lines.append(f"obsolete after the first {train['obsolete_on']}")
    if train.get("available_on"):
        lines.append(f"for sale from phase {train['available_on']}")
    for other, price_off in (train.get("discount") or {}).items():
        lines.append(f"{money(price_off, card.currency)} less with a {other} traded in")
    for v in train.get("variants", []) or []:
        extra = ", skips towns" if v.get("no_towns") else ""
        lines.append(f"or {v['name']} for {money(v['price'], card.currency)}{extra}")
    lines += [f"when the first is bought, {event}" for event in card.events]
    if lines:  # every line, wrapped, at one size between 2.5 mm and the 6 pt floor
        paragraphs(dwg, g, x, 15.8, w - x - 3, lines, 2.5, h - 7.0 - 15.8, gap=0.5, leading=1.15)
    count = "unlimited supply" if card.unlimited else f"{card.index + 1} of {card.total}"
    text(dwg, g, w - 3.5, h - 4.0, count, 2.2, anchor="end", fill="#777777", family=CONDENSED)


def train_back(title: str) -> Callable[[svgwrite.Drawing, Any, TrainCard, float, float], None]:
    """The back of a train card: the colour of the phase it starts and its name, to sort the bank's stacks."""

    def draw(dwg: svgwrite.Drawing, g: Any, card: TrainCard, w: float, h: float) -> None:
        fill = phase_fill(card.colour)
        plain_back(dwg, g, w, h, fill, contrast(fill), title, "train", label=card.name)

    return draw


def render_trains(book: dict[str, Any], paper: Paper, unlimited: int = 6, backs: bool = False) -> list[Page]:
    heading = f"{book['meta']['full_name']} — trains"
    back = train_back(book["meta"]["full_name"]) if backs else None
    return card_pages(train_cards(book, unlimited), CARD_W, CARD_H, paper, draw_train, heading, back=back)
