"""Render the components of a compiled rulebook and write them as SVG, PDF and PNG files."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from railbook.jsonio import dump_json
from railbook.outputs import inside, make_folder, write_inside

from .inventory import counts
from .names import COMPONENTS
from .pages import Page, Paper, Recorded, finish, pdf_from, png_from, record

TITLES = {
    "tiles": "tiles",
    "map": "map",
    "market": "stock market",
    "charters": "charters",
    "certificates": "share certificates",
    "privates": "private companies",
    "trains": "trains",
    "tokens": "tokens",
    "aid": "player aid",
}


@dataclass(frozen=True)
class RenderOptions:
    paper: str = "a4"
    formats: tuple[str, ...] = ("svg", "pdf")
    dpi: int = 300
    tile_size: float = 38.1
    unlimited_count: int = 6
    bleed: float = 1.0
    backs: bool = True
    die: str | None = None


@dataclass
class ComponentResult:
    component: str
    pages: int
    files: list[Path] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class TitleResult:
    title: str
    components: list[ComponentResult] = field(default_factory=list)
    print_pdf: Path | None = None
    seconds: float = 0.0
    counts: dict[str, int] = field(default_factory=dict)
    """How many of each thing the print holds (``inventory.counts``)."""

    @property
    def pages(self) -> int:
        return sum(c.pages for c in self.components)


def component_pages(book: dict[str, Any], component: str, opts: RenderOptions) -> list[Page]:
    """The pages of one component (not yet serialised)."""
    paper = Paper.named(opts.paper)
    if component == "tiles":
        from .names import DIES
        from .tiles import TileOptions, render_tiles

        die = DIES[opts.die] if opts.die else None
        return render_tiles(book, paper, TileOptions(opts.tile_size, opts.bleed, opts.unlimited_count, die))
    if component == "map":
        from .board import render_map

        return render_map(book, paper, opts.tile_size)
    if component == "market":
        from .market import render_market

        return render_market(book, paper)
    if component == "charters":
        from .charters import render_charters

        return render_charters(book, paper, opts.tile_size)
    if component == "certificates":
        from .certificates import render_certificates

        return render_certificates(book, paper, opts.backs)
    if component == "privates":
        from .privates import render_privates

        return render_privates(book, paper, opts.backs)
    if component == "trains":
        from .trains import render_trains

        return render_trains(book, paper, opts.unlimited_count, opts.backs)
    if component == "tokens":
        from .tokens import render_tokens

        return render_tokens(book, paper, opts.tile_size)
    if component == "aid":
        from .aid import render_aid

        return render_aid(book, paper)
    raise ValueError(f"unknown component {component!r}")


def render_svgs(book: dict[str, Any], component: str, opts: RenderOptions) -> list[bytes]:
    """Each page of a component as a complete SVG document."""
    pages = component_pages(book, component, opts)
    return finish(pages, book["meta"]["full_name"], TITLES.get(component, component))


def _page_name(component: str, index: int, total: int, ext: str) -> str:
    return f"{component}.{ext}" if total == 1 else f"{component}-{index}.{ext}"


MANIFEST = ".railbook-render.json"
"""The files railbook wrote in a title's render folder: the only ones its clean-up may delete."""


def _manifest(folder: Path) -> set[str]:
    """The file names an earlier render recorded in ``folder`` (none when there is no readable manifest)."""
    path = folder / MANIFEST
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > 1024 * 1024:
            return set()
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    files = data.get("files") if isinstance(data, dict) else None
    return {f for f in files if isinstance(f, str)} if isinstance(files, list) else set()


def _remove_stale(folder: Path, component: str, keep: set[Path]) -> None:
    """Page files of an earlier run that this run did not write (the component had more pages).

    Only files the manifest says railbook wrote here are candidates, each a plain file (not a link) directly in
    ``folder``; the manifest is brought up to date (what was removed out, what was written in).
    """
    pattern = re.compile(rf"^{re.escape(component)}(-\d+)?\.(svg|png)$")
    if not folder.is_dir():
        return
    made = _manifest(folder)
    kept = {p.name for p in keep}
    for name in sorted(made):
        if not pattern.match(name) or name in kept:
            continue
        path = inside(folder, name)
        if path.is_file() and not path.is_symlink():
            path.unlink(missing_ok=True)
        made.discard(name)
    write_inside(folder, MANIFEST, data=dump_json({"files": sorted(made | kept)}))


def _record_made(folder: Path, name: str) -> None:
    """Add ``name`` to the folder's manifest of files railbook wrote."""
    write_inside(folder, MANIFEST, data=dump_json({"files": sorted(_manifest(folder) | {name})}))


def write_component(
    folder: Path, component: str, svgs: list[bytes], opts: RenderOptions
) -> tuple[list[Path], list[Recorded]]:
    """Write a component's files; returns them and the recorded pages (for the combined PDF)."""
    written: list[Path] = []
    total = len(svgs)
    recorded: list[Recorded] = []
    needs_cairo = "pdf" in opts.formats or "png" in opts.formats
    for i, svg in enumerate(svgs, 1):
        if "svg" in opts.formats:
            written.append(write_inside(folder, _page_name(component, i, total, "svg"), data=svg))
        if needs_cairo:
            rec = record(svg)
            recorded.append(rec)
            if "png" in opts.formats:
                name = _page_name(component, i, total, "png")
                written.append(write_inside(folder, name, data=png_from(rec, opts.dpi)))
    if "pdf" in opts.formats:
        written.append(write_inside(folder, f"{component}.pdf", data=pdf_from(recorded)))
    _remove_stale(folder, component, set(written))
    return written, recorded


def render_title(
    book: dict[str, Any],
    out_dir: Path,
    components: tuple[str, ...] = COMPONENTS,
    opts: RenderOptions | None = None,
    step: Callable[[str], None] | None = None,
) -> TitleResult:
    """Render the chosen components of one rulebook into ``out_dir/<title>/``, plus ``<title>-print.pdf``."""
    opts = opts or RenderOptions()
    start = time.perf_counter()
    title = book["title"]
    folder = make_folder(out_dir, title)
    result = TitleResult(title, counts=counts(book, opts.unlimited_count, components))
    everything: list[Recorded] = []
    for component in components:
        t0 = time.perf_counter()
        svgs = render_svgs(book, component, opts)
        files, recorded = write_component(folder, component, svgs, opts)
        everything.extend(recorded)
        result.components.append(ComponentResult(component, len(svgs), files, time.perf_counter() - t0))
        if step:
            step(component)
    if "pdf" in opts.formats and everything:
        result.print_pdf = write_inside(folder, f"{title}-print.pdf", data=pdf_from(everything))
        _record_made(folder, result.print_pdf.name)
    result.seconds = time.perf_counter() - start
    return result
