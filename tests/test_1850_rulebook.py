"""Numbers the 1850 (The MidWest) rulebook prints, checked against the compiled rulebook."""

from __future__ import annotations

import pytest
from railbook.compiler.load import available_titles

from tests.rulebook_support import compiled, phase, phase_limit, train

pytestmark = pytest.mark.skipif("1850" not in available_titles(), reason="games/1850 not written yet")

# [2.4] capital and [3] cert limits (9 companies / 8 or fewer after a closure)
PLAYERS = {2: (1050, 24, 21), 3: (700, 17, 15), 4: (525, 14, 12), 5: (420, 11, 9), 6: (350, 9, 8)}


@pytest.mark.parametrize(("players", "row"), sorted(PLAYERS.items()))
def test_capital_and_cert_limits(players: int, row: tuple[int, int, int]) -> None:
    setup = compiled("1850")["players"][str(players)]
    limits = {int(k): v for k, v in setup["cert_limit"].items()}
    assert (setup["cash"], limits[9], limits[8]) == row
    assert setup["bank"] == 12000


# [10] train chart: cost, quantity, limit, rusts, operating rounds per set, tile colours
TRAINS = {
    "2": (80, 6, 4, None, 1, ["yellow"]),
    "3": (180, 6, 4, None, 2, ["yellow", "green"]),
    "4": (300, 4, 3, "2", 2, ["yellow", "green"]),
    "5": (450, 3, 2, None, 3, ["yellow", "green", "brown"]),
    "6": (630, 3, 2, "3", 3, ["yellow", "green", "brown"]),
    "8": (800, 3, 2, "4", 3, ["yellow", "green", "brown", "gray"]),
    "10": (950, 2, 2, None, 3, ["yellow", "green", "brown", "gray"]),
    "12": (1100, "unlimited", 2, "5", 3, ["yellow", "green", "brown", "gray"]),
}


@pytest.mark.parametrize(("name", "row"), sorted(TRAINS.items()))
def test_trains_and_phases(name: str, row: tuple) -> None:
    book = compiled("1850")
    price, count, limit, rusts, ors, colours = row
    data = train(book, name)
    assert (data["price"], data["count"]) == (price, count)
    assert phase_limit(book, name) == limit
    assert phase(book, name)["operating_rounds"] == ors
    assert phase(book, name)["tiles"] == colours
    if rusts:
        assert train(book, rusts)["rusts_on"] == name


PRIVATES = {"GRSC": (20, 5), "CM": (40, 10), "MRB": (40, 10), "GBC": (50, 10), "MRC": (80, 15), "WLG": (90, 20),
            "MMR": (160, 20)}  # fmt: skip


@pytest.mark.parametrize(("sym", "value_revenue"), sorted(PRIVATES.items()))
def test_privates(sym: str, value_revenue: tuple[int, int]) -> None:
    private = compiled("1850")["privates"][sym]
    assert (private["value"], private["revenue"]) == value_revenue


TOKENS = {"CBQ": 4, "MILW": 3, "RI": 4, "GN": 3, "KATY": 3, "MP": 3, "NP": 3, "SOO": 3, "UP": 3}


@pytest.mark.parametrize(("sym", "markers"), sorted(TOKENS.items()))
def test_station_markers(sym: str, markers: int) -> None:
    assert len(compiled("1850")["corporations"][sym]["tokens"]) == markers


def test_nine_companies_of_ten_shares() -> None:
    corps = compiled("1850")["corporations"]
    assert len(corps) == 9
    for corp in corps.values():
        assert len(corp["shares"]) == 9 and sum(corp["shares"]) == 100


def test_par_values() -> None:
    assert [p["price"] for p in compiled("1850")["market"]["par"]] == [68, 72, 76, 82, 90, 100]


def test_top_of_market_is_400() -> None:
    prices = [c["price"] for row in compiled("1850")["market"]["grid"] for c in row if c]
    assert max(prices) == 400


# [22] manifest: the legible counts of #1-#9 and #57
@pytest.mark.parametrize(
    ("tile", "count"),
    [("1", 1), ("2", 1), ("3", 3), ("4", 4), ("5", 2), ("6", 2), ("7", 6), ("8", 20), ("9", 20), ("57", 5)],
)
def test_tile_counts(tile: str, count: int) -> None:
    assert compiled("1850")["tiles"][tile]["count"] == count
