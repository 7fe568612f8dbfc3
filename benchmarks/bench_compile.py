"""Compile time per title (load, validate, resolve, options)."""

from __future__ import annotations

import time

from railbook.compiler.compile import build_rulebook, catalogue_tiles
from railbook.compiler.load import available_titles


def run() -> None:
    catalogue_tiles()
    for title in available_titles():
        start = time.perf_counter()
        build_rulebook(title)
        print(f"   compile {title:6s} {1000 * (time.perf_counter() - start):8.1f} ms")
