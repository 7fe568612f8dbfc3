"""``railbook new``: a minimal valid title to start a design from."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from railbook.errors import RailbookError
from railbook.outputs import inside, title_id_problem, write_inside

FILES = {
    "game.yaml": """\
meta:
  title: "{name}"
  full_name: "{name}"
  designer: you
  sources: []
players:
  2: {{cash: 600, bank: 4000, cert_limit: 12}}
  3: {{cash: 400, bank: 4000, cert_limit: 10}}
# rule modules and their parameters: docs/MECHANICS.md
# The round sequence and each round's steps (docs/FORMAT.md "rounds"; the steps are the mechanics' own).
rounds:
  cycle:
    - stock
    - {{rounds: [operating], repeat: operating_rounds}}
  kinds:
    stock: {{type: stock, steps: [stock]}}
    operating:
      type: operating
      steps: [buy_company, track_and_token, route, dividend, discard_train, buy_train]
# Rules beyond the data, each with typed parameters (docs/MECHANICS.md).
mechanics:
  stock_round: {{sell_before_buy: true}}
  capitalization: {{home_token: at_float}}
  private_companies: {{}}
  track: {{}}
  tokens: {{}}
  trains: {{}}
  routes: {{}}
  dividends: {{kinds: [payout, withhold]}}
end:
  - {{type: bank, after: full_or}}
options:
  short_game:
    description: A shorter game with a smaller bank
    overlay:
      players:
        2: {{bank: 2500}}
        3: {{bank: 2500}}
""",
    "map.yaml": """\
map:
  layout: pointy
  hexes:
    A1: {{color: red, name: Far West, offboards: [{{revenue: {{yellow: 20, green: 40}}}}], paths: ["5-o0"]}}
    A3:
    A5:
    A7:
    B2: {{name: West, cities: [{{revenue: 0}}]}}
    B4: {{cost: 40, terrain: [mountain]}}
    B6: {{name: East, cities: [{{revenue: 0}}]}}
    C1:
    C3:
    C5:
    C7: {{color: red, name: Far East, offboards: [{{revenue: {{yellow: 30, green: 50}}}}], paths: ["2-o0"]}}
""",
    "tiles.yaml": """\
manifest:
  "7": 4
  "8": 8
  "9": 8
  "57": 2
  "14": 2
  "15": 2
""",
    "market.yaml": """\
market:
  type: 2d
  legend: {{p: par}}
  rows:
    - "60 70p 80p 90p 100 110 120 135 150"
    - "50 60 70 80 90 100"
""",
    "trains.yaml": """\
trains:
  "2": {{distance: 2, price: 80, count: 4, rusts_on: "4"}}
  "3": {{distance: 3, price: 180, count: 3}}
  "4": {{distance: 4, price: 300, count: 2}}
phases:
  - {{name: "2", on: "2", tiles: [yellow], train_limit: 3, operating_rounds: 1}}
  - {{name: "3", on: "3", tiles: [yellow, green], train_limit: 3, operating_rounds: 2}}
  - {{name: "4", on: "4", tiles: [yellow, green], train_limit: 2, operating_rounds: 2}}
""",
    "companies.yaml": """\
corporations:
  WR:
    name: Western Railroad
    home: B2
    tokens: [0, 40]
    color: "#1f5fa8"
  ER:
    name: Eastern Railroad
    home: B6
    tokens: [0, 40]
    color: "#b22222"
privates:
  MR:
    name: Mountain Railway
    value: 40
    revenue: 10
    closes_on: "4"
    abilities:
      - {{type: blocks_hexes, owner: player, hexes: [B4]}}
      - {{type: tile_discount, owner: corporation, terrain: [mountain], amount: 40}}
""",
}


def _shown(name: str) -> str:
    return (name[:60] + "...") if len(name) > 60 else (name or repr(name))


def scaffold(name: str, directory: Path) -> Path:
    """Write a new title folder ``directory/name``, all or nothing; refuses to overwrite."""
    problem = title_id_problem(name, named=False)
    if problem:
        raise RailbookError(f"{_shown(name)}: {problem}")
    target = inside(directory, name, is_folder=True)
    if target.exists() or target.is_symlink():
        raise RailbookError(f"{target}: already exists; choose another name or folder")
    staging: Path | None = None
    try:
        directory.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=directory))
        for file, text in FILES.items():
            write_inside(staging, file, data=text.format(name=name))
        write_inside(staging, "NOTES.md", data=f"# {name}\n\nDesign notes and sources.\n")
        staging.chmod(0o777 & ~_umask())
        staging.rename(target)
        staging = None
    except OSError as exc:
        raise RailbookError(f"{exc.filename or target}: cannot create the title: {exc.strerror or exc}") from None
    finally:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
    return target


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
