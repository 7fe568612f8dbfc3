"""Share certificates: one card per certificate of each corporation (president's first)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import svgwrite

from .cards import background, card_pages, frame, heading_lines, plain_back
from .geometry import fmt
from .icons import company_colours, token
from .inventory import certificate_sets
from .pages import Page, Paper
from .style import CONDENSED, INK
from .svg import text

CARD_W = 63.0
CARD_H = 88.0


@dataclass(frozen=True)
class Certificate:
    symbol: str
    corp: dict[str, Any]
    index: int
    percent: int
    total: int
    shares: int
    """Shares the issue is divided into: a certificate counts as ``percent * shares / 100`` of them."""
    issue: str = ""
    """Which issue it belongs to ("5-share company", "second issue"), or "" for a company's only one."""


def certificates(book: dict[str, Any]) -> list[Certificate]:
    """Every certificate of every issue a corporation can have (``inventory.certificate_sets``), president's
    first."""
    corps = book.get("corporations", {})
    out: list[Certificate] = []
    for cs in certificate_sets(book):
        for i, pct in enumerate(cs.percents):
            out.append(Certificate(cs.symbol, corps[cs.symbol], i, pct, len(cs.percents), cs.shares, cs.label))
    return out


def draw_certificate(dwg: svgwrite.Drawing, g: Any, cert: Certificate, w: float, h: float) -> None:
    fill, ink = company_colours(cert.corp)
    president = cert.index == 0
    background(dwg, g, 0, 0, w, h, "#ffffff", w, h)
    inset = 1.6
    g.add(dwg.rect(insert=(fmt(inset), fmt(inset)), size=(fmt(w - 2 * inset), "21"), rx="1.2", fill=fill))
    frame(dwg, g, w, h, fill, inset=inset)
    if president:
        frame(dwg, g, w, h, "#c9a227", inset=inset + 1.2)
    token(dwg, g, (11.5, 12.0), 7.2, fill, ink, cert.symbol, outline=ink)
    name = str(cert.corp.get("name", cert.symbol))
    heading_lines(
        dwg, g, 20.5, 12.0, w - 25, name, 4.0, min_size=3.0, max_lines=3, max_height=18.0, anchor="start", fill=ink
    )
    pct = f"{cert.percent}%"
    text(dwg, g, w / 2, 44, pct, 15.0, bold=True, fill=INK)
    kind = "President's certificate" if president else "Share certificate"
    text(dwg, g, w / 2, 56, kind, 3.4, bold=president, fill=INK)
    shares = cert.percent * cert.shares / 100
    if shares != 1:
        count = f"{shares:g}"
        text(dwg, g, w / 2, 61.5, f"counts as {count} share{'' if shares == 1 else 's'}", 2.8, fill="#444444")
    if cert.issue:
        text(dwg, g, w / 2, 67.5, cert.issue, 3.0, bold=True, fill=INK)
    foot = f"{cert.symbol} · {cert.index + 1} of {cert.total}"
    text(dwg, g, w / 2, h - 6.5, foot, 2.8, fill="#444444", family=CONDENSED)
    g.add(dwg.line((fmt(8), fmt(h - 10)), (fmt(w - 8), fmt(h - 10)), stroke=fill, stroke_width="0.6"))


def certificate_back(title: str) -> Callable[[svgwrite.Drawing, Any, Certificate, float, float], None]:
    """The back of a certificate: the company's colour and symbol."""

    def draw(dwg: svgwrite.Drawing, g: Any, cert: Certificate, w: float, h: float) -> None:
        fill, ink = company_colours(cert.corp)
        radius = min(w, h) * 0.22
        kind = f"share certificate · {cert.issue}" if cert.issue else "share certificate"
        plain_back(dwg, g, w, h, fill, ink, title, kind, kind_y=h * 0.36 + radius + 5.5)
        token(dwg, g, (w / 2, h * 0.36), radius, fill, ink, cert.symbol, outline=ink)

    return draw


def render_certificates(book: dict[str, Any], paper: Paper, backs: bool = False) -> list[Page]:
    certs = certificates(book)
    heading = f"{book['meta']['full_name']} — {len(certs)} share certificates"
    back = certificate_back(book["meta"]["full_name"]) if backs else None
    return card_pages(certs, CARD_W, CARD_H, paper, draw_certificate, heading, back=back)
