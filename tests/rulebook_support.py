"""Helpers for the per-title tests that check printed numbers against the compiled rulebook."""

from __future__ import annotations

from functools import cache
from typing import Any

from railbook.compiler.compile import build_rulebook

from railbook.jsonio import apply_merge_patch


@cache
def compiled(title: str, option: str | None = None) -> dict[str, Any]:
    """The compiled rulebook of ``title``, with one option's merge patch applied if named."""
    base = build_rulebook(title)
    if option is None:
        return base
    return apply_merge_patch({**base, "options": {}}, base["options"][option]["patch"])


def train(book: dict[str, Any], name: str) -> dict[str, Any]:
    """A train or train variant by name."""
    for tname, data in book["trains"].items():
        if tname == name:
            return data
        for variant in data.get("variants", []):
            if variant["name"] == name:
                return variant
    raise AssertionError(f"no train or variant named {name}")


def phase(book: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in book["phases"] if p["name"] == name)


def phase_limit(book: dict[str, Any], name: str, kind: str | None = None) -> int:
    limit = phase(book, name)["train_limit"]
    if isinstance(limit, int):
        return limit
    return limit[kind] if kind else min(limit.values())


def tile_counts(book: dict[str, Any], colour: str) -> int:
    return sum(t["count"] for t in book["tiles"].values() if t["color"] == colour and t["count"] != "unlimited")
