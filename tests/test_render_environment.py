"""Rendering checks the system's cairo and fonts first; its help fits an 80-column terminal."""

from __future__ import annotations

import shutil

import pytest
from railbook.render.build import COMPONENTS
from railbook.render.environment import FONTS, check_environment, missing_fonts

from tests.conftest import run_cli


@pytest.mark.skipif(shutil.which("fc-match") is None, reason="fontconfig's fc-match is not installed")
def test_a_missing_font_is_named() -> None:
    assert missing_fonts([FONTS[0], "No Such Font Xyzzy"]) == ["No Such Font Xyzzy"]


def test_this_machine_can_render() -> None:
    check_environment()  # the render tests below need cairo and the fonts; fail early and clearly


def test_render_help_fits_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    proc = run_cli("render", "-h")
    assert proc.returncode == 0, proc.stderr
    assert all(len(line) <= 80 for line in proc.stdout.splitlines())
    assert "…" not in proc.stdout
    assert all(c in proc.stdout for c in COMPONENTS)
