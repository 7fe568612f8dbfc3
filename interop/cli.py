"""``railbook export``, ``railbook import`` and ``railbook diff``: 18xx-maker interop commands."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from railbook.cli import JsonOpt, app, emit, fail, rulebook_for
from railbook.errors import RailbookError

FORMATS = ("18xx-maker",)


@app.command(name="export")
def export_cmd(
    title: Annotated[str, typer.Argument(help="title name, title folder or rulebook.json")],
    to: Annotated[str, typer.Option("--to", help="target format: 18xx-maker")] = "18xx-maker",
    out: Annotated[Path, typer.Option("--out", help="output folder")] = Path("output"),
    schemas: Annotated[
        Path | None, typer.Option("--schemas", help="folder of 18xx-maker's schemas: validate the file against them")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Write TITLE as an 18xx-maker game file OUT/<title>.json; what it cannot hold is listed on stderr."""
    from railbook.jsonio import dump_json
    from railbook.outputs import title_id_problem, write_inside

    from .export import export_rulebook

    if to not in FORMATS:
        fail(f"--to: unknown format {to!r}; choose from {', '.join(FORMATS)}")
    try:
        book = rulebook_for(title)
    except RailbookError as exc:
        fail(str(exc))
        return
    problem = title_id_problem(book["title"])
    if problem:
        fail(f"{title}: title: {problem}")
    game, losses = export_rulebook(book)
    if schemas is not None:
        from .validate import validate_game

        problems = validate_game(game, schemas)
        if problems:
            fail("\n".join(f"{book['title']}: 18xx-maker schema: {p}" for p in problems))
    try:
        path = write_inside(out, f"{book['title']}.json", data=dump_json(game))
    except RailbookError as exc:
        fail(str(exc))
        return
    if as_json:
        emit({"written": str(path), "not_carried": losses})
        return
    for line in losses:
        typer.echo(f"{book['title']}: not carried: {line}", err=True)
    typer.echo(f"{book['title']}: wrote {path}")


import_app = typer.Typer(help="Import a title from another tool's format.", no_args_is_help=True)
app.add_typer(import_app, name="import")


@import_app.command(name="18xx-maker")
def import_maker(
    file: Annotated[Path, typer.Argument(help="an 18xx-maker game file (.json)")],
    out: Annotated[Path, typer.Option("--out", help="title folder to create, e.g. games/<name>")],
    tiles: Annotated[
        Path | None,
        typer.Option("--tiles", help="18xx-maker's standard tiles folder (tiles/*.json of @18xx-maker/games)"),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="replace OUT if it exists")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Write an 18xx-maker game as railbook YAML title files in OUT, with a NOTES.md TODO list."""
    from railbook.paths import is_dir, is_file

    from .ingest import import_file

    if not is_file(file):
        fail(f"{file}: no such file")
    if tiles is not None and not is_dir(tiles):
        fail(f"--tiles: {tiles} is not a folder")
    try:
        imported = import_file(file, out, tiles, force=force)
    except RailbookError as exc:
        fail(str(exc))
        return
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, ArithmeticError, RecursionError):
        fail(f"{file}: not an 18xx-maker game this importer can read")  # a field of an unexpected shape
        return
    if as_json:
        emit({"title": imported.name, "written": str(out), "todo": len(imported.todo)})
        return
    typer.echo(f"{imported.name}: wrote {out} ({len(imported.todo)} TODO items in NOTES.md)")
    typer.echo(f"check it with: railbook validate {out}")


@app.command()
def diff(
    a: Annotated[str, typer.Argument(help="title name, title folder or rulebook.json")],
    b: Annotated[str, typer.Argument(help="title name, title folder or rulebook.json")],
    section: Annotated[
        list[str] | None, typer.Option("--section", help="only these: hexes, tiles, market, trains, ...")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Compare two titles fact by fact (what 18xx-maker can hold); exit 1 when they differ."""
    from .facts import SECTIONS, align, compare, facts

    wanted = list(section or SECTIONS)
    bad = [s for s in wanted if s not in SECTIONS]
    if bad:
        fail(f"--section: unknown {', '.join(bad)}; choose from {', '.join(SECTIONS)}")
    try:
        fa = facts(rulebook_for(a))
        fb = align(fa, facts(rulebook_for(b)))
    except RailbookError as exc:
        fail(str(exc))
        return
    found = {s: compare(fa[s], fb[s], s) for s in wanted}
    if as_json:
        typer.echo(json.dumps({"a": a, "b": b, "differences": found}, indent=2, ensure_ascii=False))
    else:
        for s in wanted:
            for line in found[s]:
                typer.echo(line)
        total = sum(len(v) for v in found.values())
        summary = ", ".join(f"{s} {len(v)}" for s, v in found.items() if v) or "none"
        typer.echo(f"{total} differences ({summary})")
    if any(found.values()):
        raise typer.Exit(1)
