"""Render time per title and component (SVG, PDF and the combined print PDF), into a temporary folder."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from railbook.compiler.compile import build_rulebook, catalogue_tiles
from railbook.compiler.load import available_titles
from railbook.render.build import COMPONENTS, RenderOptions, render_title

from railbook.errors import RailbookError


def run() -> None:
    catalogue_tiles()
    opts = RenderOptions(formats=("svg", "pdf"))
    grand = 0.0
    pages = 0
    with tempfile.TemporaryDirectory(prefix="railbook-bench-") as tmp:
        for title in available_titles():
            try:
                book = build_rulebook(title)
            except RailbookError as exc:
                print(f"   render {title:6s} skipped: {str(exc).splitlines()[0]}")
                continue
            start = time.perf_counter()
            result = render_title(book, Path(tmp), COMPONENTS, opts)
            elapsed = time.perf_counter() - start
            grand += elapsed
            pages += result.pages
            parts = "  ".join(f"{c.component} {c.pages}p {c.seconds:.2f}s" for c in result.components)
            print(f"   render {title:6s} {elapsed:6.2f} s {result.pages:3d} pages | {parts}")
    print(f"   render all    {grand:6.2f} s {pages:3d} pages")
