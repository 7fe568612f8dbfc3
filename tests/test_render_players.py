"""Every title's print read as a player reads it: words, not data; text big enough; every component there.

Each title is rendered once (SVG only) and shared by the tests; the snapshots at the end hold the private
cards, the certificate backs and the player aid of every title. Update them after an intended change with

    RAILBOOK_UPDATE_SNAPSHOTS=1 .venv/bin/pytest tests/test_render_players.py

and look at the pictures (``railbook render TITLE --only privates,certificates,aid --format png``) first.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from railbook.compiler.load import available_titles
from railbook.render.build import COMPONENTS, RenderOptions, render_svgs

from tests.render_support import match_snapshot
from tests.svg_audit import MIN_PT, problems, texts
from tests.test_render_titles import compiled

SVG = "{http://www.w3.org/2000/svg}"
TITLES = available_titles()
OVERVIEW = re.compile(r"overview at \d+ %")


@cache
def pages_of(title: str) -> dict[str, list[bytes]]:
    """Every page of every component of a title, as SVG."""
    book = compiled(title)
    return {component: render_svgs(book, component, RenderOptions()) for component in COMPONENTS}


def _words(svg: bytes) -> list[str]:
    return [t.content for t in texts(svg)]


def _ability_keys(book: dict[str, Any]) -> set[str]:
    """Parameter names of the title's abilities (snake_case ones, which a player must never read)."""
    keys: set[str] = set()
    for section in ("privates", "corporations", "minors"):
        for entity in (book.get(section) or {}).values():
            for ab in entity.get("abilities") or []:
                keys |= {k for k in ab.get("params") or {} if "_" in k}
    return keys


@pytest.mark.parametrize("title", TITLES)
def test_no_page_prints_data_instead_of_words(title: str) -> None:
    """No brace, Python repr, snake_case name, parameter name ("per or:") or private group id on any page."""
    book = compiled(title)
    spaced = {k.replace("_", " ") + ":" for k in _ability_keys(book)}
    groups = {f"group {p['group']}" for p in (book.get("privates") or {}).values() if p.get("group")}
    bad = []
    for component, svgs in pages_of(title).items():
        for n, svg in enumerate(svgs, 1):
            for line in _words(svg):
                found = problems(line) + [w for w in spaced | groups if w in line]
                if found:
                    bad.append(f"{component} page {n}: {line!r} ({', '.join(found)})")
    assert not bad, "\n".join(bad[:20])


@pytest.mark.parametrize("title", TITLES)
def test_table_text_is_at_least_6_points(title: str) -> None:
    """Every text is 6 pt or more on the printed page, except on the map overview, which states its scale."""
    small = []
    for component, svgs in pages_of(title).items():
        for n, svg in enumerate(svgs, 1):
            found = list(texts(svg))
            if component == "map" and any(OVERVIEW.search(t.content) for t in found):
                continue
            small += [f"{component} page {n}: {t.content!r} {t.points:.2f} pt" for t in found if t.points < MIN_PT]
    assert not small, "\n".join(small[:20])
    overview = [t.content for t in texts(pages_of(title)["map"][0])]
    assert any(OVERVIEW.search(line) for line in overview), "the map overview states its scale"


def _expected_certificates(book: dict[str, Any]) -> Counter[str]:
    """Certificates per corporation from the rulebook: every size's layout when the corporation's shares are one
    of mechanics.company_sizes, else its shares; plus the national railway's second issue."""
    mechanics = book.get("mechanics") or {}
    sizes = [list(s["certificates"]) for s in ((mechanics.get("company_sizes") or {}).get("sizes") or {}).values()]
    national = mechanics.get("national_railway") or {}
    want: Counter[str] = Counter()
    for sym, corp in book["corporations"].items():
        want[sym] = sum(len(s) for s in sizes) if list(corp["shares"]) in sizes else len(corp["shares"])
        if sym == national.get("national"):
            want[sym] += len((national.get("second_issue") or {}).get("certificates") or [])
    return want


FOOT = re.compile(r"^(.+) · (\d+) of (\d+)$")


@pytest.mark.parametrize("title", TITLES)
def test_printed_components_match_the_rulebook(title: str) -> None:
    """Certificates per corporation, station tokens at the largest size, market tokens, destination and loan
    markers: counted on the sheets and compared with the rulebook data."""
    book = compiled(title)
    pages = pages_of(title)
    certs: Counter[str] = Counter()
    for svg in pages["certificates"]:
        for line in _words(svg):
            m = FOOT.match(line)
            if m and m.group(1) in book["corporations"]:
                certs[m.group(1)] += 1
    assert certs == _expected_certificates(book)

    counters: Counter[tuple[str, str]] = Counter()
    for svg in pages["tokens"]:
        for g in ET.fromstring(svg).iter(f"{SVG}g"):
            if "data-counter" in g.attrib:
                counters[(g.attrib["data-counter"], g.attrib["data-label"])] += 1
    mechanics = book.get("mechanics") or {}
    most = int((mechanics.get("company_sizes") or {}).get("max_markers") or 0)
    national = mechanics.get("national_railway") or {}
    for sym, corp in book["corporations"].items():
        want = max(len(corp["tokens"]), most)
        if sym == national.get("national"):
            want = max(want, int((national.get("tokens") or {}).get("count") or 0))
        assert counters[("station", sym)] == want, sym
        assert counters[("market", sym)] == 1, sym
        assert counters[("destination", sym)] == (1 if corp.get("destination") else 0), sym
        shorts = (mechanics.get("short_selling") or {}).get("max_shorts_by_size") or {}
        assert counters[("short", sym)] == max([int(v) for v in shorts.values()], default=0), sym
    for sym, minor in (book.get("minors") or {}).items():
        assert counters[("station", sym)] == len(minor.get("tokens") or [0]), sym
    loans = mechanics.get("loans") or {}
    if isinstance(loans.get("bank_total"), int):
        assert counters[("loan", "loan")] == loans["bank_total"]
    elif loans:
        assert counters[("loan", "loan")] >= len(book["corporations"]) - (1 if national else 0)
    else:
        assert counters[("loan", "loan")] == 0


def test_1817_prints_certificates_of_2_5_and_10_share_companies() -> None:
    if "1817" not in TITLES:
        pytest.skip("1817 is not in games/")
    book = compiled("1817")
    found = Counter(line for svg in pages_of("1817")["certificates"] for line in _words(svg))
    corps = len(book["corporations"])
    assert found["2-share company"] == corps * 1
    assert found["5-share company"] == corps * 4
    assert found["10-share company"] == corps * 9
    assert found["President's certificate"] == corps * 3


# ------------------------------------------------------------------------------------------ snapshots


def _check(name: str, svg: bytes) -> None:
    match_snapshot(name, svg, __file__)


@pytest.mark.parametrize("title", TITLES)
def test_snapshots_of_privates_backs_and_aid(title: str) -> None:
    pages = pages_of(title)
    for n, svg in enumerate(pages["privates"], 1):
        _check(f"{title}-privates-{n}", svg)
    if len(pages["certificates"]) > 1:
        _check(f"{title}-certificate-backs", pages["certificates"][1])
    if len(pages["trains"]) > 1:
        _check(f"{title}-train-backs", pages["trains"][1])
    _check(f"{title}-aid", pages["aid"][0])


@pytest.mark.parametrize("title", TITLES)
def test_private_card_text_stays_on_its_card(title: str) -> None:
    """The ability text of every private card ends above the card's foot line (h - 5.8 mm)."""
    for svg in pages_of(title)["privates"][::2]:
        root = ET.fromstring(svg)
        for card in root.findall(f"{SVG}g"):
            if not card.get("transform", "").startswith("translate("):
                continue
            lines = [t for t in card.iter(f"{SVG}text") if "".join(t.itertext()) != "private company"]
            for t in lines:
                assert float(t.get("y", "0")) < 88.0 - 5.8, "".join(t.itertext())


def test_the_render_summary_says_1_page_and_counts(tmp_path: Path) -> None:
    import json

    from tests.conftest import run_cli

    title = TITLES[0]
    proc = run_cli("render", title, "--only", "aid", "--format", "svg", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"{title}: 1 page in "), proc.stdout
    proc = run_cli("render", title, "--only", "tokens", "--format", "svg", "--out", str(tmp_path), "--json")
    assert proc.returncode == 0, proc.stderr
    counts = json.loads(proc.stdout)["rendered"][title]["counts"]
    assert counts["station tokens"] > 0 and "certificates" not in counts


@pytest.mark.parametrize("title", TITLES[:1])
def test_certificate_backs_keep_their_caption_clear_of_the_roundel(title: str) -> None:
    back = ET.fromstring(pages_of(title)["certificates"][1])
    slots = [g for g in back.iter(f"{SVG}g") if "data-slot" in g.attrib]
    assert slots
    for slot in slots:
        circles = [c for c in slot.iter(f"{SVG}circle")]
        bottom = max(float(c.get("cy", "0")) + float(c.get("r", "0")) for c in circles)
        caption = next(t for t in slot.iter(f"{SVG}text") if "".join(t.itertext()).startswith("share certificate"))
        top = float(caption.get("y", "0")) - float(caption.get("font-size", "0"))
        assert top > bottom, (top, bottom)


@pytest.mark.parametrize("component", ["certificates", "privates", "trains", "charters"])
def test_every_card_and_back_has_bleed(component: str) -> None:
    """Each card's background runs past its cut line (a rect starting at -bleed) on fronts and backs alike."""
    from railbook.render.cards import CARD_BLEED

    bleed = f"{-CARD_BLEED:g}"
    for svg in pages_of(TITLES[0])[component]:
        root = ET.fromstring(svg)
        cards = [g for g in root.iter(f"{SVG}g") if g.get("transform", "").startswith("translate(")]
        cards = [g for g in cards if "data-slot" in g.attrib or g in list(root)]
        assert cards, component
        for card in cards:
            assert any(r.get("x") == bleed and r.get("y") == bleed for r in card.iter(f"{SVG}rect")), component
