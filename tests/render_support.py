"""Synthetic titles for the renderer tests: a tiny scaffold title and a richer hand-made one.

Both compile against :data:`TEST_CATALOGUE` (installed with :func:`use_test_catalogue`), so the tests do
not depend on ``games/common/tiles.yaml`` or on any real title.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
import railbook.compiler.compile as compile_mod
from railbook.compiler.compile import build_rulebook
from railbook.compiler.models import CatalogueSource, Tile
from railbook.compiler.scaffold import scaffold
from ruamel.yaml import YAML

PDF_PAGE = re.compile(rb"/Type\s*/Page\b")
SNAPSHOTS = Path(__file__).parent / "snapshots"


def match_snapshot(name: str, svg: bytes | str, test_file: str) -> None:
    """Compare a drawing with ``snapshots/<name>.svg``; ``RAILBOOK_UPDATE_SNAPSHOTS=1`` (or a missing snapshot
    outside CI) writes it instead.  ``test_file`` names the test module in the message that says how to update."""
    data = svg.encode() if isinstance(svg, str) else svg
    path = SNAPSHOTS / f"{name}.svg"
    update = os.environ.get("RAILBOOK_UPDATE_SNAPSHOTS") == "1"
    again = f"RAILBOOK_UPDATE_SNAPSHOTS=1 pytest tests/{Path(test_file).name}"
    if update or not path.exists():
        if not update and os.environ.get("CI"):
            pytest.fail(f"{path} is missing: run {again}")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return
    assert data == path.read_bytes(), f"{name} drawing changed; if intended, look at it, then run {again}"


TEST_CATALOGUE = """
tiles:
  "1": {color: yellow, towns: [{revenue: 10, style: bar}, {revenue: 10, style: bar}],
        paths: ["1-t0", "t0-3", "0-t1", "t1-4"]}
  "3": {color: yellow, towns: [{revenue: 10, style: bar}], paths: ["0-t0", "t0-1"]}
  "4": {color: yellow, towns: [{revenue: 10, style: bar}], paths: ["0-t0", "t0-3"]}
  "5": {color: yellow, cities: [{revenue: 20}], paths: ["0-c0", "1-c0"]}
  "6": {color: yellow, cities: [{revenue: 20}], paths: ["0-c0", "2-c0"]}
  "7": {color: yellow, paths: ["0-1"]}
  "8": {color: yellow, paths: ["0-2"]}
  "9": {color: yellow, paths: ["0-3"]}
  "57": {color: yellow, cities: [{revenue: 20}], paths: ["0-c0", "c0-3"]}
  "58": {color: yellow, towns: [{revenue: 10}], paths: ["0-t0", "t0-2"]}
  "59": {color: yellow, cities: [{revenue: 40}, {revenue: 40}], paths: ["0-c0", "2-c1"], label: OO}
  "10": {color: green, cities: [{revenue: 30}, {revenue: 30}], paths: ["0-c0", "3-c1"]}
  "14": {color: green, cities: [{revenue: 30, slots: 2}], paths: ["0-c0", "1-c0", "3-c0", "4-c0"]}
  "15": {color: green, cities: [{revenue: 30, slots: 2}], paths: ["0-c0", "1-c0", "2-c0", "3-c0"]}
  "16": {color: green, paths: ["0-2", "1-3"]}
  "19": {color: green, paths: ["0-3", "2-4"]}
  "20": {color: green, paths: ["0-3", "1-4"]}
  "23": {color: green, paths: ["0-3", "0-4"]}
  "24": {color: green, paths: ["0-3", "0-2"]}
  "54": {color: green, cities: [{revenue: 60}, {revenue: 60}], paths: ["0-c0", "c0-1", "2-c1", "c1-3"],
         label: NY}
  "80": {color: green, junctions: 1, paths: ["0-j0", "1-j0", "2-j0"]}
  "87": {color: green, towns: [{revenue: 10}], paths: ["0-t0", "1-t0", "2-t0", "3-t0"]}
  "39": {color: brown, paths: ["0-2", "0-1", "1-2"]}
  "43": {color: brown, paths: ["0-3", "0-2", "1-3", "1-2"]}
  "44": {color: brown, paths: ["0-3", "1-4", "0-1", "3-4"]}
  "47": {color: brown, paths: ["0-3", "1-4", "1-3", "0-4"]}
  "63": {color: brown, cities: [{revenue: 40, slots: 2}],
         paths: ["0-c0", "1-c0", "2-c0", "3-c0", "4-c0", "5-c0"]}
  "64": {color: brown, cities: [{revenue: 50}, {revenue: 50}], paths: ["0-c0", "c0-2", "3-c1", "c1-4"],
         label: OO}
  "51": {color: gray, cities: [{revenue: 50, slots: 2}], paths: ["0-c0", "1-c0", "2-c0", "3-c0", "4-c0"]}
  "455": {color: gray, cities: [{revenue: 50, slots: 3}],
          paths: ["0-c0", "1-c0", "2-c0", "3-c0", "4-c0", "5-c0"]}
"""

RICH_FILES: dict[str, str] = {
    "game.yaml": """\
meta:
  title: "{name}"
  full_name: "Rich <Demo> & \\"Friends\\""
  designer: tests
  publisher: railbook
players:
  3: {{cash: 400, bank: 8000, cert_limit: 12}}
  4: {{cash: 300, bank: 8000, cert_limit: 10}}
mechanics:
  stock_round: {{sell_before_buy: true}}
  track: {{}}
  tokens: {{}}
  trains: {{}}
  routes: {{}}
  dividends: {{}}
end:
  - {{type: bank, after: full_or}}
options:
  short:
    description: fewer 2 trains
    overlay: {{trains: {{"2": {{count: 3}}}}}}
""",
    "map.yaml": """\
map:
  layout: {layout}
  hexes:
    C1: {{color: red, name: Far West, offboards: [{{revenue: {{yellow: 30, green: 40, brown: 60, gray: 80}},
          group: W}}], paths: ["3-o0", "4-o0", "5-o0"]}}
    E1: {{color: red, offboards: [{{revenue: {{yellow: 30, brown: 60}}, group: W, hidden: true}}], paths: ["4-o0"]}}
    A3:
    A5: {{name: Detroit, cities: [{{revenue: 0}}]}}
    A7: {{cost: 60, terrain: [mountain]}}
    A9:
    B2:
    B4: {{cost: 40, terrain: [mountain], borders: [{{edge: 4, type: water, cost: 20}}]}}
    B6: {{blocked_by: MS, towns: [{{revenue: 0}}]}}
    B8: {{color: yellow, name: Boston, label: B, cities: [{{revenue: 30}}], paths: ["1-c0", "c0-4"],
         upgrades_to: []}}
    B10:
    C3:
    C5: {{name: "Toledo <&>", cities: [{{revenue: 0}}], icons: [{{name: port}}]}}
    C7: {{cost: 20, terrain: [water, river], borders: [{{edge: 3, type: impassable}}]}}
    C9:
    C11: {{color: gray, name: Altoona, cities: [{{revenue: 20, slots: 2}}], paths: ["0-c0", "c0-3", "5-c0"]}}
    D2:
    D4: {{color: gray, name: Chicago, label: Chi, cities: [{{revenue: 10}}, {{revenue: 10}}, {{revenue: 10}},
          {{revenue: 10}}], paths: ["1-c0", "2-c1", "3-c2", "4-c3"]}}
    D6: {{partitions: [{{a: 0, b: 3}}]}}
    D8: {{name: Erie, towns: [{{revenue: 0}}, {{revenue: 0}}]}}
    D10: {{color: blue}}
    D12: {{color: red, name: "Port East", offboards: [{{revenue: {{yellow: 20, green: 30, brown: 50}}, group: E}}],
          paths: ["0-o0", "1-o0", "2-o0"]}}
    E3:
    E5: {{name: Indy, label: OO, cities: [{{revenue: 0}}, {{revenue: 0}}], cost: 40, terrain: [hill]}}
    E7:
    E9: {{color: yellow, cities: [{{revenue: 20}}], towns: [{{revenue: 10}}], paths: ["0-c0", "c0-3", "t0-5"]}}
    E11:
""",
    "tiles.yaml": """\
tiles:
  X1: {{color: green, name: Chicago, label: Chi, cities: [{{revenue: 40}}, {{revenue: 40}}, {{revenue: 40}},
        {{revenue: 40}}], paths: ["0-c0", "1-c1", "2-c2", "3-c3", "c0-4", "c3-5"]}}
  X2: {{color: brown, label: Chi, cities: [{{revenue: 70, slots: 4}}],
        paths: ["0-c0", "1-c0", "2-c0", "3-c0", "4-c0", "5-c0"]}}
  X3: {{color: yellow, cities: [{{revenue: {{yellow: 20, brown: 40}}}}],
        paths: ["0-c0", {{a: "3", b: c0, terminal: true}}]}}
manifest:
  "1": 1
  "3": 2
  "4": 2
  "5": 3
  "6": 3
  "7": 4
  "8": 6
  "9": unlimited
  "57": 3
  "58": 2
  "59": 1
  "10": 1
  "14": 2
  "15": 2
  "16": 1
  "19": 1
  "20": 1
  "23": 2
  "24": 2
  "54": 1
  "80": 1
  "87": 1
  "39": 1
  "43": 2
  "44": 1
  "47": 1
  "63": 3
  "64": 1
  "51": 2
  "455": 1
  X1: 1
  X2: 1
  X3: 1
""",
    "market.yaml": """\
market:
  type: 2d
  legend: {{p: par, y: no_cert_limit, o: unlimited_holding, c: close, l: ledge, e: end_game}}
  rows:
    - "60y 67 71 76p 82p 90p 100p 112 126 142 160 180 200 225 250 275 300e 325e 350e"
    - "53y 60y 66 70 76p 82 90 100 112 126 142 160 180 200 220 240 260 280 300"
    - "46y 55y 60y 65 70p 76 82 90 100 111 125 140 155 170 185 200 ."
    - "39o 48y 54y 60y 66 71 76 82 90 100 110 120 130 . . . ."
    - "32o 41o 48y 55y 62 67 71 76 80 . . . ."
    - "25c 34o 42o 50y 58y 65 67 . ."
    - "18c 27o 36o 45o 54y 63l ."
""",
    "trains.yaml": """\
trains:
  "2": {{distance: 2, price: 80, count: 6, rusts_on: "4"}}
  "3": {{distance: 3, price: 180, count: 5, rusts_on: "6"}}
  "4": {{distance: 4, price: 300, count: {{3: 3, 4: 4}}, obsolete_on: "D"}}
  "5": {{distance: "5/7", price: 450, count: 2, events: [{{type: close_privates}}]}}
  "6": {{distance: 6, price: 630, count: 2, variants: [{{name: "3E", distance: 3, price: 630, no_towns: true}}]}}
  "D": {{distance: unlimited, price: 1100, count: unlimited, discount: {{"4": 300}}}}
phases:
  - {{name: "2", on: "2", tiles: [yellow], train_limit: 4, operating_rounds: 1}}
  - {{name: "3", on: "3", tiles: [yellow, green], train_limit: 4}}
  - {{name: "4", on: "4", tiles: [yellow, green], train_limit: {{major: 3, minor: 2}}}}
  - {{name: "5", on: "5", tiles: [yellow, green, brown], train_limit: 2, operating_rounds: 3}}
  - {{name: "6", on: "6", tiles: [yellow, green, brown], train_limit: 2, operating_rounds: 3}}
  - {{name: "D", on: "D", tiles: [yellow, green, brown, gray], train_limit: 2, operating_rounds: 3}}
""",
    "companies.yaml": """\
corporations:
  PRR:
    name: Pennsylvania
    home: {{hex: D4, city: 2}}
    tokens: [0, 40, 60, 80]
    color: "#1e7b3c"
    type: major
  NYC:
    name: New York Central
    home: C11
    tokens: [0, 40, 100]
    color: "#111111"
    type: major
    coordinates_reserved: [E5]
  B&O:
    name: "Baltimore & Ohio <b>&\\"x"
    home: B8
    tokens: [0, 40, 100, 100]
    color: "#1f4fa8"
    shares: [20, 20, 20, 20, 20]
    type: major
    destination: D12
  ERIE:
    name: Erie
    home: [{{hex: E9}}, {{hex: A5}}]
    tokens: [0, 0, 40, 60, 80]
    color: "#f2d218"
    text_color: black
    shares: [40, 20, 20, 20]
minors:
  M1:
    name: Michigan Southern
    home: C5
    tokens: [0]
    color: "#7a3d9b"
    cash: 60
    train: "2"
privates:
  MS:
    name: Mail & Stage
    value: 20
    revenue: 5
    abilities:
      - {{type: blocks_hexes, hexes: [B6]}}
  SC:
    name: Steamboat Company
    value: 40
    revenue: {{yellow: 10, green: 20}}
    abilities:
      - {{type: assign_hexes, hexes: [C5, D12], amount: 20, when: owning_corp_or_turn}}
      - {{type: tile_lay, hexes: [B4], count: 1, free: true, when: track}}
  BC:
    name: "Big <Corp> & \\"Co\\""
    value: 160
    revenue: 30
    closes_on: "5"
    abilities:
      - {{type: shares, shares: [PRR_0]}}
      - {{type: no_buy}}
      - {{type: reservation, hexes: [C11]}}
      - {{type: description, description: "The owner also gets a free lunch on every operating round."}}
""",
}


def use_test_catalogue(monkeypatch: Any) -> None:
    """Compile against :data:`TEST_CATALOGUE` instead of ``games/common/tiles.yaml``."""
    data = YAML(typ="safe").load(TEST_CATALOGUE)
    tiles: dict[str, Tile] = dict(CatalogueSource.model_validate(data).tiles)
    monkeypatch.setattr(compile_mod, "catalogue_tiles", lambda: tiles)


def scaffold_book(tmp_path: Path, name: str = "demo") -> dict[str, Any]:
    """The rulebook of a fresh ``railbook new`` title."""
    return build_rulebook(scaffold(name, tmp_path))


# On the flat layout the off-boards' track turns to the edges that have a neighbour there.
FLAT_OFFBOARD_PATHS = {
    '"3-o0", "4-o0", "5-o0"': '"5-o0", "0-o0", "1-o0"',
    'hidden: true}}], paths: ["4-o0"]': 'hidden: true}}], paths: ["0-o0"]',
    'paths: ["0-o0", "1-o0", "2-o0"]': 'paths: ["2-o0", "3-o0", "4-o0"]',
}


def write_rich(tmp_path: Path, name: str = "rich", layout: str = "pointy") -> Path:
    """Write the rich synthetic title and return its folder."""
    target = tmp_path / name
    target.mkdir(parents=True, exist_ok=True)
    for file, text in RICH_FILES.items():
        if layout == "flat":
            for old, new in FLAT_OFFBOARD_PATHS.items():
                text = text.replace(old, new)
        (target / file).write_text(text.format(name=name, layout=layout), encoding="utf-8")
    return target


def rich_book(tmp_path: Path, name: str = "rich", layout: str = "pointy") -> dict[str, Any]:
    """The rulebook of the rich synthetic title."""
    return build_rulebook(write_rich(tmp_path, name, layout))


def pdf_pages(data: bytes) -> int:
    """Pages in a PDF written by cairo (uncompressed object dictionaries)."""
    return len(PDF_PAGE.findall(data))
