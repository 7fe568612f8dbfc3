"""18xx-maker interop: import every game of @18xx-maker/games (schema-checked, imported, validated, compiled,
rendered) and export every title (validated against 18xx-maker's schemas)."""

from __future__ import annotations

import time

from railbook.errors import RailbookError


def run() -> None:
    from railbook.compiler.load import available_titles
    from railbook.interop.breadth import STAGES, summary, sweep
    from railbook.interop.export import export_rulebook
    from railbook.interop.npm import maker_packages
    from railbook.interop.validate import validate_game

    from railbook.api import load_rulebook

    try:
        games_pkg, schemas = maker_packages()
    except RailbookError as exc:
        print(f"   skipped: {exc}")
        return
    start = time.perf_counter()
    for title in available_titles():
        try:
            game, losses = export_rulebook(load_rulebook(title))
        except RailbookError as exc:
            print(f"   export {title:6s} skipped: {str(exc).splitlines()[0]}")
            continue
        problems = validate_game(game, schemas)
        print(
            f"   export {title:6s} schema {'ok' if not problems else f'{len(problems)} errors'}, {len(losses)} losses"
        )
    print(f"   export all {time.perf_counter() - start:.1f} s")
    files = sorted((games_pkg / "games").glob("*.json"))
    start = time.perf_counter()
    outcomes = sweep(files, games_pkg / "tiles", schemas)
    counts, causes = summary(outcomes)
    print(
        f"   import {len(files)} games in {time.perf_counter() - start:.1f} s: "
        + ", ".join(f"{stage} {counts[stage]}" for stage in STAGES)
    )
    for cause, n in causes.most_common():
        print(f"   failed {n:3d} x {cause}")
    for o in outcomes:
        if o.cause:
            print(f"     {o.game}: {o.cause}")
