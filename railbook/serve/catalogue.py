"""The titles a server offers: the shipped titles and any designer's folders named on the command line."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class TitleError(Exception):
    """A title that is not offered, or a designer's folder that does not compile (``problems`` are located)."""

    def __init__(self, message: str, problems: list[str] | None = None):
        super().__init__(message)
        self.problems = problems or [message]


@dataclass
class Catalogue:
    """Title name -> where it comes from (a shipped title's name, or a folder); rulebooks compiled once."""

    sources: dict[str, str] = field(default_factory=dict)
    _rulebooks: dict[str, dict[str, Any]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def build(cls, titles: list[str] | None = None) -> Catalogue:
        """Every shipped title, plus ``titles`` (shipped names or title folders)."""
        from railbook.compiler.load import available_titles

        cat = cls()
        for name in available_titles():
            cat.sources[name] = name
        for item in titles or []:
            path = Path(item)
            if path.is_dir():
                cat.sources[path.resolve().name] = str(path.resolve())
            elif item not in cat.sources:
                raise TitleError(f"{item}: no such title or title folder")
        return cat

    def names(self) -> list[str]:
        return sorted(self.sources)

    def rulebook(self, name: str) -> dict[str, Any]:
        """The compiled rulebook of an offered title (a folder is validated first: TitleError with located
        problems)."""
        source = self.sources.get(name)
        if source is None:
            raise TitleError(f"no title {name!r} on this server")
        with self._lock:
            found = self._rulebooks.get(name)
            if found is None:
                found = self._rulebooks[name] = _compile(source)
        return found


def _compile(source: str) -> dict[str, Any]:
    from railbook.errors import RailbookError

    if not Path(source).is_dir():
        from railbook.api import rulebook_for_title

        return rulebook_for_title(source)
    from railbook.compiler.compile import build_rulebook, check
    from railbook.compiler.load import load_title

    try:
        check(load_title(Path(source)))
    except RailbookError as exc:
        lines = str(exc).splitlines() or [type(exc).__name__]
        raise TitleError(f"{source}: {len(lines)} problem(s)", lines) from None
    try:
        return build_rulebook(source)
    except RailbookError as exc:
        raise TitleError(f"{source}: does not compile", str(exc).splitlines()) from None
