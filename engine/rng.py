"""The seeded random number generator of the 18xx.games site, so seeded setups replay identically.

A linear congruential generator ``x' = (a * x + c) mod m`` whose draws are the successive states.
Shuffles draw one number per item in order and sort the items by their draws ("sort by random key").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")

DEFAULT = {"a": 1103515245, "c": 12345, "m": 2**31}


def seed_from(settings: dict[str, Any] | None, game_id: Any, m: int = DEFAULT["m"]) -> int:
    """The seed of a recorded game: ``settings.seed`` when set, else the first run of digits of its id."""
    seed = (settings or {}).get("seed")
    if seed not in (None, ""):
        try:
            return int(seed) % m
        except (TypeError, ValueError):
            pass
    found = re.search(r"\d+", str(game_id if game_id is not None else ""))
    return int(found.group(0)) % m if found else 0


class Lcg:
    """The generator; its whole state is ``seed`` (an int), so it serialises trivially."""

    __slots__ = ("a", "c", "m", "seed")

    def __init__(self, seed: int, a: int = DEFAULT["a"], c: int = DEFAULT["c"], m: int = DEFAULT["m"]):
        self.seed = seed % m
        self.a, self.c, self.m = a, c, m

    def draw(self) -> int:
        self.seed = (self.a * self.seed + self.c) % self.m
        return self.seed

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """Items ordered by one fresh draw each (drawn in item order), smallest draw first."""
        keyed = [(self.draw(), i, item) for i, item in enumerate(items)]
        keyed.sort(key=lambda k: (k[0], k[1]))
        return [item for _, _, item in keyed]


def shuffle_game(state: Any, items: Sequence[T]) -> list[T]:
    """Shuffle with a game's generator (its state is ``state.seed``), advancing it."""
    r = Lcg(state.seed)
    out = r.shuffle(items)
    state.seed = r.seed
    return out
