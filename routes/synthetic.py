"""Synthetic boards for tests and benchmarks: random track on a small hex grid, from the tile catalogue."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from railbook.hexgrid import default_axes, index_letter, neighbours

from .network import BoardState, HexState

TILE_CHOICES: tuple[str, ...] = (
    "5", "6", "57", "7", "8", "9", "14", "15", "16", "17", "18", "19", "20", "23", "24", "25", "26", "27",
    "28", "29", "3", "4", "58", "1", "2", "55", "56", "69", "59", "63", "66",
)  # fmt: skip


@lru_cache(maxsize=1)
def catalogue() -> dict[str, dict[str, Any]]:
    """The standard tiles as compiled-track dicts."""
    from railbook.compiler.compile import catalogue_tiles

    return {tid: tile.model_dump(exclude_none=True) for tid, tile in catalogue_tiles().items()}


def grid(rows: int, cols: int) -> dict[str, dict[int, str]]:
    """Hex ids of a pointy grid and their neighbours."""
    ids = [f"{index_letter(y)}{x + 1}" for y in range(rows) for x in range(cols) if (x + y) % 2 == 0]
    return neighbours(ids, "pointy", default_axes("pointy"))


def random_board(
    rng: random.Random,
    rows: int = 3,
    cols: int = 6,
    corporation: str = "X",
    others: tuple[str, ...] = ("Y", "Z"),
    empty: float = 0.15,
    offboard: float = 0.35,
    cities: float = 0.4,
) -> BoardState:
    """A random board: catalogue tiles at random rotations, off-boards on the rim, random tokens.

    ``cities`` is the share of track hexes given a tile with a city; the corporation always has a token.
    """
    tiles = catalogue()
    choices = [t for t in TILE_CHOICES if t in tiles]
    city_choices = [t for t in choices if tiles[t].get("cities")]
    nbrs = grid(rows, cols)
    hexes: dict[str, HexState] = {}
    for hex_id, nb in nbrs.items():
        tags: set[str] = set()
        rim = len(nb) < 6
        roll = rng.random()
        if roll < empty:
            track: dict[str, Any] = {}
        elif rim and roll < empty + offboard:
            exits = rng.sample(sorted(nb), k=min(len(nb), rng.choice((1, 1, 2))))
            area = rng.choice(("E", "W", None, None))
            node: dict[str, Any] = {"revenue": rng.choice((20, 30, {"yellow": 20, "brown": 50}, 40))}
            if area == "E":
                node["group"] = "E"
            elif area == "W":
                tags.add("W")
            tags.add(f"icon:{rng.choice((10, 20, 30))}")
            track = {"offboards": [node], "paths": [{"a": str(e), "b": "o0"} for e in exits]}
        else:
            track = tiles[rng.choice(city_choices if rng.random() < cities else choices)]
        tokens: dict[int, list[str]] = {}
        for i, city in enumerate(track.get("cities", [])):
            holders: list[str] = []
            for _ in range(int(city.get("slots", 1))):
                r = rng.random()
                if r < 0.35:
                    who = corporation
                elif r < 0.6:
                    who = rng.choice(others)
                else:
                    continue
                if who not in holders:
                    holders.append(who)
            tokens[i] = holders
        hexes[hex_id] = HexState(hex_id, track, rng.randrange(6), nb, frozenset(tags), tokens)
    if not any(corporation in h for hs in hexes.values() for h in hs.tokens.values()):
        spots = [(hs, ci) for hs in hexes.values() for ci in hs.tokens]
        if spots:
            hs, ci = rng.choice(spots)
            hs.tokens[ci] = [corporation, *hs.tokens[ci][1:]]  # type: ignore[index]
    colour = rng.choice(("yellow", "green", "brown"))
    return BoardState(hexes, phase="", colour=colour)


def connect_rotations(board: BoardState, rng: random.Random, rounds: int = 3) -> BoardState:
    """Turn each tile to join as many neighbouring exits as it can (denser, more realistic networks)."""
    from railbook.hexgrid import exits, opposite

    for _ in range(rounds):
        for h in board.hexes.values():
            if not h.track or h.track.get("offboards"):
                continue
            best, best_score = h.rotation, -1
            for r in range(6):
                score = 0
                for e in exits(h.track, r):
                    nb = h.neighbours.get(e)
                    if nb is None:
                        score -= 1
                        continue
                    n = board.hexes[nb]
                    if n.track and opposite(e) in exits(n.track, n.rotation):
                        score += 2
                score = score * 10 + rng.randrange(10)
                if score > best_score:
                    best, best_score = r, score
            h.rotation = best
    return board
