"""Ability text on cards says everything the ability's data says (conditions included)."""

from __future__ import annotations

from railbook.render.abilities import ability_text


def test_a_revenue_bonus_prints_its_conditions() -> None:
    ab = {
        "type": "revenue_bonus",
        "owner": "corporation",
        "amount": 10,
        "params": {"per": "visited_stop", "trains": 1, "which_train": "most_visited_stops"},
    }
    text = ability_text(ab)
    assert text.startswith("Adds $10 to routes")
    for words in ("per: visited stop", "trains: 1", "which train: most visited stops", "corporation owns it"):
        assert words in text, text


def test_timing_uses_connection_and_end_are_printed() -> None:
    ab = {
        "type": "token",
        "when": "or_start",
        "hexes": ["D6"],
        "count": 1,
        "connected": False,
        "closes_on": "IV",
        "params": {"city": 3, "extra_token": True, "cost_if_unconnected": 60},
    }
    text = ability_text(ab, "£{}")
    for words in ("in D6", "start of each operating round", "once", "without a route", "until IV", "city: 3"):
        assert words in text, text
    assert "extra token" in text and "cost if unconnected £60" in text


def test_a_description_replaces_the_generated_text() -> None:
    assert ability_text({"type": "close", "description": "Closes when used."}) == "Closes when used."
