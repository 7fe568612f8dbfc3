"""Private abilities are usable in every window their rules give, not only where the engine's step order first
meets them: the Steamboat Company, once a corporation owns it, may place or shift its port marker at any time
of the owning corporation's turn before the routes are run (1846 §3), the route step included."""

from __future__ import annotations

import pytest
from railbook.engine import rounds
from railbook.engine.errors import IllegalAction
from railbook.engine.game import Game
from railbook.engine.replay import filter_actions, load, normalise, start_from_record

from railbook.api import rulebook_for_title
from tests.conftest import fixture_files


def _at_owner_route_step(company: str) -> tuple[Game, dict]:
    """A shared 1846 game replayed to the route step of the corporation owning ``company`` (and its next action)."""
    rb = rulebook_for_title("1846")
    for path in fixture_files("1846"):
        record = load(path)
        g = start_from_record(record, rb)
        actions = [a for a in filter_actions(record["actions"]) if a["type"] not in ("message", "log")]
        for i, a in enumerate(actions):
            for x in [a, *(a.get("auto_actions") or [])]:
                g.process(normalise(x), atomic=False)
            if g.state.finished:
                break
            c = g.state.companies.get(company)
            step = rounds.active_step(g.context)
            if (
                c
                and not c.closed
                and c.owner == g.context.current_operator()
                and step is not None
                and step.name == "route"
            ):
                return g, actions[i + 1]
    pytest.skip("no shared 1846 record has a corporation owning the private at its route step")


def test_port_marker_may_move_during_the_route_step() -> None:
    g, _ = _at_owner_route_step("SC")
    corp = g.context.current_operator()
    offered = [d for d in g.legal_descriptions() if d["entity"] == "SC" and d["type"] == "assign"]
    assert offered, "the owning corporation may still place the port marker before it runs"
    target = offered[0]["choices"][-1]["target"]
    g.process({"type": "assign", "entity": "SC", "entity_type": "company", "target": target, "target_type": "hex"})
    assert "SC" in g.state.hexes[target].assigned
    assert rounds.active_step(g.context).name == "route", "placing the marker does not end the route step"
    with pytest.raises(IllegalAction):  # once per operating round
        other = next(c["target"] for c in offered[0]["choices"] if c["target"] != target)
        g.process({"type": "assign", "entity": "SC", "entity_type": "company", "target": other, "target_type": "hex"})
    assert g.context.current_operator() == corp


def test_port_marker_not_after_the_routes() -> None:
    g, recorded_next = _at_owner_route_step("SC")
    if recorded_next["type"] != "run_routes":
        pytest.skip("the recorded next action is not the owner's run")
    g.process(normalise(recorded_next))
    assert not [d for d in g.legal_descriptions() if d["entity"] == "SC" and d["type"] == "assign"]
