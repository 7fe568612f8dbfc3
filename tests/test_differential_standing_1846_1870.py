"""tools/differential.py's standing differences found in 1846 and 1870 games (docs/CONFORMANCE.md).

``stuck_round`` ("A stock round the site does not end"): after a sale that closes a corporation, the site can wait
on a player it offers nothing (``acting`` {p1: []}) and accept no move, where railbook skips him ("The Stock Round
ends when all players pass in turn") or ends the game (1846 differential run 5: 8 of 42 games differed only so,
e.g. seed 50000)."""

from __future__ import annotations

from typing import Any

from tests.differential_support import differential_tool as _tool
from tests.differential_support import stub_reference


def _line(i: int, acting: dict[str, list[str]], **extra: Any) -> dict[str, Any]:
    return {
        "id": i,
        "type": "sell_shares",
        "entity": "p3",
        "round": "Stock",
        "turn": "5.1",
        "acting": acting,
        "bank": 100,
        "corporations": {},
        "players": {"p1": 35, "p3": 18},
        **extra,
    }


def test_a_site_line_waiting_on_a_player_with_nothing_to_do_is_standing_up_to_the_end() -> None:
    d = _tool()
    ref = [
        _line(1, {"p3": ["pass", "sell_shares"]}),
        _line(2, {"p1": []}),
        {"game_end_reason": None, "result": {"p1": 35}},
    ]
    mine = [
        _line(1, {"p3": ["pass", "sell_shares"]}),
        _line(2, {}),
        {"game_end_reason": "all_closed", "result": {"p1": 35}},
    ]
    res = d.compare(ref, mine, "1846", [])
    assert res["first"] is None and res["stop"] is None
    assert res["modulo"] and not res["identical"]
    assert res["standing"] == {"stuck_round": 2}
    # railbook's game ended there after rounds nobody could act in (1870 seed 50009: turn 208.1 beside 33.1)
    mine[1] = {**mine[1], "turn": "208.1"}
    res = d.compare(ref, mine, "1846", [])
    assert res["first"] is None and res["standing"] == {"stuck_round": 3}


def test_stuck_round_lets_nothing_else_through() -> None:
    d = _tool()
    # a player the site offers nothing beside another entity: not the stuck round
    ref = [_line(1, {"p1": [], "p3": ["pass"]})]
    mine = [_line(1, {"p3": ["pass"]})]
    assert d.compare(ref, mine, "1846", [])["first"]["kind"].startswith("acting.*")
    # the stuck line's other fields still count
    ref = [_line(1, {"p1": []})]
    mine = [_line(1, {}, bank=90)]
    res = d.compare(ref, mine, "1846", [])
    assert res["first"]["kind"].startswith("bank") and res["standing"] == {"stuck_round": 1}
    # a turn apart where railbook has not ended the game is a difference
    mine = [_line(1, {"p2": ["pass"]}, turn="6.1")]
    assert d.compare(ref, mine, "1846", [])["first"]["kind"].startswith("turn")
    # railbook offering the player something where the site offers nothing is a difference
    mine = [_line(1, {"p1": ["pass"]})]
    assert d.compare(ref, mine, "1846", [])["first"]["kind"].startswith("acting.*")
    # an open game at the end after a line that was not stuck
    ref = [_line(1, {"p3": ["pass"]}), {"game_end_reason": None, "result": {"p1": 35}}]
    mine = [_line(1, {"p3": ["pass"]}), {"game_end_reason": "all_closed", "result": {"p1": 35}}]
    assert d.compare(ref, mine, "1846", [])["first"]["kind"].startswith("game_end_reason")


def test_buy_company_and_sell_shares_listed_together_for_a_company_in_phase_1_are_standing() -> None:
    """1870 phase 1: the site lists `buy_company` for MP or SSW once no player holds the MRBC, and `sell_shares` for
    a corporation in an operating round; each alone was looked past, both together were not (run 5 seeds 50008,
    50019, 50025)."""
    d = _tool()
    base = {"id": 1, "type": "pass", "entity": "SSW", "round": "Operating", "turn": "10.1", "phase": "1"}
    base |= {"companies": {"MRBC": "SSW"}, "players": {"p1": 10}, "corporations": {"SSW": {"cash": 5}}}
    ref = [{**base, "acting": {"SSW": ["bankrupt", "buy_company", "buy_train", "sell_shares"]}}]
    mine = [{**base, "acting": {"SSW": ["bankrupt", "buy_train"]}}]
    res = d.compare(ref, mine, "1870", [])
    assert res["first"] is None and res["standing"] == {"buy_company_listed": 1}
    # a player holding the MRBC: the company may buy nothing in phase 1, and the site listing it is a difference
    ref[0]["companies"] = mine[0]["companies"] = {"MRBC": "p1"}
    assert d.compare(ref, mine, "1870", [])["first"]["kind"].startswith("acting.*")


def test_the_sites_bank_end_is_railbooks_all_closed_end_where_both_end_alike() -> None:
    """1846 run 8 seed 100021: the last corporation closes at the end of the set in which the bank broke; both
    engines end the game there with the same result, railbook naming the closing, the site the bank (its
    all-closed end counts the open privates too). Naming only; another result or another pair of reasons is a
    difference."""
    d = _tool()
    last = _line(1, {}, type="dividend", round="Operating", turn="21.2")
    ref = [last, {"game_end_reason": "bank", "result": {"p1": 35}}]
    mine = [last, {"game_end_reason": "all_closed", "result": {"p1": 35}}]
    res = d.compare(ref, mine, "1846", [])
    assert res["first"] is None and res["identical"]
    mine[1] = {"game_end_reason": "all_closed", "result": {"p1": 36}}
    assert d.compare(ref, mine, "1846", [])["first"]["kind"].startswith("game_end_reason")
    mine[1] = {"game_end_reason": "stock_market", "result": {"p1": 35}}
    assert d.compare(ref, mine, "1846", [])["first"]["kind"].startswith("game_end_reason")


def test_passes_added_after_lines_in_a_row_are_looked_past_to_where_the_engines_agree_again() -> None:
    """1870 run 8 seed 100038: the site kept IC's train step open after its track step, and its track step after
    the next lay (a pass added after each of two lines in a row); railbook, one line ahead each time, had paid
    the next round's private income, then closed IC and gone on to the stock round. The engines agree again after
    the last added pass; a field that still differs there is a difference."""
    d = _tool()

    def line(i: int, acting: dict[str, list[str]], bank: int, turn: str, rnd: str = "Operating") -> dict[str, Any]:
        return {"id": i, "type": "pass", "entity": "IC", "round": rnd, "turn": turn, "acting": acting, "bank": bank}

    ref = [
        line(1, {"IC": ["buy_train", "pass"]}, 100, "22.1"),
        line(2, {"IC": ["lay_tile", "pass"]}, 90, "22.2"),
        line(3, {"p2": ["pass"]}, 500, "23.1", "Stock"),
    ]
    mine = [
        line(1, {"IC": ["lay_tile", "pass"]}, 90, "22.2"),
        line(2, {"p2": ["pass"]}, 500, "23.1", "Stock"),
        line(3, {"p2": ["pass"]}, 500, "23.1", "Stock"),
    ]
    res = d.compare(ref, mine, "1870", [], {1: "IC", 2: "IC"})
    assert res["first"] is None and res["modulo"] and res["standing"]["waiting_for_pass"] >= 3
    mine[2] = {**mine[2], "bank": 510}
    assert d.compare(ref, mine, "1870", [], {1: "IC", 2: "IC"})["first"]["kind"].startswith("bank")


def test_a_price_railbook_moved_before_a_single_added_pass_is_looked_past_where_the_engines_agree_after_it() -> None:
    """1870 run 10 seed 140019: MKT's track step ended with its upgrade in railbook (the MRBC's lay is one of its
    normal lays), which withheld at once for a company without a route ($20 to $10), ended the turn at the next
    purchase and closed MKT at its pass in the next round; the site held its track step open for the private's lay
    until MKT passed (the tool added the second pass), one line behind each time. The price and the money differ
    only until the line after the added pass, where the engines agree again; a field that still differs there is a
    difference."""
    d = _tool()

    def line(i: int, acting: dict[str, list[str]], price: int | None, turn: str, bank: int = 100) -> dict[str, Any]:
        corps = {} if price is None else {"MKT": {"price": price}}
        rnd = "Stock" if turn == "11.1" else "Operating"
        return {
            "id": i,
            "type": "pass",
            "entity": "MKT",
            "round": rnd,
            "turn": turn,
            "acting": acting,
            "bank": bank,
            "corporations": corps,
        }

    ref = [
        line(1, {"MKT": ["lay_tile", "pass"]}, 20, "10.1"),
        line(2, {"MKT": ["lay_tile", "pass"]}, 20, "10.1"),
        line(3, {"MKT": ["lay_tile", "pass"]}, 10, "10.2", 90),
        line(4, {"p3": ["pass"]}, None, "11.1", 95),
    ]
    mine = [
        line(1, {"MKT": ["buy_train", "pass"]}, 10, "10.1"),
        line(2, {"MKT": ["pass"]}, 10, "10.2", 90),
        line(3, {"p3": ["pass"]}, None, "11.1", 95),
        line(4, {"p3": ["pass"]}, None, "11.1", 95),
    ]
    res = d.compare(ref, mine, "1870", [], {3: "MKT"})
    assert res["first"] is None and res["modulo"] and res["standing"]["waiting_for_pass"] >= 4
    mine[3] = {**mine[3], "bank": 105}
    assert d.compare(ref, mine, "1870", [], {3: "MKT"})["first"]["kind"].startswith("bank")


def test_the_sites_failure_on_a_move_of_the_entity_whose_earlier_step_it_holds_open_gets_its_pass(
    tmp_path: Any,
) -> None:
    """1846 run 10 seed 140056: NYC redeemed shares and kept $15, too little for any lay; railbook ended its track
    step and went on to the train step, where NYC declared bankruptcy. The site, whose coarser check still held
    the track step open for NYC's pass, failed on the bankruptcy in its own code (``last_share_issued_price=``
    asked of its track step). The tool adds NYC's pass to the site's copy, as after a "Blocking step" refusal; a
    failure on the move of an entity the site does not wait on is left as it is."""
    import json

    tool = _tool()
    record = {
        "title": "1846",
        "actions": [
            {"type": "buy_shares", "entity": "NYC", "entity_type": "corporation", "id": 1},
            {"type": "bankrupt", "entity": "NYC", "entity_type": "corporation", "id": 2},
        ],
    }
    path = tmp_path / "1846_1.json"
    path.write_text(json.dumps(record))
    fails = "NoMethodError: undefined method `last_share_issued_price=' for <Engine::Game::G1846::Step::TrackAndToken>"
    waits = {"id": 1, "acting": {"NYC": ["lay_tile", "pass"]}, "corporations": {"NYC": {"price": 60}}}
    seen = stub_reference(tool, waits)
    _, ref, _, passes = tool.repair(record, [waits, {"id": 2, "error": fails}], path)
    assert passes == [tool.ENTITY_FAILS]
    assert seen[0] == [("NYC", 1), ("NYC", tool.ADDED_PASS_ID), ("NYC", 2)]
    assert not any("error" in x for x in ref)
    other = {**waits, "acting": {"GT": ["lay_tile", "pass"]}, "corporations": {"GT": {"price": 60}}}
    assert tool.repair(record, [other, {"id": 2, "error": fails}], path)[3] == []


def test_a_marker_step_the_sites_stale_graph_skips_is_standing_and_its_pass_left_out_of_the_sites_copy(
    tmp_path: Any,
) -> None:
    """1870 run 10 seed 140052: FW closed and its marker left Fort Worth; the site, judging by its route graph from
    before, saw no free city for TP's marker and skipped TP's marker step (``run_routes`` next), where railbook
    offered the freed city (``place_token``, ``pass``) and the record passed. The site refused that pass. The tool
    leaves the pass out of the site's copy, gives it the line before in the site's stream (nothing changes in a
    skipped step) and looks past the listing (``stale_graph``); without the closing it is a difference."""
    import json

    tool = _tool()
    tp = {"type": "pass", "entity": "TP", "entity_type": "corporation"}
    record = {"title": "1870", "actions": [{**tp, "entity": "FW", "id": 1}, {**tp, "id": 2}, {**tp, "id": 3}]}
    path = tmp_path / "1870_1.json"
    path.write_text(json.dumps(record))
    both = {"TP": {"price": 10, "tokens": ["J5"]}}
    gone = {"id": 1, "round": "Operating", "tiles": {"J3": "5@4"}, "corporations": both}
    before = {**gone, "id": 0, "corporations": {**both, "FW": {"price": 10, "tokens": ["J3"]}}}
    track = {**gone, "id": 2, "type": "pass", "entity": "TP", "acting": {"TP": ["bankrupt", "run_routes"]}}
    fails = "Engine::GameError: Blocking step Run Routes cannot process action pass at 3"

    def reference(site_path: Any, strict: bool, cache: Any) -> list[dict[str, Any]]:
        ids = [a["id"] for a in json.loads(site_path.read_text())["actions"]]
        assert ids == [1, 2]
        return [before, gone, track]

    tool.reference = reference
    mine_record, ref, _, passes = tool.repair(record, [before, gone, track, {"id": 3, "error": fails}], path)
    assert passes == [tool.SKIPPED_STEP]
    assert [a["id"] for a in mine_record["actions"]] == [1, 2, 3] and tool.SITE_SKIPS not in json.dumps(mine_record)
    assert [x.get("id") for x in ref] == [0, 1, 2, 3] and ref[3]["acting"] == track["acting"]
    mine = [before, gone, {**track, "acting": {"TP": ["pass", "place_token"]}}, {**track, "id": 3}]
    res = tool.compare(ref, mine, "1870", [])
    assert res["first"] is None and res["standing"] == {"stale_graph": 1}
    fresh = [[{**x, "corporations": both} for x in lines] for lines in (ref, mine)]  # (no closing: no stale graph)
    assert tool.compare(*fresh, "1870", [])["first"]["kind"].startswith("acting.*")


def test_the_sites_game_over_on_a_notice_riding_on_the_move_that_ends_turn_100_ends_the_comparison() -> None:
    """1870 run 8 seed 100038: the move that ended the stock round of turn 100 ended the site's game (its turn
    limit), and the automatic notice riding on that move was refused as coming after the game's end: the
    comparison ends there (``site_turn_limit``), as where the site's game ends on a line of its own; before turn
    100 such a refusal stops it."""
    d = _tool()
    ref = [
        _line(1, {"p4": ["pass"]}, turn="100.1"),
        {"error": "Engine::GameIsOver: Cannot process action destination_connection at : {}", "id": 2},
    ]
    mine = [_line(1, {"p4": ["pass"]}, turn="100.1"), _line(2, {"SSW": ["pass"]}, turn="100.2")]
    res = d.compare(ref, mine, "1870", [])
    assert res["stop"] is None and res["first"] is None and res["modulo"]
    ref[0]["turn"] = mine[0]["turn"] = "99.1"
    assert d.compare(ref, mine, "1870", [])["stop"] is not None


def test_a_marker_or_lay_listed_by_railbook_alone_while_the_sites_graph_is_stale_is_standing() -> None:
    """The site keeps its route graph when a corporation closes and its markers leave the map, until the next lay
    or placement (1846 run 8 seed 100002: GT closed at the stock round's end, and IC's marker where GT's had
    been was listed by railbook alone until IC laid a tile). Once a tile or marker has changed since the
    closing, the same listing is a difference."""
    d = _tool()
    base = {"type": "pass", "entity": "IC", "round": "Operating", "turn": "7.1", "tiles": {"I7": "24@1"}}
    gt = {"GT": {"tokens": ["H12"]}, "IC": {"tokens": ["J8"]}}
    ref = [
        {**base, "id": 1, "acting": {"p1": ["pass"]}, "corporations": gt},
        {**base, "id": 2, "acting": {"IC": ["lay_tile", "pass"]}, "corporations": {"IC": {"tokens": ["J8"]}}},
    ]
    mine = [dict(ref[0]), {**ref[1], "acting": {"IC": ["lay_tile", "pass", "place_token"]}}]
    res = d.compare(ref, mine, "1846", [])
    assert res["first"] is None and res["standing"] == {"stale_graph": 1}
    # (a mine's rights, which need the map to reach the mine, likewise: 1850 run 15 seed 200159)
    rights = [dict(ref[0]), {**ref[1], "acting": {"IC": ["choose", "lay_tile", "pass"]}}]
    assert d.compare(ref, rights, "1850", [])["standing"] == {"stale_graph": 1}
    # long after the closing, no tile or marker changed since: still stale (1846 run 15 seed 200300, 207 lines on)
    quiet = {**ref[0], "corporations": {"IC": {"tokens": ["J8"]}}}
    late_ref = [ref[0], *({**quiet, "id": 2 + i} for i in range(300)), {**ref[1], "id": 400}]
    late_mine = [*late_ref[:-1], {**mine[1], "id": 400}]
    assert d.compare(late_ref, late_mine, "1846", [])["standing"] == {"stale_graph": 1}
    # a tile laid after the closing: the site's graph is new, and the listing is a difference
    ref.insert(2, {**ref[1], "id": 3, "tiles": {"I7": "24@1", "I9": "8@0"}})
    mine.insert(2, {**mine[1], "id": 3, "tiles": {"I7": "24@1", "I9": "8@0"}})
    ref[1] = {**ref[1], "acting": mine[1]["acting"]}
    assert d.compare(ref, mine, "1846", [])["first"]["kind"].startswith("acting.*")
    # something the site lists and railbook does not is a difference too
    ref, mine = ref[:2], mine[:2]
    ref[1] = {**ref[1], "acting": {"IC": ["buy_train", "lay_tile", "pass"]}}
    assert d.compare(ref, mine, "1846", [])["first"]["kind"].startswith("acting.*")


def test_a_home_marker_the_site_places_by_itself_leaves_its_graph_stale() -> None:
    """1870 run 14 seed 190003: ATSF closed (its markers left the map), then MP floated and the site placed its home
    marker by itself, which does not compute its graph again; MKT's marker step, with a city freed by ATSF, was
    still skipped. A company's first marker with no ``place_token`` action keeps the graph stale; a placement by
    action renews it."""
    d = _tool()
    base = {"type": "pass", "entity": "MKT", "round": "Operating", "turn": "33.1", "tiles": {"B9": "57@4"}}
    before = {"ATSF": {"tokens": ["B9"]}, "MKT": {"tokens": ["B11"]}, "MP": {"tokens": []}}
    closed = {"MKT": {"tokens": ["B11"]}, "MP": {"tokens": []}}
    home = {"MKT": {"tokens": ["B11"]}, "MP": {"tokens": ["C18"]}}
    ref = [
        {**base, "id": 1, "acting": {"p1": ["pass"]}, "corporations": before},
        {**base, "id": 2, "acting": {"p2": ["pass"]}, "corporations": closed},
        {**base, "id": 3, "entity": "p2", "acting": {"MKT": ["run_routes"]}, "corporations": home},
    ]
    assert d._graph_stale(ref, 2)
    ref[2] = {**ref[2], "type": "place_token", "entity": "MP"}
    assert not d._graph_stale(ref, 2)
    # (1817 run 13 seed 170080: a liquidation takes an open company's markers off the map: stale as a closing)
    held = {"GT": {"tokens": ["I12", "I16"]}, "PW": {"tokens": ["B17"]}}
    gone = {"GT": {"tokens": []}, "PW": {"tokens": ["B17"]}}
    liquidated = [{**base, "id": 1, "corporations": held}, {**base, "id": 2, "corporations": gone}]
    assert d._graph_stale(liquidated, 1)


def test_a_marker_and_route_step_the_stale_graph_skips_to_the_train_purchase_are_standing() -> None:
    """1870 run 16 seed 250009: MKT closed (its B11 marker gone) and ATSF, with no train, passed its track step. The
    site, its graph stale, saw no city for a marker and skipped the marker and route steps to the train purchase,
    withholding ($40 to $30); railbook offered B11 (`place_token`, `pass`) and withheld at the pass that ended the
    marker step. The listing and the price until then are `stale_graph`; the site's refusal of that pass is
    repaired as for a skipped marker step."""
    d = _tool()

    def line(i: int, acting: list[str], price: int, **extra: Any) -> dict[str, Any]:
        return {
            "id": i,
            "type": "pass",
            "entity": "ATSF",
            "round": "Operating",
            "turn": "18.1",
            "tiles": {},
            "acting": {"ATSF": acting},
            "corporations": {"ATSF": {"price": price, "tokens": ["B9"]}},
            **extra,
        }

    closed = {"ATSF": {"price": 40, "tokens": ["B9"]}, "MKT": {"price": 20, "tokens": ["B11"]}}
    ref = [
        line(1, ["lay_tile", "pass"], 40, corporations=closed),
        line(2, ["lay_tile", "pass"], 40),
        line(3, ["buy_train", "sell_shares"], 30),
        line(4, ["buy_train", "sell_shares"], 30),
    ]
    mine = [dict(ref[0]), dict(ref[1]), line(3, ["pass", "place_token"], 40), line(4, ["buy_train", "sell_shares"], 30)]
    res = d.compare(ref, mine, "1870", [])
    assert res["first"] is None and res["standing"] == {"stale_graph": 2}
    err = "Engine::GameError: Blocking step Buy Trains cannot process action pass at 4"
    pass_ = {"type": "pass", "entity": "ATSF", "entity_type": "corporation", "id": 4}
    assert d._skipped_by_site(err, ref[2]["acting"], pass_, [*ref[:3], {"error": err, "id": 4}])

    # a loan the company may take in every step is listed beside them alike (1856 run 17 seed 300119)
    def loaned(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**x, "acting": {"ATSF": [*x["acting"]["ATSF"], "take_loan"]}} for x in lines]

    assert d.compare(loaned(ref), loaned(mine), "1856", [])["standing"] == {"stale_graph": 2}

    # and so are 1856's bridge and tunnel rights, bought in any step (run 19 seed 400504)
    def rights(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**x, "acting": {"ATSF": [*x["acting"]["ATSF"], "special_buy", "take_loan"]}} for x in lines]

    assert d.compare(rights(ref), rights(mine), "1856", [])["standing"] == {"stale_graph": 2}
    # a price railbook never moves to the site's is a difference
    mine[3] = line(4, ["buy_train", "sell_shares"], 40)
    assert d.compare(ref, mine, "1870", [])["first"]["kind"].startswith("corporations.*.price")


def test_a_track_step_the_site_keeps_open_and_ends_by_itself_is_waiting_for_pass() -> None:
    """1846 run 16 seed 250036: C&O had $5 left after its lay and no legal lay: railbook went on to its train step
    and withheld (no train; $40 to $30). The site kept the track step open (`lay_tile`, `pass`) and ended it by
    itself after the two lays of C&O's Michigan Central, withholding then. With no pass added, those lines are
    `waiting_for_pass` as for one; where the site never lists the same as railbook again, they are differences."""
    d = _tool()

    def line(i: int, acting: dict[str, list[str]], price: int) -> dict[str, Any]:
        return {
            "id": i,
            "type": "lay_tile",
            "round": "Operating",
            "turn": "1.1",
            "acting": acting,
            "corporations": {"C&O": {"price": price}},
        }

    ref = [
        line(60, {"C&O": ["buy_company", "lay_tile", "pass"]}, 40),
        line(61, {"C&O": ["buy_company", "lay_tile", "pass"]}, 40),
        line(62, {"MC": ["lay_tile", "pass"]}, 40),
        line(63, {"C&O": ["buy_company", "buy_train"]}, 30),
    ]
    mine = [
        ref[0],
        line(61, {"C&O": ["buy_company", "buy_train"]}, 30),
        line(62, {"MC": ["lay_tile", "pass"]}, 30),
        line(63, {"C&O": ["buy_company", "buy_train"]}, 30),
    ]
    assert d.steps_closed_alone(ref, mine) == {62: "C&O"}
    res = d.compare(ref, mine, "1846", [])
    assert res["first"] is None and res["standing"] == {"waiting_for_pass": 3}
    ref[3] = line(63, {"C&O": ["buy_company", "lay_tile", "pass"]}, 40)
    assert d.steps_closed_alone(ref, mine) == {}
    assert d.compare(ref, mine, "1846", [])["first"]["kind"].startswith("acting.*")
    # 1850 run 13 seed 170109: the marker-step pass of railbook's record ends the site's track step, and the
    # purchase of a private that left CBQ no cash for a marker its marker step: a step behind, then the same
    behind = [
        line(571, {"CBQ": ["buy_company", "lay_tile", "pass"]}, 10),
        line(572, {"CBQ": ["buy_company", "pass", "place_token"]}, 10),
        line(573, {"CBQ": ["run_routes"]}, 10),
    ]
    ahead = [
        line(571, {"CBQ": ["buy_company", "pass", "place_token"]}, 10),
        line(572, {"CBQ": ["buy_company", "run_routes"]}, 10),
        line(573, {"CBQ": ["run_routes"]}, 10),
    ]
    assert d.steps_closed_alone(behind, ahead) == {572: "CBQ"}
    assert d.compare(behind, ahead, "1850", [])["first"] is None
    # the site a step ahead of railbook is no such wait
    assert d.steps_closed_alone(ahead, behind) == {}


def test_a_route_step_the_site_offers_from_its_memo_of_an_earlier_route_gets_an_empty_run(tmp_path: Any) -> None:
    """1830 run 14 seed 190027: ERIE's lay of #59 on E11 lifted its home marker, which ERIE put back in city 1,
    whose track meets no other station. railbook found no route, skipped the route step and withheld; the site,
    whose graph had found ERIE a route while the marker stood in city 0 and keeps that finding, held ERIE in its
    route step and refused the train purchase. Where the site's graph computed afresh finds no route either, the
    tool runs ERIE's empty route in the site's copy (the site then withholds as railbook did); where it finds a
    route, or the site's graph found none at all, the refusal stands."""
    import json

    tool = _tool()
    record = {
        "title": "1830",
        "actions": [
            {"type": "place_token", "entity": "ERIE", "entity_type": "corporation", "city": "59-1-1", "id": 1},
            {"type": "buy_train", "entity": "ERIE", "entity_type": "corporation", "train": "5-2", "id": 2},
        ],
    }
    path = tmp_path / "1830_1.json"
    path.write_text(json.dumps(record))
    refused = "Engine::GameError: Blocking step Run Routes cannot process action buy_train at 2"
    waits = {"id": 1, "acting": {"ERIE": ["bankrupt", "run_routes"]}, "corporations": {"ERIE": {"price": 30}}}
    asked: list[tuple[int, str]] = []
    answers = [{"memo": True, "fresh": False}, {"memo": True, "fresh": True}, {"memo": False, "fresh": False}, {}]

    def site_route(record_: Any, site: list[dict[str, Any]], corporation: str) -> dict[str, bool]:
        asked.append((len(site), corporation))
        return answers[len(asked) - 1]

    tool.site_route = site_route
    seen = stub_reference(tool, waits)
    _, ref, _, passes = tool.repair(record, [waits, {"id": 2, "error": refused}], path)
    assert passes == [tool.ROUTE_MEMO] and asked == [(1, "ERIE")]
    assert seen[0] == [("ERIE", 1), ("ERIE", tool.ADDED_PASS_ID), ("ERIE", 2)]
    added = json.loads(path.with_name("1830_1.site.json").read_text())["actions"][1]
    assert added["type"] == "run_routes" and added["routes"] == []
    assert not any("error" in x for x in ref)
    for _ in answers[1:]:
        assert tool.repair(record, [waits, {"id": 2, "error": refused}], path)[3] == []
    # 1856 lists a loan in every step of the turn (run 19 seed 450096: THB, whose route the closing of WR took away)
    asked.clear()
    answers[:] = [{"memo": True, "fresh": False}]
    loans = {**waits, "acting": {"ERIE": ["bankrupt", "run_routes", "take_loan"]}}
    assert tool.repair(record, [loans, {"id": 2, "error": refused}], path)[3] == [tool.ROUTE_MEMO]


def test_a_train_purchase_the_site_demands_by_its_route_memo_alone_is_standing() -> None:
    """1830 run 13 seed 170031: ERIE, its trains rusted and its home marker in a city whose track meets no other
    station, had no route; railbook let it pass its train step, the site (its graph's memo of an earlier route)
    made it buy (``buy_train``, its president's ``sell_shares``, no ``pass``). Where the site's graph computed
    afresh finds no route either, that line is ``route_memo``; where it finds one, it is a difference."""
    tool = _tool()

    def line(i: int, erie: list[str]) -> dict[str, Any]:
        return {
            "id": i,
            "type": "lay_tile",
            "entity": "ERIE",
            "round": "Operating",
            "turn": "23.3",
            "acting": {"ERIE": erie},
            "bank": 100,
            "corporations": {},
            "players": {"p1": 10},
        }

    record = {"title": "1830", "actions": [{"id": 1, "type": "lay_tile", "entity": "ERIE"}]}
    ref = [line(1, ["bankrupt", "buy_train", "sell_shares"])]
    mine = [line(1, ["bankrupt", "buy_train", "pass"])]
    asked: list[tuple[int, str]] = []
    fresh = [False]

    def site_route(record_: Any, site: list[dict[str, Any]], corporation: str) -> dict[str, bool]:
        asked.append((len(site), corporation))
        return {"memo": True, "fresh": fresh[0]}

    tool.site_route = site_route
    memo = tool.route_memo_points(record, None, ref, mine)
    assert memo == {(1, "ERIE")} and asked == [(1, "ERIE")]
    res = tool.compare(ref, mine, "1830", [], {}, memo)
    assert res["modulo"] and res["standing"] == {"route_memo": 1}
    fresh[0] = True
    assert tool.route_memo_points(record, None, ref, mine) == set()
    assert tool.compare(ref, mine, "1830", [], {}, set())["first"]["kind"].startswith("acting")
    # (a difference beyond the train step's types is never put to the site's graph)
    other = [line(1, ["bankrupt", "lay_tile", "pass"])]
    assert tool.route_memo_points(record, None, ref, other) == set() and len(asked) == 2


def test_a_private_trade_the_site_offers_today_to_a_player_of_an_older_record_is_standing() -> None:
    """The shared 1870 records (2022-2025) replay with `site_no_private_trades`: the site of their dates offered no
    trades of privates between players; the reference (its snapshot of 2026-08-02) lists `buy_company` for a player
    in a stock round from phase 2, and nothing else differs. Standing `private_trades_dated` for such a record; for a
    record of today's site, a difference."""
    d = _tool()
    line = {"id": 83, "type": "pass", "round": "Stock", "turn": "3.1", "players": {"p4": 300}}
    ref = [{**line, "acting": {"p4": ["buy_company", "buy_shares", "pass"]}}]
    mine = [{**line, "acting": {"p4": ["buy_shares", "pass"]}}]
    res = d.compare(ref, mine, "1870", [], options=frozenset({"site_no_private_trades"}))
    assert res["first"] is None and res["standing"] == {"private_trades_dated": 1}
    assert d.compare(ref, mine, "1870", [])["first"]["kind"].startswith("acting.*")


def test_a_round_the_site_leaves_open_after_a_bankruptcy_is_ended_by_a_chat_message(tmp_path: Any) -> None:
    """1846 run 15 seed 200319: IC's president went bankrupt; GT, last to operate, had a train and no cash, so the
    operating round was over. The site remembered IC's train step as its active step until the next action began,
    listed GT's `bankrupt` alone and refused p1's purchase in the stock round ("No step found"). The tool adds a
    chat message to the site's copy, which ends the round there, and looks past the round, turn and listing of the
    bankruptcy's line (``round_left_open``). Without a bankruptcy just before, the refusal is left as it is."""
    import json

    tool = _tool()
    record = {
        "title": "1846",
        "players": [{"id": "p1", "name": "A"}, {"id": "p2", "name": "B"}],
        "actions": [
            {"type": "bankrupt", "entity": "IC", "entity_type": "corporation", "id": 1},
            {"type": "buy_shares", "entity": "p1", "entity_type": "player", "shares": ["IC_3"], "id": 2},
        ],
    }
    path = tmp_path / "1846_1.json"
    path.write_text(json.dumps(record))
    refused = "Engine::GameError: No step found for action buy_shares at 2: {}"
    open_round = {"id": 1, "round": "Operating", "turn": "2.2", "acting": {"GT": ["bankrupt"]}, "corporations": {}}
    seen = stub_reference(tool, open_round)
    _, ref, _, passes = tool.repair(record, [open_round, {"id": 2, "error": refused}], path)
    assert passes == [tool.ROUND_LEFT_OPEN]
    assert seen[0] == [("IC", 1), ("p1", tool.ADDED_PASS_ID), ("p1", 2)]
    site = json.loads(path.with_name("1846_1.site.json").read_text())
    assert site["actions"][1]["type"] == "message" and not any("error" in x for x in ref)
    # railbook ended the round: the bankruptcy's line differs in round, turn and listing alone
    stock = {"round": "Stock", "turn": "3.1", "corporations": {}}
    mine = [{**open_round, **stock, "acting": {"p1": ["buy_shares", "pass"]}}, {"id": 2, **stock, "acting": {}}]
    theirs = [open_round, {"id": 2, **stock, "acting": {}}]
    res = tool.compare(theirs, mine, "1846", [], tool.waiting_points(site))
    assert res["modulo"] and res["standing"] == {"round_left_open": 4}
    assert not tool.compare(theirs, mine, "1846", [], {})["modulo"]
    # the listing of a company with more to do, or no bankruptcy before the refusal: not this repair
    busy = {**open_round, "acting": {"GT": ["bankrupt", "buy_train"]}}
    assert tool.repair(record, [busy, {"id": 2, "error": refused}], path)[3] == []
    bought = {**record, "actions": [{**record["actions"][0], "type": "buy_train"}, record["actions"][1]]}
    assert tool.repair(bought, [open_round, {"id": 2, "error": refused}], path)[3] == []
