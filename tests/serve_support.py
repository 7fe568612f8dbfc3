"""Helpers of the serve tests: an app over a temporary database, and playing a game through the JSON API."""

from __future__ import annotations

import random
from typing import Any

from railbook.serve.routing import best_routes, chosen_routes

TITLES = ("1846", "1850", "1856", "1870", "1817")
PLAYERS = ["ann", "bob", "cy", "dee"]


def plain(legal: dict[str, Any]) -> dict[str, Any]:
    """The action of a legal action's JSON that has nothing open."""
    return {"type": legal["type"], "entity": legal["entity"], "entity_type": legal["entity_type"], **legal["fields"]}


def action_of(legal: dict[str, Any], rnd: random.Random, client: Any = None, gid: str = "") -> dict[str, Any]:
    """A complete action from one legal action's JSON: ranges filled at random, routes by the optimiser."""
    action = {"type": legal["type"], "entity": legal["entity"], "entity_type": legal["entity_type"], **legal["fields"]}
    for name, allowed in legal["open"].items():
        if allowed["kind"] == "range":
            values = range(allowed["min"], allowed["max"] + 1, allowed["step"])
            action[name] = rnd.choice(values)
        elif allowed["kind"] == "routes":
            game = client.app.state.tables.get(gid).game
            action[name] = chosen_routes(best_routes(game, legal["entity"]), None)
    return action


def play(client: Any, gid: str, token: str, actions: int, seed: int = 1) -> int:
    """Play up to ``actions`` offered actions through ``POST /api/games/{id}/actions``; the number played."""
    rnd = random.Random(seed)
    done = 0
    for _ in range(actions):
        legal = client.get(f"/api/games/{gid}/legal").json()["legal"]
        if not legal:
            break
        passes = [x for x in legal if x["type"] == "pass"]
        others = [x for x in legal if x["type"] not in ("pass", "bankrupt")]
        pick = rnd.choice(passes if passes and (not others or rnd.random() < 0.3) else others or legal)
        response = client.post(
            f"/api/games/{gid}/actions",
            json=action_of(pick, rnd, client, gid),
            headers={"Authorization": f"Bearer {token}"},
        )
        assert response.status_code == 200, response.text
        done += 1
    return done
