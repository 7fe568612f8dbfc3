"""Every component renders well-formed, escaped SVG; PDFs have the right pages; the CLI checks its options."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import railbook.render.cli  # noqa: F401  (registers `railbook render`)
from railbook.render.abilities import ability_text
from railbook.render.build import COMPONENTS, RenderOptions, render_svgs, render_title
from railbook.render.pages import pdf_page_count, pdf_page_sizes
from railbook.render.trains import distance_text, train_cards
from typer.testing import CliRunner

from railbook.cli import app

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def rendered(books: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    out = tmp_path_factory.mktemp("render-out")
    result = render_title(books["rich"], out, COMPONENTS, RenderOptions(formats=("svg", "pdf", "png"), dpi=40))
    return out / "rich", result


def texts(svg: bytes) -> list[str]:
    return ["".join(el.itertext()) for el in ET.fromstring(svg).iter(f"{SVG}text")]


@pytest.mark.parametrize("component", COMPONENTS)
@pytest.mark.parametrize("name", ["demo", "rich", "flat"])
def test_every_page_is_well_formed_svg(books: dict[str, Any], name: str, component: str) -> None:
    svgs = render_svgs(books[name], component, RenderOptions())
    assert svgs
    for svg in svgs:
        root = ET.fromstring(svg)
        assert root.tag == f"{SVG}svg"
        assert root.attrib["width"].endswith("mm")
        assert root.attrib["viewBox"].startswith("0 0 ")


def test_names_are_escaped_text(books: dict[str, Any]) -> None:
    book = books["rich"]
    corp = book["corporations"]["B&O"]["name"]
    assert corp == 'Baltimore & Ohio <b>&"x'
    charters = [t for svg in render_svgs(book, "charters", RenderOptions()) for t in texts(svg)]
    assert corp in charters
    certs = [t for svg in render_svgs(book, "certificates", RenderOptions()) for t in texts(svg)]
    assert corp in " ".join(certs)  # a long name is wrapped over lines
    privates = [t for svg in render_svgs(book, "privates", RenderOptions()) for t in texts(svg)]
    assert any("Big <Corp>" in t for t in privates)
    maps = [t for svg in render_svgs(book, "map", RenderOptions()) for t in texts(svg)]
    assert "Toledo <&>" in " ".join(maps)
    assert any('Rich <Demo> & "Friends"' in t for t in maps)
    raw = render_svgs(book, "charters", RenderOptions())[0]
    assert b"<b>" not in raw


def test_certificates_follow_the_share_lists(books: dict[str, Any]) -> None:
    book = books["rich"]
    found = [t for svg in render_svgs(book, "certificates", RenderOptions()) for t in texts(svg)]
    for corp in book["corporations"].values():
        for pct in set(corp["shares"]):
            assert f"{pct}%" in found
    total = sum(len(c["shares"]) for c in book["corporations"].values())
    assert sum(t == "President's certificate" for t in found) == len(book["corporations"])
    assert sum(t in ("President's certificate", "Share certificate") for t in found) == total


def test_one_train_card_per_train(books: dict[str, Any]) -> None:
    book = books["rich"]
    cards = train_cards(book, unlimited=3)
    assert sum(c.name == "2" for c in cards) == 6
    assert sum(c.name == "4" for c in cards) == 4  # {3: 3, 4: 4}: the largest count
    assert sum(c.name == "D" for c in cards) == 3  # unlimited
    assert distance_text([{"nodes": ["city", "town", "offboard"], "visit": 7, "pay": 5}]) == (
        "visits 7 stops, counts the best 5"
    )
    found = [t for svg in render_svgs(book, "trains", RenderOptions()) for t in texts(svg)]
    assert any("3E" in t for t in found)  # the variant is shown


def test_private_cards_say_what_abilities_do(books: dict[str, Any]) -> None:
    found = " ".join(t for svg in render_svgs(books["rich"], "privates", RenderOptions()) for t in texts(svg))
    assert "B6" in found and "free lunch" in found
    assert ability_text({"type": "tile_lay", "hexes": ["B4"], "count": 1, "free": True}) == (
        "The owner may lay one extra tile in B4 at no cost."
    )


def test_map_shows_homes_offboard_values_and_coordinates(books: dict[str, Any]) -> None:
    svgs = render_svgs(books["rich"], "map", RenderOptions())
    overview = " ".join(texts(svgs[0]))
    for word in ("PRR", "NYC", "B&O", "ERIE", "M1", "Far West", "Port East", "Chi", "$60", "reserved"):
        assert word in overview
    for value in ("30", "40", "60", "80"):  # C1's off-board values by phase
        assert value in overview.split()
    assert {"A", "E", "1", "12"} <= set(overview.split())
    hexes = {g.attrib["data-hex"] for g in ET.fromstring(svgs[0]).iter(f"{SVG}g") if "data-hex" in g.attrib}
    assert hexes == set(books["rich"]["hexes"])


def test_map_pages_together_cover_every_hex(books: dict[str, Any]) -> None:
    svgs = render_svgs(books["rich"], "map", RenderOptions(tile_size=50.0))
    assert len(svgs) >= 3  # overview + a map too big for one page
    seen: set[str] = set()
    for svg in svgs[1:]:
        seen |= {g.attrib["data-hex"] for g in ET.fromstring(svg).iter(f"{SVG}g") if "data-hex" in g.attrib}
    assert seen == set(books["rich"]["hexes"])


def test_pdfs_have_one_page_per_svg_and_the_print_pdf_has_them_all(rendered: tuple[Path, Any]) -> None:
    folder, result = rendered
    total = 0
    for comp in result.components:
        pdf = (folder / f"{comp.component}.pdf").read_bytes()
        assert pdf.startswith(b"%PDF")
        assert pdf_page_count(pdf) == comp.pages
        svgs = sorted(folder.glob(f"{comp.component}*.svg"))
        pngs = sorted(folder.glob(f"{comp.component}*.png"))
        assert len(svgs) == len(pngs) == comp.pages
        total += comp.pages
    combined = (folder / "rich-print.pdf").read_bytes()
    assert pdf_page_count(combined) == total
    for w, h in pdf_page_sizes(combined):
        assert {round(w), round(h)} == {210, 297}


def test_png_resolution_follows_dpi(rendered: tuple[Path, Any]) -> None:
    folder, _ = rendered
    png = (folder / "privates-1.png").read_bytes()  # the cards, then their backs
    width = int.from_bytes(png[16:20], "big")
    height = int.from_bytes(png[20:24], "big")
    assert {width, height} == {round(210 / 25.4 * 40), round(297 / 25.4 * 40)}


def test_letter_paper(books: dict[str, Any], tmp_path: Path) -> None:
    result = render_title(books["demo"], tmp_path, ("tiles", "trains"), RenderOptions(paper="letter", formats=("pdf",)))
    pdf = (tmp_path / "demo" / "demo-print.pdf").read_bytes()
    assert pdf_page_count(pdf) == result.pages
    for w, h in pdf_page_sizes(pdf):
        assert {round(w, 1), round(h, 1)} == {215.9, 279.4}
    assert not list((tmp_path / "demo").glob("*.svg"))


def test_fewer_pages_remove_stale_page_files(books: dict[str, Any], tmp_path: Path) -> None:
    render_title(books["rich"], tmp_path, ("tiles",), RenderOptions(formats=("svg",), tile_size=50))
    many = sorted((tmp_path / "rich").glob("tiles*.svg"))
    render_title(books["rich"], tmp_path, ("tiles",), RenderOptions(formats=("svg",), tile_size=20))
    few = sorted((tmp_path / "rich").glob("tiles*.svg"))
    assert len(few) < len(many)
    assert all(p.exists() for p in few)


# ------------------------------------------------------------------------------------------------ CLI


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--only", "tiles,bogus"], "--only: unknown bogus"),
        (["--paper", "a3"], "--paper: unknown paper 'a3'"),
        (["--format", "svg,gif"], "--format: unknown gif"),
        (["--dpi", "5"], "--dpi: 5 is out of range"),
        (["--tile-size", "2"], "--tile-size: 2.0 mm is out of range"),
        (["--unlimited-count", "-1"], "--unlimited-count: -1 is out of range"),
    ],
)
def test_bad_options_are_one_line_errors(args: list[str], message: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["render", *args, "--out", str(tmp_path)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message)
    assert not any(tmp_path.iterdir())


def test_cli_renders_a_rulebook_json(books: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "rulebook.json"
    path.write_text(json.dumps(books["demo"]), encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["render", str(path), "--only", "tiles,market", "--out", str(out)])
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (out / "demo").iterdir())
    assert "demo-print.pdf" in names and "tiles.pdf" in names and "market.pdf" in names
    assert any(n.startswith("tiles") and n.endswith(".svg") for n in names)
    assert "map.pdf" not in names
    assert "demo:" in result.output


def test_cli_reports_titles_that_do_not_compile(tmp_path: Path) -> None:
    bad = tmp_path / "broken"
    bad.mkdir()
    (bad / "game.yaml").write_text("meta: [\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["render", str(bad), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "game.yaml" in result.output


def test_titles_render_side_by_side_as_one_at_a_time(books: dict[str, Any], tmp_path: Path) -> None:
    """`--jobs 2` renders titles on two processes: the same files as one at a time, a bad title reported."""
    path = tmp_path / "rulebook.json"
    path.write_text(json.dumps(books["demo"]), encoding="utf-8")
    bad = tmp_path / "broken"
    bad.mkdir()
    (bad / "game.yaml").write_text("meta: [\n", encoding="utf-8")
    outputs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        args = ["render", str(path), str(bad), "--only", "market", "--format", "svg", "--jobs", jobs, "--out", str(out)]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 1
        assert "game.yaml:2:1" in result.output
        outputs[jobs] = {p.name: p.read_bytes() for p in (out / "demo").iterdir()}
    assert outputs["1"] == outputs["2"] and "market.svg" in outputs["1"]
