"""The standing disagreements of tools/differential.py (docs/CONFORMANCE.md): the comparison looks past a known
difference only where it is that difference (the tool itself is a development tool; its rules are checked here on
hand-made digest lines, with no reference engine)."""

from __future__ import annotations

from typing import Any

from tests.differential_support import differential_tool as _tool


def _line(bank: int, **players: int) -> dict[str, Any]:
    return {"id": 1, "type": "pass", "round": "Acquisition", "bank": bank, "players": players, "acting": {}}


def test_1817_several_debts_booked_at_once_are_the_sites_negative_cash_until_settled() -> None:
    """Two presidents owe at once ($199 and $325): the site books both into its bank as negative cash, railbook
    books each as it is settled; the bank's gap (524, then 325 once p2 is settled) is the site's debts throughout
    and closes: standing `debt_shown_negative`. A gap that is not the debts is a difference."""
    tool = _tool()
    ref = [_line(209, p2=-199, p6=-325), _line(10, p2=0, p6=-325), _line(-315, p2=0, p6=0)]
    mine = [_line(-315, p2=0, p6=0), _line(-315, p2=0, p6=0), _line(-315, p2=0, p6=0)]
    assert tool.standing_kind("bank", 209, -315, 0, ref, mine, "1817", {}) == "debt_shown_negative"
    for k in (0, 1):
        assert tool.standing_kind("players.p6", -325, 0, k, ref, mine, "1817", {}) == "debt_shown_negative"
    wrong = [_line(-315 + 530, p2=-199, p6=-325), *ref[1:]]  # $6 more than the debts
    assert tool.standing_kind("bank", -315 + 530, -315, 0, wrong, mine, "1817", {}) is None
    going = {**ref[0], "acting": {"p2": ["sell_shares"]}}
    never = [going, going, going]  # the debts are never settled, and the game goes on
    assert tool.standing_kind("bank", 209, -315, 0, never, mine, "1817", {}) is None
    assert tool.standing_kind("bank", 209, -315, 0, ref, mine, "1846", {}) is None
    over = [ref[0], {**ref[0], "acting": {}}]  # the game ends with the debts still shown
    assert tool.standing_kind("bank", 209, -315, 0, over, mine[:2], "1817", {}) == "debt_shown_negative"
    assert tool.standing_kind("players.p6", -325, 0, 0, over, mine[:2], "1817", {}) == "debt_shown_negative"
    assert tool.standing_kind("players.p6", -325, 0, 0, never, mine, "1817", {}) is None


def test_a_survivor_choosing_its_markers_shows_them_differently_until_it_has_chosen() -> None:
    """After an acquisition a survivor over its marker limit chooses the markers to remove (both engines offer it
    `remove_token` only): the site lists its own markers meanwhile, railbook both companies'; once it has chosen they
    agree (standing `markers_being_chosen`). A difference left after the choice is a difference."""
    tool = _tool()

    def line(tokens: list[str], acting: dict[str, list[str]]) -> dict[str, Any]:
        return {
            "id": 1,
            "type": "bid",
            "round": "Acquisition",
            "acting": acting,
            "corporations": {"H": {"tokens": tokens}},
        }

    choosing = {"H": ["remove_token"]}
    ref = [line(["B5", "C8"], choosing), line(["B5", "F3"], {"H": ["lay_tile", "pass"]})]
    mine = [line(["B5", "C8", "F3"], choosing), line(["B5", "F3"], {"H": ["lay_tile", "pass"]})]
    path = "corporations.H.tokens"
    assert (
        tool.standing_kind(path, ["B5", "C8"], ["B5", "C8", "F3"], 0, ref, mine, "1817", {}) == "markers_being_chosen"
    )
    later = [ref[0], line(["B5", "C8"], {"H": ["lay_tile", "pass"]})]
    assert tool.standing_kind(path, ["B5", "C8"], ["B5", "C8", "F3"], 0, later, mine, "1817", {}) is None
    bidding = [line(["B5", "C8"], {"p4": ["bid", "pass"]}), ref[1]]
    assert tool.standing_kind(path, ["B5", "C8"], ["B5", "C8", "F3"], 0, bidding, mine, "1817", {}) is None

    # the company taken over keeps its marker on the site until the survivor has chosen (run 13 seed 170028)
    def two(h: list[str], ur: list[str], acting: dict[str, list[str]]) -> dict[str, Any]:
        return {**line(h, acting), "corporations": {"H": {"tokens": h}, "UR": {"tokens": ur}}}

    ref = [two(["B5"], ["E22"], choosing), two(["B5"], [], {"H": ["pass"]})]
    mine = [two(["B5"], [], choosing), two(["B5"], [], {"H": ["pass"]})]
    path = "corporations.UR.tokens"
    assert tool.standing_kind(path, ["E22"], [], 0, ref, mine, "1817", {}) == "markers_being_chosen"
    kept = [ref[0], two(["B5"], ["E22"], {"H": ["pass"]})]
    assert tool.standing_kind(path, ["E22"], [], 0, kept, mine, "1817", {}) is None


def test_a_marker_lifted_by_another_companys_lay_is_missing_on_the_site_until_the_layer_puts_it_back() -> None:
    """1856 Hamilton (bot game seed 130010): WR's first tile on L15 lifts THB's home marker, and WR puts it back
    (`layer_places`): the site shows THB without it until then, railbook keeps it on the hex; looked past while both
    engines offer the layer `place_token` (standing `marker_lifted`). Another missing marker is a difference."""
    tool = _tool()

    def line(thb: list[str], acting: dict[str, list[str]], atype: str = "lay_tile") -> dict[str, Any]:
        return {
            "id": 1,
            "type": atype,
            "entity": "WR",
            "round": "Operating",
            "acting": acting,
            "corporations": {"THB": {"tokens": thb}, "WR": {"tokens": ["N17"]}},
        }

    placing, after = {"WR": ["place_token", "take_loan"]}, {"WR": ["run_routes", "take_loan"]}
    ref = [line([], placing), line(["L15"], after, "place_token")]
    mine = [line(["L15"], placing), line(["L15"], after, "place_token")]
    path = "corporations.THB.tokens"
    assert tool.standing_kind(path, [], ["L15"], 0, ref, mine, "1856", {}) == "marker_lifted"
    never = [ref[0], line([], after, "place_token")]  # the site never gets it back
    assert tool.standing_kind(path, [], ["L15"], 0, never, mine, "1856", {}) is None
    two = [line([], placing), ref[1]]
    assert (
        tool.standing_kind(path, [], ["L15", "K14"], 0, two, [line(["L15", "K14"], placing), mine[1]], "1856", {})
        is None
    )
    passing = [line([], {"WR": ["pass"]}), ref[1]]  # the layer is not placing it
    assert tool.standing_kind(path, [], ["L15"], 0, passing, mine, "1856", {}) is None
    # the layer buys a private before it puts the marker back (bot game seed 130015): the gap began at its lay
    buying = {"WR": ["buy_company", "place_token", "take_loan"]}
    ref = [line([], buying), line([], buying, "buy_company"), line(["L15"], after, "place_token")]
    mine = [line(["L15"], buying), line(["L15"], buying, "buy_company"), line(["L15"], after, "place_token")]
    assert tool.standing_kind(path, [], ["L15"], 1, ref, mine, "1856", {}) == "marker_lifted"
    other = [{**ref[0], "entity": "GW"}, *ref[1:]]  # another company laid the tile: WR is not its layer
    assert tool.standing_kind(path, [], ["L15"], 1, other, mine, "1856", {}) is None


def test_a_private_listed_by_the_site_for_a_player_at_the_certificate_limit_is_standing() -> None:
    """1870, four players (limit 16 with ten corporations in play; bot game seed 130003): p4 holds 14 certificates
    of shares (a president's certificate counts one) and two privates; the site lists `buy_company` (a private from
    another player), railbook does not (the limit counts privates): standing `private_at_cert_limit`. One
    certificate fewer, or a share purchase the site lists and railbook does not, and it is a difference."""
    tool = _tool()

    def line(fw: int, acting: list[str]) -> dict[str, Any]:
        return {
            "id": 606,
            "type": "pass",
            "round": "Stock",
            "acting": {"p4": acting},
            "players": {"p1": 243, "p2": 90, "p3": 148, "p4": 462},
            "companies": {"GSC": "p4", "MKT": "p4", "SCC": "p3"},
            "corporations": {
                "FW": {"president": "p4", "shares": {"p4": fw}},
                "MKT": {"president": "p4", "shares": {"p4": 60}},
                "SLSF": {"president": "p1", "shares": {"p1": 40, "p4": 20}},
                "SSW": {"president": "p2", "shares": {"p4": 30}},
                "TP": {"president": "p3", "shares": {"p4": 10}},
                **{c: {"president": None, "shares": {c: 100}} for c in ("ATSF", "GMO", "IC", "MP", "SP")},
            },
        }

    at = [line(40, ["buy_company", "pass", "sell_shares"])]
    assert tool.standing_kind("acting.p4", ["buy_company"], [], 0, at, at, "1870", {}) == "private_at_cert_limit"
    # one corporation closed (nine in play): the limit is 14 (bot seed 130039)
    nine = [line(20, ["buy_company", "pass", "sell_shares"])]
    assert tool.standing_kind("acting.p4", ["buy_company"], [], 0, nine, nine, "1870", {}) is None
    del nine[0]["corporations"]["SP"]
    assert tool.standing_kind("acting.p4", ["buy_company"], [], 0, nine, nine, "1870", {}) == "private_at_cert_limit"
    below = [line(30, ["buy_company", "pass", "sell_shares"])]
    assert tool.standing_kind("acting.p4", ["buy_company"], [], 0, below, below, "1870", {}) is None
    buying = [line(40, ["buy_company", "buy_shares", "pass", "sell_shares"])]
    ours = [line(40, ["pass", "sell_shares"])]
    assert tool.standing_kind("acting.p4", ["buy_company"], [], 0, buying, ours, "1870", {}) is None
    # a share both engines list (a cell free of the limit: bot seed 130006) leaves the private the one difference
    ours = [line(40, ["buy_shares", "pass", "sell_shares"])]
    assert tool.standing_kind("acting.p4", ["buy_company"], [], 0, buying, ours, "1870", {}) == "private_at_cert_limit"
    assert tool.standing_kind("acting.p4", ["buy_company"], [], 0, at, at, "1846", {}) is None


def test_1817_buy_train_listed_where_railbook_holds_the_train_step_for_a_pass() -> None:
    """1817 with `site_train_step_held`: railbook holds a company's train step open for a pass where the site lists
    `buy_train` (trains held by companies it may not buy from): standing `buy_train_listed`. Where railbook lists
    more than the pass (it could buy), the site's listing is no standing."""
    tool = _tool()

    def line(acting: list[str]) -> dict[str, Any]:
        return {"id": 1, "type": "dividend", "round": "Operating", "acting": {"PLE": acting}}

    ref, held, other = [line(["buy_train", "pass"])], [line(["pass"])], [line(["pass", "payoff_loan"])]
    assert tool.standing_kind("acting.PLE", ["buy_train"], [], 0, ref, held, "1817", {}) == "buy_train_listed"
    loans = [line(["bankrupt", "pass", "take_loan"])]  # (the loans it may take during the train step)
    assert tool.standing_kind("acting.PLE", ["buy_train"], [], 0, ref, loans, "1817", {}) == "buy_train_listed"
    assert tool.standing_kind("acting.PLE", ["buy_train"], ["payoff_loan"], 0, ref, other, "1817", {}) is None
    assert tool.standing_kind("acting.PLE", ["buy_train"], [], 0, ref, held, "1846", {}) is None


def test_1817_an_ipo_won_at_once_moves_the_bank_a_line_early_on_the_site() -> None:
    """1817: at an opening bid nobody else can raise the site launches the company at once (and it buys its
    markers from the bank), railbook after the station marker, the next action: the bank's difference on that line
    is standing `ipo_won_at_once` when the bank agrees on the next line."""
    tool = _tool()
    launched = {"cash": 50, "price": 50}
    ref = [
        {"id": 1, "type": "bid", "entity": "p2", "round": "Stock", "bank": -1153, "corporations": {"UR": launched}},
        {"id": 2, "type": "place_token", "round": "Stock", "bank": -1153, "corporations": {"UR": launched}},
    ]
    before = {"id": 0, "type": "pass", "round": "Stock", "bank": -1203, "corporations": {"UR": {"price": None}}}
    mine = [
        {"id": 1, "type": "bid", "round": "Stock", "bank": -1203, "corporations": {"UR": {"price": None}}},
        {"id": 2, "type": "place_token", "round": "Stock", "bank": -1153, "corporations": {"UR": launched}},
    ]
    ref, mine = [before, *ref], [before, *mine]
    assert tool.standing_kind("bank", -1153, -1203, 1, ref, mine, "1817", {}) == "ipo_won_at_once"
    apart = [before, mine[1], {**mine[2], "bank": -1103}]
    assert tool.standing_kind("bank", -1153, -1203, 1, ref, apart, "1817", {}) is None


def test_1817_a_debt_paid_down_by_share_sales_is_the_sites_negative_cash_until_settled() -> None:
    """A president owes $115 of his company's interest with $29 (differential run 7 seed 90004): the site shows
    -86, then -41 after he sells a share for $45, then 0 once he is bankrupt; railbook books each payment at once
    (0 throughout). The gap shrinks with the debt and closes: standing `debt_shown_negative`. A gap that grows, or
    one left where the site shows no debt, is a difference."""
    tool = _tool()
    mine = [_line(-1341, p4=0)] * 3
    ref = [_line(-1255, p4=-86), _line(-1300, p4=-41), _line(-1341, p4=0)]
    assert tool.standing_kind("players.p4", -86, 0, 0, ref, mine, "1817", {}) == "debt_shown_negative"
    grows = [ref[0], _line(-1300, p4=-90), ref[2]]
    assert tool.standing_kind("players.p4", -86, 0, 0, grows, mine, "1817", {}) is None
    paid = [ref[0], _line(-1300, p4=5), ref[2]]  # the site's debt gone, the amounts still apart
    assert tool.standing_kind("players.p4", -86, 0, 0, paid, mine, "1817", {}) is None


def _end_line(i: int, rnd: str, turn: str, bank: int, acting: dict[str, list[str]]) -> dict[str, Any]:
    return {"id": i, "type": "pass", "entity": "p1", "round": rnd, "turn": turn, "bank": bank, "acting": acting}


def test_a_bank_broken_in_rounds_nobody_acts_in_ends_railbooks_game_only() -> None:
    """The last pass of a stock round starts operating rounds in which no corporation operates; the privates'
    income breaks the bank there. railbook ends the game at the end of that set, the site (its end looked at after
    an action only) plays on into the next stock round: standing ``bank_broken_between_actions`` (1830 bots1 seed
    130008). Anything else on those lines still counts."""
    d = _tool()
    ref = [
        _end_line(1, "Stock", "94.1", 21, {"p1": ["pass", "sell_shares"]}),
        _end_line(2, "Stock", "95.1", -84, {"p2": ["buy_shares", "par", "pass"]}),
        {"game_end_reason": None, "result": {"p1": 7000, "p2": 400}},
    ]
    mine = [
        _end_line(1, "Stock", "94.1", 21, {"p1": ["pass", "sell_shares"]}),
        _end_line(2, "Operating", "94.1", -84, {}),
        {"game_end_reason": "bank", "result": {"p1": 7000, "p2": 400}},
    ]
    res = d.compare(ref, mine, "1830", [])
    assert res["modulo"] and not res["identical"]
    assert res["standing"] == {"bank_broken_between_actions": 4}
    # the banks apart: a difference
    res = d.compare(ref, [mine[0], {**mine[1], "bank": -80}, mine[2]], "1830", [])
    assert not res["modulo"] and "bank" in res["kinds"]
    # the bank broken before that action: not this standing difference
    res = d.compare([{**ref[0], "bank": -10}, *ref[1:]], [{**mine[0], "bank": -10}, *mine[1:]], "1830", [])
    assert not res["modulo"]
    # railbook's game not over there, or ended otherwise, or the results apart: differences
    res = d.compare(ref, [mine[0], {**mine[1], "acting": {"p2": ["pass"]}}, mine[2]], "1830", [])
    assert not res["modulo"]
    res = d.compare(ref, [*mine[:2], {**mine[2], "game_end_reason": "bankrupt"}], "1830", [])
    assert not res["modulo"]
    res = d.compare(ref, [*mine[:2], {**mine[2], "result": {"p1": 6900, "p2": 400}}], "1830", [])
    assert not res["modulo"]


def test_a_bid_the_site_lists_while_no_charter_is_free_is_bid_listed() -> None:
    """1817 §5.5: "A new company IPO may not occur if ... there are no available company charters". With all twenty
    companies in play the site still lists `bid` for a player who could pay the least bid (1817_game_end_bankrupt,
    action 956); railbook offers none. Standing `bid_listed`; with a charter free it is a difference."""
    from tests.differential_support import differential_tool

    d = differential_tool()
    corps = {"A&S": {"price": 100}, "PLE": {"price": 60}}
    line = {"id": 956, "type": "pass", "round": "Stock", "turn": "3.1", "corporations": corps}
    ref = [{**line, "acting": {"12235": ["bid", "buy_shares", "pass"]}}]
    mine = [{**line, "acting": {"12235": ["buy_shares", "pass"]}}]
    res = d.compare(ref, mine, "1817", [])
    assert res["first"] is None and res["standing"] == {"bid_listed": 1}
    free = {**corps, "WC": {"price": None}}
    ref[0]["corporations"] = mine[0]["corporations"] = free
    assert d.compare(ref, mine, "1817", [])["first"]["kind"].startswith("acting.*")


def test_income_the_site_pays_on_to_its_turn_limit_when_no_one_can_act_at_all() -> None:
    """Every corporation closed, the privates' income breaks the bank in the rounds the last action starts: railbook
    ends the game at the end of that set; the site, no one able to act in its stock rounds either, plays on to its
    turn limit (``dnf``) within that action, paying the income every operating round (1850 run 16 seed 250282).
    Standing only where every dollar more the site's bank paid is a player's, in cash and in the result."""
    d = _tool()
    before = {**_end_line(1, "Stock", "18.1", 40, {"p1": ["pass"]}), "players": {"p1": 100, "p2": 200}}
    ref = [
        before,
        {**_end_line(2, "Stock", "100.1", -530, {}), "players": {"p1": 190, "p2": 560}},
        {"game_end_reason": "dnf", "result": {"p1": 190, "p2": 560}},
    ]
    mine = [
        before,
        {**_end_line(2, "Operating", "96.2", -80, {}), "players": {"p1": 100, "p2": 200}},
        {"game_end_reason": "bank", "result": {"p1": 100, "p2": 200}},
    ]
    res = d.compare(ref, mine, "1850", [])
    assert res["modulo"] and set(res["standing"]) == {"bank_broken_between_actions"}
    # a dollar that went elsewhere, a result apart by more than the income, or the site's game not at its limit
    res = d.compare(ref, [mine[0], {**mine[1], "players": {"p1": 101, "p2": 200}}, mine[2]], "1850", [])
    assert not res["modulo"]
    res = d.compare(ref, [*mine[:2], {**mine[2], "result": {"p1": 90, "p2": 200}}], "1850", [])
    assert not res["modulo"]
    res = d.compare([ref[0], {**ref[1], "turn": "99.1"}, ref[2]], mine, "1850", [])
    assert not res["modulo"]
    # the site's bank paid less than railbook's: a difference
    res = d.compare([ref[0], {**ref[1], "bank": -40}, ref[2]], mine, "1850", [])
    assert not res["modulo"]


def test_a_site_stuck_where_railbooks_round_end_closes_the_last_corporations_is_stuck_round() -> None:
    """1846 run 17 seed 300136: p2's sale closed C&O; the site then waits on p1 with nothing offered (its stock round
    never ends); railbook ends the round, IC ($10, shares in the market) drops to $0 and closes, and with it the game
    (every corporation closed). That line's bank (IC's $133 back to it), IC and the results are `stuck_round`; a bank
    apart by anything else is a difference."""
    d = _tool()
    ic = {"cash": 133, "price": 10}
    ref = [
        {
            "id": 1,
            "type": "pass",
            "round": "Stock",
            "bank": 7140,
            "acting": {"p2": ["sell_shares"]},
            "corporations": {"IC": ic},
        },
        {
            "id": 2,
            "type": "sell_shares",
            "round": "Stock",
            "bank": 7140,
            "acting": {"p1": []},
            "corporations": {"IC": ic},
        },
        {"game_end_reason": None, "result": {"p1": 520, "p2": 400}},
    ]
    mine = [
        ref[0],
        {"id": 2, "type": "sell_shares", "round": "Stock", "bank": 7273, "acting": {}, "corporations": {}},
        {"game_end_reason": "all_closed", "result": {"p1": 500, "p2": 400}},
    ]
    res = d.compare(ref, mine, "1846", [])
    assert res["modulo"] and set(res["standing"]) == {"stuck_round"}
    apart = [ref[0], {**mine[1], "bank": 7300}, mine[2]]
    assert not d.compare(ref, apart, "1846", [])["modulo"]
    ended = [*mine[:2], {**mine[2], "game_end_reason": "bank"}]
    assert not d.compare(ref, ended, "1846", [])["modulo"]
