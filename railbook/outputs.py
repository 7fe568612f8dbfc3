"""Where railbook writes: title ids are names, never paths, and every file goes inside the chosen folder.

``compile``, ``render``, ``export``, ``import`` and ``new`` build the paths they write with :func:`inside`
(or write with :func:`write_inside`), which proves the path is within the output folder: each part is one
plain file name (no separator, no ``..``), no folder on the way is a link, and the resolved path starts
with the resolved output folder.  A title id (``meta.title``) must match :data:`TITLE_ID` as well.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .errors import RailbookError
from .jsonio import write_atomic

TITLE_ID_MAX = 64
TITLE_ID_PATTERN = rf"^[A-Za-z0-9][A-Za-z0-9_.-]{{0,{TITLE_ID_MAX - 1}}}$"
TITLE_ID = re.compile(TITLE_ID_PATTERN)
"""A title id: a letter or digit, then up to 63 letters, digits, ``_``, ``-`` or ``.`` (so never a path)."""

NAME_MAX = 255  # bytes in one file name on the usual file systems


class OutputError(RailbookError):
    """A path railbook was asked to write is not (provably) inside the output folder, or cannot be written."""


def title_id_problem(name: object, named: bool = True) -> str | None:
    """Why ``name`` is not a title id (None when it is one); ``named``: the message starts with the name."""
    if not isinstance(name, str) or not TITLE_ID.fullmatch(name):
        shown = repr(name) if len(repr(name)) <= 40 else repr(name)[:36] + "...'"
        rule = f"use 1 to {TITLE_ID_MAX} letters, digits, '_', '-' or '.', starting with a letter or digit"
        return f"{shown} is not a title id: {rule}" if named else f"not a title id: {rule}"
    return None


def _check_part(part: str, folder: Path) -> None:
    bad = (
        not isinstance(part, str)
        or part in ("", ".", "..")
        or "/" in part
        or "\\" in part
        or "\x00" in part
        or os.sep in part
        or (os.altsep is not None and os.altsep in part)
    )
    if bad:
        raise OutputError(f"{shown(folder)}: {str(part)[:80]!r} is not a plain file name; refusing to write outside it")
    if len(part.encode("utf-8", "surrogatepass")) > NAME_MAX:
        too_long = f"a file name of {len(part)} characters is too long (at most {NAME_MAX} bytes)"
        raise OutputError(f"{shown(folder)}: {too_long}")


def inside(folder: Path, *parts: str, is_folder: bool = False) -> Path:
    """``folder/parts...``, proven to stay inside ``folder``; raises :class:`OutputError` otherwise.

    Nothing is created.  A folder on the way that exists must be a real folder (not a link, not a file);
    the file itself may exist (it is replaced) unless it is a folder (``is_folder``: it is one, or a new one).
    """
    folder = Path(folder)
    for part in parts:
        _check_part(part, folder)
    try:
        return _inside(folder, parts, is_folder)
    except OSError as exc:  # a name too long, a folder that cannot be searched...
        raise OutputError(f"{shown(exc.filename or folder)}: cannot write there: {exc.strerror or exc}") from None
    except RuntimeError:  # Python before 3.13 reports a loop of links so
        raise OutputError(f"{shown(folder)}: cannot write there: a loop of links") from None


def shown(path: object) -> str:
    """A path as an error shows it: a very long one is cut in the middle."""
    text = str(path)
    return text if len(text) <= 160 else f"{text[:80]}...{text[-60:]}"


def _inside(folder: Path, parts: tuple[str, ...], is_folder: bool) -> Path:
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{shown(folder)}: not a folder")
    base = folder.resolve()
    target = base.joinpath(*parts)
    step = base
    for part in parts if is_folder else parts[:-1]:
        step = step / part
        if step.is_symlink():
            raise OutputError(f"{shown(folder / step.relative_to(base))}: a link; refusing to write through it")
        if step.exists() and not step.is_dir():
            raise OutputError(f"{shown(folder / step.relative_to(base))}: exists and is not a folder")
    if not is_folder and target.is_dir() and not target.is_symlink():
        raise OutputError(f"{shown(folder.joinpath(*parts))}: is a folder")
    if not target.parent.resolve().is_relative_to(base) or target.parent.resolve() != target.parent:
        raise OutputError(f"{shown(folder.joinpath(*parts))}: outside {shown(folder)}; refusing to write")
    return folder.joinpath(*parts)


def write_inside(folder: Path, *parts: str, data: str | bytes) -> Path:
    """Write ``data`` atomically to :func:`inside` ``(folder, *parts)``; an OS error becomes :class:`OutputError`."""
    path = inside(folder, *parts)
    try:
        write_atomic(path, data)
    except OSError as exc:
        raise OutputError(f"{shown(exc.filename or path)}: cannot write: {exc.strerror or exc}") from None
    return path


def make_folder(folder: Path, *parts: str) -> Path:
    """Create :func:`inside` ``(folder, *parts)`` as a folder (and parents); an OS error is an :class:`OutputError`."""
    path = inside(folder, *parts, is_folder=True)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{shown(exc.filename or path)}: cannot create the folder: {exc.strerror or exc}") from None
    if path.is_symlink() or not path.is_dir():
        raise OutputError(f"{path}: not a folder")
    return path
