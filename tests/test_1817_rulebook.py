"""Numbers the 1817 rulebook prints, checked against the compiled rulebook."""

from __future__ import annotations

import pytest
from railbook.compiler.load import available_titles

from tests.rulebook_support import compiled, phase, phase_limit, train

pytestmark = pytest.mark.skipif("1817" not in available_titles(), reason="games/1817 not written yet")

# §4.1 table (8-12 players are the §9.2 variant)
PLAYERS = {3: (420, 21), 4: (315, 16), 5: (252, 13), 6: (210, 11), 7: (180, 9)}
MORE_PLAYERS = {8: (158, 8), 9: (140, 7), 10: (126, 6), 11: (115, 6), 12: (105, 5)}


@pytest.mark.parametrize(("players", "cash_limit"), sorted(PLAYERS.items()))
def test_cash_and_cert_limit(players: int, cash_limit: tuple[int, int]) -> None:
    setup = compiled("1817")["players"][str(players)]
    assert (setup["cash"], setup["cert_limit"]) == cash_limit
    assert setup["bank"] == "unlimited"


@pytest.mark.parametrize(("players", "cash_limit"), sorted(MORE_PLAYERS.items()))
def test_more_players_variant(players: int, cash_limit: tuple[int, int]) -> None:
    setup = compiled("1817", "more_players")["players"][str(players)]
    assert (setup["cash"], setup["cert_limit"]) == cash_limit


TRAINS = {
    "2": (100, "unlimited"),
    "2+": (100, 4),
    "3": (250, 12),
    "4": (400, 8),
    "5": (600, 5),
    "6": (750, 4),
    "7": (900, 3),
    "8": (1100, "unlimited"),
}


@pytest.mark.parametrize(("name", "price_count"), sorted(TRAINS.items()))
def test_trains(name: str, price_count: tuple[int, int | str]) -> None:
    data = train(compiled("1817"), name)
    assert (data["price"], data["count"]) == price_count


@pytest.mark.parametrize(("name", "rusted_by"), [("2", "4"), ("3", "6"), ("4", "8")])
def test_rusting(name: str, rusted_by: str) -> None:
    assert train(compiled("1817"), name)["rusts_on"] == rusted_by


def test_two_plus_runs_once_more_after_first_4() -> None:
    assert train(compiled("1817"), "2+")["obsolete_on"] == "4"


@pytest.mark.parametrize(
    ("name", "limit", "colours"),
    [
        ("2", 4, ["yellow"]),
        ("3", 4, ["yellow", "green"]),
        ("4", 3, ["yellow", "green"]),
        ("5", 3, ["yellow", "green", "brown"]),
        ("6", 2, ["yellow", "green", "brown"]),
        ("7", 2, ["yellow", "green", "brown", "gray"]),
        ("8", 2, ["yellow", "green", "brown", "gray"]),
    ],
)
def test_phases(name: str, limit: int, colours: list[str]) -> None:
    book = compiled("1817")
    assert phase_limit(book, name) == limit
    assert phase(book, name)["tiles"] == colours


def test_privates_face_values() -> None:
    values = sorted(p["value"] for p in compiled("1817")["privates"].values())
    assert values == sorted([40, 40, 40, 80, 80, 30, 60, 90, 60, 90, 120])


def test_twenty_corporations() -> None:
    assert len(compiled("1817")["corporations"]) == 20


def test_market_row() -> None:
    row = compiled("1817")["market"]["grid"][0]
    prices = [c["price"] for c in row if c and c["price"]]
    # §11.1.3-11.1.4 quote these consecutive spaces
    quoted = [40, 45, 50, 55, 60, 65, 70, 80, 90, 100, 110, 120, 135, 150, 165, 180]
    start = prices.index(40)
    assert prices[start : start + len(quoted)] == quoted
    assert max(prices) == 600
    kinds = [k for c in row if c for k in c["kinds"]]
    assert "liquidation" in kinds and "acquisition" in kinds


def test_all_tiles_unlimited() -> None:
    # §14: "all tiles are to be considered unlimited"
    assert {t["count"] for t in compiled("1817")["tiles"].values()} == {"unlimited"}
