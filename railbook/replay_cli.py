"""``railbook replay`` and ``railbook export-log``: the interpreter's command-line commands.

Registered on the Typer app of :mod:`railbook.cli` at start-up.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from railbook.cli import JsonOpt, app, emit, fail
from railbook.errors import RailbookError


def _about(file: Path, exc: Exception) -> str:
    """An error message that names the record file."""
    text = str(exc)
    return text if text.startswith(str(file)) else f"{file}: {text}"


def _ordered(result: dict[str, int]) -> dict[str, int]:
    return dict(sorted(result.items(), key=lambda kv: -kv[1]))


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="an 18xx.games export or a railbook action log (JSON)")],
    as_json: JsonOpt = False,
    strict: Annotated[bool, typer.Option("--strict", help="a recorded revenue that differs is an error")] = False,
    digest: Annotated[
        bool, typer.Option("--digest", help="print a state digest per action (docs/CONFORMANCE.md), JSON lines")
    ] = False,
) -> None:
    """Replay a recorded game, checking every action; exit 1 at the first illegal one."""
    from railbook.api import replay as run
    from railbook.engine.replay import load

    if digest:
        _digest(file)
        return
    try:
        record = load(file)
        outcome = run(record, strict=strict)
    except RailbookError as exc:
        fail(_about(file, exc), code=exc.exit_code)
        return
    for warning in outcome.warnings:
        typer.echo(f"warning: {warning}", err=True)
    result = _ordered(outcome.result)
    facts = {"result": result, "game_end_reason": outcome.game_end_reason, "actions": outcome.actions}
    if outcome.expected_result is not None and not outcome.matches:  # one error, with the facts, and no result
        expected = _ordered({str(k): int(v) for k, v in outcome.expected_result.items()})
        fail(
            f"{file}: result {result} / {outcome.game_end_reason} differs from the recorded "
            f"{expected} / {outcome.expected_reason}",
            result=result,
            game_end_reason=outcome.game_end_reason,
            actions=outcome.actions,
        )
    if as_json:
        typer.echo(json.dumps(facts))
        return
    typer.echo(f"{file}: {outcome.actions} actions, game end: {outcome.game_end_reason or 'not finished'}")
    for pid, value in result.items():
        typer.echo(f"  {outcome.game.context.name('P|' + pid):20s} {value}")


def _digest(file: Path) -> None:
    """``replay --digest``: one JSON line per processed action, then the outcome (or an error line; exit 1)."""
    import sys

    from railbook.api import record_rulebook
    from railbook.engine.digest import digest_stream
    from railbook.engine.replay import load

    try:
        record = load(file)
        rulebook = record_rulebook(record)
    except RailbookError as exc:
        fail(_about(file, exc), code=exc.exit_code)
        return
    out = sys.stdout
    for line in digest_stream(record, rulebook):
        out.write(json.dumps(line, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n")
        if "error" in line:
            out.flush()
            raise typer.Exit(1)
    out.flush()


@app.command(name="export-log")
def export_log(
    file: Annotated[Path, typer.Argument(help="an 18xx.games export")],
    out: Annotated[Path | None, typer.Option("--out", help="write here (default: stdout)")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Write a record as railbook's own action log (docs/ACTION_LOG.md), checked by a replay."""
    from railbook.api import record_rulebook
    from railbook.api import replay as run
    from railbook.engine.replay import export_log as export
    from railbook.engine.replay import load

    try:
        record = load(file)
        rulebook = record_rulebook(record)
        outcome = run(record, rulebook)
        log = export(record, rulebook, outcome.game)
    except RailbookError as exc:
        fail(_about(file, exc), code=exc.exit_code)
        return
    text = json.dumps(log, indent=1, ensure_ascii=False) + "\n"
    if out is None:
        typer.echo(text, nl=False)
    else:
        from railbook.jsonio import write_atomic

        try:
            write_atomic(out, text)
        except OSError as exc:
            fail(f"{out}: cannot write: {exc.strerror or exc}")
        if as_json:
            emit({"written": str(out)})
        else:
            typer.echo(f"wrote {out}")
