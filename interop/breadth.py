"""Import many 18xx-maker games and count how far each gets: validated, compiled, rendered."""

from __future__ import annotations

import re
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from railbook.errors import RailbookError
from railbook.jsonio import read_json

from .ingest import import_game, load_catalogue, write_title

STAGES = ("schema", "imported", "validated", "compiled", "rendered")


@dataclass
class Outcome:
    game: str
    reached: str  # the last stage passed ("" when even the 18xx-maker schema check failed)
    cause: str = ""
    todo: int = 0


def _cause(message: str) -> str:
    """An error's first line without the file, hex ids and numbers, to group failures."""
    line = message.splitlines()[0] if message else "unknown"
    line = re.sub(r"^\S+:\d+:\d+: ", "", line)
    line = re.sub(r"\b[A-Z]{1,2}\d{1,3}\b", "<hex>", line)
    return re.sub(r"'[^']*'", "'…'", line)[:140]


def sweep(
    games: list[Path],
    catalogue_dir: Path,
    schemas: Path | None = None,
    *,
    render: bool = True,
    work: Path | None = None,
) -> list[Outcome]:
    """Import each game file into a temporary folder and take it as far as it goes."""
    from railbook.compiler.compile import build_rulebook, check
    from railbook.compiler.load import load_title

    catalogue = load_catalogue(catalogue_dir)
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="railbook-maker-") as tmp:
        base = work or Path(tmp)
        for path in games:
            outcome = Outcome(path.stem, "")
            try:
                game: Any = read_json(path)
                if schemas is not None:
                    from .validate import validate_game

                    problems = validate_game(game, schemas)
                    if problems:
                        raise RailbookError("18xx-maker schema: " + problems[0])
                outcome.reached = "schema"
                imported = import_game(game, re.sub(r"[^A-Za-z0-9_.-]", "_", path.stem), catalogue, path.name)
                outcome.todo = len(imported.todo)
                folder = write_title(imported, base / imported.name, force=True)
                outcome.reached = "imported"
                check(load_title(folder))
                outcome.reached = "validated"
                book = build_rulebook(folder)
                outcome.reached = "compiled"
                if render:
                    from railbook.render.build import RenderOptions, render_title

                    render_title(book, base / "render", ("map", "tiles"), RenderOptions(formats=("svg",)))
                    outcome.reached = "rendered"
            except RailbookError as exc:
                outcome.cause = _cause(str(exc))
            except Exception as exc:  # a crash is a failure to report, not to stop the sweep on
                outcome.cause = f"crash: {type(exc).__name__}: {_cause(str(exc))}"
            outcomes.append(outcome)
    return outcomes


def summary(outcomes: list[Outcome]) -> tuple[dict[str, int], Counter[str]]:
    """How many games passed each stage, and the failures grouped by stage and cause."""
    counts = {
        stage: sum(1 for o in outcomes if o.reached and STAGES.index(o.reached) >= i) for i, stage in enumerate(STAGES)
    }
    causes: Counter[str] = Counter()
    for o in outcomes:
        if o.cause:
            after = STAGES[STAGES.index(o.reached) + 1] if o.reached else STAGES[0]
            causes[f"{after}: {o.cause}"] += 1
    return counts, causes
