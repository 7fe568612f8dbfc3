"""Colours, fonts and text measurement shared by every component."""

from __future__ import annotations

import re
from functools import lru_cache

FONT = "DejaVu Sans"
FONT_FAMILY = "DejaVu Sans, Verdana, Arial, sans-serif"
CONDENSED = "DejaVu Sans Condensed"

TILE_COLOURS: dict[str, str] = {
    "white": "#f4efdc",
    "yellow": "#fde900",
    "green": "#5cb847",
    "brown": "#c9773f",
    "gray": "#bcbdc0",
    "red": "#e5312b",
    "blue": "#5fb4ea",
    "black": "#2b2b2b",
}
"""Fill of a tile or hex by its colour name (close to the published components)."""

PHASE_COLOURS: dict[str, str] = {
    "yellow": "#fde900",
    "green": "#5cb847",
    "brown": "#c9773f",
    "gray": "#bcbdc0",
    "grey": "#bcbdc0",
    "white": "#ffffff",
    "black": "#333333",
}

TEXT_MIN = 2.2
"""The smallest text read at the table, in mm (6.2 pt; 6 pt is 2.117 mm)."""

TRACK = "#000000"
CUT = "#555555"
MARK = "#000000"
INK = "#1a1a1a"
WATER = "#2b83d4"
MOUNTAIN = "#8a5a2b"
IMPASSABLE = "#d2232a"

MARKET_DEFAULTS: dict[str, str] = {
    "no_cert_limit": "#fff36b",
    "unlimited_holding": "#f7a93b",
    "multiple_buy": "#c9773f",
    "close": "#4a4a4a",
    "end_game": "#e4575a",
    "liquidation": "#e4575a",
    "acquisition": "#8fbde6",
    "safe_par": "#a7d59a",
    "max_price": "#c5b4e3",
    "par_reissue": "#9fd8d2",
    "repar": "#9fd8d2",
}
"""Fill of a stock-market cell by kind when ``market.zone_colours`` names none."""

ZONE_ORDER = (
    "close",
    "liquidation",
    "end_game",
    "acquisition",
    "multiple_buy",
    "unlimited_holding",
    "no_cert_limit",
    "safe_par",
    "max_price",
    "par_reissue",
    "repar",
)
"""Which kind's colour wins when a cell has several."""

_HEX = re.compile(r"^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
_NAMED = {
    "black": (0, 0, 0),
    "white": (255, 255, 255),
    "red": (255, 0, 0),
    "green": (0, 128, 0),
    "blue": (0, 0, 255),
    "yellow": (255, 255, 0),
    "orange": (255, 165, 0),
    "purple": (128, 0, 128),
    "gray": (128, 128, 128),
    "grey": (128, 128, 128),
    "brown": (165, 42, 42),
    "pink": (255, 192, 203),
    "navy": (0, 0, 128),
    "maroon": (128, 0, 0),
    "lightblue": (173, 216, 230),
    "darkgreen": (0, 100, 0),
    "darkblue": (0, 0, 139),
    "gold": (255, 215, 0),
    "teal": (0, 128, 128),
    "lime": (0, 255, 0),
    "cyan": (0, 255, 255),
    "magenta": (255, 0, 255),
    "violet": (238, 130, 238),
    "turquoise": (64, 224, 208),
}


def rgb(colour: str) -> tuple[int, int, int] | None:
    """The RGB of a CSS hex or basic named colour, or None when unknown."""
    colour = colour.strip().lower()
    m = _HEX.match(colour)
    if m:
        h = m.group(1)
        if len(h) == 3:
            h = "".join(c * 2 for c in h)
        return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)
    return _NAMED.get(colour)


def safe_colour(colour: str | None, default: str = "#888888") -> str:
    """A colour usable in an SVG attribute: known colours pass, anything else becomes ``default``."""
    if not colour:
        return default
    value = rgb(colour)
    if value is None:
        return default
    return "#{:02x}{:02x}{:02x}".format(*value)


def contrast(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    value = rgb(colour) or (128, 128, 128)
    lum = 0.2126 * value[0] + 0.7152 * value[1] + 0.0722 * value[2]
    return "#000000" if lum > 150 else "#ffffff"


def tile_fill(colour: str) -> str:
    return TILE_COLOURS.get(colour, safe_colour(colour, "#ffffff"))


def phase_fill(name: str) -> str:
    """The colour of a phase colour name (a tile colour, ``black`` for diesels, or any CSS colour)."""
    return PHASE_COLOURS.get(name) or safe_colour(name, "#ffffff")


@lru_cache(maxsize=1)
def _context() -> object:
    import cairocffi

    surface = cairocffi.ImageSurface(cairocffi.FORMAT_ARGB32, 1, 1)
    return cairocffi.Context(surface)


@lru_cache(maxsize=8192)
def text_width(text: str, size: float, bold: bool = False, family: str = FONT) -> float:
    """Advance width (mm) of ``text`` at font ``size`` (mm), measured with cairo's font of ``family``."""
    import cairocffi

    ctx = _context()
    weight = cairocffi.FONT_WEIGHT_BOLD if bold else cairocffi.FONT_WEIGHT_NORMAL
    ctx.select_font_face(family, cairocffi.FONT_SLANT_NORMAL, weight)  # type: ignore[attr-defined]
    ctx.set_font_size(100.0)  # type: ignore[attr-defined]
    advance = ctx.text_extents(text)[4]  # type: ignore[attr-defined]
    return float(advance) * size / 100.0


def fit_size(text: str, size: float, max_width: float, bold: bool = False, family: str = FONT) -> float:
    """``size`` shrunk so that ``text`` fits ``max_width``."""
    width = text_width(text, size, bold, family)
    return size if width <= max_width or width == 0 else size * max_width / width


def wrap(text: str, size: float, max_width: float, bold: bool = False, family: str = FONT) -> list[str]:
    """Greedy word wrap of ``text`` into lines no wider than ``max_width`` (long words stay whole)."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            trial = f"{line} {word}".strip()
            if line and text_width(trial, size, bold, family) > max_width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def fit_lines(
    text: str, size: float, max_width: float, *, min_size: float, max_lines: int = 2, bold: bool = False
) -> tuple[list[str], float]:
    """``text`` on one line at ``size`` if it fits, else wrapped into at most ``max_lines`` lines at the largest
    size not below ``min_size``; only a text that cannot fit that way (a very long word) goes smaller."""
    trial = size
    while trial >= min_size - 1e-9:
        lines = wrap(text, trial, max_width, bold)
        if len(lines) <= max_lines and all(text_width(line, trial, bold) <= max_width for line in lines):
            return lines, trial
        trial *= 0.95
    words = text.split()
    per = max(1, -(-len(words) // max_lines))
    lines = [" ".join(words[i : i + per]) for i in range(0, len(words), per)] or [text]
    return lines, min(fit_size(line, min_size, max_width, bold) for line in lines)


def money(value: int | str, currency: str = "${}") -> str:
    """A price in the title's currency format (``meta.currency``)."""
    try:
        return currency.format(value)
    except (IndexError, KeyError, ValueError):
        return f"${value}"
