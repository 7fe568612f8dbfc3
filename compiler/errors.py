"""Errors that carry a location, printed as one line by the CLI."""

from __future__ import annotations

from dataclasses import dataclass

from railbook.errors import RailbookError


@dataclass(frozen=True)
class Location:
    file: str
    line: int  # 1-based
    col: int  # 1-based

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class TitleError(RailbookError):
    """One or more problems in a title's YAML, each with a location."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


def located(loc: Location | None, path: str, message: str) -> str:
    """Format one problem as ``file:line:col: path: message``."""
    where = f"{loc}: " if loc else ""
    what = f"{path}: " if path else ""
    return f"{where}{what}{message}"
