"""Ability text on cards is a sentence for players: written from the typed parameters, no parameter names."""

from __future__ import annotations

import re

from railbook.compiler.load import available_titles
from railbook.render.abilities import PHRASES, Words, ability_text, unknown_params

from tests.test_render_titles import book_of

SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


def test_a_revenue_bonus_reads_as_a_rule() -> None:
    ab = {
        "type": "revenue_bonus",
        "owner": "corporation",
        "amount": 10,
        "params": {"per": "visited_stop", "trains": 1, "which_train": "most_visited_stops"},
    }
    text = ability_text(ab)
    assert text.startswith("The owning corporation adds $10 to the run of one of its trains for each stop"), text
    assert "per:" not in text and "which train" not in text and ":" not in text


def test_timing_uses_connection_and_end_are_printed_in_words() -> None:
    ab = {
        "type": "token",
        "when": "or_start",
        "hexes": ["D6"],
        "count": 1,
        "connected": False,
        "closes_on": "IV",
        "params": {"city": 3, "extra_token": True, "cost_if_unconnected": 60},
    }
    words = Words(currency="£{}", places={"D6": "Chicago"})
    text = ability_text(ab, words=words)
    for phrase in ("Chicago (D6)", "start of each operating round", "Once per game", "without a route", "phase IV"):
        assert phrase in text, text
    assert "extra station token" in text and "costs £60 if the token is not connected" in text
    assert "city" not in text and "{" not in text


def test_a_tile_lay_names_its_tiles_and_hexes() -> None:
    ab = {"type": "tile_lay", "owner": "corporation", "hexes": ["D14", "E17"], "count": 1, "free": True}
    ab["tiles"] = ["7", "8"]
    words = Words(tile_colours={"7": "yellow", "8": "yellow"})
    assert ability_text(ab, words=words) == (
        "The owning corporation may lay one extra yellow tile (#7 or #8) in D14 or E17 at no cost."
    )


def test_a_description_replaces_the_generated_text() -> None:
    assert ability_text({"type": "close", "description": "closes when used"}) == "Closes when used."


def test_every_parameter_of_every_title_has_a_phrase() -> None:
    """A new parameter needs a phrase in render/abilities.py (or the ability a ``description``)."""
    for title in available_titles():
        book = book_of(title)
        if book is not None:
            assert unknown_params(book) == [], title


def test_no_phrase_prints_a_parameter_name() -> None:
    ab = {"type": "tile_lay", "owner": "corporation", "hexes": ["A1"], "tiles": ["7"]}
    for key in PHRASES:
        for value in (True, 1, ["A1", "B2"]):
            try:
                text = ability_text({**ab, "params": {key: value}})
            except (TypeError, ValueError, AttributeError):
                continue
            assert not SNAKE.search(text), (key, text)


def test_revenue_by_phase_names_its_phases() -> None:
    from railbook.render.privates import revenue_label

    assert revenue_label({"II": 10, "III": 15}, "${}", ["I", "II", "III"]) == "Phase II: $10 · Phase III: $15"
    assert revenue_label(10, "${}") == "$10"


def test_a_certificate_limit_table_prints_as_rows() -> None:
    from railbook.render.aid import cert_limit_rows

    players = {"3": {"cert_limit": {"5": 14, "4": 11}}, "4": {"cert_limit": {"5": 10}}}
    rows = cert_limit_rows(players, "corporations")
    assert rows == [
        ["Certificate limit, 5 corporations in play", "14", "10"],
        ["Certificate limit, 4 corporations in play", "11", "—"],
    ]
    assert cert_limit_rows({"3": {"cert_limit": 12}}, "players") == [["Certificate limit", "12"]]


def test_the_summary_counts_in_words() -> None:
    from railbook.render.inventory import tally_text

    assert tally_text({"certificates": 1, "private companies": 1, "loan markers": 70}) == (
        "1 certificate, 1 private company, 70 loan markers"
    )


def test_a_private_with_many_phase_revenues_prints_them_as_text() -> None:
    from railbook.render.privates import draw_private
    from railbook.render.svg import drawing, to_bytes

    from tests.svg_audit import texts

    phases = [{"name": str(n), "tiles": ["yellow"]} for n in range(2, 10)]
    book = {"meta": {"currency": "${}"}, "phases": phases}
    priv = {"name": "Mail", "value": 90, "revenue": {p["name"]: 100 for p in phases}}
    dwg = drawing(63, 88)
    draw_private(dwg, dwg, ("M", priv, book), 63, 88)
    found = " ".join(t.content for t in texts(to_bytes(dwg)))
    assert "by phase" in found and "Revenue: Phase 2: $100" in found
