"""Print-and-play renderers: tile sheets, map, stock market, charters, certificates, privates, trains, tokens.

They read only a compiled rulebook (``railbook.compiler.compile.build_rulebook`` / ``load_rulebook``); see
docs/RENDER.md.  ``railbook render`` is in :mod:`railbook.render.cli`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .names import COMPONENTS

if TYPE_CHECKING:
    from .build import RenderOptions, render_svgs, render_title

__all__ = ["COMPONENTS", "RenderOptions", "render_svgs", "render_title"]


def __getattr__(name: str) -> Any:
    """The renderers load on first use, so ``railbook`` starts without them."""
    if name in ("RenderOptions", "render_svgs", "render_title"):
        from . import build

        return getattr(build, name)
    raise AttributeError(f"module 'railbook.render' has no attribute {name!r}")
