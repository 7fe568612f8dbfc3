"""Check a YAML text against the input limits from its event stream, before any of it is built.

The parser's event stream is flat (no recursion) and every alias is one event, so depth, alias count and
the size a document reaches once its aliases are expanded can be counted exactly, and the first event over
a limit gives the location.  Only then is the text built into nodes (which is recursive and expands aliases).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    CollectionStartEvent,
    DocumentStartEvent,
    MappingStartEvent,
    NodeEvent,
    ScalarEvent,
)

from railbook import limits

from .errors import TitleError

NUMBER = re.compile(r"[-+]?(?:0x[0-9a-fA-F_]+|0o[0-7_]+|0b[01_]+|[0-9_.]+(?:[eE][-+]?[0-9]+)?)")


@dataclass
class _Frame:
    is_map: bool
    anchor: str | None
    nodes: int = 1
    keys: int = 0
    at_key: bool = True


@dataclass
class Counts:
    """What a title's files add up to once aliases are expanded (aliases and anchors: this file's)."""

    nodes: int = 0
    keys: int = 0
    aliases: int = 0
    sizes: dict[str, tuple[int, int]] = field(default_factory=dict)


DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:$|(?:[Tt]|[ \t]+)\d{1,2}:\d\d:\d\d)")
"""A plain scalar YAML reads as a date (a timestamp)."""


def _not_a_date(value: str) -> bool:
    import datetime

    m = DATE.match(value)
    if m is None:
        return False
    try:
        datetime.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return True
    return False


PLAIN_TAGS = frozenset(
    {"!", *(f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "map", "seq"))}
)
"""The only explicit tags a title may use: the core schema's (``!!str`` ...) and the non-specific ``!``."""


def _tag_problem(event: Any) -> str | None:
    tag = getattr(event, "tag", None)
    if tag is None or str(tag) in PLAIN_TAGS:
        return None
    shown = str(tag).replace("tag:yaml.org,2002:", "!!")
    return f"unknown tag '{shown[:60]}': a title is plain YAML (mappings, lists, text, numbers, true/false, null)"


def _fail(shown: str, event: Any, message: str) -> TitleError:
    mark = getattr(event, "start_mark", None)
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    return TitleError([f"{shown}:{line}:{col}: {message}"])


def check_events(text: str, shown: str, counts: Counts | None = None) -> Counts:
    """Walk the events of ``text``; raise :class:`TitleError` at the first one over a limit.

    ``counts`` carries the totals of the title's files read before (values and keys are limited per title,
    aliases per file).  Syntax errors propagate as ruamel's own ``YAMLError`` (the caller locates them).
    """
    counts = counts if counts is not None else Counts()
    counts.aliases = 0
    counts.sizes = {}
    stack: list[_Frame] = []

    def add(event: Any, nodes: int, keys: int) -> None:
        if stack:
            top = stack[-1]
            if top.is_map and top.at_key:
                keys += 1
            if top.is_map:
                top.at_key = not top.at_key
            top.nodes += nodes
            top.keys += keys
        else:
            counts.nodes += nodes
            counts.keys += keys
        if counts.nodes + sum(f.nodes for f in stack) > limits.YAML_NODES.value:
            raise _fail(shown, event, f"the title has more than {limits.YAML_NODES.value:,} values (aliases expanded)")
        if counts.keys + sum(f.keys for f in stack) > limits.YAML_KEYS.value:
            raise _fail(shown, event, f"the title has more than {limits.YAML_KEYS.value:,} keys (aliases expanded)")

    for event in YAML(typ="rt").parse(text):
        if isinstance(event, DocumentStartEvent):
            stack.clear()
        elif isinstance(event, AliasEvent):
            counts.aliases += 1
            if counts.aliases > limits.YAML_ALIASES.value:
                raise _fail(shown, event, f"more than {limits.YAML_ALIASES.value:,} aliases")
            nodes, keys = counts.sizes.get(str(event.anchor), (1, 0))
            add(event, nodes, keys)
        elif isinstance(event, ScalarEvent | CollectionStartEvent) and _tag_problem(event):
            raise _fail(shown, event, str(_tag_problem(event)))
        if isinstance(event, ScalarEvent):
            value = event.value
            plain = event.style is None
            if plain and len(value) > limits.YAML_NUMBER_DIGITS.value and NUMBER.fullmatch(value):
                raise _fail(shown, event, f"a number with more than {limits.YAML_NUMBER_DIGITS.value:,} digits")
            if plain and DATE.match(value) and _not_a_date(value):
                raise _fail(shown, event, f"'{value[:40]}' is not a date (write YYYY-MM-DD, or quote it as text)")
            if event.anchor is not None:
                counts.sizes[str(event.anchor)] = (1, 0)
            add(event, 1, 0)
        elif isinstance(event, CollectionStartEvent):
            if len(stack) >= limits.YAML_DEPTH.value:
                raise _fail(shown, event, f"nested deeper than {limits.YAML_DEPTH.value} levels")
            is_map = isinstance(event, MappingStartEvent)
            anchor = str(event.anchor) if isinstance(event, NodeEvent) and event.anchor is not None else None
            stack.append(_Frame(is_map, anchor))  # added to its parent when it ends
        elif isinstance(event, CollectionEndEvent) and stack:
            frame = stack.pop()
            if frame.anchor is not None:
                counts.sizes[frame.anchor] = (frame.nodes, frame.keys)
            add(event, frame.nodes, frame.keys)
    return counts
