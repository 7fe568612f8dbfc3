"""``railbook routes``: the best routes of a recorded position, or of every recorded run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from railbook.cli import JsonOpt, app, fail


def rulebook_for_record(record: dict[str, Any]) -> dict[str, Any]:
    """The compiled rulebook of a record's title (``title`` as on the site, or a title folder name)."""
    from railbook.compiler.compile import build_rulebook
    from railbook.compiler.load import available_titles

    wanted = str(record.get("title", ""))
    for title in available_titles():
        if title == wanted:
            return build_rulebook(title)
    for title in available_titles():
        book = build_rulebook(title)
        if (book.get("meta") or {}).get("site_id") == wanted:
            return book
    fail(f"no title {wanted!r} in games/ for this record")
    raise AssertionError  # fail() exits


def solve_decision(decision: Any) -> tuple[Any, float]:
    """The solution of one decision and the time taken (graph building included), in ms."""
    from .search import solve

    solution = solve(decision.problem)
    return solution, decision.build_ms + solution.stats.get("ms", 0.0)


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    import statistics

    times = [r["ms"] for r in rows]
    with_rec = [r for r in rows if r["recorded"] is not None]
    return {
        "runs": len(rows),
        "optimum_ge_recorded": sum(1 for r in with_rec if r["optimum"] >= r["recorded"]),
        "optimum_gt_recorded": sum(1 for r in with_rec if r["optimum"] > r["recorded"]),
        "median_ms": round(statistics.median(times), 3) if times else 0.0,
        "max_ms": round(max(times), 3) if times else 0.0,
        "interpreter": sum(1 for r in rows if r.get("source") == "interpreter"),
    }


@app.command()
def routes(
    file: Annotated[Path, typer.Argument(help="an 18xx.games record (JSON)")],
    at: Annotated[int | None, typer.Option("--at", help="optimise just before the action with this id")] = None,
    corporation: Annotated[str | None, typer.Option("--corporation", help="corporation to optimise for")] = None,
    as_json: JsonOpt = False,
    source: Annotated[
        str, typer.Option("--source", help="where boards come from: interpreter (the only source; auto = interpreter)")
    ] = "interpreter",
) -> None:
    """Best routes: at one point of a record (--at), or for every recorded run against what was run."""
    from railbook.records import kept_actions, read_record

    from .positions import ReplayUnavailable, decisions

    record = read_record(file)
    kept_actions(record["actions"])  # undo and redo within their limit, before any reader runs
    book = rulebook_for_record(record)
    known = {**(book.get("corporations") or {}), **(book.get("minors") or {})}
    if corporation is not None and corporation not in known:
        fail(f"--corporation: unknown corporation {corporation!r} (known: {', '.join(sorted(known))})")
        return
    try:
        found, why = decisions(record, book, at=at, corporation=corporation, source=source)
    except (ReplayUnavailable, KeyError, ValueError, TypeError, IndexError, AttributeError) as exc:
        fail(f"{file}: {exc.args[0] if isinstance(exc, KeyError) and exc.args else exc}")
        return
    if why and not as_json:
        typer.echo(f"note: runs after this point are not optimised: {why}", err=True)
    if at is not None:
        decision = found[0]
        solution, ms = solve_decision(decision)
        faces = {t.id: t.name for t in decision.problem.trains}
        out = {
            "corporation": decision.corporation,
            "total": solution.total,
            "routes": [
                {"train": r["train"], "face": faces.get(str(r["train"]), str(r["train"]))}
                | {k: r[k] for k in ("stops", "hexes", "revenue")}
                for r in solution.describe(decision.problem)
            ],
            "ms": round(ms, 3),
        }
        if as_json:
            typer.echo(json.dumps(out))
            return
        typer.echo(f"{decision.corporation}: ${solution.total} ({ms:.1f} ms)")
        for r in out["routes"]:
            train = f"{r['train']} ({r['face']})"
            typer.echo(f"  {train:12s} ${r['revenue']:<5d} {'-'.join(r['stops'])}   via {' '.join(r['hexes'])}")
        if not out["routes"]:
            typer.echo("  no route")
        return
    if not found:
        fail(f"{file}: no recorded runs (run_routes with routes) to optimise; name one with --at")
        return
    rows = []
    for decision in found:
        solution, ms = solve_decision(decision)
        rows.append(
            {
                "id": decision.action_id,
                "corporation": decision.corporation,
                "recorded": decision.recorded,
                "optimum": solution.total,
                "ms": round(ms, 3),
                "source": decision.source,
            }
        )
    summ = summary(rows)
    if why:
        summ["stopped"] = why
    if as_json:
        typer.echo(json.dumps({"decisions": rows, "summary": summ}))
        return
    for r in rows:
        rec = "?" if r["recorded"] is None else f"${r['recorded']}"
        mark = (
            " "
            if r["recorded"] is None or r["optimum"] == r["recorded"]
            else ("+" if r["optimum"] > r["recorded"] else "!")
        )
        typer.echo(
            f"{r['id']:>6} {r['corporation']:6s} recorded {rec:>6} optimum ${r['optimum']:<5d}{mark} {r['ms']:7.1f} ms"
        )
    typer.echo(
        f"{summ['runs']} runs: optimum >= recorded in {summ['optimum_ge_recorded']}, "
        f"> in {summ['optimum_gt_recorded']}; median {summ['median_ms']:.1f} ms, max {summ['max_ms']:.1f} ms"
    )
