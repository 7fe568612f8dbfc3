"""Entry points that span layers: compile a title, or get a compiled rulebook from anywhere."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from railbook.engine.replay import ReplayResult


def compile_title(title: str | Path, out: str | Path = "output") -> Path:
    """Compile a title (a name in the shipped titles, or a title folder) to ``out/<title>/rulebook.json``."""
    from railbook.compiler.compile import compile_title as _compile

    return _compile(title, Path(out))


def load_rulebook(source: str | Path) -> dict[str, Any]:
    """A compiled rulebook: read from a ``rulebook.json`` file, or compiled in memory from a title."""
    path = Path(source)
    if path.is_file() and path.suffix == ".json":
        from railbook.jsonio import read_json

        data: dict[str, Any] = read_json(path)
        return data
    from railbook.compiler.compile import build_rulebook

    return build_rulebook(source)


def rulebook_for_title(title: str) -> dict[str, Any]:
    """The compiled rulebook of a title named as in 18xx.games records (a shipped title's folder name or its
    ``site_id``), compiled in memory once per process."""
    return _rulebook_for_title(str(title))


@cache
def _rulebook_for_title(title: str) -> dict[str, Any]:
    from railbook.engine.errors import UnsupportedTitle
    from railbook.paths import games_dir
    from railbook.rulebook_cache import cached_rulebook

    root = games_dir()
    names = sorted(p.name for p in root.iterdir() if p.is_dir() and p.name != "common" and any(p.glob("*.yaml")))
    found = title if title in names else None
    if found is None:
        for name in names:
            try:
                text = (root / name / "game.yaml").read_text(encoding="utf-8")
            except OSError:
                continue
            if f'site_id: "{title}"' in text or f"site_id: {title}\n" in text:
                found = name
                break
    if found is None:
        raise UnsupportedTitle(f"no title {title!r} in {root}")
    return cached_rulebook(root / found, _compile)


def _compile(title_dir: Path) -> dict[str, Any]:
    from railbook.compiler.compile import build_rulebook

    return build_rulebook(title_dir)


def record_rulebook(record: dict[str, Any]) -> dict[str, Any]:
    """The rulebook a record (an 18xx.games export or a railbook action log) names in its ``title``."""
    from railbook.engine.errors import EngineError

    if not record.get("title"):
        raise EngineError("record has no 'title' (not an 18xx.games export or railbook action log)")
    return rulebook_for_title(str(record["title"]))


def replay(
    record: dict[str, Any] | str | Path,
    rulebook: dict[str, Any] | None = None,
    *,
    strict: bool = False,
) -> ReplayResult:
    """Replay an 18xx.games record (a path or its parsed JSON) to its end; ``rulebook`` defaults to the one its
    ``title`` names.  Raises :class:`railbook.engine.replay.ReplayError` at the first illegal action."""
    from railbook.engine import replay as engine_replay

    data = record if isinstance(record, dict) else engine_replay.load(record)
    return engine_replay.replay(data, rulebook or record_rulebook(data), strict=strict)
