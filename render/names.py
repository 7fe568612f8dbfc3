"""The names the command line offers (components, formats, papers): kept apart so the CLI starts without loading
the renderers."""

from __future__ import annotations

from dataclasses import dataclass

COMPONENTS: tuple[str, ...] = (
    "tiles",
    "map",
    "market",
    "charters",
    "certificates",
    "privates",
    "trains",
    "tokens",
    "aid",
)
FORMATS: tuple[str, ...] = ("svg", "pdf", "png")
PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


@dataclass(frozen=True)
class Die:
    """A hexagon cutting die: tile size across flats and the spacing between its cavities (mm)."""

    tile_size: float
    gap: float
    note: str


DIES: dict[str, Die] = {
    "1.5in": Die(38.1, 3.175, "1 1/2 in across flats, 1/8 in apart: the size of most published 18xx tiles"),
    "1.75in": Die(44.45, 3.175, "1 3/4 in across flats, 1/8 in apart: large-format tiles"),
    "2in": Die(50.8, 3.175, "2 in across flats, 1/8 in apart: large-format tiles"),
    "38mm": Die(38.0, 3.0, "38 mm across flats, 3 mm apart: metric dies"),
}
"""The common 18xx hexagon die sizes (``railbook render --die``); docs/RENDER.md lists them."""
