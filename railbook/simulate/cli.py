"""``railbook simulate``: registered on the Typer app of :mod:`railbook.cli` at start-up."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from railbook.cli import JsonOpt, app, emit, fail, rulebook_for
from railbook.errors import RailbookError


@app.command()
def simulate(
    designs: Annotated[list[str], typer.Argument(help="a title or title folder; two or more are compared")],
    out: Annotated[Path, typer.Option("--out", help="output folder (games.jsonl; one sub-folder per design)")] = Path(
        "simulation"
    ),
    games: Annotated[int, typer.Option("--games", min=1, help="games per design")] = 100,
    players: Annotated[int, typer.Option("--players", min=0, help="seats (0: 4 where allowed, else the most)")] = 0,
    bots: Annotated[str, typer.Option("--bots", help="bots in seat order, the last filling the rest")] = "heuristic",
    seed: Annotated[int, typer.Option("--seed", help="game i is seeded SEED + i")] = 0,
    option: Annotated[list[str] | None, typer.Option("--option", help="a title option (repeat for more)")] = None,
    workers: Annotated[int, typer.Option("--workers", min=0, help="processes (0: one per core)")] = 0,
    ray: Annotated[str | None, typer.Option("--ray", help="play on Ray: auto, local or a cluster ADDRESS")] = None,
    report: Annotated[Path | None, typer.Option("--report", help="write an HTML report (per design)")] = None,
    max_actions: Annotated[int, typer.Option("--max-actions", min=1, help="a game is capped after this many")] = 5000,
    as_json: JsonOpt = False,
) -> None:
    """Play games of bots and sum them up for a designer (two designs: their differences on the same seeds)."""
    from railbook.bots import BOTS

    from .compare import compare
    from .compare import render as render_compare
    from .run import SimConfig
    from .run import simulate as run
    from .summary import summarize

    names = tuple(b.strip() for b in bots.split(",") if b.strip())
    unknown = [b for b in names if b not in BOTS]
    if unknown or not names:
        fail(f"unknown bot {unknown[0] if unknown else bots!r} (bots: {', '.join(sorted(BOTS))})", "--bots")
    books = []
    for design in designs:
        try:
            books.append(rulebook_for(design))
        except RailbookError as exc:
            fail(str(exc))
    results: list[dict[str, Any]] = []
    labels = _labels(designs)
    for design, label, book in zip(designs, labels, books, strict=True):
        counts = sorted(int(n) for n in book.get("players") or {})
        seats = players or (4 if 4 in counts else max(counts, default=4))
        if counts and seats not in counts:
            fail(f"{design}: {seats} players is not allowed (allowed: {', '.join(map(str, counts))})", "--players")
        config = SimConfig(games, seats, names, seed, tuple(option or ()), workers, ray, max_actions)
        where = out if len(designs) == 1 else out / label
        records = run(book, config, where, _progress(label, games, as_json))
        summary = summarize(records)
        entry: dict[str, Any] = {"design": design, "out": str(where / "games.jsonl"), "summary": summary}
        if report is not None:
            from .report import render

            path = report if len(designs) == 1 else report.with_name(f"{report.stem}-{label}{report.suffix}")
            entry["report"] = str(render(records, f"{label} ({seats} players, bots {','.join(names)})", path))
        results.append({**entry, "records": records})
        if not as_json:
            _print(label, summary, entry)
    output: dict[str, Any] = {"designs": [{k: v for k, v in r.items() if k != "records"} for r in results]}
    if len(results) > 1:
        base = results[0]
        output["compare"] = []
        for other, label in zip(results[1:], labels[1:], strict=True):
            rows = compare(base["records"], other["records"])
            page = render_compare(rows, (labels[0], label), out / f"compare-{labels[0]}-{label}.html")
            output["compare"].append({"a": labels[0], "b": label, "rows": rows, "html": str(page)})
            if not as_json:
                _print_compare(labels[0], label, rows, page)
    if as_json:
        emit(output)


def _labels(designs: list[str]) -> list[str]:
    """A short distinct name per design: the title or the folder's name."""
    out: list[str] = []
    for d in designs:
        name = Path(d).name or d
        out.append(name if name not in out else f"{name}-{len(out) + 1}")
    return out


def _progress(label: str, total: int, quiet: bool) -> Any:
    if quiet or not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.progress import Progress

    progress = Progress(console=Console(stderr=True), transient=True)
    task = progress.add_task(f"{label}", total=total)
    progress.start()
    done = {"n": 0}

    def step(record: dict[str, Any]) -> None:
        done["n"] += 1
        progress.update(task, advance=1)
        if done["n"] >= total:
            progress.stop()

    return step


def _print(label: str, s: dict[str, Any], entry: dict[str, Any]) -> None:
    ends = ", ".join(f"{k} {v}" for k, v in s["end_reasons"].items())
    typer.echo(
        f"{label}: {s['games']} games, rule ends {100 * s['rule_end_rate']:.1f}% ({ends}); "
        f"{s['operating_rounds']['mean']} ORs, {s['actions']['mean']} actions a game; "
        f"{s['cpu_seconds_per_game']} CPU s a game"
    )
    for name, b in s["bots"].items():
        lo, hi = b["win_rate_ci"]
        typer.echo(
            f"  {name}: wins {b['wins']}/{b['games']} "
            f"({100 * b['win_rate']:.1f}%, 95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"
        )
    typer.echo(f"  games: {entry['out']}" + (f"; report: {entry['report']}" if "report" in entry else ""))


def _print_compare(a: str, b: str, rows: list[dict[str, Any]], page: Path) -> None:
    significant = [r for r in rows if r["significant"]]
    typer.echo(f"{b} against {a}: {len(significant)} of {len(rows)} figures differ (95% CI excludes 0); {page}")
    for r in significant[:15]:
        typer.echo(f"  {r['metric']}: {r['a']} -> {r['b']} ({r['diff']:+}, CI {r['ci'][0]} .. {r['ci'][1]})")
