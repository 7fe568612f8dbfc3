"""Suggestions for misspelt names: "did you mean M1?" or the list of valid names."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

MAX_LISTED = 12


def suggestion(name: object, choices: Iterable[object]) -> str:
    """A short suffix for an error about ``name``: the nearest valid choice, or all of them when few."""
    valid = [str(c) for c in choices]
    if not valid:
        return ""
    text = str(name)
    close = difflib.get_close_matches(text, valid, n=1, cutoff=0.5)
    if not close:
        folded = {v.casefold(): v for v in valid}
        close = [folded[text.casefold()]] if text.casefold() in folded else []
    if close:
        return f" (did you mean {close[0]}?)"
    if len(valid) <= MAX_LISTED:
        return f" (valid: {', '.join(valid)})"
    return ""


def unknown(kind: str, name: object, choices: Iterable[object]) -> str:
    """``unknown hex 'Z99' (did you mean Z9?)``."""
    return f"unknown {kind} '{name}'{suggestion(name, choices)}"
