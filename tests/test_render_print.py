"""Print fixes: registration targets and crop marks clear of the drawing and the footer, the market key on a
page of its own, closing cells marked, names that wrap, unlimited trains, national railway charters, card
backs placed for duplex, the die layout and the player aid.  Snapshots of a few cards and cells at the end."""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from railbook.render.build import RenderOptions, render_svgs
from railbook.render.cards import CARD_BLEED, back_origin
from railbook.render.certificates import CARD_H, CARD_W, certificates, draw_certificate
from railbook.render.charters import draw_charter
from railbook.render.market import paint_cell
from railbook.render.names import DIES
from railbook.render.pages import MARGIN, Paper, best_grid
from railbook.render.privates import draw_private
from railbook.render.svg import drawing, to_bytes
from railbook.render.trains import draw_train, train_back, train_cards

from tests.render_support import match_snapshot

SVG = "{http://www.w3.org/2000/svg}"
TRANSLATE = re.compile(r"translate\(([-\d.]+),([-\d.]+)\)")


def texts(svg: bytes) -> list[str]:
    return ["".join(el.itertext()) for el in ET.fromstring(svg).iter(f"{SVG}text")]


def window(root: ET.Element) -> tuple[float, float, float, float]:
    rect = root.find(f".//{SVG}clipPath[@id='window']/{SVG}rect")
    assert rect is not None
    return tuple(float(rect.attrib[k]) for k in ("x", "y", "width", "height"))  # type: ignore[return-value]


def test_registration_targets_sit_outside_the_drawing(books: dict[str, Any]) -> None:
    pages = render_svgs(books["rich"], "map", RenderOptions(tile_size=70.0))[1:]
    assert len(pages) > 1
    seen = 0
    for svg in pages:
        root = ET.fromstring(svg)
        x, y, w, h = window(root)
        group = root.find(f".//{SVG}g[@id='registration']")
        assert group is not None
        for target in group.iter(f"{SVG}g"):
            circles = list(target.iter(f"{SVG}circle"))
            if not circles:
                continue
            cx, cy, r = (float(circles[0].attrib[k]) for k in ("cx", "cy", "r"))
            outside_x = cx + 1.5 * r <= x or cx - 1.5 * r >= x + w
            outside_y = cy + 1.5 * r <= y or cy - 1.5 * r >= y + h
            assert outside_x or outside_y, (cx, cy, (x, y, w, h))
            seen += 1
    assert seen >= 2 * (len(pages) - 1)


@pytest.mark.parametrize("component", ["map", "market"])
def test_crop_marks_stay_clear_of_the_footer(books: dict[str, Any], component: str) -> None:
    for svg in render_svgs(books["rich"], component, RenderOptions(tile_size=70.0)):
        root = ET.fromstring(svg)
        height = float(root.attrib["viewBox"].split()[3])
        for group in root.iter(f"{SVG}g"):
            if group.attrib.get("class") != "crop-marks":
                continue
            for line in group.iter(f"{SVG}line"):
                assert max(float(line.attrib["y1"]), float(line.attrib["y2"])) <= height - MARGIN - 1.0


def test_a_market_over_several_pages_keeps_its_legend_and_par_chart_whole(books: dict[str, Any]) -> None:
    book = books["rich"]
    pages = render_svgs(book, "market", RenderOptions())
    assert len(pages) > 2, "the rich market needs several pages on A4"
    *grid_pages, key = pages
    assert b'id="market-key"' in key
    key_texts = texts(key)
    pars = sorted({p["price"] for p in book["market"]["par"]})
    for price in pars:
        assert f"${price}" in key_texts
    assert "the company closes" in key_texts
    for svg in grid_pages:
        assert "Par values" not in texts(svg) and "the company closes" not in texts(svg)


def test_a_market_that_fits_one_page_has_its_key_below(books: dict[str, Any]) -> None:
    pages = render_svgs(books["demo"], "market", RenderOptions())
    assert len(pages) == 1
    assert "Par values" in texts(pages[0])


def _fills_and_lines(svg: str) -> tuple[set[str], int]:
    root = ET.fromstring(svg)
    fills = {r.attrib.get("fill", "") for r in root.iter(f"{SVG}rect")}
    return fills, sum(1 for _ in root.iter(f"{SVG}line"))


@pytest.mark.parametrize("zone", ["white", "#ffffff", ""])
def test_closing_cells_differ_from_ordinary_cells(zone: str) -> None:
    zones = {"close": zone} if zone else {}
    cells = []
    for kinds in (["close"], []):
        dwg = drawing(30, 30)
        paint_cell(dwg, dwg, 1, 1, 5.0, 4.0, kinds, zones)  # the legend swatch size
        cells.append(dwg.tostring())
    (close_fills, close_lines), (plain_fills, plain_lines) = (_fills_and_lines(c) for c in cells)
    assert plain_lines == 0
    assert close_lines >= 3 or close_fills != plain_fills


def test_long_names_wrap_instead_of_shrinking(books: dict[str, Any]) -> None:
    book = copy.deepcopy(books["rich"])
    long = "Cleveland, Cincinnati, Chicago and Saint Louis Railway"
    sym = next(iter(book["corporations"]))
    book["corporations"][sym]["name"] = long
    priv = next(iter(book["privates"]))
    book["privates"][priv]["name"] = long
    for component in ("certificates", "privates"):
        svg = render_svgs(book, component, RenderOptions(backs=False))[0]
        root = ET.fromstring(svg)
        parts = [el for el in root.iter(f"{SVG}text") if "".join(el.itertext()) in long and el.text]
        assert len(parts) >= 2, component
        assert " ".join("".join(p.itertext()) for p in parts[:2]) == long or len(parts) > 2
        for el in parts:
            assert float(el.attrib["font-size"]) >= 3.0, (component, el.text)


def test_unlimited_trains_are_not_numbered(books: dict[str, Any]) -> None:
    book = books["rich"]
    cards = [c for c in train_cards(book, 6) if book["trains"][c.name].get("count") == "unlimited"]
    assert cards
    for card in cards:
        dwg = drawing(63, 41)
        draw_train(dwg, dwg, card, 63, 41)
        found = texts(to_bytes(dwg))
        assert "unlimited supply" in found
        assert not any(re.fullmatch(r"\d+ of \d+", t) for t in found)


def _charter_phase_names(book: dict[str, Any], sym: str) -> list[str]:
    dwg = drawing(190, 128)
    draw_charter(dwg, dwg, (sym, book["corporations"][sym], book, 5.0), 190, 128)
    found = texts(to_bytes(dwg))
    start = found.index("Train limit")
    names = [p["name"] for p in book["phases"]]
    shown = []
    for name in found[start + 1 :: 2]:  # the table is drawn as (phase name, limit) pairs, then "Treasury"
        if name not in names:
            break
        shown.append(name)
    return shown


def test_a_national_railway_charter_starts_at_its_formation(books: dict[str, Any]) -> None:
    book = copy.deepcopy(books["rich"])
    national, other = list(book["corporations"])[:2]
    book["mechanics"]["national_railway"] = {"national": national}
    book["phases"][3]["events"] = [*book["phases"][3].get("events", []), {"type": "national_railway_formation"}]
    later = [p["name"] for p in book["phases"][3:]]
    shown = _charter_phase_names(book, national)
    assert [n for n in shown if n in later] == later
    assert not set(shown) & {p["name"] for p in book["phases"][:3]}
    assert len(_charter_phase_names(book, other)) == len(book["phases"])


def test_card_backs_mirror_their_fronts_for_long_edge_duplex(books: dict[str, Any]) -> None:
    book = books["rich"]
    fronts = render_svgs(book, "certificates", RenderOptions(backs=False))
    both = render_svgs(book, "certificates", RenderOptions(backs=True))
    assert len(both) == 2 * len(fronts)
    grid = best_grid(Paper.named("a4"), CARD_W, CARD_H, 2 * CARD_BLEED)
    total = len(certificates(book))
    for page in range(len(fronts)):
        back = ET.fromstring(both[2 * page + 1])
        group = back.find(f".//{SVG}g[@id='backs']")
        assert group is not None
        slots = [g for g in group if g.tag == f"{SVG}g"]
        assert len(slots) == min(grid.per_page, total - page * grid.per_page)
        for g in slots:
            slot = int(g.attrib["data-slot"])
            m = TRANSLATE.search(g.attrib["transform"])
            assert m
            fx, fy = grid.origin(slot)
            bx, by = float(m.group(1)), float(m.group(2))
            assert (bx, by) == pytest.approx(back_origin(grid, slot))
            if grid.paper.width <= grid.paper.height:
                assert bx == pytest.approx(grid.paper.width - fx - CARD_W) and by == pytest.approx(fy)


@pytest.mark.parametrize("component", ["privates", "trains"])
def test_backs_follow_every_card_page(books: dict[str, Any], component: str) -> None:
    fronts = render_svgs(books["rich"], component, RenderOptions(backs=False))
    both = render_svgs(books["rich"], component, RenderOptions())
    assert len(both) == 2 * len(fronts)
    assert all(b'id="backs"' in svg for svg in both[1::2])


@pytest.mark.parametrize("die", sorted(DIES))
def test_die_layout_places_every_tile_at_the_die_size(books: dict[str, Any], die: str) -> None:
    book = books["rich"]
    plain = render_svgs(book, "tiles", RenderOptions())
    cut = render_svgs(book, "tiles", RenderOptions(die=die))

    def count(svgs: list[bytes]) -> int:
        return sum(svg.count(b"data-tile=") for svg in svgs)

    assert count(cut) == count(plain)
    for svg in cut:
        root = ET.fromstring(svg)
        targets = root.find(f".//{SVG}g[@id='die-targets']")
        assert targets is not None and len(list(targets)) == 4
        assert f"{DIES[die].tile_size:g}" in " ".join(texts(svg)) or "die layout" in " ".join(texts(svg))


def test_player_aid_has_every_phase_and_train(books: dict[str, Any]) -> None:
    book = books["rich"]
    (svg,) = render_svgs(book, "aid", RenderOptions())
    found = texts(svg)
    for ph in book["phases"]:
        assert ph["name"] in found
    for name in book["trains"]:
        assert name in found
    assert "2 rusts" in found  # the 2 rusts when the first 4 is bought
    assert "unlimited" in found


# ------------------------------------------------------------------------------------------ snapshots


def _snapshot(name: str, svg: bytes) -> None:
    match_snapshot(name, svg, __file__)


SNAPSHOT_BOOK: dict[str, Any] = {
    "meta": {"full_name": "Snapshot Railways", "currency": "${}"},
    "corporations": {
        "CCC": {
            "name": "Cleveland, Cincinnati, Chicago and Saint Louis Railway",
            "shares": [20, 10, 10],
            "color": "#1e7b3c",
        }
    },
    "privates": {
        "LSP": {
            "name": "Lake Shore and Pittsburgh Steam Packet Company",
            "value": 60,
            "revenue": 15,
            "description": "The owning corporation may place the packet marker on a port hex it can reach; its "
            "routes to that hex earn $20 more for each train for the rest of the game, and the marker stays "
            "when the private closes.",
            "abilities": [],
            "closes_on": "5",
        }
    },
    "trains": {"D": {"distance": [{"visit": "unlimited", "pay": "unlimited"}], "price": 1100, "count": "unlimited"}},
    "train_order": ["D"],
    "phases": [{"name": "D", "on": "D", "tiles": ["yellow", "green", "brown", "gray"], "train_limit": 2}],
}


def _card(draw: Any, item: Any, w: float, h: float) -> bytes:
    dwg = drawing(w, h)
    draw(dwg, dwg, item, w, h)
    return to_bytes(dwg)


def test_snapshot_certificate_with_a_long_name() -> None:
    cert = certificates(SNAPSHOT_BOOK)[0]
    _snapshot("card-certificate-long-name", _card(draw_certificate, cert, CARD_W, CARD_H))


def test_snapshot_private_with_long_text() -> None:
    item = ("LSP", SNAPSHOT_BOOK["privates"]["LSP"], SNAPSHOT_BOOK)
    _snapshot("card-private-long-text", _card(draw_private, item, 63.0, 88.0))


def test_snapshot_unlimited_train_and_its_back() -> None:
    card = train_cards(SNAPSHOT_BOOK, 6)[0]
    _snapshot("card-train-unlimited", _card(draw_train, card, 63.0, 41.0))
    _snapshot("card-train-back", _card(train_back("Snapshot Railways"), card, 63.0, 41.0))


def test_snapshot_closing_cell_and_swatch() -> None:
    dwg = drawing(40, 25)
    paint_cell(dwg, dwg, 1, 1, 19.0, 19.0, ["close"], {"close": "white"})
    paint_cell(dwg, dwg, 25, 1, 5.0, 4.0, ["close"], {"close": "white"})
    _snapshot("market-closing-cell", to_bytes(dwg))
