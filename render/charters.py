"""Corporation charters (token spots with costs, train limits by phase, treasury) and minor company charters."""

from __future__ import annotations

from typing import Any

import svgwrite

from .abilities import company_text
from .cards import background, card_pages, frame, paragraph
from .geometry import fmt
from .icons import company_colours, token
from .inventory import certificate_sets, station_costs
from .pages import Page, Paper
from .phases import company_phases
from .style import CONDENSED, INK, fit_size, money, phase_fill
from .svg import text

CHARTER_W = 190.0
CHARTER_H = 128.0
MINOR_W = 95.0
MINOR_H = 64.0


def limit_for(train_limit: Any, kind: str | None) -> str:
    """A phase's train limit for one company type, as text."""
    if isinstance(train_limit, dict):
        if kind and kind in train_limit:
            return str(train_limit[kind])
        return "/".join(f"{v}" for v in train_limit.values())
    return str(train_limit)


def _homes(entity: dict[str, Any]) -> list[str]:
    home = entity.get("home")
    homes = home if isinstance(home, list) else [home] if home else []
    return [h["hex"] for h in homes if h]


def _shares_text(shares: list[int]) -> str:
    if not shares:
        return ""
    rest = shares[1:]
    parts = [f"president {shares[0]}%"]
    for pct in sorted(set(rest), reverse=True):
        n = rest.count(pct)
        parts.append(f"{n} × {pct}%")
    return ", ".join(parts)


def _token_row(
    dwg: svgwrite.Drawing,
    g: Any,
    x: float,
    y: float,
    width: float,
    tokens: list[int],
    homes: list[str],
    fill: str,
    ink: str,
    sym: str,
    currency: str,
    radius: float,
) -> float:
    """Token spots: the home tokens printed, the others as costed empty circles; returns the height used."""
    step = radius * 2 + 3.0
    per_row = max(1, int(width // step))
    for i, cost in enumerate(tokens):
        cx = x + radius + (i % per_row) * step
        cy = y + radius + (i // per_row) * (step + 4)
        if i < max(1, len(homes)) and homes:
            token(dwg, g, (cx, cy), radius, fill, ink, sym)
            label = homes[i] if i < len(homes) else "home"
        else:
            g.add(dwg.circle(center=(fmt(cx), fmt(cy)), r=fmt(radius), fill="#ffffff", stroke=INK, stroke_width="0.35"))
            text(
                dwg,
                g,
                cx,
                cy,
                money(cost, currency),
                fit_size(money(cost, currency), 3.2, radius * 1.7, bold=True),
                bold=True,
                fill="#555555",
            )
            label = ""
        if label:
            text(dwg, g, cx, cy + radius + 2.2, label, 2.4, fill="#444444", family=CONDENSED)
    rows = (len(tokens) + per_row - 1) // per_row
    return rows * (step + 4)


def _phase_table(
    dwg: svgwrite.Drawing, g: Any, x: float, y: float, width: float, phases: list[dict[str, Any]], kind: str | None
) -> float:
    """Train limit per phase: a row of phase names over a row of limits; returns the height used."""
    if not phases:
        return 0.0
    text(dwg, g, x, y + 1.5, "Train limit", 3.0, anchor="start", bold=True)
    y += 4.0
    cw = min(16.0, width / len(phases))
    for i, ph in enumerate(phases):
        cx = x + i * cw
        colour = phase_fill(ph["tiles"][-1]) if ph.get("tiles") else "#ffffff"
        g.add(dwg.rect(insert=(fmt(cx), fmt(y)), size=(fmt(cw), "5"), fill=colour, stroke=INK, stroke_width="0.25"))
        name = str(ph.get("name", ""))
        text(dwg, g, cx + cw / 2, y + 2.5, name, fit_size(name, 2.6, cw - 1, bold=True), bold=True)
        g.add(
            dwg.rect(insert=(fmt(cx), fmt(y + 5)), size=(fmt(cw), "6"), fill="#ffffff", stroke=INK, stroke_width="0.25")
        )
        lim = limit_for(ph.get("train_limit", ""), kind)
        text(dwg, g, cx + cw / 2, y + 8, lim, fit_size(lim, 3.2, cw - 1, bold=True), bold=True)
    return 15.0


def _max_limit(phases: list[dict[str, Any]], kind: str | None) -> int:
    best = 0
    for ph in phases:
        try:
            best = max(best, max(int(v) for v in limit_for(ph.get("train_limit", 0), kind).split("/")))
        except ValueError:
            continue
    return best or 4


def draw_charter(
    dwg: svgwrite.Drawing, g: Any, item: tuple[str, dict[str, Any], dict[str, Any], float], w: float, h: float
) -> None:
    sym, corp, book, radius = item
    currency = book["meta"].get("currency", "${}")
    fill, ink = company_colours(corp)
    phases = company_phases(book, sym)
    kind = corp.get("type")
    background(dwg, g, 0, 0, w, h, "#ffffff", w, h)
    g.add(dwg.rect(insert=("2", "2"), size=(fmt(w - 4), "20"), rx="1.5", fill=fill))
    frame(dwg, g, w, h, fill, inset=2.0)
    token(dwg, g, (15.0, 11.0), 8.2, fill, ink, sym, outline=ink)
    name = str(corp.get("name", sym))
    text(dwg, g, 27, 9.5, name, fit_size(name, 7.0, w - 80, bold=True), anchor="start", bold=True, fill=ink)
    sub = f"{sym}" + (f" · {kind}" if kind else "") + " · charter"
    text(dwg, g, 27, 17, sub, 3.0, anchor="start", fill=ink, family=CONDENSED)
    homes = _homes(corp)
    if homes:
        label = "home " + ", ".join(homes)
        text(dwg, g, w - 6, 9.5, label, fit_size(label, 4.0, 55, bold=True), anchor="end", bold=True, fill=ink)
    if corp.get("destination"):
        text(dwg, g, w - 6, 17, f"destination {corp['destination']}", 3.0, anchor="end", fill=ink)
    # left: token spots, then the trains area
    left_w = w * 0.5 - 8
    text(dwg, g, 6, 27.5, "Station tokens", 3.0, anchor="start", bold=True)
    used = _token_row(dwg, g, 6, 30, left_w, station_costs(book, sym), homes, fill, ink, sym, currency, radius)
    y = 30 + used + 2
    text(dwg, g, 6, y + 1.5, "Trains", 3.0, anchor="start", bold=True)
    y += 4
    slots = _max_limit(phases, kind)
    cols = min(slots, 3)
    rows = (slots + cols - 1) // cols
    tw = (left_w - 2 * (cols - 1)) / cols
    th = max(10.0, min(40.0, (h - y - 6 - 2 * (rows - 1)) / rows))
    for i in range(slots):
        tx = 6 + (i % cols) * (tw + 2)
        ty0 = y + (i // cols) * (th + 2)
        g.add(
            dwg.rect(
                insert=(fmt(tx), fmt(ty0)),
                size=(fmt(tw), fmt(th)),
                rx="1",
                fill="#f6f6f6",
                stroke="#999999",
                stroke_width="0.3",
                stroke_dasharray="1.2,0.8",
            )
        )
    # right: train limits, treasury, facts and abilities
    rx = w * 0.5 + 2
    rw = w - rx - 6
    used = _phase_table(dwg, g, rx, 25, rw, phases, kind)
    ty = 25 + used + 3
    g.add(
        dwg.rect(
            insert=(fmt(rx), fmt(ty)),
            size=(fmt(rw * 0.5), "16"),
            rx="1",
            fill="#fffbe6",
            stroke=INK,
            stroke_width="0.3",
        )
    )
    text(dwg, g, rx + 2, ty + 2.5, "Treasury", 2.8, anchor="start", bold=True)
    facts = []
    facts.append(f"Floats when {corp.get('float_percent', 60)}% is sold.")
    cap = corp.get("capitalization", "full")
    facts.append(
        {
            "full": "Full capitalization: paid for all its shares when it floats.",
            "incremental": "Incremental: paid for each share as it is sold.",
            "escrow": "Its capital is held in escrow.",
            "none": "Receives no money from share sales.",
            "by_phase": "Its capital depends on the phase it floats in.",
        }.get(cap, str(cap).replace("_", " "))
    )
    if corp.get("max_ownership_percent"):
        facts.append(f"A player may own at most {corp['max_ownership_percent']}%.")
    fx = rx + rw * 0.5 + 3
    fy = ty
    for fact in facts:
        fy += paragraph(dwg, g, fx, fy, rw * 0.5 - 3, fact, 2.6)
    y = max(ty + 19, fy + 1)
    for issue in (cs for cs in certificate_sets(book) if cs.symbol == sym):
        shares = _shares_text(list(issue.percents))
        label = f"Certificates ({issue.label})" if issue.label else "Certificates"
        y += paragraph(dwg, g, rx, y, rw, f"{label}: {shares}", 2.7) + 1
    for line in company_text(corp, currency, book):
        y += paragraph(dwg, g, rx, y, rw, line, 2.7, max_height=max(3.5, h - 6 - y)) + 1


def draw_minor(
    dwg: svgwrite.Drawing, g: Any, item: tuple[str, dict[str, Any], dict[str, Any], float], w: float, h: float
) -> None:
    sym, minor, book, radius = item
    currency = book["meta"].get("currency", "${}")
    fill, ink = company_colours(minor)
    background(dwg, g, 0, 0, w, h, "#ffffff", w, h)
    g.add(dwg.rect(insert=("1.6", "1.6"), size=(fmt(w - 3.2), "13.4"), rx="1.2", fill=fill))
    frame(dwg, g, w, h, fill, inset=1.6)
    token(dwg, g, (9.5, 7.5), 5.6, fill, ink, sym, outline=ink)
    name = str(minor.get("name", sym))
    text(dwg, g, 17, 6.3, name, fit_size(name, 4.2, w - 22, bold=True), anchor="start", bold=True, fill=ink)
    text(dwg, g, 17, 11.5, f"{sym} · minor company", 2.5, anchor="start", fill=ink, family=CONDENSED)
    homes = _homes(minor)
    used = _token_row(
        dwg, g, 4, 18, w * 0.55, [int(t) for t in minor.get("tokens", [0])], homes, fill, ink, sym, currency, radius
    )
    facts = []
    if homes:
        facts.append("Home: " + ", ".join(homes) + ".")
    if minor.get("cash"):
        facts.append(f"Starts with {money(minor['cash'], currency)}.")
    if minor.get("train"):
        facts.append(f"Starts with a {minor['train']}-train.")
    split = {"half": "Revenue: half to the owner, half kept.", "all_to_owner": "Revenue: all to the owner."}
    dividends = (book.get("mechanics") or {}).get("dividends") or {}
    facts.append(split.get(dividends.get("minor_split", "half"), ""))
    y = 18.0
    for fact in facts:
        y += paragraph(dwg, g, w * 0.58, y, w * 0.42 - 6, fact, 2.5)
    y = max(y, 18 + used) + 1
    kind = "minor"
    phases = company_phases(book, sym)
    if phases and y < h - 18:
        y += _phase_table(dwg, g, 4, y, w - 8, phases, kind)
    for line in company_text(minor, currency, book):
        if y > h - 5:
            break
        y += paragraph(dwg, g, 4, y + 1, w - 8, line, 2.4, max_height=max(3.0, h - 4 - y)) + 1


def render_charters(book: dict[str, Any], paper: Paper, tile_size: float = 38.1) -> list[Page]:
    """Corporation charters two to a page, then minor charters."""
    radius = 0.29 * tile_size / 2 * 0.95
    heading = f"{book['meta']['full_name']} — charters"
    corps = [(sym, c, book, radius) for sym, c in book.get("corporations", {}).items()]
    pages = card_pages(corps, CHARTER_W, CHARTER_H, paper, draw_charter, heading) if corps else []
    minors = [(sym, m, book, radius) for sym, m in book.get("minors", {}).items()]
    if minors:
        pages += card_pages(
            minors, MINOR_W, MINOR_H, paper, draw_minor, f"{book['meta']['full_name']} — minor companies"
        )
    if not pages:
        pages = card_pages([], CHARTER_W, CHARTER_H, paper, draw_charter, heading)
    return pages
