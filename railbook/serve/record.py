"""A served game as an 18xx.games record: what ``railbook replay`` and the Watch page read back."""

from __future__ import annotations

from typing import Any

from railbook.engine.game import Game


def game_record(game_id: str, spec: dict[str, Any], game: Game) -> dict[str, Any]:
    """The 18xx.games export of a game: title, players, settings (seed, options), the actions with ids and, at
    the end, the result."""
    meta = game.rulebook.get("meta") or {}
    outcome = game.outcome()
    record: dict[str, Any] = {
        "id": game_id,
        "title": str(meta.get("site_id") or spec["title"]),
        "status": "finished" if outcome.finished else "active",
        "players": [{"id": p, "name": (spec.get("names") or {}).get(p, p)} for p in spec["players"]],
        "settings": {"seed": spec["seed"], "optional_rules": list(spec.get("options") or [])},
        "actions": [{**action, "id": i} for i, action in enumerate(game.actions, start=1)],
    }
    if outcome.finished:
        record["result"] = dict(outcome.values)
        record["game_end_reason"] = game.state.game_end_reason
    return record
