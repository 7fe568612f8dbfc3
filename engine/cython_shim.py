"""Cython's pure-Python-mode declarations as no-ops, for running the engine without Cython installed.

Compiled modules declare the types of some arguments and locals with ``@cython.locals(...)`` (where a ``.pxd`` file
cannot: methods of Python classes, decorated functions, closures); the compiled build reads them, and plain Python
ignores them (README.md, "The compiled build").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def locals(**types: str) -> Callable[[F], F]:  # (Cython's name, shadowing the built-in here only)
    """``@cython.locals(name="Type", ...)``: declares nothing outside the compiled build."""

    def keep(fn: F) -> F:
        return fn

    return keep
