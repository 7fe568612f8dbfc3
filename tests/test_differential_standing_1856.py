"""The 1856 standing disagreements of tools/differential.py (docs/CONFORMANCE.md), checked on hand-made digest
lines with no reference engine (the tool itself is a development tool)."""

from __future__ import annotations

from typing import Any

from tests.differential_support import differential_tool as _tool
from tests.differential_support import stub_reference


def _line(cash: int, acting: list[str]) -> dict[str, Any]:
    corps = {"CV": {"cash": cash}}
    return {"id": 1, "type": "pass", "round": "Operating", "acting": {"CV": acting}, "corporations": corps}


def test_1856_a_private_listed_while_the_site_still_holds_the_interest_is_interest_at_once() -> None:
    """CV ends its track step owing $20 interest: railbook charges it at once ($18 left, too little for any private),
    the site after the next action ($38 meanwhile, and `buy_company` listed): standing `interest_at_once` while the
    cash gap is the interest and closes (differential seeds 50013, 50022). A gap that never closes, or a listing
    with the same cash, is a difference."""
    tool = _tool()
    ref = [_line(38, ["buy_company", "buy_train", "pass"]), _line(15, ["buy_train", "pass"])]
    mine = [_line(18, ["buy_train", "pass"]), _line(15, ["buy_train", "pass"])]
    assert tool.standing_kind("acting.CV", ["buy_company"], [], 0, ref, mine, "1856", {}) == "interest_at_once"
    never = [ref[0], _line(35, ["buy_train", "pass"])]
    assert tool.standing_kind("acting.CV", ["buy_company"], [], 0, never, mine, "1856", {}) is None
    same = [_line(18, ["buy_company", "buy_train", "pass"]), ref[1]]
    assert tool.standing_kind("acting.CV", ["buy_company"], [], 0, same, mine, "1856", {}) is None
    assert tool.standing_kind("acting.CV", ["buy_company"], [], 0, ref, mine, "1870", {}) is None


def _sale(turn: str, rnd: str, acting: dict[str, list[str]], bank: int, players: dict[str, int]) -> dict[str, Any]:
    companies = {"FT": "p3", "GLSC": "p2", "NFSBC": "p2", "SCFTC": "p3", "TCC": "p1", "WSRC": "p1"}
    return {
        "id": 133,
        "type": "sell_shares",
        "entity": "p1",
        "round": rnd,
        "turn": turn,
        "acting": acting,
        "bank": bank,
        "companies": companies,
        "corporations": {"WGB": {"cash": 0}},
        "players": players,
    }


def test_1856_a_stuck_stock_round_railbook_ends_pays_the_privates_and_is_stuck_round() -> None:
    """p1's sale closes BBG and nobody can buy: the site waits on p3 with nothing offered and accepts no further
    move; railbook has every player pass ("The stock round ends when all players have passed in order"), plays the
    operating round nobody has a company in (the privates pay: $20, $35, $25) and is in the next stock round
    (differential run 7 seed 90000; 90004 and 90012: two and three such rounds). Any other cash gap, or one the
    site's stream goes on after, is a difference."""
    tool = _tool()
    site = {"p1": 121, "p2": 41, "p3": 45}
    ref = [_sale("5.1", "Stock", {"p3": []}, 11793, site), {"error": "No step found for action par", "id": 134}]
    ours = {"p1": 141, "p2": 76, "p3": 70}
    mine = [_sale("6.1", "Stock", {"p1": ["par", "pass"]}, 11713, ours), {"id": 134}]
    res = tool.compare(ref, mine, "1856", [])
    assert res["first"] is None and res["standing"] == {"stuck_round": 7}
    assert res["stop"] and "No step found" in res["stop"]
    # two operating rounds (seed 90004: 5.1 to 7.1)
    twice = {"p1": 161, "p2": 111, "p3": 95}
    mine[0] = _sale("7.1", "Stock", {"p1": ["par", "pass"]}, 11633, twice)
    assert tool.compare(ref, mine, "1856", [])["first"] is None
    # railbook in the operating round (seed 90001): the round, not the turn
    mine[0] = _sale("5.1", "Operating", {"WGB": ["take_loan"]}, 11713, ours)
    assert tool.compare(ref, mine, "1856", [])["first"] is None
    # a gap that is not the privates' income (p2 $5 more)
    mine[0] = _sale("6.1", "Stock", {"p1": ["par", "pass"]}, 11708, {**ours, "p2": 81})
    assert tool.compare(ref, mine, "1856", [])["first"]["kind"].startswith("bank")
    # a corporation's cash apart
    mine[0] = {**_sale("6.1", "Stock", {"p1": ["par"]}, 11713, ours), "corporations": {"WGB": {"cash": 5}}}
    assert tool.compare(ref, mine, "1856", [])["first"] is not None
    # the site goes on after the line: not the last it reaches
    mine[0] = _sale("6.1", "Stock", {"p1": ["par", "pass"]}, 11713, ours)
    ref[1] = _sale("5.1", "Stock", {"p2": ["pass"]}, 11793, site) | {"id": 134}
    assert tool.compare(ref, mine, "1856", [])["first"]["kind"].startswith("bank")
    # the same turn and round: railbook has not gone on
    ref[1] = {"error": "No step found for action par", "id": 134}
    mine[0] = _sale("5.1", "Stock", {"p1": ["par", "pass"]}, 11713, ours)
    assert tool.compare(ref, mine, "1856", [])["first"]["kind"].startswith("bank")


def _token_step(acting: list[str], companies: dict[str, str]) -> dict[str, Any]:
    return {
        "id": 320,
        "type": "lay_tile",
        "entity": "TCC",
        "round": "Operating",
        "turn": "12.2",
        "acting": {"WR": acting},
        "companies": companies,
        "corporations": {"WR": {"cash": 17, "tokens": ["O16"]}},
    }


def test_1856_place_token_listed_for_a_corporation_owning_the_wsrc_is_token_ability_listed() -> None:
    """WR ($17, too little for a marker of its own) owns the WSRC, whose ability places a free marker in Kitchener:
    the site lists `place_token` for WR in its marker step, railbook offers the placement to the WSRC (the
    entity that takes it; both accept it): standing `token_ability_listed` (differential run 7 seed 90011). Without
    such a private, or with anything else missing, it is a difference."""
    tool = _tool()
    owned = {"WSRC": "WR", "TCC": "WR"}
    ref = [_token_step(["bankrupt", "pass", "place_token"], owned)]
    mine = [_token_step(["bankrupt", "pass"], owned)]
    res = tool.compare(ref, mine, "1856", [])
    assert res["first"] is None and res["standing"] == {"token_ability_listed": 1}
    # the WSRC held by a player: WR has no marker to place
    held = {"WSRC": "p3", "TCC": "WR"}
    ref, mine = [_token_step(["bankrupt", "pass", "place_token"], held)], [_token_step(["bankrupt", "pass"], held)]
    assert tool.compare(ref, mine, "1856", [])["first"]["kind"].startswith("acting.*")
    # railbook not offering the pass either (its marker step over)
    ref = [_token_step(["bankrupt", "pass", "place_token"], owned)]
    mine = [_token_step(["bankrupt"], owned)]
    assert tool.compare(ref, mine, "1856", [])["first"]["kind"].startswith("acting.*")


def test_1856_the_dividend_decision_the_site_waits_for_is_added_to_its_copy(tmp_path: Any) -> None:
    """CA's unpaid interest took all its earnings: railbook withholds at once ("Companies that declare a dividend of
    $0 are considered to have withheld earnings"), the site waits for the president's `dividend` and refuses the
    train purchase that follows (run 8 seed 100030, action 286). The tool adds that decision (a withholding) to the
    site's copy only, as it adds the passes the site waits for; a step that waits for something else is no repair."""
    tool = _tool()
    record = {
        "title": "1856",
        "actions": [
            {"type": "run_routes", "entity": "CA", "entity_type": "corporation", "routes": [], "id": 285},
            {"type": "buy_train", "entity": "CA", "entity_type": "corporation", "train": "2-2", "id": 286},
        ],
    }
    path = tmp_path / "1856_100030.json"
    error = "Engine::GameError: Blocking step Pay or Withhold Dividends cannot process action buy_train at 286"
    stopped = [{"id": 285, "acting": {"CA": ["bankrupt", "dividend"]}, "corporations": {}}, {"error": error, "id": 286}]
    replays: list[Any] = []

    def replayed(site: Any, strict: bool, cache: Any) -> list[dict[str, Any]]:
        replays.append(site)
        return [{"id": 285}, {"id": tool.ADDED_PASS_ID}, {"id": 286}]

    tool.reference = replayed
    mine, ref, notices, passes = tool.repair(record, list(stopped), path)
    assert passes == ["Pay or Withhold Dividends"] and notices == 0
    assert [a["id"] for a in mine["actions"]] == [285, 286]
    site = tool.json.loads(replays[0].read_text())
    added = site["actions"][1]
    assert (added["type"], added["entity"], added["kind"]) == ("dividend", "CA", "withhold")
    assert [x["id"] for x in ref] == [285, 286]
    other = [{**stopped[0], "acting": {"CA": ["bankrupt", "buy_train"]}}, stopped[1]]
    assert tool.repair(record, other, path)[3] == []


def test_1856_a_notice_the_site_refuses_while_it_waits_for_a_dividend_is_kept_and_the_decision_added(
    tmp_path: Any,
) -> None:
    """Run 14 seed 190016: WGB's interest took its earnings and railbook withheld at once; its next turn's pass
    ended its track step and carried the site's escrow notice. The site, still waiting for WGB's dividend, refused
    the notice riding on that pass. The decision is what is missing: the tool adds it and keeps the notice (before,
    it dropped the notice and added it again two actions later, which the site's escrow step had waited for)."""
    tool = _tool()
    notice = {"type": "destination_connection", "entity": "WGB", "entity_type": "corporation", "corporations": []}
    record = {
        "title": "1856",
        "actions": [
            {"type": "run_routes", "entity": "WGB", "entity_type": "corporation", "routes": [], "id": 170},
            {"type": "pass", "entity": "WGB", "entity_type": "corporation", "auto_actions": [notice], "id": 171},
        ],
    }
    path = tmp_path / "1856_190016.json"
    error = (
        "Engine::GameError: Blocking step Pay or Withhold Dividends cannot process action destination_connection at "
    )
    stopped = [
        {"id": 170, "acting": {"WGB": ["bankrupt", "dividend"]}, "corporations": {}},
        {"error": error, "id": 171},
    ]
    seen = stub_reference(tool, stopped[0])
    mine, _, notices, passes = tool.repair(record, list(stopped), path)
    assert passes == ["Pay or Withhold Dividends"] and notices == 0
    assert mine["actions"][1]["auto_actions"] == [notice]
    assert seen[0] == [("WGB", 170), ("WGB", tool.ADDED_PASS_ID), ("WGB", 171)]
    # no decision waited for: the notice is the site's one too many, and goes
    other = [{**stopped[0], "acting": {"WGB": ["bankrupt", "buy_train", "pass"]}}, stopped[1]]
    mine, _, notices, passes = tool.repair(record, other, path)
    assert notices == 1 and passes == [] and "auto_actions" not in mine["actions"][1]


def _owing(bank: int, p4: int, acting: dict[str, list[str]]) -> dict[str, Any]:
    return {"id": 210, "type": "buy_train", "round": "Operating", "bank": bank, "players": {"p4": p4}, "acting": acting}


def test_1856_a_presidents_share_of_a_train_is_the_sites_negative_cash_until_raised() -> None:
    """GW's train costs $65 more than its treasury: the site books the president's share as his negative cash
    (p4: $-65) until he has sold shares or gone bankrupt; railbook takes his $0 and books the rest as it is raised
    (run 9 seeds 110032, 110048; both agree on the result). Standing `debt_shown_negative`, now for 1856 too; a
    gap with no debt shown, or one that never closes while the game goes on, is a difference."""
    tool = _tool()
    ref = [_owing(11038, -65, {"p4": ["bankrupt", "sell_shares"]}), _owing(10973, 0, {"GW": ["pass"]})]
    mine = [_owing(10973, 0, {"p4": ["bankrupt", "sell_shares"]}), _owing(10973, 0, {"GW": ["pass"]})]
    assert tool.standing_kind("players.p4", -65, 0, 0, ref, mine, "1856", {}) == "debt_shown_negative"
    assert tool.standing_kind("bank", 11038, 10973, 0, ref, mine, "1856", {}) == "debt_shown_negative"
    never = [ref[0], {**ref[0], "acting": {"p4": ["sell_shares"]}}] * 5
    assert tool.standing_kind("players.p4", -65, 0, 0, never, mine * 5, "1856", {}) is None
    paid = [_owing(11038, 0, {"p4": ["bankrupt", "sell_shares"]}), ref[1]]  # no debt shown: another difference
    assert tool.standing_kind("bank", 11038, 10973, 0, paid, mine, "1856", {}) != "debt_shown_negative"
    assert tool.standing_kind("players.p4", -65, 0, 0, ref, mine, "1846", {}) is None


def test_1856_the_escrow_released_at_the_lay_is_escrow_at_once_until_the_site_releases_it() -> None:
    """1856 "Capitalization": "When a tile is laid that allows the company to reach its destination ... the company
    immediately receives all held payments". railbook releases BBG's $80 at its lay; the site with its destination
    check after the track step (bot seed 180008): BBG's cash and the bank differ by $80 until then, and railbook
    alone lists the bridge and tunnel rights BBG can now pay for (standing ``escrow_at_once``). A gap that does not
    close, or one that was there before the lay, is a difference."""
    d = _tool()

    def line(i: int, kind: str, cash: int, acting: list[str]) -> dict[str, Any]:
        return {
            "id": i,
            "type": kind,
            "entity": "BBG",
            "round": "Operating",
            "acting": {"BBG": acting},
            "bank": 1000 - cash,
            "corporations": {"BBG": {"cash": cash}},
        }

    ref = [
        line(1, "pass", 35, ["lay_tile", "pass"]),
        line(2, "lay_tile", 35, ["lay_tile", "pass"]),
        line(3, "pass", 115, ["place_token", "special_buy"]),
    ]
    mine = [ref[0], line(2, "lay_tile", 115, ["lay_tile", "pass", "special_buy"]), ref[2]]
    res = d.compare(ref, mine, "1856", [])
    assert res["modulo"] and res["standing"] == {"escrow_at_once": 3}
    # the site never releases it: a difference
    res = d.compare(ref, [*mine[:2], line(3, "pass", 195, ["place_token", "special_buy"])], "1856", [])
    assert not res["modulo"]
    # railbook's cash was already apart before the lay: not the escrow
    res = d.compare(ref, [line(1, "pass", 40, ["lay_tile", "pass"]), *mine[1:]], "1856", [])
    assert not res["modulo"]


def test_1856_a_second_debt_booked_before_the_first_is_raised_is_still_the_sites_negative_cash() -> None:
    """GW's deferred interest leaves p3 owing $18, then the redemption of its excess loan $55 more: the site shows
    $-18, then $-73, railbook $0 both times (the debts booked, nothing raised), until his bankruptcy (run 12 seed
    160068). The gap may grow only while railbook shows him at $0."""
    tool = _tool()
    ref = [
        _owing(10596, -18, {"p4": ["bankrupt", "sell_shares"]}),
        _owing(10651, -73, {"p4": ["bankrupt", "sell_shares"]}),
        _owing(10578, 0, {}),
    ]
    mine = [_owing(10578, 0, {"p4": ["bankrupt"]}), _owing(10578, 0, {"p4": ["bankrupt"]}), _owing(10578, 0, {})]
    assert tool.standing_kind("players.p4", -18, 0, 0, ref, mine, "1856", {}) == "debt_shown_negative"
    grown = [mine[0], _owing(10578, 5, {"p4": ["bankrupt"]}), mine[2]]  # railbook's cash not $0: a difference
    assert tool.standing_kind("players.p4", -18, 0, 0, ref, grown, "1856", {}) is None


def test_1856_a_repayment_the_site_lists_but_the_treasury_cannot_pay_is_payoff_listed() -> None:
    """GT (three loans, one over its cap, $21) after its dividend, its train step passed by: both engines wait for
    its next action before redeeming the excess, the site listing `payoff_loan` beside the pass though it would
    refuse it ("has 21 and cannot spend 100"): standing `payoff_listed` (differential run 12 seed 160013, run 9
    seed 110035). A treasury that could pay, a company without loans, or another title is a difference."""
    tool = _tool()

    def line(cash: int, loans: int) -> dict[str, Any]:
        corps = {"GT": {"cash": cash, "loans": loans}}
        return {"id": 230, "type": "dividend", "round": "Operating", "acting": {"GT": ["pass"]}, "corporations": corps}

    ref, mine = [line(21, 3)], [line(21, 3)]
    assert tool.standing_kind("acting.GT", ["payoff_loan"], [], 0, ref, mine, "1856", {}) == "payoff_listed"
    for other in ([line(100, 3)], [line(21, 0)]):
        assert tool.standing_kind("acting.GT", ["payoff_loan"], [], 0, other, other, "1856", {}) is None
    assert tool.standing_kind("acting.GT", ["payoff_loan"], [], 0, ref, mine, "1817", {}) is None
    assert tool.standing_kind("acting.GT", ["payoff_loan", "pass"], [], 0, ref, mine, "1856", {}) is None


def test_1856_a_private_the_site_closes_after_the_games_end_is_no_difference_when_the_results_agree() -> None:
    """Run 16 seed 250073: p1's bankruptcy ended the game; the site then closed the W&S at the end of the operating
    round it played out, where railbook's game was over with WGB still owning it. Both ended alike, with the same
    result: the private's closing after the end is no rule's. With another result it is a difference."""
    tool = _tool()
    end = {"id": 216, "type": "bankrupt", "entity": "p1", "acting": {}, "round": "Operating", "turn": "5.1"}
    ref = [{**end, "companies": {"TCC": "WGB"}}, {"game_end_reason": "bankrupt", "result": {"p1": 160, "p2": 222}}]
    mine = [{**end, "companies": {"TCC": "WGB", "WSRC": "WGB"}}, dict(ref[1])]
    res = tool.compare(ref, mine, "1856", [])
    assert res["identical"] and res["first"] is None
    mine[1] = {"game_end_reason": "bankrupt", "result": {"p1": 160, "p2": 232}}
    assert tool.compare(ref, mine, "1856", [])["first"]["kind"].startswith("companies")


def test_1856_a_notice_naming_a_company_the_site_wanted_one_action_sooner_moves_to_the_empty_one_there(
    tmp_path: Any,
) -> None:
    """Bot seed 180018: CPR's lay reached Toronto, and its purchase of a private left it no money, which ended the
    site's track step: the site checked the destinations there (the empty notice riding on the purchase) and
    refused the notice naming CPR on the next move. The tool moves CPR to the notice before; with no empty notice
    there it cannot."""
    tool = _tool()

    def notice(*corps: str) -> dict[str, Any]:
        return {
            "type": "destination_connection",
            "entity": "CPR",
            "entity_type": "corporation",
            "corporations": list(corps),
        }

    record = {
        "title": "1856",
        "actions": [
            {
                "type": "buy_company",
                "entity": "CPR",
                "entity_type": "corporation",
                "company": "SCFTC",
                "price": 195,
                "auto_actions": [notice()],
                "id": 501,
            },
            {"type": "pass", "entity": "CPR", "entity_type": "corporation", "auto_actions": [notice("CPR")], "id": 502},
        ],
    }
    path = tmp_path / "1856_180018.json"
    error = "Engine::GameError: Blocking step Run Routes cannot process action destination_connection at "
    stopped = [
        {"id": 501, "acting": {"CPR": ["bankrupt", "run_routes"]}, "corporations": {}},
        {"error": error, "id": 502},
    ]
    stub_reference(tool, stopped[0])
    mine, _, notices, passes = tool.repair(record, list(stopped), path)
    assert notices == 1 and passes == []
    assert mine["actions"][0]["auto_actions"] == [notice("CPR")] and "auto_actions" not in mine["actions"][1]
    bare = {**record, "actions": [{**record["actions"][0], "auto_actions": []}, record["actions"][1]]}
    assert tool.repair(bare, list(stopped), path)[2] == 0


def test_a_notice_the_sites_open_track_step_refuses_rides_on_the_movers_pass_in_the_sites_copy(tmp_path: Any) -> None:
    """1856 bot seed 130039, action 769: LPS, owning the W&S with Kitchener unlaid, laid its tile, which connected CA
    to its destination; railbook ended LPS's track step (the Kitchener tile only "in the place of" the company's
    lay) and the record's notice naming CA rides on the lay. The site keeps its track step open for the private's
    lay and refuses the notice there. The tool adds LPS's pass after the lay to the site's copy, the notice riding
    on it; railbook's copy keeps the notice on the lay. Another refusal of a named notice is left as it is."""
    import json

    tool = _tool()
    notice = {"type": "destination_connection", "entity": "LPS", "entity_type": "corporation", "corporations": ["CA"]}
    lay = {"type": "lay_tile", "entity": "LPS", "entity_type": "corporation", "id": 2, "auto_actions": [notice]}
    run = {"type": "run_routes", "entity": "LPS", "entity_type": "corporation", "id": 3}
    record = {"title": "1856", "actions": [{"type": "pass", "entity": "CA", "entity_type": "corporation", "id": 1}]}
    record["actions"] += [lay, run]
    path = tmp_path / "1856_1.json"
    path.write_text(json.dumps(record))
    refused = "Engine::GameError: Blocking step Lay Track cannot process action destination_connection at "
    first = {"id": 1, "acting": {"LPS": ["lay_tile", "pass"]}, "corporations": {"LPS": {"price": 80}}}
    seen = stub_reference(tool, first)
    mine_record, ref, _, passes = tool.repair(record, [first, {"id": 2, "error": refused}], path)
    assert passes == [tool.NOTICE_ONTO_PASS]
    assert seen[0] == [("CA", 1), ("LPS", 2), ("LPS", tool.ADDED_PASS_ID), ("LPS", 3)]
    site = json.loads(path.with_name("1856_1.site.json").read_text())["actions"]
    assert "auto_actions" not in site[1] and site[2]["auto_actions"] == [notice]
    assert tool.NOTICE_CARRIED not in json.dumps(site)
    assert mine_record["actions"] == record["actions"]  # railbook's copy: the notice on the lay, no pass
    assert [x.get("id") for x in ref] == [1, 2, 3]
    other = "Engine::GameError: Blocking step Run Routes cannot process action destination_connection at "
    assert tool.repair(record, [first, {"id": 2, "error": other}], path)[3] == []


def test_a_notice_refused_in_a_step_another_company_holds_open_gets_that_companys_pass(tmp_path: Any) -> None:
    """1856 bot seed 620011: the trainless CGR with $150 passed its borrowing; the site listed `buy_train` for a
    $1000 train (its listing is coarser) and held its train step open, where railbook ended the CGR's turn; GW's
    lay then carried a notice naming WGB, which the site refused in the CGR's step. The tool adds the CGR's pass
    before GW's lay in the site's copy (as for any move refused in a step another entity holds); where the
    waiting entity is the mover itself, the notice is not repaired so."""
    import json

    tool = _tool()
    notice = {"type": "destination_connection", "entity": "GW", "entity_type": "corporation", "corporations": ["WGB"]}
    record = {
        "title": "1856",
        "actions": [
            {"type": "pass", "entity": "CGR", "entity_type": "corporation", "id": 1},
            {"type": "lay_tile", "entity": "GW", "entity_type": "corporation", "id": 2, "auto_actions": [notice]},
        ],
    }
    path = tmp_path / "1856_1.json"
    path.write_text(json.dumps(record))
    refused = "Engine::GameError: Blocking step Buy Trains cannot process action destination_connection at "
    corps = {"CGR": {"price": 125}, "GW": {"price": 90}}
    waits = {"id": 1, "acting": {"CGR": ["buy_train", "pass", "special_buy"]}, "corporations": corps}
    seen = stub_reference(tool, waits)
    _, _, _, passes = tool.repair(record, [waits, {"id": 2, "error": refused}], path)
    assert passes == ["Buy Trains"]
    assert seen[0] == [("CGR", 1), ("CGR", tool.ADDED_PASS_ID), ("GW", 2)]
    own = {**waits, "acting": {"GW": ["buy_train", "pass"]}}
    assert tool.repair(record, [own, {"id": 2, "error": refused}], path)[3] == []
