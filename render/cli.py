"""``railbook render``: print-and-play SVG, PDF and PNG files of titles."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from railbook.cli import JsonOpt, TitlesArg, app, emit, fail, rulebook_for
from railbook.errors import RailbookError

from .inventory import tally_text
from .names import COMPONENTS, DIES, FORMATS, PAPERS

if TYPE_CHECKING:
    from .build import RenderOptions, TitleResult


def _split(value: str, allowed: tuple[str, ...], what: str) -> tuple[str, ...]:
    items = tuple(dict.fromkeys(v.strip().lower() for v in value.split(",") if v.strip()))
    bad = [v for v in items if v not in allowed]
    if bad or not items:
        shown = ", ".join(bad) if bad else "nothing"
        raise ValueError(f"--{what}: unknown {shown}; choose from {','.join(allowed)}")
    return items


def parse_options(
    only: str | None,
    paper: str,
    formats: str,
    dpi: int,
    tile_size: float,
    unlimited_count: int,
    bleed: float,
    backs: bool = True,
    die: str | None = None,
) -> tuple[tuple[str, ...], RenderOptions]:
    """Check the command-line options; raises ValueError with a one-line message."""
    components = _split(only, COMPONENTS, "only") if only is not None else COMPONENTS
    components = tuple(c for c in COMPONENTS if c in components)
    paper = paper.strip().lower()
    if paper not in PAPERS:
        raise ValueError(f"--paper: unknown paper {paper!r}; choose from {'|'.join(PAPERS)}")
    fmts = _split(formats, FORMATS, "format")
    if not 30 <= dpi <= 1200:
        raise ValueError(f"--dpi: {dpi} is out of range (30-1200)")
    if not 15.0 <= tile_size <= 80.0:
        raise ValueError(f"--tile-size: {tile_size} mm is out of range (15-80 mm across flats)")
    if not 0 <= unlimited_count <= 99:
        raise ValueError(f"--unlimited-count: {unlimited_count} is out of range (0-99)")
    if not 0.0 <= bleed <= 3.0:
        raise ValueError(f"--bleed: {bleed} mm is out of range (0-3 mm)")
    if die is not None:
        die = die.strip().lower()
        if die not in DIES:
            raise ValueError(f"--die: unknown die {die!r}; choose from {'|'.join(DIES)}")
        tile_size = DIES[die].tile_size
    from .build import RenderOptions

    return components, RenderOptions(paper, fmts, dpi, tile_size, unlimited_count, bleed, backs, die)


@app.command()
def render(
    titles: TitlesArg = None,
    only: Annotated[
        str | None, typer.Option("--only", help=f"components, comma-separated: {', '.join(COMPONENTS)}")
    ] = None,
    paper: Annotated[str, typer.Option("--paper", help="a4 or letter")] = "a4",
    formats: Annotated[str, typer.Option("--format", help="svg,pdf,png (comma-separated)")] = "svg,pdf",
    dpi: Annotated[int, typer.Option("--dpi", help="PNG resolution")] = 300,
    tile_size: Annotated[float, typer.Option("--tile-size", help="tile size in mm across flats")] = 38.1,
    unlimited_count: Annotated[
        int, typer.Option("--unlimited-count", help="copies printed of an 'unlimited' tile or train")
    ] = 6,
    bleed: Annotated[float, typer.Option("--bleed", help="colour printed past each tile's cut line (mm)")] = 1.0,
    backs: Annotated[
        bool, typer.Option("--backs/--no-backs", help="card backs after each page of cards (long-edge duplex)")
    ] = True,
    die: Annotated[
        str | None, typer.Option("--die", help=f"tiles laid out for a die cutter: {', '.join(DIES)}")
    ] = None,
    out: Annotated[Path, typer.Option("--out", help="output folder")] = Path("output"),
    jobs: Annotated[int, typer.Option("--jobs", min=0, help="titles rendered at once (0: one per core)")] = 0,
    as_json: JsonOpt = False,
) -> None:
    """Print-and-play files: OUT/<title>/<component>.{svg,pdf,png} and OUT/<title>/<title>-print.pdf."""
    from railbook.compiler.load import available_titles

    try:
        components, opts = parse_options(only, paper, formats, dpi, tile_size, unlimited_count, bleed, backs, die)
    except ValueError as exc:
        fail(str(exc))
        return
    try:
        from .environment import check_environment

        check_environment()
    except RailbookError as exc:
        fail(str(exc))
        return
    names = list(titles) if titles else available_titles()
    if not names:
        fail("no titles to render (games/ is empty); name a title folder or a rulebook.json")
        return
    errors: list[str] = []
    results: list[TitleResult] = []
    workers = min(jobs or os.cpu_count() or 1, len(names))
    with _progress(len(names) * len(components)) as advance:
        if workers <= 1:
            outcomes = (_render_one(name, out, components, opts, advance) for name in names)
        else:
            outcomes = _render_parallel(names, out, components, opts, workers)
        for name, outcome in outcomes:
            if isinstance(outcome, str):
                errors.append(outcome)
            else:
                results.append(outcome)
            if workers > 1:
                for component in components:
                    advance(f"{name} {component}")
    done = {
        r.title: {
            "pages": r.pages,
            "seconds": round(r.seconds, 3),
            "out": str(r.print_pdf or (out / r.title)),
            "counts": r.counts,
        }
        for r in results
    }
    if errors:
        fail("\n".join(errors), rendered=done)
    if as_json:
        emit({"rendered": done})
        return
    for title, r in done.items():
        typer.echo(f"{title}: {r['pages']} page{'' if r['pages'] == 1 else 's'} in {r['seconds']:.1f} s -> {r['out']}")
        if r["counts"]:
            typer.echo(f"  {tally_text(r['counts'])}")


def _render_one(
    name: str,
    out: Path,
    components: tuple[str, ...],
    opts: RenderOptions,
    advance: Callable[[str], None] | None = None,
) -> tuple[str, TitleResult | str]:
    """Render one title: its result, or the one-line error that stopped it."""
    from .build import render_title

    try:
        book = rulebook_for(name)
    except RailbookError as exc:
        return name, str(exc)
    step = None if advance is None else (lambda c, t=book["title"]: advance(f"{t} {c}"))
    try:
        return name, render_title(book, out, components, opts, step=step)
    except RailbookError as exc:
        return name, str(exc)
    except OSError as exc:
        return name, f"{exc.filename or out}: cannot write: {exc.strerror or exc}"
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        return name, f"{name}: the rulebook cannot be drawn: {type(exc).__name__}: {exc}"


def _render_parallel(
    names: list[str], out: Path, components: tuple[str, ...], opts: RenderOptions, workers: int
) -> Iterator[tuple[str, TitleResult | str]]:
    """Titles rendered on ``workers`` processes, yielded in the order they were asked for."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    from railbook.workers import die_with_parent

    with ProcessPoolExecutor(workers, mp_context=context, initializer=die_with_parent, initargs=(os.getpid(),)) as pool:
        futures = [pool.submit(_render_one, name, out, components, opts) for name in names]
        for future in futures:
            yield future.result()


@contextmanager
def _progress(total: int) -> Iterator[Callable[[str], None]]:
    """A rich progress bar on stderr when it is a terminal; silent otherwise."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    if not console.is_terminal or total <= 1:
        yield lambda _label: None
        return
    columns = (
        TextColumn("[bold]render[/bold] {task.description:<24}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("", total=total)
        yield lambda label: bar.update(task, advance=1, description=label)
