"""Load a title's YAML files into one plain document, remembering where every value came from."""

from __future__ import annotations

import errno
import math
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq, TaggedScalar
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from railbook import limits
from railbook.paths import games_dir, is_dir

from .errors import Location, RailbookError, TitleError, located
from .guard import Counts, check_events
from .yamlhints import with_hint

GAMES_DIR = games_dir()
CATALOGUE = GAMES_DIR / "common" / "tiles.yaml"

Key = str | int
KeyPath = tuple[Key, ...]


@dataclass
class Positions:
    """Maps a key path inside the merged document to the file, line and column that wrote it."""

    table: dict[KeyPath, Location] = field(default_factory=dict)

    def find(self, path: KeyPath) -> Location | None:
        """The location of ``path``, or of its nearest ancestor that exists."""
        path = tuple(path)
        while path:
            if path in self.table:
                return self.table[path]
            path = path[:-1]
        return self.table.get(())

    def nearest(self, path: KeyPath) -> tuple[KeyPath, Location | None]:
        """Like :meth:`find`, also returning the part of ``path`` that was found."""
        path = tuple(path)
        while path and path not in self.table:
            path = path[:-1]
        return path, self.table.get(path)


@dataclass
class LoadedDoc:
    data: dict[str, Any]
    positions: Positions
    root: Path


def resolve_title_dir(title: str | Path) -> Path:
    """A title name in ``games/`` or a path to a title folder."""
    candidate = Path(title)
    if is_dir(candidate):
        return candidate
    named = GAMES_DIR / str(title)
    if is_dir(named) and str(title) != "common":
        return named
    raise RailbookError(f"{title}: no such title (not a folder, not in {GAMES_DIR})")


def available_titles() -> list[str]:
    """Names of the titles in ``games/``."""
    return sorted(p.name for p in GAMES_DIR.iterdir() if p.is_dir() and p.name != "common" and any(p.glob("*.yaml")))


def _display(path: Path) -> str:
    try:
        return str(path.parent.resolve().relative_to(Path.cwd().resolve()) / path.name)
    except (ValueError, OSError, RuntimeError):  # outside the working folder, or a loop of links
        return str(path)


BAD_TEXT = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
"""Characters no text of a title may hold: control characters (tab and line breaks aside), lone surrogates
(not Unicode at all) and the non-characters U+FFFE and U+FFFF (none of which XML, so SVG, can carry)."""


def text_problem(text: str) -> str | None:
    """Why ``text`` may not be used in a title (None when it may)."""
    bad = BAD_TEXT.search(text)
    if bad is None:
        return None
    code = ord(bad.group())
    kind = "a lone surrogate (not valid Unicode)" if 0xD800 <= code <= 0xDFFF else "a control character"
    return f"text holds {kind}, U+{code:04X}, at character {bad.start() + 1}"


def _text(value: str, where: Location | None, path: KeyPath, file: str) -> str:
    problem = text_problem(value)
    if problem:
        raise TitleError([located(where or Location(file, 1, 1), _dotted(path), problem)])
    return value


def _plain(node: Any, file: str, prefix: KeyPath, positions: Positions) -> Any:
    """Turn ruamel nodes into plain Python, recording each key's position."""
    if isinstance(node, CommentedMap):
        out: dict[Any, Any] = {}
        for key, value in node.items():
            path = (*prefix, key)
            line, col = _spot(node, key, positions.find(prefix))  # a merged (<<) key has none
            positions.table[path] = Location(file, line + 1, col + 1)
            if isinstance(key, str) and text_problem(key):
                where = positions.table[path]
                raise TitleError([located(where, _dotted(prefix), f"a key's {text_problem(key)}")])
            out[key] = _plain(value, file, path, positions)
        return out
    if isinstance(node, CommentedSeq):
        items = []
        for i, value in enumerate(node):
            path = (*prefix, i)
            line, col = _spot(node, i, positions.find(prefix))
            positions.table[path] = Location(file, line + 1, col + 1)
            items.append(_plain(value, file, path, positions))
        return items
    if isinstance(node, TaggedScalar):  # an explicit !!str (other tags were refused by the guard)
        node = str(node.value)
    if isinstance(node, str):
        return _text(str(node), positions.find(prefix), prefix, file)
    if isinstance(node, float) and not math.isfinite(node):
        where = positions.find(prefix) or Location(file, 1, 1)
        raise TitleError([located(where, _dotted(prefix), "a number must be finite (not .inf or .nan)")])
    return node


def _spot(node: Any, key: Key, parent: Location | None) -> tuple[int, int]:
    """0-based line and column of a key or item, else of the parent (merged keys and tagged nodes have none)."""
    entry = (getattr(node.lc, "data", None) or {}).get(key)
    if entry:
        return entry[0], entry[1]
    return (parent.line - 1, parent.col - 1) if parent else (0, 0)


def _dotted(path: KeyPath) -> str:
    return ".".join(str(p) for p in path)


def _duplicate_message(problem: str, text: str, line: int, col: int) -> str:
    """Name the duplicated key and where it was first written."""
    key = problem.split('"')[1] if '"' in problem else "?"
    lines = text.splitlines()
    for number in range(line - 1, 0, -1):
        prior = lines[number - 1]
        if prior[col - 1 :].startswith((f"{key}:", f"'{key}':", f'"{key}":')) and not prior[: col - 1].strip():
            return f"duplicate key '{key}' (first defined at line {number})"
    return f"duplicate key '{key}'"


def _read_text(path: Path, shown: str) -> str:
    """The text of a regular UTF-8 file no bigger than the limit (a BOM is dropped)."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise TitleError([f"{shown}:1:1: not a regular file"])
        cap = limits.YAML_FILE_BYTES.value
        if info.st_size > cap:
            raise TitleError([f"{shown}:1:1: file is larger than {cap:,} bytes"])
        with path.open("rb") as fh:
            data = fh.read(cap + 1)
    except OSError as exc:
        raise TitleError([f"{shown}:1:1: cannot read file: {exc.strerror or exc}"]) from None
    if len(data) > cap:
        raise TitleError([f"{shown}:1:1: file is larger than {cap:,} bytes"])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        raise TitleError([f"{shown}:{line}:{col}: not UTF-8 text (byte 0x{data[exc.start]:02x})"]) from None
    return text.removeprefix("\ufeff")


def read_yaml(path: Path, positions: Positions, prefix: KeyPath = (), counts: Counts | None = None) -> Any:
    """Parse one YAML file; syntax errors and broken input limits become a located one-line error."""
    shown = _display(path)
    text = _read_text(path, shown)
    if not text.strip():
        raise TitleError([f"{shown}:1:1: file is empty"])
    for number, line in enumerate(text.splitlines(), 1):
        if "\t" in line[: len(line) - len(line.lstrip())]:
            raise TitleError([f"{shown}:{number}:1: tab character in indentation (use spaces)"])
    yaml = YAML(typ="rt")
    try:
        check_events(text, shown, counts)
        node = yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = " ".join(str(exc.problem or exc.context or "invalid YAML").split())
        if problem.startswith("found duplicate key"):
            problem = _duplicate_message(problem, text, line, col)
        else:
            problem = with_hint(problem)
        raise TitleError([f"{shown}:{line}:{col}: {problem}"]) from None
    except YAMLError as exc:
        raise TitleError([f"{shown}:1:1: {' '.join(str(exc).split())}"]) from None
    except (ValueError, TypeError, RecursionError) as exc:  # a value ruamel cannot build
        raise TitleError([f"{shown}:1:1: invalid YAML: {' '.join(str(exc).split()) or type(exc).__name__}"]) from None
    if node is None:
        raise TitleError([f"{shown}:1:1: file is empty"])
    positions.table.setdefault(prefix, Location(shown, 1, 1))
    return _plain(node, shown, prefix, positions)


def load_title(title: str | Path) -> LoadedDoc:
    """Read every ``*.yaml`` of a title folder and merge their top-level keys."""
    root = resolve_title_dir(title)
    files = sorted(root.glob("*.yaml"))
    if not files:
        raise RailbookError(f"{_display(root)}: no .yaml files in title folder")
    if len(files) > limits.YAML_FILES.value:
        raise RailbookError(f"{_display(root)}: more than {limits.YAML_FILES.value} .yaml files in title folder")
    positions = Positions()
    merged: dict[str, Any] = {}
    problems: list[str] = []
    inside = root.resolve()
    counts = Counts()
    for path in files:
        try:
            real = path.resolve(strict=True)
        except (OSError, RuntimeError) as exc:  # a dangling link, or a loop of links
            why = "a loop of links" if isinstance(exc, RuntimeError) or exc.errno == errno.ELOOP else "cannot read"
            if isinstance(exc, FileNotFoundError):
                why = "a link to nothing"
            raise TitleError([f"{_display(path)}:1:1: {why}"]) from None
        if not real.is_relative_to(inside):
            raise TitleError([f"{_display(path)}:1:1: a link to a file outside the title folder"])
        data = read_yaml(path, positions, counts=counts)
        if not isinstance(data, dict):
            problems.append(f"{_display(path)}:1:1: top level must be a mapping of keys")
            continue
        for key, value in data.items():
            if key in merged:
                problems.append(located(positions.table.get((key,)), str(key), "key is defined in more than one file"))
            merged[key] = value
    if problems:
        raise TitleError(problems)
    positions.table[()] = Location(_display(root), 1, 1)
    return LoadedDoc(merged, positions, root)


def load_catalogue(path: Path = CATALOGUE) -> LoadedDoc:
    """The shared catalogue of standard tiles."""
    positions = Positions()
    data = read_yaml(path, positions)
    if not isinstance(data, dict):
        raise TitleError([f"{_display(path)}:1:1: top level must be a mapping"])
    return LoadedDoc(data, positions, path.parent)
