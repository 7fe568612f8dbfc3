"""Compiled rulebooks are cached between runs and recompiled when the title changes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from railbook.compiler.compile import build_rulebook
from railbook.compiler.load import GAMES_DIR

from railbook.rulebook_cache import cached_rulebook


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("RAILBOOK_CACHE", str(folder))
    return folder


def test_compiled_once_then_read_back(cache: Path, tmp_path: Path) -> None:
    title = tmp_path / "1846"
    shutil.copytree(GAMES_DIR / "1846", title)
    calls: list[Path] = []

    def compile_fn(path: Path) -> dict:
        calls.append(path)
        return build_rulebook(path)

    first = cached_rulebook(title, compile_fn)
    assert cached_rulebook(title, compile_fn) == first and len(calls) == 1
    (entry,) = cache.glob("1846-*.json")
    assert json.loads(entry.read_text()) == first

    text = (title / "game.yaml").read_text().replace("    min_cost: 20", "    min_cost: 30", 1)
    (title / "game.yaml").write_text(text)
    changed = cached_rulebook(title, compile_fn)
    assert len(calls) == 2 and changed["mechanics"]["track"]["min_cost"] == 30
    assert len(list(cache.glob("1846-*.json"))) == 1, "the stale entry is dropped"

    for stale in cache.glob("1846-*.json"):
        stale.write_text("{not json")
    assert cached_rulebook(title, compile_fn) == changed and len(calls) == 3


def test_cache_off(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("RAILBOOK_CACHE", "off")
    calls: list[Path] = []
    for _ in range(2):
        cached_rulebook(GAMES_DIR / "1846", lambda p: calls.append(p) or {"title": "x"})
    assert len(calls) == 2


def test_validated_parameters_are_kept_and_rebuilt_when_damaged(cache: Path) -> None:
    from railbook.engine import install
    from railbook.engine.book import Book

    from railbook.api import rulebook_for_title

    rulebook = rulebook_for_title("1846")
    fresh = install._install(Book(rulebook))
    (entry,) = cache.glob("params-*.pickle")
    again = install._install(Book(rulebook))
    assert again.params == fresh.params and again.event_params == fresh.event_params
    assert again.params["track"] is not fresh.params["track"], "read back from the cache, not shared in memory"

    entry.write_bytes(b"not a pickle")
    rebuilt = install._install(Book(rulebook))
    assert rebuilt.params == fresh.params
    assert entry.read_bytes() != b"not a pickle"

    changed = json.loads(json.dumps(rulebook))
    changed["mechanics"]["track"]["min_cost"] = 30
    assert install._install(Book(changed)).params["track"].min_cost == 30  # other parameters: another entry
    assert len(list(cache.glob("params-*.pickle"))) == 2


def test_invalid_parameters_are_reported_not_cached(cache: Path) -> None:
    from railbook.engine import install
    from railbook.engine.book import Book
    from railbook.engine.errors import UnsupportedTitle

    from railbook.api import rulebook_for_title

    bad = json.loads(json.dumps(rulebook_for_title("1846")))
    bad["mechanics"]["track"]["min_cost"] = "lots"
    with pytest.raises(UnsupportedTitle, match=r"mechanics\.track\.min_cost"):
        install._install(Book(bad))
    assert not list(cache.glob("params-*.pickle"))
