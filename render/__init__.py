"""Print-and-play renderers: tile sheets, map, stock market, charters, certificates, privates, trains, tokens.

They read only a compiled rulebook (``railbook.compiler.compile.build_rulebook`` / ``load_rulebook``); see
docs/RENDER.md.  ``railbook render`` is in :mod:`railbook.render.cli`.
"""

from .build import COMPONENTS, RenderOptions, render_svgs, render_title

__all__ = ["COMPONENTS", "RenderOptions", "render_svgs", "render_title"]
