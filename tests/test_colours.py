"""Colours a title prints with are checked when it is validated: a listed name or #rgb / #rrggbb."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import TypeAdapter, ValidationError
from railbook.compiler.models import COLOUR_NAMES, PrintColour, ZoneColour
from railbook.render.style import rgb

from tests.test_load_errors import _edit, _one_located_error


@pytest.mark.parametrize(("bad", "says"), [("bleu", "did you mean blue?"), ('"#b2222"', "is not #rgb or #rrggbb")])
def test_a_bad_corporation_colour_is_a_located_error(demo_title: Path, bad: str, says: str) -> None:
    _edit(demo_title / "companies.yaml", 'color: "#1f5fa8"', f"color: {bad}")
    line = _one_located_error(demo_title, "companies.yaml", 6)
    assert "corporations.WR.color" in line and says in line


@pytest.mark.parametrize("good", ["red", "Grey", "#abc", "#A1B2C3"])
def test_names_and_hex_colours_pass(good: str) -> None:
    assert TypeAdapter(PrintColour).validate_python(good) == good
    assert TypeAdapter(ZoneColour).validate_python(f"{good}_outline") == f"{good}_outline"


@pytest.mark.parametrize("bad", ["bleu", "#b2222", "abc", "#ggg", "red_dotted"])
def test_other_words_fail(bad: str) -> None:
    with pytest.raises(ValidationError):
        TypeAdapter(ZoneColour).validate_python(bad)


def test_every_listed_name_prints_as_itself() -> None:
    """The renderer knows every name the compiler lets through (none of them prints as the grey fallback)."""
    assert all(rgb(name) is not None for name in COLOUR_NAMES)
