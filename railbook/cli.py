"""The ``railbook`` command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from .errors import RailbookError

app = typer.Typer(
    help="railbook: validate, compile, render and play 18xx titles.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

TitlesArg = Annotated[list[str] | None, typer.Argument(help="title names or title folders (default: all)")]
OutOpt = Annotated[Path, typer.Option("--out", help="output folder")]


def fail(message: str) -> None:
    """Print a one-line (per problem) error and exit 1."""
    for line in str(message).splitlines() or ["error"]:
        typer.echo(line, err=True)
    raise typer.Exit(1)


def _titles(titles: list[str] | None) -> list[str]:
    from railbook.compiler.load import available_titles

    return list(titles) if titles else available_titles()


@app.command()
def validate(titles: TitlesArg = None) -> None:
    """Check titles against the schema and the semantic rules."""
    from railbook.compiler.compile import check
    from railbook.compiler.load import load_title

    errors: list[str] = []
    for title in _titles(titles):
        try:
            check(load_title(title))
            typer.echo(f"{title}: ok")
        except RailbookError as exc:
            errors.append(str(exc))
    if errors:
        fail("\n".join(errors))


@app.command(name="compile")
def compile_cmd(titles: TitlesArg = None, out: OutOpt = Path("output")) -> None:
    """Compile titles to OUT/<title>/rulebook.json."""
    from railbook.compiler.compile import compile_title

    errors: list[str] = []
    for title in _titles(titles):
        try:
            path = compile_title(title, out)
            typer.echo(f"{title}: wrote {path}")
        except RailbookError as exc:
            errors.append(str(exc))
    if errors:
        fail("\n".join(errors))


def rulebook_for(title: str) -> dict[str, Any]:
    """A compiled rulebook: from a rulebook.json path, or compiled from a title in memory."""
    from railbook.compiler.compile import build_rulebook
    from railbook.jsonio import read_json as load_rulebook

    path = Path(title)
    if path.is_file() and path.suffix == ".json":
        return load_rulebook(path)
    return build_rulebook(title)


def summarise(book: dict[str, Any]) -> dict[str, Any]:
    """The facts ``railbook info`` shows."""
    counts = [int(n) for n in book["players"]]

    def train_count(train: dict[str, Any]) -> Any:
        c = train["count"]
        return {str(k): v for k, v in c.items()} if isinstance(c, dict) else c

    return {
        "title": book["title"],
        "full_name": book["meta"]["full_name"],
        "format_version": book["format_version"],
        "players": {"min": min(counts), "max": max(counts)},
        "hexes": len(book["hexes"]),
        "tiles": {tid: t["count"] for tid, t in book["tiles"].items()},
        "trains": [{"name": n, "price": t["price"], "count": train_count(t)} for n, t in book["trains"].items()],
        "corporations": list(book["corporations"]),
        "minors": list(book["minors"]),
        "privates": list(book["privates"]),
        "phases": [p["name"] for p in book["phases"]],
        "mechanics": sorted(book["mechanics"]),
        "options": sorted(book["options"]),
    }


@app.command()
def info(
    title: Annotated[str, typer.Argument(help="title name, title folder or rulebook.json")],
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Summarise a title."""
    try:
        facts = summarise(rulebook_for(title))
    except RailbookError as exc:
        fail(str(exc))
        return
    if as_json:
        typer.echo(json.dumps(facts, indent=2, ensure_ascii=False))
        return
    typer.echo(f"{facts['title']}: {facts['full_name']} (format {facts['format_version']})")
    typer.echo(f"  players      {facts['players']['min']}-{facts['players']['max']}")
    typer.echo(f"  hexes        {facts['hexes']}")
    typer.echo(f"  tiles        {len(facts['tiles'])} kinds")
    typer.echo("  trains       " + ", ".join(f"{t['name']} (${t['price']})" for t in facts["trains"]))
    typer.echo("  corporations " + ", ".join(facts["corporations"]))
    if facts["minors"]:
        typer.echo("  minors       " + ", ".join(facts["minors"]))
    typer.echo("  privates     " + ", ".join(facts["privates"]))
    typer.echo("  phases       " + ", ".join(facts["phases"]))
    typer.echo("  mechanics    " + ", ".join(facts["mechanics"]))
    if facts["options"]:
        typer.echo("  options      " + ", ".join(facts["options"]))


@app.command()
def schema(
    out: Annotated[Path | None, typer.Option("--out", help="folder (default: schemas/)")] = None,
) -> None:
    """Regenerate the JSON Schemas from the models."""
    from railbook.compiler.schema import SCHEMA_DIR, write_schemas

    for path in write_schemas(out or SCHEMA_DIR):
        typer.echo(f"wrote {path}")


@app.command()
def new(
    name: Annotated[str, typer.Argument(help="name of the new title")],
    directory: Annotated[Path, typer.Option("--dir", help="folder to create it in")] = Path("."),
) -> None:
    """Scaffold a minimal valid title to start a design from."""
    from railbook.compiler.scaffold import scaffold

    try:
        target = scaffold(name, directory)
    except RailbookError as exc:
        fail(str(exc))
        return
    typer.echo(f"created {target}; check it with: railbook validate {target}")


def _register_optional() -> None:
    """Commands that live in other modules (render, engine) register themselves here."""
    for module in ("railbook.render.cli", "railbook.engine.cli", "railbook.routes.cli", "railbook.interop.cli"):
        try:
            __import__(module)
        except ModuleNotFoundError as exc:
            if exc.name and not module.startswith(exc.name):
                raise


def main() -> None:
    """Entry point: every error is one line, never a traceback."""
    _register_optional()
    try:
        app()
    except RailbookError as exc:
        for line in str(exc).splitlines():
            print(line, file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except Exception as exc:
        print(f"internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(2)
