"""Memoised queries: a pure function of the game, cached until the game's epoch changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game


def memo(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Memoise a pure query ``fn(g, *args)`` until the game's epoch changes (any state change)."""
    name = f"{fn.__module__}.{fn.__qualname__}"

    def wrapper(g: Game, *args: Any) -> Any:
        m = g.memo
        if m[0] != g.epoch:
            m[0] = g.epoch
            m[1].clear()
        key = (name, *args)
        try:
            return m[1][key]
        except KeyError:
            value = fn(g, *args)
            m[1][key] = value
            return value

    wrapper.__name__ = fn.__name__
    wrapper.__qualname__ = fn.__qualname__
    wrapper.__doc__ = fn.__doc__
    return wrapper
