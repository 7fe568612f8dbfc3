"""Numbers the 1870 rulebook prints (OCR text), checked against the compiled rulebook."""

from __future__ import annotations

import pytest
from railbook.compiler.load import available_titles

from tests.rulebook_support import compiled, phase, phase_limit, tile_counts, train

pytestmark = pytest.mark.skipif("1870" not in available_titles(), reason="games/1870 not written yet")

CAPITAL = {2: 1050, 3: 700, 4: 525, 5: 420, 6: 350}
CERT_10 = {2: 28, 3: 20, 4: 16, 5: 13, 6: 11}
CERT_9 = {2: 24, 3: 17, 4: 14, 5: 11, 6: 9}


@pytest.mark.parametrize("players", sorted(CAPITAL))
def test_capital_and_cert_limits(players: int) -> None:
    setup = compiled("1870")["players"][str(players)]
    assert setup["cash"] == CAPITAL[players]
    limits = {int(k): v for k, v in setup["cert_limit"].items()}
    assert limits[10] == CERT_10[players]
    assert limits[9] == CERT_9[players]


TRAINS = {"2": (80, 7), "3": (180, 6), "4": (300, 5), "5": (450, 4), "6": (630, 3), "8": (800, 3), "10": (950, 2)}


@pytest.mark.parametrize(("name", "price_count"), sorted(TRAINS.items()))
def test_trains(name: str, price_count: tuple[int, int]) -> None:
    data = train(compiled("1870"), name)
    assert (data["price"], data["count"]) == price_count


def test_twelve_trains_unlimited() -> None:
    data = train(compiled("1870"), "12")
    assert data["price"] == 1100 and data["count"] == "unlimited"


@pytest.mark.parametrize("name", ["6", "8", "10", "12"])
def test_permanent_trains(name: str) -> None:
    assert train(compiled("1870"), name).get("rusts_on") is None


ALL = ["yellow", "green", "brown", "gray"]


@pytest.mark.parametrize(
    ("name", "limit", "colours", "ors"),
    [("1", 4, ["yellow"], 1), ("3", 3, None, None), ("5", 2, ALL, 3), ("6", 2, None, 3), ("8", 2, None, 3)],
)
def test_phases(name: str, limit: int, colours: list[str] | None, ors: int | None) -> None:
    book = compiled("1870")
    assert phase_limit(book, name) == limit
    if colours:
        assert phase(book, name)["tiles"] == colours
    if ors:
        assert phase(book, name)["operating_rounds"] == ors


PRIVATES = {"GRSC": (20, 5), "MRBC": (40, 10), "SCC": (50, 10), "GSC": (80, 15), "SLSF": (140, None), "MKT": (160, 20)}


@pytest.mark.parametrize(("sym", "value_revenue"), sorted(PRIVATES.items()))
def test_privates(sym: str, value_revenue: tuple[int, int | None]) -> None:
    private = compiled("1870")["privates"][sym]
    value, revenue = value_revenue
    assert private["value"] == value
    if revenue is not None:
        assert private["revenue"] == revenue


TOKENS = {"ATSF": 3, "FW": 2, "GMO": 2, "IC": 2, "MP": 3, "MKT": 3, "SP": 3, "SSW": 2, "SLSF": 3, "TP": 2}


@pytest.mark.parametrize(("sym", "markers"), sorted(TOKENS.items()))
def test_corporation_markers(sym: str, markers: int) -> None:
    assert len(compiled("1870")["corporations"][sym]["tokens"]) == markers


def test_par_values() -> None:
    assert [p["price"] for p in compiled("1870")["market"]["par"]] == [68, 72, 76, 82, 90, 100]


@pytest.mark.parametrize(("colour", "total"), [("yellow", 81), ("green", 43), ("brown", 35), ("gray", 2)])
def test_tile_totals(colour: str, total: int) -> None:
    assert tile_counts(compiled("1870"), colour) == total


UPGRADES = {
    "3": {"141", "142", "143"}, "4": {"141", "142"}, "5": {"14", "15"}, "6": {"14", "15"}, "57": {"14", "15"},
    "7": {"18", "26", "27", "28", "29"}, "8": {"16", "17", "19", "23", "24", "25", "28", "29"},
    "9": {"18", "19", "20", "23", "24", "26", "27"},
    "16": {"43", "70"}, "17": {"47"}, "18": {"43"}, "19": {"45", "46"}, "20": {"44", "47"},
    "23": {"41", "43", "45", "47"}, "24": {"42", "43", "46", "47"}, "25": {"40", "45", "46"},
    "26": {"42", "44", "45"}, "27": {"41", "44", "46"}, "28": {"39", "46", "70"}, "29": {"39", "45", "70"},
    "141": {"145", "146", "147"}, "142": {"145", "146", "147"}, "143": {"146", "147"}, "144": {"147"},
}  # fmt: skip


@pytest.mark.parametrize(("tile", "targets"), sorted(UPGRADES.items()))
def test_tile_upgrades(tile: str, targets: set[str]) -> None:
    assert set(compiled("1870")["tiles"][tile]["upgrades"]) == targets
