"""`railbook validate` catches designs that would not play: one located line each, with a suggestion."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from railbook.compiler.compile import check
from railbook.compiler.errors import TitleError
from railbook.compiler.load import load_title

from tests.conftest import run_cli

LOCATED = re.compile(r"^(?P<file>[^:]+\.yaml):(?P<line>\d+):(?P<col>\d+): (?P<message>.+)$")


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1))


def _edits(title: Path, file: str, old: str | tuple[str, ...], new: str | tuple[str, ...]) -> None:
    olds, news = (old, new) if isinstance(old, tuple) else ((old,), (new,))
    for a, b in zip(olds, news, strict=True):
        _edit(title / file, a, b)


def _problems(title: Path) -> tuple[list[str], list[str]]:
    """(errors, warnings) of a title, checked in-process."""
    warnings: list[str] = []
    try:
        check(load_title(title), warnings)
    except TitleError as exc:
        return exc.problems, warnings
    return [], warnings


# case: (file, text to replace, replacement, file of the error, line, text expected in the one error)
BROKEN = {
    "negative_train_price": ("trains.yaml", "price: 80", "price: -80", "trains.yaml", 2, "greater than 0"),
    "zero_starting_cash": ("game.yaml", "cash: 600", "cash: 0", "game.yaml", 7, "players.2.cash"),
    "negative_private_value": ("companies.yaml", "value: 40", "value: -40", "companies.yaml", 15, "privates.MR.value"),
    "negative_token_cost": ("companies.yaml", "tokens: [0, 40]", "tokens: [0, -40]", "companies.yaml", 5, "tokens.1"),
    "bank_cannot_pay": (
        "game.yaml",
        "2: {cash: 600, bank: 4000",
        "2: {cash: 600, bank: 1000",
        "game.yaml",
        7,
        "cannot pay 2 players",
    ),
    "train_rusts_on_itself": ("trains.yaml", 'rusts_on: "4"', 'rusts_on: "2"', "trains.yaml", 2, "rusts on itself"),
    "home_without_tokens": (
        "companies.yaml",
        "tokens: [0, 40]",
        "tokens: []",
        "companies.yaml",
        5,
        "has a home but no tokens",
    ),
    "more_homes_than_tokens": (
        "companies.yaml",
        ("home: B2\n    tokens: [0, 40]", "    home: B6\n"),
        ("home: [B2, B6]\n    tokens: [0]", ""),
        "companies.yaml",
        5,
        "2 homes but only 1 tokens",
    ),
    "home_city_full": ("companies.yaml", "home: B6", "home: B2", "companies.yaml", 9, "too few for every home"),
    "offboard_path_off_map": (
        "map.yaml",
        '"5-o0"',
        '"3-o0"',
        "map.yaml",
        4,
        "leads off the map (edges with a neighbour: 4, 5)",
    ),
    "label_without_tiles": (
        "map.yaml",
        "B2: {name: West,",
        "B2: {name: West, label: Z,",
        "map.yaml",
        8,
        "no tile in the manifest has label 'Z'",
    ),
    "par_value_not_on_market": (
        "market.yaml",
        "  legend: {p: par}\n",
        "  legend: {p: par}\n  par_prices: [70, 65]\n",
        "market.yaml",
        4,
        "par value 65 is not a market cell (nearest cell: 60)",
    ),
    "market_cell_bad": ("market.yaml", '"50 60 70', '"50 6o 70', "market.yaml", 6, "cell 1 '6o'"),
    "market_without_par": ("market.yaml", "70p 80p 90p", "70 80 90", "market.yaml", 1, "no par value"),
    "phases_out_of_order": (
        "trains.yaml",
        'name: "4", on: "4"',
        'name: "4", on: "3"',
        "trains.yaml",
        8,
        "out of order",
    ),
    "unknown_train_lists_choices": (
        "trains.yaml",
        'rusts_on: "4"',
        'rusts_on: "5"',
        "trains.yaml",
        2,
        "unknown train '5' (valid: 2, 3, 4)",
    ),
    "unknown_hex_suggests": (
        "companies.yaml",
        "home: B6",
        "home: B66",
        "companies.yaml",
        9,
        "unknown hex 'B66' (did you mean B6?)",
    ),
    "unknown_key_suggests": (
        "trains.yaml",
        "rusts_on:",
        "rust_on:",
        "trains.yaml",
        2,
        "unknown key 'rust_on' (did you mean rusts_on?)",
    ),
    "unknown_ability_key": (
        "companies.yaml",
        "terrain: [mountain]",
        "terain: [mountain]",
        "companies.yaml",
        20,
        "did you mean terrain?",
    ),
    "yaml_hint": ("map.yaml", "    A3:\n", "    A3: x: y\n", "map.yaml", 5, "quote a value that contains ': '"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_design_gives_one_located_error(demo_title: Path, case: str) -> None:
    file, old, new, where, line, expected = BROKEN[case]
    _edits(demo_title, file, old, new)
    errors, _ = _problems(demo_title)
    assert len(errors) == 1, errors
    m = LOCATED.match(errors[0])
    assert m, errors[0]
    assert m["file"].endswith(where) and int(m["line"]) == line, errors[0]
    assert expected in m["message"], errors[0]


# case: (file, text to replace, replacement, line, text expected in the one warning)
WARNED = {
    "free_private": ("companies.yaml", "value: 40", "value: 0", 15, "value is 0"),
    "phase_without_train": ("trains.yaml", 'name: "3", on: "3", ', 'name: "3", ', 7, "no 'on' train"),
    "train_never_for_sale": ("trains.yaml", "count: 3}", "count: 0}", 3, "no '3' train is ever for sale"),
    "destination_without_stop": ("companies.yaml", "home: B6\n", "home: B6\n    destination: B4\n", 10, "no city"),
}


@pytest.mark.parametrize("case", sorted(WARNED))
def test_questionable_design_gives_one_located_warning(demo_title: Path, case: str) -> None:
    file, old, new, line, expected = WARNED[case]
    _edit(demo_title / file, old, new)
    errors, warnings = _problems(demo_title)
    assert errors == []
    assert len(warnings) == 1, warnings
    m = LOCATED.match(warnings[0])
    assert m and m["file"].endswith(file) and int(m["line"]) == line, warnings[0]
    assert m["message"].split(": ", 1)[1].startswith("warning: ") and expected in m["message"], warnings[0]


def test_scaffold_has_no_warnings(demo_title: Path) -> None:
    assert _problems(demo_title) == ([], [])


def test_strict_makes_warnings_fail(demo_title: Path) -> None:
    _edit(demo_title / "companies.yaml", "value: 40", "value: 0")
    lenient = run_cli("validate", str(demo_title))
    assert lenient.returncode == 0, lenient.stderr
    assert "warning: value is 0" in lenient.stderr and "1 warning" in lenient.stdout
    strict = run_cli("validate", str(demo_title), "--strict")
    assert strict.returncode == 1
    assert "warning: value is 0" in strict.stderr and "--strict" in strict.stderr
    assert "Traceback" not in strict.stderr
