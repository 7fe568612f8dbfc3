"""Tile sheets: every tile in its manifest count, true size, both hex orientations."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from railbook.render.build import RenderOptions, render_svgs
from railbook.render.geometry import HexGeom
from railbook.render.pages import Paper
from railbook.render.tiles import TileOptions, lattice, render_tiles
from railbook.render.track import TrackArt

SVG = "{http://www.w3.org/2000/svg}"


def tile_counts(svgs: list[bytes]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for svg in svgs:
        root = ET.fromstring(svg)
        for g in root.iter(f"{SVG}g"):
            if "data-tile" in g.attrib and g.find(f"{SVG}use") is not None:
                counts[g.attrib["data-tile"]] += 1
    return counts


def expected(book: dict[str, Any], unlimited: int) -> Counter[str]:
    return Counter(
        {tid: unlimited if t["count"] == "unlimited" else int(t["count"]) for tid, t in book["tiles"].items()}
    )


@pytest.mark.parametrize("name", ["demo", "rich", "flat"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_sheet_has_each_tile_in_its_manifest_count(books: dict[str, Any], name: str, paper: str) -> None:
    book = books[name]
    svgs = render_svgs(book, "tiles", RenderOptions(paper=paper))
    assert tile_counts(svgs) == +expected(book, 6)


def test_unlimited_count_is_settable(books: dict[str, Any]) -> None:
    book = books["rich"]
    assert book["tiles"]["9"]["count"] == "unlimited"
    counts = tile_counts(render_svgs(book, "tiles", RenderOptions(unlimited_count=2)))
    assert counts["9"] == 2
    assert tile_counts(render_svgs(book, "tiles", RenderOptions(unlimited_count=0)))["9"] == 0


def test_each_tile_drawing_is_defined_once_per_page(books: dict[str, Any]) -> None:
    for svg in render_svgs(books["rich"], "tiles", RenderOptions()):
        ids = [el.attrib["id"] for el in ET.fromstring(svg).iter() if "id" in el.attrib]
        assert len(ids) == len(set(ids))


@pytest.mark.parametrize("size", [38.1, 25.0, 50.8])
def test_tiles_are_printed_at_true_size(books: dict[str, Any], size: float) -> None:
    """The cut outline of a tile measures ``size`` mm across flats in a page whose unit is 1 mm."""
    svg = render_svgs(books["rich"], "tiles", RenderOptions(tile_size=size))[0]
    root = ET.fromstring(svg)
    assert root.attrib["width"] == "210mm" or root.attrib["width"] == "297mm"
    outlines = [
        p.attrib["d"] for p in root.iter(f"{SVG}path") if p.attrib.get("stroke") == "#555555" and "Z" in p.attrib["d"]
    ]
    assert outlines
    pts = [tuple(map(float, xy.split(","))) for xy in re.findall(r"-?[\d.]+,-?[\d.]+", outlines[0])]
    xs = [p[0] for p in pts]
    assert max(xs) - min(xs) == pytest.approx(size, abs=0.01)


@pytest.mark.parametrize("layout", ["pointy", "flat"])
def test_honeycomb_fits_the_page_without_overlap(layout: str) -> None:
    geom = HexGeom(layout, 38.1)
    for name in ("a4", "letter"):
        for paper in (Paper.named(name).portrait(), Paper.named(name).landscape()):
            centres = lattice(paper, geom, gap=2.0, bleed=1.0)
            assert len(centres) >= 20
            for i, a in enumerate(centres):
                assert geom.width / 2 <= a[0] <= paper.width - geom.width / 2
                assert geom.height / 2 <= a[1] <= paper.height - geom.height / 2
                for b in centres[i + 1 :]:
                    assert math.dist(a, b) >= geom.flats + 2.0 - 1e-6


def test_track_meets_hexsides_at_midpoints(books: dict[str, Any]) -> None:
    """Every edge-to-edge curve starts and ends on the midpoints of its hexsides."""
    for layout in ("pointy", "flat"):
        geom = HexGeom(layout, 38.1)
        for tile in books["rich"]["tiles"].values():
            art = TrackArt(tile, geom)
            for c in art.curves:
                for end, point in zip(c.ends, (c.p0, c.p1), strict=True):
                    if end.isdigit():
                        assert math.dist(point, geom.edge_mid(int(end))) < 1e-6
                        # the track leaves the side at a right angle: its tangent points at the centre
                        t = 0.0 if point == c.p0 else 1.0
                        tan = c.tangent(t)
                        radial = geom.edge_mid(int(end))
                        cross = tan[0] * radial[1] - tan[1] * radial[0]
                        assert abs(cross) / geom.r < 0.05


def test_stops_do_not_overlap(books: dict[str, Any]) -> None:
    geom = HexGeom("pointy", 38.1)
    for tile in books["rich"]["tiles"].values():
        art = TrackArt(tile, geom)
        stops = [n for n in art.nodes.values() if n.kind in "ct" and n.through is None]
        for i, a in enumerate(stops):
            assert geom.contains(a.pos, a.radius * 0.9)
            for b in stops[i + 1 :]:
                assert math.dist(a.pos, b.pos) >= a.radius + b.radius - 1e-6, tile["id"]


def test_crossing_track_is_drawn_over_a_white_gap(books: dict[str, Any]) -> None:
    geom = HexGeom("pointy", 38.1)
    assert TrackArt(books["rich"]["tiles"]["20"], geom).crossings()  # X: two straights
    assert TrackArt(books["rich"]["tiles"]["16"], geom).crossings()  # two gentle curves
    assert not TrackArt(books["rich"]["tiles"]["23"], geom).crossings()  # they only share an edge
    assert not TrackArt(books["rich"]["tiles"]["63"], geom).crossings()  # all meet in the city


def test_multi_city_tiles_have_separate_cities(books: dict[str, Any]) -> None:
    tile = books["rich"]["tiles"]["X1"]
    art = TrackArt(tile, HexGeom("pointy", 38.1))
    assert [n.name for n in art.nodes.values() if n.kind == "c"] == ["c0", "c1", "c2", "c3"]
    svg = render_tiles(books["rich"], Paper.named("a4"), TileOptions())
    assert svg


def test_sheet_count_matches_capacity(books: dict[str, Any], tmp_path: Path) -> None:
    book = books["rich"]
    pages = render_tiles(book, Paper.named("a4"), TileOptions())
    total = sum(expected(book, 6).values())
    per_page = max(
        len(lattice(p, HexGeom(book["layout"], 38.1), 2.0, 1.0))
        for p in (Paper.named("a4").portrait(), Paper.named("a4").landscape())
    )
    assert len(pages) == math.ceil(total / per_page)
