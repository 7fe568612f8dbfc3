"""The ``railbook`` command line."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from .errors import RailbookError

app = typer.Typer(
    help="railbook: validate, compile, render and play 18xx titles.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
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
JsonOpt = Annotated[bool, typer.Option("--json", help='print JSON; an error is {"error": ..., "where": ...}')]

_mode = {"json": False}
_WHERE = (
    re.compile(r"^(?P<where>.+?:\d+:\d+): (?P<error>.+)$"),  # file:line:col
    re.compile(r"^(?P<where>(?:\S+: )?action \d+ \(id [^)]*\)): (?P<error>.+)$"),  # [file: ]action N (id X)
    re.compile(r"^(?P<where>[^\s:]+): (?P<error>.+)$"),  # a file or title
)


def json_mode() -> bool:
    """Whether this run prints JSON (``--json`` was given)."""
    return _mode["json"]


def error_object(message: str, where: str | None = None) -> dict[str, Any]:
    """An error as ``{"error", "where"}`` (plus ``problems`` when there are several)."""
    problems = []
    for line in str(message).splitlines() or ["error"]:
        for pattern in _WHERE:
            m = pattern.match(line)
            if m:
                problems.append({"error": m["error"], "where": m["where"]})
                break
        else:
            problems.append({"error": line, "where": None})
    out: dict[str, Any] = dict(problems[0])
    if where is not None:
        out["where"] = where
    if len(problems) > 1:
        out["problems"] = problems
    return out


def emit(data: Any) -> None:
    """Print one JSON document on stdout."""
    typer.echo(json.dumps(data, ensure_ascii=False))


def fail(message: str, where: str | None = None, code: int = 1, **extra: Any) -> None:
    """Print a one-line (per problem) error, or with ``--json`` a JSON error object on stdout, and exit ``code``
    (1: bad input; 2: a fault of railbook)."""
    if json_mode():
        emit({**error_object(message, where), **extra})
    else:
        for line in str(message).splitlines() or ["error"]:
            typer.echo(line, err=True)
    raise typer.Exit(code)


def _titles(titles: list[str] | None) -> list[str]:
    from railbook.compiler.load import available_titles

    return list(titles) if titles else available_titles()


@app.command()
def validate(
    titles: TitlesArg = None,
    strict: Annotated[bool, typer.Option("--strict", help="warnings fail too (exit 1)")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Check titles: schema, references and playability (errors; warnings where a design may mean it)."""
    from railbook.compiler.compile import check
    from railbook.compiler.load import load_title

    errors: list[str] = []
    status: dict[str, str] = {}
    warned: dict[str, list[str]] = {}
    for title in _titles(titles):
        warnings: list[str] = []
        try:
            check(load_title(title), warnings)
        except RailbookError as exc:
            status[title] = "error"
            errors.append(str(exc))
            continue
        if warnings:
            warned[title] = warnings
        if not as_json:
            for line in warnings:
                typer.echo(line, err=True)
        if strict and warnings:
            status[title] = "error"
            errors.append(f"{title}: {len(warnings)} warning(s), which --strict makes errors")
        else:
            status[title] = "ok"
            if not as_json:
                typer.echo(f"{title}: ok" + (f" ({len(warnings)} warning(s))" if warnings else ""))
                if strict:  # what each private does, as the engine will play it
                    from railbook.compiler.ability_words import private_lines
                    from railbook.compiler.validate import validate_source

                    for line in private_lines(validate_source(load_title(title))):
                        typer.echo(line)
    extra = {"warnings": warned} if warned else {}
    if errors:
        fail("\n".join(errors), titles=status, **extra)
    if as_json:
        emit({"titles": status, **extra})


@app.command(name="compile")
def compile_cmd(titles: TitlesArg = None, out: OutOpt = Path("output"), as_json: JsonOpt = False) -> None:
    """Compile titles to OUT/<title>/rulebook.json."""
    from railbook.compiler.compile import compile_title

    errors: list[str] = []
    written: dict[str, str] = {}
    for title in _titles(titles):
        try:
            path = compile_title(title, out)
            written[title] = str(path)
            if not as_json:
                typer.echo(f"{title}: wrote {path}")
        except RailbookError as exc:
            errors.append(str(exc))
    if errors:
        fail("\n".join(errors), written=written)
    if as_json:
        emit({"written": written})


def rulebook_for(title: str) -> dict[str, Any]:
    """A compiled rulebook: from a rulebook.json path, or compiled from a title in memory."""
    from railbook.compiler.compile import build_rulebook
    from railbook.paths import exists, is_dir

    path = Path(title)
    if path.suffix == ".json" and exists(path) and not is_dir(path):  # a title folder may be named x.json
        return read_rulebook(path)
    return build_rulebook(title)


def read_rulebook(path: Path) -> dict[str, Any]:
    """A compiled rulebook file, read within the input limits and checked against its JSON Schema."""
    import jsonschema

    from railbook.paths import schemas_dir
    from railbook.records import parse_json, read_text

    book = parse_json(read_text(path), str(path), depth=64)
    bad = _bad_text(book)
    if bad is not None:
        raise RailbookError(f"{path}: not a compiled rulebook: {bad}")
    schema = json.loads((schemas_dir() / "rulebook.schema.json").read_text(encoding="utf-8"))
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(book))
    if error is not None:
        at = "/".join(str(p) for p in error.absolute_path) or "top level"
        raise RailbookError(f"{path}: not a compiled rulebook: {at}: {' '.join(error.message.split())[:200]}")
    from railbook.compiler.bounds import rulebook_bound_problems

    problems = rulebook_bound_problems(book)
    if problems:
        raise RailbookError("\n".join(f"{path}: {line}" for line in problems[:20]))
    return book


def _bad_text(data: Any, at: str = "") -> str | None:
    """Where JSON data holds a text no title may (a control character, a lone surrogate), and why."""
    from railbook.compiler.load import text_problem

    stack: list[tuple[Any, str]] = [(data, at)]
    while stack:
        node, where = stack.pop()
        if isinstance(node, str):
            problem = text_problem(node)
            if problem:
                return f"{where or 'top level'}: {problem}"
        elif isinstance(node, dict):
            for key, value in node.items():
                key_problem = text_problem(str(key))
                if key_problem:
                    return f"{where or 'top level'}: a key's {key_problem}"
                stack.append((value, f"{where}/{key}".lstrip("/")))
        elif isinstance(node, list):
            stack.extend((value, f"{where}/{i}".lstrip("/")) for i, value in enumerate(node))
    return None


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
    as_json: JsonOpt = False,
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
    as_json: JsonOpt = False,
) -> None:
    """Regenerate the JSON Schemas from the models."""
    from railbook.compiler.schema import SCHEMA_DIR, write_schemas

    try:
        paths = [str(p) for p in write_schemas(out or SCHEMA_DIR)]
    except OSError as exc:
        fail(f"{exc.filename or out}: cannot write: {exc.strerror or exc}")
        return
    if as_json:
        emit({"written": paths})
        return
    for path in paths:
        typer.echo(f"wrote {path}")


@app.command()
def new(
    name: Annotated[str, typer.Argument(help="name of the new title")],
    directory: Annotated[Path, typer.Option("--dir", help="folder to create it in")] = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Scaffold a minimal valid title to start a design from."""
    from railbook.compiler.scaffold import scaffold

    try:
        target = scaffold(name, directory)
    except RailbookError as exc:
        fail(str(exc))
        return
    if as_json:
        emit({"created": str(target)})
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


@app.command()
def soak(
    titles: TitlesArg = None,
    games: Annotated[int, typer.Option("--games", min=1, help="random games per title")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="game i is seeded SEED + i")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", min=0, help="processes (0: one per core)")] = 0,
    max_actions: Annotated[int, typer.Option("--max-actions", min=1, help="stop a game after this many")] = 3000,
    records: Annotated[
        Path | None, typer.Option("--records", help="write every game here as an 18xx.games record (JSON)")
    ] = None,
    bots: Annotated[
        str | None, typer.Option("--bots", help="a bot plays every seat instead of the random player (heuristic)")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Play random legal games, checking the game's invariants after every action."""
    if bots is not None:
        from railbook.bots import BOTS

        if bots not in BOTS:
            fail(f"--bots: no bot named {bots!r} (bots: {', '.join(sorted(BOTS))})")
    from railbook.soak import soak as run

    if records is not None:
        try:
            records.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            fail(f"{records}: cannot write: {exc.strerror or exc}")

    summaries = []
    for title in _titles(titles):
        try:
            book = rulebook_for(title)
        except RailbookError as exc:
            fail(str(exc))
            return
        live = sys.stderr.isatty() and not as_json

        def show(s: Any, total: int = games) -> None:
            print(f"\r{s.title}: {s.games}/{total} games, {len(s.failures)} failures", end="", file=sys.stderr)

        summary = run(
            str(book["title"]),
            book,
            games,
            seed,
            jobs,
            max_actions,
            show if live else None,
            str(records) if records is not None else None,
            bots,
        )
        if live:
            print("\r\033[K", end="", file=sys.stderr)
        summaries.append(summary)
        if not as_json:
            _print_soak(summary, title)
    failures = sum(len(s.failures) + (s.title_failure is not None) for s in summaries)
    if as_json:
        emit({"titles": [s.as_dict() for s in summaries], "failures": failures})
    if failures:
        raise typer.Exit(1)
    if titles and not any(s.playable for s in summaries):
        if not as_json:
            typer.echo("nothing to soak: no title named is playable yet", err=True)
        raise typer.Exit(1)


def _print_soak(s: Any, given: str | None = None) -> None:
    """A soak's summary line, and for each failure a command that replays it (naming the title as it was given)."""
    if not s.playable:
        typer.echo(f"{s.title}: not playable yet: {s.reason}")
        return
    ends = ", ".join(f"{reason} {n}" for reason, n in sorted(s.end_reasons.items(), key=lambda kv: -kv[1]))
    unended = ", ".join(f"{how} {n}" for how, n in sorted(s.unended.items(), key=lambda kv: -kv[1]))
    failed = len(s.failures) + (s.title_failure is not None)
    typer.echo(
        f"{s.title}: {s.games} games ({s.rule_ends} ended by a rule{'; ' + ends if ends else ''}"
        f"{'; unended: ' + unended if unended else ''}), {s.actions:,} actions, "
        f"{s.seconds:.1f} s, {s.games_per_second:.2f} games/s, {failed} failures"
    )
    if s.title_failure:
        typer.echo(f"  FAIL {s.title}: {s.title_failure}")
    if s.not_judged:
        typer.echo(f"  note: {s.not_judged}")
    for f in s.failures:
        typer.echo(f"  FAIL seed {f.seed} after action {f.action}: {f.invariant}: {f.message}")
        again = shlex.quote(given if given is not None else str(s.title))
        typer.echo(f"    reproduce: {command_name()} soak {again} --games 1 --seed {f.seed}")


def _register_optional() -> None:
    """Commands that live in other modules (render, engine) register themselves here."""
    for module in (
        "railbook.render.cli",
        "railbook.replay_cli",
        "railbook.routes.cli",
        "railbook.interop.cli",
        "railbook.serve.cli",
        "railbook.simulate.cli",
    ):
        try:
            __import__(module)
        except ModuleNotFoundError as exc:
            if exc.name and not module.startswith(exc.name):
                raise


def _report(message: str, code: int, where: str | None = None) -> NoReturn:
    if json_mode():
        print(json.dumps(error_object(message, where), ensure_ascii=False))
    else:
        for line in str(message).splitlines() or ["error"]:
            print(line, file=sys.stderr)
    sys.exit(code)


def _run_app() -> None:
    """Run the app so that usage errors (unknown option, missing argument) are one line too (or, with ``--json``,
    one JSON object), with exit status 1; no arguments at all show the help on stderr (exit status 1)."""
    try:  # typer 0.26 and later bundle their own click (a separate click may be installed beside it)
        from typer._click.exceptions import ClickException, NoArgsIsHelpError
    except ImportError:
        from click.exceptions import ClickException, NoArgsIsHelpError  # type: ignore[no-redef,assignment]
    try:
        code = app(standalone_mode=False)
    except NoArgsIsHelpError as exc:
        if json_mode():
            _report("no command given (railbook -h lists them)", 1, "command line")
        print(exc.format_message().rstrip(), file=sys.stderr)
        sys.exit(1)
    except ClickException as exc:
        message = " ".join(exc.format_message().split())
        _report(message if json_mode() else f"command line: {message}", 1, "command line")
    except typer.Abort:
        _report("interrupted", 130)
    sys.exit(code if isinstance(code, int) else 0)


def main() -> None:
    """Entry point: every error is one line (with ``--json`` a JSON object), never a traceback."""
    _register_optional()
    args = sys.argv[1:]
    _mode["json"] = "--json" in (args[: args.index("--")] if "--" in args else args)
    try:
        _run_app()
    except RailbookError as exc:
        _report(str(exc), exc.exit_code, getattr(exc, "where", None))
    except KeyboardInterrupt:
        _report("interrupted", 130)
    except Exception as exc:
        _report(f"internal error: {type(exc).__name__}: {' '.join(str(exc).split())}", 2)
