"""The ``railbook`` command line."""

from __future__ import annotations

import json
import shlex
import shutil
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
    context_settings={"help_option_names": ["-h", "--help"]},
)


def version_text() -> str:
    """``railbook <version>``: the installed distribution's version."""
    from importlib.metadata import PackageNotFoundError, version

    from . import __version__

    try:
        return f"railbook {version('railbook')}"
    except PackageNotFoundError:
        return f"railbook {__version__}"


def _show_version(value: bool) -> None:
    if value:
        typer.echo(version_text())
        raise typer.Exit()


@app.callback()
def _main(
    show_version: Annotated[
        bool, typer.Option("--version", callback=_show_version, is_eager=True, help="print the version and exit")
    ] = False,
) -> None:
    """railbook: validate, compile, render and play 18xx titles."""


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
def validate(
    titles: TitlesArg = None,
    strict: Annotated[bool, typer.Option("--strict", help="warnings fail too (exit 1)")] = False,
) -> None:
    """Check titles: schema, references and playability (errors; warnings where a design may mean it)."""
    from railbook.compiler.compile import check
    from railbook.compiler.load import load_title

    errors: list[str] = []
    for title in _titles(titles):
        warnings: list[str] = []
        try:
            check(load_title(title), warnings)
        except RailbookError as exc:
            errors.append(str(exc))
            continue
        for line in warnings:
            typer.echo(line, err=True)
        if strict and warnings:
            errors.append(f"{title}: {len(warnings)} warning(s), which --strict makes errors")
        else:
            typer.echo(f"{title}: ok" + (f" ({len(warnings)} warning(s))" if warnings else ""))
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
        "trains": [
            {
                "name": n,
                "price": t["price"],
                "count": train_count(t),
                "variants": [{"name": v["name"], "price": v["price"]} for v in t.get("variants", [])],
            }
            for n, t in book["trains"].items()
        ],
        "corporations": list(book["corporations"]),
        "minors": list(book["minors"]),
        "privates": list(book["privates"]),
        "phases": [p["name"] for p in book["phases"]],
        "mechanics": sorted(book["mechanics"]),
        "options": sorted(book["options"]),
    }


def train_faces(train: dict[str, Any]) -> str:
    """``4 or 3/5 ($180/$160)``: a train card's faces and their prices."""
    faces = [train, *train.get("variants", [])]
    names = " or ".join(str(f["name"]) for f in faces)
    prices = "/".join(f"${f['price']}" for f in faces)
    return f"{names} ({prices})"


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
    name = facts["full_name"]
    heading = name if name.startswith(facts["title"]) else f"{facts['title']}: {name}"
    typer.echo(f"{heading} (format {facts['format_version']})")
    typer.echo(f"  players      {facts['players']['min']}-{facts['players']['max']}")
    typer.echo(f"  hexes        {facts['hexes']}")
    typer.echo(f"  tiles        {len(facts['tiles'])} kinds")
    typer.echo("  trains       " + ", ".join(train_faces(t) for t in facts["trains"]))
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
    typer.echo(f"created {target}; check it with: {command_name()} validate {shlex.quote(str(target))}")


def command_name() -> str:
    """How the user can run railbook again: ``railbook`` when that is on PATH, else the path they used."""
    invoked = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    on_path = shutil.which("railbook")
    if invoked is None or invoked.name != "railbook":
        return "railbook"
    if on_path and Path(on_path).resolve() == invoked.resolve():
        return "railbook"
    return shlex.quote(str(invoked))


def _register_optional() -> None:
    """Commands that live in other modules (render, engine) register themselves here."""
    for module in ("railbook.render.cli", "railbook.replay_cli", "railbook.routes.cli", "railbook.interop.cli"):
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
