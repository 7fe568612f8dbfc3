"""Numbers the 1856 rulebook prints, checked against the compiled rulebook."""

from __future__ import annotations

import pytest
from railbook.compiler.load import available_titles

from tests.rulebook_support import compiled, phase, phase_limit, tile_counts, train

pytestmark = pytest.mark.skipif("1856" not in available_titles(), reason="games/1856 not written yet")

TRAINS = {"2": (100, 6), "3": (225, 5), "4": (350, 4), "5": (550, 3), "6": (700, 2)}


@pytest.mark.parametrize(("name", "price_count"), sorted(TRAINS.items()))
def test_trains(name: str, price_count: tuple[int, int]) -> None:
    data = train(compiled("1856"), name)
    assert (data["price"], data["count"]) == price_count


def test_diesel_price_and_trade_in() -> None:
    diesel = train(compiled("1856"), "D")
    assert diesel["price"] == 1100 and diesel["count"] == "unlimited"
    for traded in ("4", "5", "6"):
        assert diesel["price"] - diesel["discount"][traded] == 750


@pytest.mark.parametrize(("name", "rusted_by"), [("2", "4"), ("3", "6"), ("4", "D")])
def test_scrapping(name: str, rusted_by: str) -> None:
    assert train(compiled("1856"), name)["rusts_on"] == rusted_by


@pytest.mark.parametrize(
    ("name", "limit", "colours", "ors"),
    [
        ("1", 4, ["yellow"], 1),
        ("2", 4, ["yellow", "green"], 2),
        ("3", 3, ["yellow", "green"], 2),
        ("4", 2, ["yellow", "green", "brown"], 3),
        ("5", 2, ["yellow", "green", "brown", "gray"], 3),
        ("6", 2, ["yellow", "green", "brown", "gray"], 3),
    ],
)
def test_phases(name: str, limit: int, colours: list[str], ors: int) -> None:
    book = compiled("1856")
    assert phase_limit(book, name) == limit
    assert phase(book, name)["tiles"] == colours
    assert phase(book, name)["operating_rounds"] == ors


@pytest.mark.parametrize("name", ["5", "6"])
def test_cgr_train_limit(name: str) -> None:
    assert phase_limit(compiled("1856"), name, "national") == 3


@pytest.mark.parametrize(("players", "limit"), [(3, 20), (4, 16), (5, 13), (6, 11)])
def test_cert_limits_phases_1_to_4(players: int, limit: int) -> None:
    assert compiled("1856")["players"][str(players)]["cert_limit"] == limit


def test_companies() -> None:
    corps = compiled("1856")["corporations"]
    assert len([c for c in corps if c != "CGR"]) == 11 and "CGR" in corps


def test_par_values() -> None:
    assert [p["price"] for p in compiled("1856")["market"]["par"]] == [65, 70, 75, 80, 90, 100]


@pytest.mark.parametrize(("colour", "total"), [("yellow", 55), ("green", 31), ("brown", 34), ("gray", 2)])
def test_tile_totals(colour: str, total: int) -> None:
    assert tile_counts(compiled("1856"), colour) == total


MANIFEST = {
    "1": 1, "2": 1, "3": 3, "4": 3, "5": 2, "6": 2, "7": 7, "8": 13, "9": 13, "55": 1, "56": 1, "57": 4,
    "58": 3, "69": 1, "14": 4, "15": 4, "16": 1, "17": 1, "18": 1, "19": 1, "20": 1, "23": 4, "24": 4,
    "25": 1, "26": 1, "27": 1, "28": 1, "29": 1, "59": 2, "120": 1, "121": 2, "39": 1, "40": 1, "41": 3,
    "42": 3, "43": 2, "44": 1, "45": 2, "46": 2, "47": 2, "63": 4, "64": 1, "65": 1, "66": 1, "67": 1,
    "68": 1, "70": 1, "122": 1, "125": 4, "126": 1, "127": 1, "123": 1, "124": 1,
}  # fmt: skip


@pytest.mark.parametrize(("tile", "count"), sorted(MANIFEST.items()))
def test_tile_counts(tile: str, count: int) -> None:
    assert compiled("1856")["tiles"][tile]["count"] == count


UPGRADES = {
    "7": {"18", "26", "27", "28", "29"}, "8": {"16", "17", "19", "23", "24", "25", "28", "29"},
    "9": {"18", "19", "20", "23", "24", "26", "27"}, "16": {"43", "70"}, "17": {"47"}, "18": {"43"},
    "19": {"45", "46"}, "20": {"44", "47"}, "23": {"41", "43", "45", "47"}, "24": {"42", "43", "46", "47"},
    "25": {"40", "45", "46"}, "26": {"42", "44", "45"}, "27": {"41", "44", "46"}, "28": {"39", "46", "70"},
    "29": {"39", "45", "70"}, "120": {"122"}, "122": {"124"},
}  # fmt: skip


@pytest.mark.parametrize(("tile", "targets"), sorted(UPGRADES.items()))
def test_tile_upgrades(tile: str, targets: set[str]) -> None:
    assert set(compiled("1856")["tiles"][tile]["upgrades"]) == targets


def test_yellow_cities_upgrade_to_14_or_15() -> None:
    for tile in ("5", "6", "57"):
        assert {"14", "15"} <= set(compiled("1856")["tiles"][tile]["upgrades"])
