"""Games kept in SQLite: how each started (title, players, seed, options, seats) and its actions.

A game is stored as its actions, never as its state: loading one starts it again and replays them, so a
server restart loses nothing and a save never depends on the interpreter's internal state layout.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    actions TEXT NOT NULL DEFAULT '[]',
    redo TEXT NOT NULL DEFAULT '[]',
    rev INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    updated REAL NOT NULL
)
"""


@dataclass
class GameRow:
    """One stored game: ``spec`` is how it started (title, players, seed, options, hotseat, seats)."""

    id: str
    spec: dict[str, Any]
    actions: list[dict[str, Any]] = field(default_factory=list)
    redo: list[dict[str, Any]] = field(default_factory=list)
    rev: int = 0  # changes saved so far (pages post the revision they show)
    created: float = 0.0
    updated: float = 0.0


def default_db() -> Path:
    """``$XDG_DATA_HOME/railbook/serve.sqlite3`` (``~/.local/share`` when unset; ``%APPDATA%`` on Windows)."""
    import os
    import sys

    if sys.platform == "win32" and os.environ.get("APPDATA"):
        base = Path(os.environ["APPDATA"])
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "railbook" / "serve.sqlite3"


class Store:
    """The games table of one SQLite file (one connection, serialised by a lock; WAL journal)."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            if self.path != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def create(self, game_id: str, spec: dict[str, Any]) -> None:
        now = time.time()
        with self._lock:
            self._db.execute(
                "INSERT INTO games (id, spec, created, updated) VALUES (?, ?, ?, ?)",
                (game_id, json.dumps(spec), now, now),
            )

    def save(self, game_id: str, actions: list[dict[str, Any]], redo: list[dict[str, Any]], rev: int) -> None:
        """Replace a game's actions (and actions undone, for redo) and its revision."""
        with self._lock:
            self._db.execute(
                "UPDATE games SET actions = ?, redo = ?, rev = ?, updated = ? WHERE id = ?",
                (orjson.dumps(actions), orjson.dumps(redo), rev, time.time(), game_id),
            )

    def load(self, game_id: str) -> GameRow | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, spec, actions, redo, rev, created, updated FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        if row is None:
            return None
        return GameRow(row[0], json.loads(row[1]), json.loads(row[2]), json.loads(row[3]), row[4], row[5], row[6])

    def recent(self, limit: int = 50) -> list[tuple[str, dict[str, Any], float]]:
        """(id, spec, updated) of the most recently played games."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, spec, updated FROM games ORDER BY updated DESC LIMIT ?", (limit,)
            ).fetchall()
        return [(r[0], json.loads(r[1]), r[2]) for r in rows]
