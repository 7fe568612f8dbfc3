"""What rendering needs from the system: the cairo library and the fonts the sheets are measured and drawn with."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterable

from railbook.errors import RailbookError

from .style import CONDENSED, FONT

FONTS: tuple[str, ...] = (FONT, CONDENSED)
PACKAGES = "Debian/Ubuntu: apt install libcairo2 fonts-dejavu-core fonts-dejavu-extra"


def missing_fonts(families: Iterable[str] = FONTS) -> list[str]:
    """The font families fontconfig cannot find (none when fontconfig itself cannot be asked)."""
    fc_match = shutil.which("fc-match")
    if fc_match is None:
        return []
    missing = []
    for family in families:
        try:
            found = subprocess.run(
                [fc_match, "-f", "%{family}", family], capture_output=True, text=True, timeout=20, check=False
            ).stdout
        except (OSError, subprocess.SubprocessError):
            return []
        if family.casefold() not in [f.strip().casefold() for f in found.split(",")]:
            missing.append(family)
    return missing


def check_environment() -> None:
    """Raise a one-line :class:`RailbookError` when cairo or a needed font is missing."""
    try:
        import cairocffi

        cairocffi.ImageSurface(cairocffi.FORMAT_ARGB32, 1, 1)
    except (ImportError, OSError) as exc:
        raise RailbookError(f"render needs the cairo library ({PACKAGES}): {exc}") from None
    missing = missing_fonts()
    if missing:
        raise RailbookError(f"render needs the font(s) {', '.join(missing)} ({PACKAGES})")
