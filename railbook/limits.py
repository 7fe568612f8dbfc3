"""Input limits: how big, deep and repetitive a title's YAML or a game record may be.

They keep a hostile or careless file (an alias bomb, 10,000 nested lists, a gigabyte of text) from hanging
railbook or exhausting memory.  Each limit is checked while the input is read and breaks with a located
one-line error.  The defaults are far above what any real title or record needs (the figures beside them);
``docs/FORMAT.md`` lists them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RailbookError


class LimitError(RailbookError):
    """An input broke one of the limits below; ``str()`` is ``where: message``."""

    def __init__(self, where: str, message: str):
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Limit:
    name: str
    value: int
    applies_to: str
    what: str


# Largest values in the titles and records shipped or shared today: 25 KB per YAML file, 11 levels of
# nesting, 0 aliases, about 6,000 values and 3,000 keys per title; records of 200 KB, 1,700 actions and
# 7 levels of nesting.
YAML_FILE_BYTES = Limit("yaml_file_bytes", 1024 * 1024, "YAML", "bytes in one YAML file")
YAML_FILES = Limit("yaml_files", 64, "YAML", "YAML files in one title folder")
YAML_DEPTH = Limit("yaml_depth", 40, "YAML", "levels of nested mappings and lists")
YAML_ALIASES = Limit("yaml_aliases", 1_000, "YAML", "aliases (`*name`) in one file")
YAML_NODES = Limit("yaml_nodes", 60_000, "YAML", "values in one title once aliases are expanded")
YAML_KEYS = Limit("yaml_keys", 30_000, "YAML", "mapping keys in one title once aliases are expanded")
YAML_NUMBER_DIGITS = Limit("yaml_number_digits", 1_000, "YAML", "digits in one number")
RECORD_BYTES = Limit("record_bytes", 16 * 1024 * 1024, "record", "bytes in one record file")
RECORD_DEPTH = Limit("record_depth", 32, "record", "levels of nested objects and arrays")
RECORD_ACTIONS = Limit("record_actions", 50_000, "record", "actions in one record (undo and redo included)")
RECORD_UNDO_WORK = Limit(
    "record_undo_work", 2_000_000, "record", "actions taken back or restored by undo and redo, summed"
)

# Bounds on what a title's values may be: the largest today are 12,000 (a bank), 40 (a train count), 32
# (market columns), 11 (market rows), 2 (steps of one price move), 161 tiles and 36 trains in all, 154 hexes,
# 31 companies and 7 options.
TITLE_NUMBER = Limit(
    "title_number", 1_000_000, "title", "for any number, positive or negative (money, prices, revenue)"
)
TITLE_COUNT = Limit(
    "title_count", 1_000, "title", "for a count: copies of a train or tile, trains removed, stops, slots, limits"
)
MARKET_STEPS = Limit(
    "market_steps", 100, "title", "steps in one share-price move (sale, dividend, end of a stock round, loan)"
)
TITLE_COPIES = Limit(
    "title_copies", 2_000, "title", "copies of tiles in the manifest, and of trains, each summed (unlimited aside)"
)
TITLE_HEXES = Limit("title_hexes", 2_000, "title", "hexes on the map")
TITLE_COMPANIES = Limit("title_companies", 500, "title", "corporations, minors and private companies together")
TITLE_OPTIONS = Limit("title_options", 64, "title", "options (each one is compiled as a whole title)")
MARKET_ROWS = Limit("market_rows", 100, "title", "rows of the stock market")
MARKET_COLUMNS = Limit("market_columns", 200, "title", "cells in one row of the stock market")

ALL: tuple[Limit, ...] = (
    YAML_FILE_BYTES,
    YAML_FILES,
    YAML_DEPTH,
    YAML_ALIASES,
    YAML_NODES,
    YAML_KEYS,
    YAML_NUMBER_DIGITS,
    TITLE_NUMBER,
    TITLE_COUNT,
    MARKET_STEPS,
    TITLE_COPIES,
    TITLE_HEXES,
    TITLE_COMPANIES,
    TITLE_OPTIONS,
    MARKET_ROWS,
    MARKET_COLUMNS,
    RECORD_BYTES,
    RECORD_DEPTH,
    RECORD_ACTIONS,
    RECORD_UNDO_WORK,
)


def markdown_table() -> str:
    """The limits as the Markdown table ``docs/FORMAT.md`` shows (a test keeps the two in step)."""
    rows = ["| limit | applies to | at most |", "|---|---|---|"]
    rows += [f"| `{lim.name}` | {lim.applies_to} | {lim.value:,} {lim.what} |" for lim in ALL]
    return "\n".join(rows)
