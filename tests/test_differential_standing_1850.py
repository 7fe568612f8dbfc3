"""The 1850 standing disagreements of tools/differential.py (docs/CONFORMANCE.md), checked on hand-made digest
lines with no reference engine (the tool itself is a development tool)."""

from __future__ import annotations

from typing import Any

from tests.differential_support import differential_tool as _tool
from tests.differential_support import stub_reference


def _line(np_open: bool, np_private: bool, kind: str = "sell_shares", rnd: str = "Stock") -> dict[str, Any]:
    corporations = {"NP": {"cash": 0, "price": 10}} if np_open else {}
    return {
        "id": 1,
        "type": kind,
        "round": rnd,
        "corporations": {"GN": {"cash": 100, "price": 60}, **corporations},
        "companies": {"GBC": "NP"} if np_private else {},
    }


def test_1850_a_closing_sale_closes_the_corporations_privates_later_on_the_site_sale_price() -> None:
    """p1's sale drops NP into the black area: railbook closes NP with its privates at once ([5.1.1]), the site
    when it moves the price, after price protection is declined (differential seed 80000, action 604: the Gant
    Brothers still NP's on the site). Standing `sale_price` while the site's private closes within the window
    (the corporation's own closing already is); a private that stays NP's on the site, or one of a corporation
    railbook still has open, is a difference."""
    tool = _tool()
    ref = [_line(True, True), _line(True, True, "pass"), _line(False, False, "pass")]
    mine = [_line(False, False), _line(False, False, "pass"), _line(False, False, "pass")]
    assert tool.standing_kind("companies.GBC", "NP", tool.MISSING, 0, ref, mine, "1850", {}) == "sale_price"
    stays = [ref[0], ref[1], _line(False, True, "pass")]
    assert tool.standing_kind("companies.GBC", "NP", tool.MISSING, 0, stays, mine, "1850", {}) is None
    still_open = [_line(True, False), mine[1], mine[2]]
    assert tool.standing_kind("companies.GBC", "NP", tool.MISSING, 0, ref, still_open, "1850", {}) is None
    operating = [_line(True, True, rnd="Operating"), ref[1], ref[2]]
    assert tool.standing_kind("companies.GBC", "NP", tool.MISSING, 0, operating, mine, "1850", {}) is None


def test_1850_the_sites_failure_on_a_players_move_in_a_companys_step_gets_the_companys_pass(tmp_path: Any) -> None:
    """The site keeps a company's track step open while a private's lay ability is unused, where railbook ends it
    with no legal lay left; the company's pass then ends the site's track step, not its token step, and the
    president's next move fails there (``all_abilities`` asked of a player; seeds 100023, 100035) instead of
    being refused as in "Blocking step". The tool adds the company's pass to the site's copy as after such a
    refusal; a failure with no company waiting for a pass is left as it is."""
    import json

    tool = _tool()
    record = {
        "title": "1850",
        "actions": [
            {"type": "pass", "entity": "KATY", "entity_type": "corporation", "id": 1},
            {"type": "pass", "entity": "p3", "entity_type": "player", "id": 2},
        ],
    }
    path = tmp_path / "1850_1.json"
    path.write_text(json.dumps(record))
    fails = "NoMethodError: undefined method `all_abilities' for <Engine::Player - p3>:Engine::Player"
    waits = {"id": 1, "acting": {"KATY": ["pass", "place_token"]}, "corporations": {"KATY": {"price": 10}}}
    seen = stub_reference(tool, waits)
    _, ref, _, passes = tool.repair(record, [waits, {"id": 2, "error": fails}], path)
    assert passes == [tool.PLAYER_FAILS]
    assert seen[0] == [("KATY", 1), ("KATY", tool.ADDED_PASS_ID), ("p3", 2)]
    assert not any("error" in x for x in ref)
    nobody = {**waits, "acting": {"p3": ["pass", "sell_shares"]}}
    _, _, _, passes = tool.repair(record, [nobody, {"id": 2, "error": fails}], path)
    assert passes == []
    # the site took the president's stock-round sale for the company's emergency sale (fresh seed 130000)
    sale = {"type": "sell_shares", "entity": "p3", "entity_type": "player", "shares": ["KATY_3"], "id": 2}
    sold = {**record, "actions": [record["actions"][0], sale]}
    _, _, _, passes = tool.repair(
        sold, [waits, {"id": 2, "error": "Engine::GameError: Cannot sell shares of KATY"}], path
    )
    assert passes == [tool.PLAYER_FAILS]


def test_1850_the_presidents_sale_listed_beside_a_standing_listing_is_that_standing() -> None:
    """Run 15 seed 200039: at NP's train purchase the site listed both its president's sale (`sell_shares`, the
    granularity of `sell_shares_listed`) and the Land Grant's Mesabi purchase (`mesabi_choice_listed`); each is
    standing alone, and so both are. A sale beside a listing that is not standing is a difference."""
    tool = _tool()

    def line(acting: list[str]) -> dict[str, Any]:
        return {
            "id": 1,
            "type": "place_token",
            "round": "Operating",
            "acting": {"NP": acting},
            "companies": {"WLG": "NP"},
            "corporations": {"NP": {"price": 50}},
        }

    ref = [line(["bankrupt", "buy_train", "choose_ability", "sell_shares"])]
    mine = [line(["bankrupt", "buy_train"])]
    both = ["choose_ability", "sell_shares"]
    assert tool.standing_kind("acting.NP", both, [], 0, ref, mine, "1850", {}) == "mesabi_choice_listed"
    other = ["lay_tile", "sell_shares"]
    assert tool.standing_kind("acting.NP", other, [], 0, ref, mine, "1850", {}) is None


def test_1850_the_land_grants_mesabi_purchase_listed_after_the_track_step_is_mesabi_choice_listed() -> None:
    """The site lists WLG's purchase of Mesabi rights (`choose_ability`) for its owner in every step after the
    track step (run 8 seed 100002, at NP's train purchase); [6.5.1] makes the purchase a yellow lay, a move of the
    track step, where railbook offers it. Standing `mesabi_choice_listed` there; not for a corporation without the
    private, nor while railbook still lists `lay_tile` for it, nor where railbook misses something else."""
    tool = _tool()

    def line(acting: list[str], owner: str = "NP") -> dict[str, Any]:
        return {
            "id": 1,
            "type": "buy_train",
            "round": "Operating",
            "acting": {"NP": acting},
            "companies": {"WLG": owner},
        }

    ref = [line(["buy_train", "choose_ability", "pass"])]
    mine = [line(["buy_train", "pass"])]
    kind = tool.standing_kind("acting.NP", ["choose_ability"], [], 0, ref, mine, "1850", {})
    assert kind == "mesabi_choice_listed"
    others = [line(["buy_train", "choose_ability", "pass"], owner="GN")]
    assert tool.standing_kind("acting.NP", ["choose_ability"], [], 0, others, mine, "1850", {}) is None
    track = [line(["lay_tile", "pass"])]
    assert tool.standing_kind("acting.NP", ["choose_ability"], [], 0, ref, track, "1850", {}) is None
    more = tool.standing_kind("acting.NP", ["buy_train", "choose_ability"], [], 0, ref, mine, "1850", {})
    assert more is None


def test_1850_a_pass_the_site_lists_after_a_companys_purchase_of_the_mesabi_mine_is_mesabi_route_unseen() -> None:
    """NP bought the Mesabi Mining Company and with it a Mesabi token: its route to the Mesabi Range makes a train
    compulsory ([10.1]), so railbook lists `buy_train` without `pass`; the site does not recompute NP's route graph
    at the purchase and still lists `pass` (run 8 seed 100031). Standing `mesabi_route_unseen` for the company
    owning MRC only, and only where railbook offers the train purchase."""
    tool = _tool()

    def line(acting: list[str], owner: str = "NP") -> dict[str, Any]:
        return {
            "id": 1,
            "type": "buy_company",
            "round": "Operating",
            "acting": {"NP": acting},
            "companies": {"MRC": owner},
        }

    ref = [line(["buy_company", "buy_train", "pass"])]
    mine = [line(["buy_company", "buy_train"])]
    assert tool.standing_kind("acting.NP", ["pass"], [], 0, ref, mine, "1850", {}) == "mesabi_route_unseen"
    theirs = [line(["buy_company", "buy_train", "pass"], owner="GN")]
    assert tool.standing_kind("acting.NP", ["pass"], [], 0, theirs, mine, "1850", {}) is None
    token_step = [line(["place_token"])]
    assert tool.standing_kind("acting.NP", ["pass"], [], 0, ref, token_step, "1850", {}) is None


def test_1850_a_track_step_the_site_keeps_open_without_refusing_gets_the_companys_pass(tmp_path: Any) -> None:
    """The site keeps SOO's track step open for the Mississippi River Bridge's unused lay, which has nowhere to go
    (railbook has ended the step: the company runs nothing and its price moves left); SOO's next moves, a purchase
    and a bankruptcy, are ones the site takes in that step, so it never refuses and the prices stay apart to the
    game's end (run 10 seed 140006). The tool adds SOO's pass to the site's copy before them; not where railbook
    still offers SOO a lay, nor where the site refuses sooner with the pass than without it (1870 seed 140019)."""
    import json

    tool = _tool()
    actions = [
        {"type": "lay_tile", "entity": "WLG", "entity_type": "company", "id": 1},
        {"type": "buy_company", "entity": "SOO", "entity_type": "corporation", "company": "MMR", "id": 2},
        {"type": "bankrupt", "entity": "SOO", "entity_type": "corporation", "id": 3},
    ]
    record = {"title": "1850", "actions": actions}
    path = tmp_path / "1850_1.json"
    path.write_text(json.dumps(record))
    corps = {"SOO": {"price": 20}}
    site_open = {"SOO": ["bankrupt", "buy_company", "lay_tile", "pass"]}
    ref = [{"id": 1, "acting": site_open, "corporations": corps}, {"id": 2, "acting": site_open}, {"id": 3}]
    ended = [{"id": 1, "acting": {"SOO": ["bankrupt", "buy_company", "buy_train"]}}, {"id": 2}, {"id": 3}]
    seen: list[list[Any]] = []
    refuses = False

    def reference(site_path: Any, strict: bool, cache: Any) -> list[dict[str, Any]]:
        sent = json.loads(site_path.read_text())["actions"]
        seen.append([(a["entity"], a["id"]) for a in sent])
        if refuses:
            return [ref[0], {"error": "Engine::GameError: refused", "id": 2}]
        return [ref[0], *({"id": a["id"]} for a in sent[1:])]

    tool.reference = reference
    tool.ours = lambda record: list(ended)
    _, out, _, passes = tool.repair(record, list(ref), path)
    assert passes == [tool.OPEN_TRACK_STEP]
    assert seen[0] == [("WLG", 1), ("SOO", tool.ADDED_PASS_ID), ("SOO", 2), ("SOO", 3)]
    assert [x["id"] for x in out] == [1, 2, 3]
    tool.ours = lambda record: [{**ended[0], "acting": site_open}, *ended[1:]]
    assert tool.repair(record, list(ref), path)[3] == []
    tool.ours = lambda record: list(ended)
    refuses = True
    stopped = [*ref[:2], {"error": "Engine::GameError: a later refusal", "id": 3}]
    assert tool.repair(record, stopped, path)[3] == []


def test_1850_a_lay_railbook_makes_in_the_next_round_gets_the_companys_pass_first() -> None:
    """Run 10 seed 140033: NP's track step stays open on the site for the Crédit Mobilier's lay, which has nowhere to
    go; railbook ends NP's turn, and with it the operating round, and NP (the first to operate) lays in the next one.
    The site refuses that lay as a second one of its turn ("Cannot lay a yellow now"). NP's pass goes before it;
    the lines before the pass (railbook a round ahead: the income of the next round paid, NP's price moved) are
    `waiting_for_pass` where the engines agree after it."""
    tool = _tool()
    open_ = {"NP": ["bankrupt", "lay_tile", "pass"]}
    actions = [
        {"type": "lay_tile", "entity": "NP", "entity_type": "corporation", "id": 1},
        {"type": "lay_tile", "entity": "NP", "entity_type": "corporation", "id": 2},
    ]
    ref = [{"id": 1, "acting": open_, "round": "Operating", "turn": "14.1"}]
    same_turn = [{"id": 1, "acting": open_, "round": "Operating", "turn": "14.1"}]
    next_round = [{"id": 1, "acting": open_, "round": "Operating", "turn": "14.2"}]
    assert tool._open_track_step(actions, ref, same_turn) is None
    assert tool._open_track_step(actions, ref, next_round) == (1, "NP")

    def line(i: int, turn: str, price: int, cash: int) -> dict[str, Any]:
        return {
            "id": i,
            "acting": open_,
            "round": "Operating",
            "turn": turn,
            "bank": 1000 - cash,
            "corporations": {"NP": {"price": price, "cash": cash}},
        }

    site = [line(1, "14.1", 20, 43), line(tool.ADDED_PASS_ID, "14.2", 10, 58), line(2, "14.2", 10, 58)]
    ours = [line(1, "14.2", 10, 58), line(2, "14.2", 10, 58)]
    site = [x for x in site if not tool._added(x)]
    waiting = {1: "NP"}
    for path, x, y in (("turn", "14.1", "14.2"), ("corporations.NP.price", 20, 10), ("bank", 957, 942)):
        assert tool.standing_kind(path, x, y, 0, site, ours, "1850", waiting) == "waiting_for_pass", path
    assert tool.standing_kind("turn", "14.1", "14.2", 0, site, ours, "1850", {}) is None


def test_1850_a_forced_sales_price_moved_later_on_the_site_is_forced_sale_price() -> None:
    """1850 [5.9]: price protection "also in effect during forced sales (i.e., to buy a train)", the price "restored
    to its original position as if the sale never took place": railbook moves MILW's price at p2's forced sale, the
    site once MILW's president has declined (run 10 seed 140041, action 656). Standing `forced_sale_price` where
    the site reaches the same price; not where it never does, nor at a move that is no sale."""
    tool = _tool()

    def line(kind: str, price: int) -> dict[str, Any]:
        return {"id": 1, "type": kind, "round": "Operating", "corporations": {"MILW": {"price": price}}}

    ref = [line("sell_shares", 30), line("buy_train", 20)]
    mine = [line("sell_shares", 20), line("buy_train", 20)]
    path = "corporations.MILW.price"
    assert tool.standing_kind(path, 30, 20, 0, ref, mine, "1850", {}) == "forced_sale_price"
    never = [ref[0], line("buy_train", 30)]
    assert tool.standing_kind(path, 30, 20, 0, never, mine, "1850", {}) is None
    other = [line("buy_train", 30), line("pass", 20)]
    assert tool.standing_kind(path, 30, 20, 0, other, [line("buy_train", 20), mine[1]], "1850", {}) is None
    # on the lines after the sale too, until the site's move (run 18 seed 350078: the train bought meanwhile)
    ref = [line("sell_shares", 30), line("buy_train", 30), line("pass", 20)]
    mine = [line("sell_shares", 20), line("buy_train", 20), line("pass", 20)]
    assert tool.standing_kind(path, 30, 20, 1, ref, mine, "1850", {}) == "forced_sale_price"
    later_turn = [ref[0], {**ref[1], "turn": "3.2"}, ref[2]]
    assert tool.standing_kind(path, 30, 20, 1, later_turn, mine, "1850", {}) is None


def test_1850_a_home_marker_the_site_lifts_is_put_back_in_its_home_city(tmp_path: Any) -> None:
    """MILW's Gant Brothers lay put Chicago's #128 over CB&Q's home marker (run 11 seed 150022, action 559); the site
    lifts the marker and has MILW place it ("Blocking step Place CBQ Home Token cannot process action lay_tile"),
    railbook keeps it in west Chicago, CB&Q's home city ([6.1.3]; the rulebook's `home.city`). The tool adds that
    placement to the site's copy, in the laid tile's city of that index; not for another refusal."""
    import json

    tool = _tool()
    lay = {"type": "lay_tile", "entity": "GBC", "entity_type": "company", "hex": "I18", "tile": "128-0", "id": 1}
    nxt = {"type": "lay_tile", "entity": "UP", "entity_type": "corporation", "hex": "H5", "tile": "29-0", "id": 2}
    record = {"title": "1850", "actions": [lay, nxt]}
    path = tmp_path / "1850_1.json"
    path.write_text(json.dumps(record))
    err = "Engine::GameError: Blocking step Place CBQ Home Token cannot process action lay_tile at 2"
    waits = {"id": 1, "acting": {"MILW": ["bankrupt", "place_token"]}}
    placed = tool._home_token_placement(err, waits["acting"], [lay], "1850")
    assert placed == {
        "type": "place_token",
        "entity": "MILW",
        "entity_type": "corporation",
        "city": "128-0-1",
        "slot": 0,
    }
    assert tool._home_token_placement("Engine::GameError: other", waits["acting"], [lay], "1850") is None
    seen: list[list[Any]] = []

    def reference(site_path: Any, strict: bool, cache: Any) -> list[dict[str, Any]]:
        sent = json.loads(site_path.read_text())["actions"]
        seen.append([(a["type"], a["id"]) for a in sent])
        return [waits, *({"id": a["id"]} for a in sent[1:])]

    tool.reference = reference
    tool.ours = lambda record: [waits, {"id": 2}]
    passes = tool.repair(record, [waits, {"id": 2, "error": err}], path)[3]
    assert passes == [tool.HOME_TOKEN_PLACED]
    assert seen[0] == [("lay_tile", 1), ("place_token", tool.ADDED_PASS_ID), ("lay_tile", 2)]


def test_1850_the_land_grants_mesabi_purchase_listed_once_its_lay_allowed_anywhere_is_used() -> None:
    """Run 10 seed 140051, action 593: GN's Western Land Grant has made its lay allowed anywhere (C10, not west of
    the Mississippi); its lays left go only west of the river, and the Mesabi Range is not ([15.2] P6, glossary),
    so railbook offers no `choose_ability` though GN's track step is open; the site does. Standing
    `mesabi_choice_listed` there; not while the grant's lay allowed anywhere is unused."""
    tool = _tool()

    def line(entity: str, kind: str, tiles: dict[str, str], turn: str) -> dict[str, Any]:
        return {
            "id": 1,
            "entity": entity,
            "type": kind,
            "round": "Operating",
            "turn": turn,
            "tiles": tiles,
            "companies": {"WLG": "GN"},
            "acting": {"GN": ["choose_ability", "lay_tile", "pass"]},
        }

    west = [line("GN", "pass", {}, "20.1"), line("WLG", "lay_tile", {"D3": "8@0"}, "20.1")]
    anywhere = [*west, line("WLG", "lay_tile", {"D3": "8@0", "C10": "7@4"}, "24.1")]
    now = line("GN", "lay_tile", {"D3": "8@0", "C10": "7@4", "B11": "15@0"}, "27.1")
    ours = {**now, "acting": {"GN": ["lay_tile", "pass"]}}
    ref, mine = [*anywhere, now], [*anywhere, ours]
    n = len(ref) - 1
    path = "acting.GN"
    assert tool.standing_kind(path, ["choose_ability"], [], n, ref, mine, "1850", {}) == "mesabi_choice_listed"
    still = [*west, {**now, "tiles": {"D3": "8@0", "B11": "15@0"}}]
    assert tool.standing_kind(path, ["choose_ability"], [], 2, still, [*west, ours], "1850", {}) is None


def test_1850_two_companies_closed_by_sales_of_one_turn_are_sale_price_until_the_site_closes_both() -> None:
    """Run 16 seed 250196: p2 sold UP and then CBQ at $10 in one stock turn; each sale took the company into the
    black area, which railbook closes at once ([5.1.1]), its treasury to the bank; the site moves the prices after
    the turn and closes both then. The bank's gap grows with the second closing and closes at once when the site
    closes both: `sale_price`; a gap that never closes is a difference."""
    tool = _tool()

    def line(i: int, bank: int, corps: list[str]) -> dict[str, Any]:
        return {
            "id": i,
            "type": "sell_shares",
            "round": "Stock",
            "turn": "10.1",
            "bank": bank,
            "corporations": {c: {"cash": 0} for c in corps},
            "acting": {"p2": ["pass", "sell_shares"]},
        }

    ref = [
        line(264, 8979, ["CBQ", "UP", "GN"]),
        line(265, 8969, ["CBQ", "UP", "GN"]),
        line(266, 8959, ["CBQ", "UP", "GN"]),
        line(267, 9594, ["GN"]),
    ]
    mine = [ref[0], line(265, 9561, ["CBQ", "GN"]), line(266, 9649, ["GN"]), line(267, 9594, ["GN"])]
    res = tool.compare(ref, mine, "1850", [])
    assert res["first"] is None and set(res["standing"]) == {"sale_price"}
    never = [*ref[:3], line(267, 9000, ["GN"])]
    assert tool.compare(never, mine, "1850", [])["first"]["kind"].startswith("bank")


def test_1850_a_withholding_after_an_added_pass_then_a_deferred_sale_move_are_standing() -> None:
    """Run 15 seed 200151: NP had no legal second lay; railbook ended its track step and withheld ($30 to $20), the
    site after the pass the tool added. Then p4 sold NP in the stock round: railbook moved it at once ($10), the
    site after the turn. The site's price is one line behind railbook's twice: `waiting_for_pass` on the line
    before the pass, `sale_price` on the sale's."""
    tool = _tool()

    def line(i: int, price: int, rnd: str, acting: dict[str, list[str]]) -> dict[str, Any]:
        return {
            "id": i,
            "type": "pass",
            "round": rnd,
            "turn": "11.1",
            "acting": acting,
            "corporations": {"NP": {"price": price}},
        }

    ref = [
        line(467, 30, "Operating", {"NP": ["lay_tile", "pass"]}),
        line(468, 20, "Stock", {"p4": ["pass"]}),
        line(469, 10, "Stock", {"p5": ["pass"]}),
        line(470, 10, "Stock", {"p1": ["pass"]}),
    ]
    mine = [
        line(467, 20, "Operating", {"p4": ["pass", "sell_shares"]}),
        line(468, 10, "Stock", {"p4": ["pass"]}),
        line(469, 10, "Stock", {"p5": ["pass"]}),
        line(470, 10, "Stock", {"p1": ["pass"]}),
    ]
    res = tool.compare(ref, mine, "1850", [], {467: "NP"})
    assert res["first"] is None and res["standing"].get("waiting_for_pass") and res["standing"].get("sale_price")
    stuck = [*ref[:3], line(470, 20, "Stock", {"p1": ["pass"]})]
    stuck[2] = line(469, 20, "Stock", {"p5": ["pass"]})
    assert tool.compare(stuck, mine, "1850", [], {467: "NP"})["first"] is not None


def test_the_step_the_site_holds_open_after_the_records_last_move_gets_its_pass(tmp_path: Any) -> None:
    """1850 run 19 seed 500003: NP's last lay (the record's last move) left the site's track step open (the Western
    Land Grant's lay), where railbook ended it, withheld, closed NP and ended the game as stalled. With no later move
    to refuse, the tool adds NP's pass after the record's last move in the site's copy, so both games go on to their
    ends (the site's turn limit). A game railbook has not ended, or a site waiting alike, is left as it is."""
    import json

    tool = _tool()
    lay = {"type": "lay_tile", "entity": "NP", "entity_type": "corporation", "id": 2}
    record = {"title": "1850", "actions": [{**lay, "id": 1}, lay]}
    path = tmp_path / "1850_1.json"
    path.write_text(json.dumps(record))
    corps = {"NP": {"price": 20}}
    open_ = {"id": 2, "acting": {"NP": ["bankrupt", "lay_tile", "pass"]}, "corporations": corps}
    ref = [{**open_, "id": 1}, open_, {"game_end_reason": None, "result": {"p1": 333}}]
    mine = [{**open_, "id": 1}, {**open_, "acting": {}}, {"game_end_reason": "stalled", "result": {"p1": 263}}]
    tool.ours = lambda record_: mine
    seen = stub_reference(tool, ref[0])
    _, out, _, passes = tool.repair(record, ref, path)
    assert passes == [tool.END_STEP]
    assert seen[-1] == [("NP", 1), ("NP", 2), ("NP", tool.ADDED_PASS_ID)]
    assert [x.get("id") for x in out] == [1, 2]  # (the added pass's line left out of the stream)
    going = [*mine[:2], {**open_, "id": 3}]  # railbook's game goes on: no such wait
    tool.ours = lambda record_: going
    assert tool.repair(record, ref, path)[3] == []
    alike = [{**open_, "id": 1}, open_, mine[2]]  # railbook waits alike
    tool.ours = lambda record_: alike
    assert tool.repair(record, ref, path)[3] == []
