"""Memoised queries: a pure function of the game, cached until the game's epoch changes.

Whatever changes the state bumps ``game.epoch`` (``rounds.bump``, ``Context.spend``, ``Step.pass_``...).  A change
that forgets to leaves stale answers; ``RAILBOOK_MEMO_AUDIT=1`` in the environment recomputes every answer
served from the memo and raises :class:`StaleMemo` when it differs (slow; for tests and for hunting such bugs).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import flags

if TYPE_CHECKING:
    from .context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from . import cython_shim as cython

AUDIT = flags.AUDIT


class StaleMemo(AssertionError):
    """A memoised answer differs from a fresh one: some state change did not bump the epoch."""


def audit(what: str, cached: Any, fresh: Any) -> None:
    """Raise :class:`StaleMemo` when a memoised answer is not what the query answers now (answers holding objects
    compared by identity are not audited)."""
    if _by_value(fresh) and cached != fresh:
        raise StaleMemo(f"stale memo for {what}: {cached!r} cached, {fresh!r} now")


def _by_value(x: Any) -> bool:
    if x is None or isinstance(x, str | int | float | bool):
        return True
    if isinstance(x, list | tuple | set | frozenset):
        return all(_by_value(v) for v in x)
    if isinstance(x, dict):
        return all(_by_value(k) and _by_value(v) for k, v in x.items())
    return hasattr(x, "__dataclass_fields__") and getattr(type(x), "__eq__", object.__eq__) is not object.__eq__


_MISSING = object()


def _answers_now(g: Context) -> dict[Any, Any]:
    """The memoised answers of the game's current epoch (emptied when the epoch has moved on)."""
    m = g.memo
    answers: dict[Any, Any] = m[1]
    if m[0] != g.epoch:
        m[0] = g.epoch
        answers.clear()
    return answers


def memo(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Memoise a pure query ``fn(g, *args)`` until the game's epoch changes (any state change)."""
    name = f"{fn.__module__}.{fn.__qualname__}"
    params = list(inspect.signature(fn).parameters.values())
    plain = all(p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty for p in params)

    # (a query of the game alone, or of one more argument, is the common case: its key is made without a tuple of
    # the arguments, and it is called without one)
    @cython.locals(g="Context", answers="dict")
    def wrapper0(g: Context) -> Any:
        answers: dict[Any, Any] = _answers_now(g)
        value = answers.get(name, _MISSING)
        if value is _MISSING:
            value = answers[name] = fn(g)
        elif AUDIT:
            audit(f"{name}()", value, fn(g))
        return value

    @cython.locals(g="Context", answers="dict")
    def wrapper1(g: Context, a: Any) -> Any:
        answers: dict[Any, Any] = _answers_now(g)
        key = (name, a)
        value = answers.get(key, _MISSING)
        if value is _MISSING:
            value = answers[key] = fn(g, a)
        elif AUDIT:
            audit(f"{name}({a!r},)", value, fn(g, a))
        return value

    @cython.locals(g="Context", answers="dict")
    def wrapper(g: Context, *args: Any) -> Any:
        answers: dict[Any, Any] = _answers_now(g)
        key = (name, *args)
        value = answers.get(key, _MISSING)
        if value is _MISSING:
            value = answers[key] = fn(g, *args)
        elif AUDIT:
            audit(f"{name}{args!r}", value, fn(g, *args))
        return value

    chosen = wrapper0 if plain and len(params) == 1 else wrapper1 if plain and len(params) == 2 else wrapper
    chosen.__name__ = fn.__name__
    chosen.__qualname__ = fn.__qualname__
    chosen.__doc__ = fn.__doc__
    return chosen
