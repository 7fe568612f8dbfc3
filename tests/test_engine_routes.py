"""Routes rebuilt from recorded connections: revenue with bonuses, and the rules a route must keep."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from railbook.compiler.load import available_titles
from railbook.engine import Game, IllegalAction
from railbook.engine import routes as R
from railbook.engine.replay import filter_actions, load, normalise, start_from_record

from railbook.api import rulebook_for_title
from tests.conftest import fixture_files

pytestmark = pytest.mark.skipif("1846" not in available_titles(), reason="games/1846 not written yet")

RECORD = next((p for p in fixture_files("1846") if p.stem == "1846_game_end_reason_all_closed"), None)
needs_record = pytest.mark.skipif(RECORD is None, reason="the shared 1846 records are not available")


@cache
def _actions() -> list[dict[str, Any]]:
    record = load(RECORD)
    return [a for a in filter_actions(record["actions"]) if a["type"] not in ("message", "log")]


def before(index: int) -> tuple[Game, dict[str, Any]]:
    """The game just before kept action ``index`` of the record, and that action."""
    record = load(RECORD)
    g = start_from_record(record, rulebook_for_title("1846"))
    actions = _actions()
    for a in actions[:index]:
        g.process(normalise(a), atomic=False)
    return g, actions[index]


def find_run(corp: str, *needles: str) -> int:
    for i, a in enumerate(_actions()):
        if a["type"] == "run_routes" and a["entity"] == corp:
            text = " ".join(r.get("revenue_str", "") for r in a["routes"])
            if all(n in text for n in needles):
                return i
    raise LookupError(needles)


@needs_record
def test_recorded_revenues_with_bonuses() -> None:
    for needles in (("E/W", "Port"), ("Meat",), ("Boomtown", "Mail")):
        corp = {"E/W": "GT", "Meat": "IC", "Boomtown": "B&O"}[needles[0]]
        g, action = before(find_run(corp, *needles))
        got = R.evaluate(g.context, f"C|{action['entity']}", action["routes"])
        assert [r.revenue for r in got] == [r["revenue"] for r in action["routes"]]


@needs_record
def test_nm_train_counts_the_best_stops() -> None:
    index = next(
        i
        for i, a in enumerate(_actions())
        if a["type"] == "run_routes" and any("(" in r.get("revenue_str", "") for r in a["routes"])
    )
    g, action = before(index)
    got = R.evaluate(g.context, f"C|{action['entity']}", action["routes"])
    for route, spec in zip(got, action["routes"], strict=True):
        assert route.revenue == spec["revenue"]
        assert len(route.counted) <= len(route.stops)


@needs_record
def test_route_rules() -> None:
    g, action = before(find_run("GT", "E/W", "Port"))
    corp = "C|GT"
    first, second = action["routes"][0], action["routes"][1]
    shared = dict(second, connections=first["connections"])
    with pytest.raises(IllegalAction) as info:
        R.evaluate(g.context, corp, [first, shared])
    assert info.value.rule == "route.track"
    with pytest.raises(IllegalAction) as info:
        R.evaluate(g.context, corp, [first, dict(first)])
    assert info.value.rule == "route.train"
    with pytest.raises(IllegalAction) as info:
        R.evaluate(g.context, corp, [{"train": "2-0", "connections": first["connections"]}])
    assert info.value.rule == "route.train"
    with pytest.raises(IllegalAction) as info:
        R.evaluate(g.context, corp, [dict(first, connections=[["C15", "Z9"]])])
    assert info.value.rule == "route.hex"
    with pytest.raises(IllegalAction) as info:
        R.evaluate(g.context, corp, [dict(first, connections=[["C15", "G9"]])])
    assert info.value.rule == "route.track"


@needs_record
def test_run_routes_action_is_checked() -> None:
    g, action = before(find_run("GT", "E/W", "Port"))
    bad = dict(action, routes=[dict(action["routes"][0], connections=[["C5", "D6"], ["C5", "D6"]])])
    with pytest.raises(IllegalAction):
        g.process(normalise(bad))
    g.process(normalise(action))


def test_distance_rules() -> None:
    n_m = [{"nodes": ["city", "offboard"], "visit": 5, "pay": 3}]
    assert R.check_distance(n_m, ["city"] * 5)
    assert not R.check_distance(n_m, ["city"] * 6)
    assert R.check_distance([{"visit": 2, "pay": 2}], ["city", "offboard"])
    assert not R.check_distance([{"visit": 2, "pay": 2}], ["city", "city", "city"])
    plus = [{"nodes": ["city", "offboard"], "visit": 2, "pay": 2}, {"nodes": ["town"], "visit": 1, "pay": 1}]
    assert R.check_distance(plus, ["city", "town", "city"])
    assert not R.check_distance(plus, ["town", "town", "city"])
