"""Playing a run of games: on this machine's cores (multiprocessing) or on a Ray cluster, in any order, written in
game order so that a run's files do not depend on the worker count or on where games were played."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .play import MAX_ACTIONS, GameSetup, play_game


@dataclass
class SimConfig:
    """One run: ``games`` games seeded ``seed`` .. ``seed + games - 1`` with ``players`` seats of ``bots``."""

    games: int
    players: int
    bots: tuple[str, ...]
    seed: int = 0
    options: tuple[str, ...] = ()
    workers: int = 0  # 0: one per core
    ray: str | None = None  # "auto" or a cluster address: play on Ray
    max_actions: int = MAX_ACTIONS
    extra: dict[str, Any] = field(default_factory=dict)

    def setup(self) -> GameSetup:
        """The seats' bots: the names given, the last repeated to fill every seat."""
        names = list(self.bots) or ["heuristic"]
        names = (names + [names[-1]] * self.players)[: self.players]
        return GameSetup(tuple(names), tuple(self.options), self.max_actions)

    def seeds(self) -> list[int]:
        return [self.seed + i for i in range(self.games)]


_WORKER: dict[str, Any] = {}


def _init(rulebook: dict[str, Any], setup: GameSetup) -> None:
    _WORKER.update(rulebook=rulebook, setup=setup)


def _one(job: tuple[int, int]) -> dict[str, Any]:
    seed, index = job
    return play_game(_WORKER["rulebook"], seed, index, _WORKER["setup"])


def play_local(rulebook: dict[str, Any], config: SimConfig) -> Iterator[dict[str, Any]]:
    """Records of the run's games played on ``config.workers`` processes, as they finish."""
    setup = config.setup()
    jobs = [(seed, i) for i, seed in enumerate(config.seeds())]
    workers = min(config.workers or os.cpu_count() or 1, len(jobs))
    if workers <= 1:
        for seed, index in jobs:
            yield play_game(rulebook, seed, index, setup)
        return
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with context.Pool(workers, initializer=_init, initargs=(rulebook, setup)) as pool:
        yield from pool.imap_unordered(_one, jobs, chunksize=1)


def simulate(
    rulebook: dict[str, Any],
    config: SimConfig,
    out: Path | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Play the run; its records in game order (also written to ``out/games.jsonl`` when ``out`` is given);
    ``progress`` sees each record as its game ends."""
    if config.ray:
        from .cluster import play_on_ray

        source: Iterator[dict[str, Any]] = play_on_ray(rulebook, config)
    else:
        source = play_local(rulebook, config)
    records = []
    for record in source:
        records.append(record)
        if progress is not None:
            progress(record)
    records.sort(key=lambda r: r["index"])
    if out is not None:
        write_records(records, out)
    return records


def write_records(records: list[dict[str, Any]], out: Path) -> Path:
    """``out/games.jsonl``: one game a line, in game order (and ``games.parquet`` where pyarrow is installed)."""
    import orjson

    out.mkdir(parents=True, exist_ok=True)
    path = out / "games.jsonl"
    with path.open("wb") as f:
        for record in records:
            f.write(orjson.dumps(record, option=orjson.OPT_SORT_KEYS) + b"\n")
    _parquet(records, out / "games.parquet")
    return path


def read_records(path: Path) -> list[dict[str, Any]]:
    """The records of a ``games.jsonl`` file (or of the one in a folder)."""
    import orjson

    if path.is_dir():
        path = path / "games.jsonl"
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def _parquet(records: list[dict[str, Any]], path: Path) -> None:
    """A Parquet copy of the records (flat columns; nested figures as JSON text), where pyarrow is installed."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        return
    import orjson

    rows = [{k: (orjson.dumps(v).decode() if isinstance(v, dict | list) else v) for k, v in r.items()} for r in records]
    pq.write_table(pa.Table.from_pylist(rows), path)
