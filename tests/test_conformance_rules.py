"""Rules where differential play against 18xx.games (tools/differential.py, docs/CONFORMANCE.md) found railbook
wrong, each fixed by its rulebook's text and checked here on a small game railbook plays itself."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from railbook.engine.game import Game
from railbook.engine.replay import start_from_record

from railbook.api import rulebook_for_title
from railbook.soak import play_record

DATA = Path(__file__).parent / "data"


def _game_at(title: str, seed: int, actions: int, options: tuple[str, ...] = ()) -> tuple[Game, dict]:
    """Random game ``seed`` of a title as ``railbook soak --records`` played it when the rule was fixed (kept in
    ``tests/data``, so that later changes to the random player or to other rules cannot shift the situation), after
    its first ``actions`` (``options``: played with these too).  A stored move the engine now refuses fails the
    test: look at the rule again."""
    rulebook = rulebook_for_title(title)
    stored = json.loads((DATA / f"{title.lower()}_soak_{seed}.json").read_text(encoding="utf-8"))
    assert len(stored["actions"]) >= actions, f"tests/data holds {len(stored['actions'])} moves of {title} {seed}"
    record = {**stored, "actions": stored["actions"][:actions]}
    if options:
        settings = stored.get("settings") or {}
        named = list(settings.get("optional_rules") or [])
        record["settings"] = {**settings, "optional_rules": named + [o for o in options if o not in named]}
    game = start_from_record(record, rulebook)
    for action in record["actions"]:
        game.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
    return game, record


def _exported(title: str, seed: int) -> tuple[Game, dict, list[dict[str, Any]]]:
    """Game ``seed`` of ``tests/data`` played through with the site exporter beside it: the game, the stored record
    and the automatic actions the exporter writes after its last move."""
    from railbook.engine.replay import record_options

    from railbook.site_export import SiteAutoActions

    rulebook = rulebook_for_title(title)
    stored = json.loads((DATA / f"{title.lower()}_soak_{seed}.json").read_text(encoding="utf-8"))
    game = Game.start(
        rulebook, [p["id"] for p in stored["players"]], seed=seed, options=record_options(stored, rulebook)
    )
    autos = SiteAutoActions(game)
    extra: list[dict[str, Any]] = []
    for action in stored["actions"]:
        game.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
        autos.action(game, action)
        extra = autos.after(game)
    return game, stored, extra


def _played_without(record: dict, rulebook: dict, option: str) -> Game:
    """The record's moves played again with the options its replay turns on, less ``option`` (the rulebook's way
    where ``option`` is the site's)."""
    from railbook.engine.replay import record_options

    options = [o for o in record_options(record, rulebook) if o != option]
    game = Game.start(rulebook, [p["id"] for p in record["players"]], seed=record["settings"]["seed"], options=options)
    for action in record["actions"]:
        game.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
    return game


def _types(game: Game, entity: str) -> set[str]:
    return {d["type"] for d in game.legal_descriptions() if d["entity"] == entity}


def test_1846_no_private_is_bought_with_shares_issued_for_a_mandatory_train() -> None:
    """1846 §6.5 "Mandatory Train Purchase": a corporation without a train buys one "using all of its treasury with
    the remainder coming first from issuing as many of its shares as possible": once it has issued shares for the
    train, its next purchase is that train, not a private (18xx.games agrees)."""
    game, record = _game_at("1846", 200, 25)
    last = record["actions"][-1]
    assert (last["type"], last["entity"]) == ("sell_shares", "GT")  # GT's emergency issue
    assert not game.state.corporations["GT"].trains
    assert "buy_company" not in _types(game, "GT")
    assert "buy_train" in _types(game, "GT")


def test_a_connection_runs_required_route_is_one_train_home_to_destination_and_costs_nothing() -> None:
    """1870 "Connection run": "one train must run from the starting city to the destination. This train may not
    run beyond either location ... The company's other trains may run other routes".  The optimiser's answer
    honours it (``railbook routes`` at the connection runs of 1870_game_end_bank once answered 250, 220 and 390
    where the legal best is 230, 120 and 150): the required route ends at home and at the destination, the other
    train runs freely, and the requirement's weight is no revenue."""
    from railbook.routes import Link, Problem, Stop, required_route, solve
    from railbook.routes.trains import specs_from_names

    def city(key: str, revenue: int, token: bool = False) -> Stop:
        return Stop(key=key, hex=key.split(".")[0], kind="city", revenue=revenue, token=token)

    # home A1 (token) - A3 (destination, 20) - A5 (90) - A7 (80), in a line; a second line A1 - B2 (50)
    stops = [city("A1.c0", 10, token=True), city("A3.c0", 20), city("A5.c0", 90), city("A7.c0", 80)]
    stops.append(city("B2.c0", 50))
    links = [Link(0, 1, 1, ("A1", "A3")), Link(1, 2, 2, ("A3", "A5")), Link(2, 3, 4, ("A5", "A7"))]
    links.append(Link(0, 4, 8, ("A1", "B2")))
    free = solve(Problem(stops=stops, links=links, trains=specs_from_names(["4", "2"])))
    assert free.total == 200 + 60  # A1-A3-A5-A7 and A1-B2: the home->destination run is not the best
    problem = Problem(stops=stops, links=links, trains=specs_from_names(["4", "2"]))
    problem.bonuses = [required_route([["A1"], ["A3"]])]
    solution = solve(problem)
    assert solution.stats["required_met"]
    runs = sorted((stops[r.stops[0]].hex, stops[r.stops[-1]].hex, r.revenue) for r in solution.routes)
    assert ("A1", "A3", 30) in runs or ("A3", "A1", 30) in runs  # exactly home -> destination, not beyond
    assert solution.total == 30 + 60 == sum(r.revenue for r in solution.routes)  # the other train: A1-B2
    blocked = Problem(stops=stops, links=links[1:], trains=specs_from_names(["4"]))
    blocked.bonuses = [required_route([["A1"], ["A3"]])]
    assert not solve(blocked).stats["required_met"]


def test_1850_starting_treasury_at_the_end_of_the_stock_round_by_the_rules_at_float_on_the_site() -> None:
    """1850 [5.6.4]: a new company "receives this money at the end of the stock round in which the sixth share was
    sold" (the default); 18xx.games pays it as the sixth share is sold (option ``site_capital_at_float``, on for
    every record of the site)."""
    from railbook.engine.replay import record_options

    rulebook = rulebook_for_title("1850")
    trades = ["site_no_private_trades"]  # (the game as it was played before players traded privates [15.1])
    record, _ = play_record(rulebook, 300, max_actions=150, also=trades)
    assert "site_capital_at_float" in record_options({**record, "created_at": 1_795_000_000}, rulebook)
    assert "site_capital_at_float" not in record_options(record, rulebook)
    cash = {}
    for options in ([], ["site_capital_at_float"]):
        game = Game.start(rulebook, [p["id"] for p in record["players"]], seed=300, options=[*options, *trades])
        floated: list[str] = []
        for action in record["actions"]:  # up to the purchase that floats the first company
            game.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
            floated = [k for k, c in game.state.corporations.items() if c.floated]
            if floated:
                break
        assert game.state.round.kind == "stock" and len(floated) == 1
        cash[tuple(options)] = game.context.cash(f"C|{floated[0]}")
    pars = [a["share_price"] for a in record["actions"] if a["type"] == "par" and a["corporation"] == floated[0]]
    assert cash[()] == 0
    assert cash[("site_capital_at_float",)] == 10 * int(str(pars[0]).split(",")[0])  # ten times its par, at once


def test_a_sites_destination_notice_counts_with_the_site_option_only() -> None:
    """1870 "CONNECTION RUN": "To be eligible, a company must be able to run one of its trains from its starting
    location to its destination"; railbook checks that itself and refuses a record's notice naming a company that
    cannot.  18xx.games takes its players' notice as it stands: option ``site_destination_notices`` (on for every
    record of the site) lets the notice count and the connection run follow."""
    import pytest
    from railbook.engine.errors import IllegalAction
    from railbook.engine.replay import record_options

    rulebook = rulebook_for_title("1870")
    record, _ = play_record(rulebook, 1, max_actions=42)
    assert "site_destination_notices" in record_options({**record, "created_at": 1_795_000_000}, rulebook)
    for options in ([], ["site_destination_notices"]):
        game = Game.start(rulebook, [p["id"] for p in record["players"]], seed=1, options=options)
        for action in record["actions"]:
            game.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
        op = game.context.current_operator()
        assert game.state.round.kind == "operating" and op
        corp = op.split("|")[1]
        assert not game.state.corporations[corp].trains  # no train: no connection by the rules
        notice = {"type": "destination_connection", "entity": corp, "entity_type": "corporation"}
        notice["corporations"] = [corp]
        if not options:
            with pytest.raises(IllegalAction, match="cannot reach the destination"):
                game.process(notice)
            continue
        game.process(notice)
        st = game.state.mechanics["destinations"]
        assert corp in st.reached and st.pending == [corp]
        assert {d["type"] for d in game.legal_descriptions() if d["entity"] == corp} == {"choose"}  # its marker first


def test_1846_bankruptcy_is_offered_at_the_train_purchase_not_before() -> None:
    """1846 §6.5: a corporation "must buy a train if it has none after running its routes", and a president who
    cannot raise the money is bankrupt: bankruptcy comes at the train purchase.  railbook once offered it in the
    track step to a trainless corporation (soak game 401 took it; 18xx.games fails on such a move)."""
    from railbook.engine import rounds

    rulebook = rulebook_for_title("1846")
    record, _ = play_record(rulebook, 401, max_actions=260)
    game = start_from_record(record, rulebook)
    trainless_in_track = 0
    for action in record["actions"]:
        game.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
        step = rounds.active_step(game.context)
        offered = [d for d in game.legal_descriptions() if d["type"] == "bankrupt"]
        if step is not None and step.name != "buy_train":
            assert not offered, (action["id"], step.name)
            op = game.context.current_operator()
            trainless_in_track += bool(op and op[0] == "C" and not game.context.entity_trains(op))
    assert trainless_in_track  # (the game has such moments)


def test_1850_the_bridge_companys_lay_in_st_louis_joins_the_companys_route() -> None:
    """1850 P3 (Mississippi River Bridge Company): "a free track lay in the St Louis hex": a track lay, free, and so
    joined to the laying company's route like any other ([7]); railbook once offered it in any rotation to a
    company far away (soak games; 18xx.games refuses such lays as "not legally rotated")."""
    from railbook.engine.mechanics import track

    game = Game.start(rulebook_for_title("1850"), ["a", "b", "c"], seed=1)
    ability = next(a for a in game.state.companies["MRB"].abilities if a.type == "tile_lay")
    assert ability.spec.get("connected") is True
    assert track._special_candidates(game.context, ability)  # (the lays the hex and tiles allow)
    assert track._special_candidates(game.context, ability, "C|CBQ") == []  # Chicago's company: no route there


def test_1856_a_company_is_sold_once_in_a_stock_turn() -> None:
    """1856 "Stock Round": a turn is "sell one or more share certificates" and/or "buy one share"; the sale moves the
    price "down one row for each full 10% sold".  After selling a company's shares a player may sell other companies'
    in that turn, not the same company's again (soak game 500 once did; 18xx.games refuses it)."""
    rulebook = rulebook_for_title("1856")
    trades = ["site_no_private_trades"]  # (the game as it was played before players traded privates)
    record, _ = play_record(rulebook, 500, max_actions=120, also=trades)
    record["settings"]["optional_rules"] += trades
    game = start_from_record(record, rulebook)
    sold: set[str] = set()
    seller = None
    checked = 0
    for action in record["actions"]:
        game.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
        if action["entity"] != seller:
            seller, sold = action["entity"], set()
        if action["type"] == "sell_shares":
            sold.add(action["shares"][0].split("_")[0])
        for d in game.legal_descriptions():
            if d["type"] == "sell_shares" and d["entity"] == seller and sold:
                corps = {c["shares"][0].split("_")[0] for c in d.get("choices") or []}
                assert not corps & sold, (action["id"], corps & sold)
                checked += 1
    assert checked


def test_18chesapeake_bids_rise_in_steps_of_five() -> None:
    """18Chesapeake's private auction (the title's source, the site's game: no rulebook text in shared/rules): a
    bid is the least bid allowed or more by a multiple of $5 (`bid_box_auction.bid_step`); a random game's bid of
    the least plus $104 was accepted by railbook and refused by the site."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game = Game.start(rulebook_for_title("18Chesapeake"), ["p1", "p2", "p3"], seed=1)

    def cv_range(player: str) -> Any:
        (bid,) = [
            a for a in game.legal_actions() if a.type == "bid" and a.entity == player and a.fields["company"] == "CV"
        ]
        return bid.open["price"]

    price = cv_range("p1")
    assert price.step == 5 and price.min + 104 not in price and price.min + 105 in price
    bid = {"type": "bid", "entity": "p1", "entity_type": "player", "company": "CV"}
    with pytest.raises(IllegalAction, match="multiple of 5"):
        game.process({**bid, "price": price.min + 4})
    game.process({**bid, "price": price.min + 5})
    assert cv_range("p2").min == price.min + 10  # the raise over p1's bid: $5, on the steps from there


def test_1846_a_company_may_buy_the_cheaper_face_of_a_two_faced_train() -> None:
    """1846 §6.52: a Phase II card is bought as a 4-train ($180) or a 3/5 ($160). A company with $174 left after
    buying the last 2-train may still buy the 3/5: its turn does not end (railbook judged by the dearer face only
    and ended it; 18xx.games waits for the purchase or a pass)."""
    game, record = _game_at("1846", 10000, 316)
    last = record["actions"][-1]
    assert (last["type"], last["entity"], last["train"]) == ("buy_train", "GT", "2-8")
    assert game.context.cash("C|GT") == 174
    (buy,) = [d for d in game.legal_descriptions() if d["entity"] == "GT" and d["type"] == "buy_train"]
    assert buy["choices"] == [{"train": "4-0", "variant": "3/5", "price": 160}]
    assert "pass" in _types(game, "GT")


def test_1830_players_buy_privates_from_each_other_from_the_second_stock_round() -> None:
    """1830 (the title's source, the site's game: no rulebook text in shared/rules): "Companies can be bought
    between players after first stock round" -- in place of a certificate, at any price of at least $1
    (`stock_round.buy_private_from_player_after`); railbook never offered it, the site did from turn 2."""
    game, _ = _game_at("1830", 10000, 23)
    assert game.state.turn == 2 and game.state.round.kind == "stock"
    (buy,) = [d for d in game.legal_descriptions() if d["type"] == "buy_company"]
    assert buy["entity"] == "p1" and all(c["price"]["min"] == 1 for c in buy["choices"])
    owners = {c["company"]: game.state.companies[c["company"]].owner for c in buy["choices"]}
    assert owners and all(o.startswith("P|") and o != "P|p1" for o in owners.values())
    first, _ = _game_at("1830", 10000, 20)  # the first stock round: never
    assert first.state.turn == 1 and first.state.round.kind == "stock"
    assert not [d for d in first.legal_descriptions() if d["type"] == "buy_company"]


def test_18chesapeake_a_begun_two_tile_lay_is_finished_and_its_first_tile_leaves_room_for_the_second() -> None:
    """18Chesapeake's Baltimore & Susquehanna (the site's game: "may lay two connected tiles in hexes F4 and G5";
    its ability must lay all once begun): once the first tile is down there is no pass while the second can be
    laid, and a first tile the second could not join is no legal lay (differential seed 10002: railbook laid one
    on F4 that G5 could not join and passed; the site refused the pass and had no second lay either)."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, record = _game_at("18Chesapeake", 10000, 272)
    assert (record["actions"][-1]["type"], record["actions"][-1]["company"]) == ("buy_company", "B&S")
    assert game.state.hexes["F4"].tile is None and game.state.hexes["G5"].tile is None
    lay = {"type": "lay_tile", "entity": "B&S", "entity_type": "company", "hex": "F4"}
    (lays,) = [d for d in game.legal_descriptions() if d["entity"] == "B&S" and d["type"] == "lay_tile"]
    (tile,) = {c["tile"] for c in lays["choices"] if c["tile"].startswith("8-")}  # the next #8 in the supply
    with pytest.raises(IllegalAction, match="leave room"):
        game.process({**lay, "tile": tile, "rotation": 0})
    assert {"hex": "F4", "tile": tile, "rotation": 0} not in lays["choices"]
    game.process({**lay, "tile": tile, "rotation": 3})
    assert _types(game, "B&S") == {"lay_tile"}  # no pass: the second tile must follow
    with pytest.raises(IllegalAction, match="all its tile lays"):
        game.process({"type": "pass", "entity": "B&S", "entity_type": "company"})


def test_1846_a_company_that_operates_by_itself_into_the_0_cell_after_a_closing_is_removed_too() -> None:
    """1846 §5.25: "If a corporation's stock price falls to $0, for any reason, it is immediately removed from the
    game." C&O's last lay ended its turn without a route; it withheld to $0 and closed, and PRR, next, operated by
    itself (no lay, no route) and withheld to $0 too. railbook had closed C&O only and offered PRR its train
    purchase and bankruptcy (differential run 12 seed 160052, action 122; the site closed both and went on to GT)."""
    game, record = _game_at("1846", 160052, 121)
    last = record["actions"][-1]
    assert (last["type"], last["entity"], last["hex"]) == ("lay_tile", "C&O", "H10")
    assert game.state.corporations["C&O"].closed and game.state.corporations["PRR"].closed
    assert game.acting_entities() == ["C|GT"]


def test_1870_price_protection_needs_certificate_room_for_the_shares_it_keeps_counted() -> None:
    """1870 "SHARE PRICE PROTECTION": "The purchasing player must have the cash on hand to buy the shares and the
    certificate limit space to hold the shares." While a sale waits, the count leaves out the president's
    certificates of a company whose drop would take it into the yellow zone; protecting keeps the price, and those
    certificates count again. Differential run 12 seed 160004, action 1807: p6 sold an SP share at $64 (its drop:
    $60, yellow); p3, SP's president with 90% (8 certificates) and 7 others counted (limit 9), was offered the
    protection (railbook counted 7 + 1); the site counted his SP certificates too, moved the price at once and
    refused his purchase ("Cannot buy a share of SP")."""
    game, record = _game_at("1870", 160004, 1807)
    last = record["actions"][-1]
    assert (last["type"], last["entity"], last["shares"]) == ("sell_shares", "p6", ["SP_2"])
    sp = game.state.corporations["SP"]
    assert game.state.cert_limit == 9 and len(game.state.holdings["P|p3"]["SP"]) == 8  # (90%: 8 certificates)
    assert sp.price == [6, 5]  # ($60: moved at once, nobody able to protect)
    offers = {(a.type, tuple(a.fields.get("shares") or ())) for a in game.legal_actions() if a.entity == "p3"}
    assert ("buy_shares", ("SP_2",)) not in offers and ("pass", ()) in offers


def test_1870_the_track_step_stays_open_to_be_passed_while_the_mrbcs_lay_is_unused() -> None:
    """1870's MRBC: "The public company that purchases the Mississippi River Bridge Company may build in one of the
    hexes along the Mississippi River for a $40 discount" (one of the company's own lays here,
    `params.normal_lay`). 18xx.games keeps the owning company's track step open while that lay is unused, to be
    passed (title parameter `track.open_while_lay_private_buyable`): a pass changes no rule's outcome, and without
    it the same moves meant different things in the two engines (differential run 10 seed 140019: MKT's upgrade, then
    its purchase of a private, which the site took in its track step, railbook a turn later; run 12 seed 160041:
    SSW's private purchase, a round apart, and the privates' income paid to different owners)."""
    game, record = _game_at("1870", 140019, 301)
    assert [a["type"] for a in record["actions"][-3:]] == ["buy_company", "lay_tile", "buy_company"]
    mkt = game.state.corporations["MKT"]
    assert "MRBC" in mkt.companies and game.state.round.data["upgraded_track"]
    assert mkt.price == [10, 4]  # ($20: no withholding yet)
    assert {(a.type, a.entity) for a in game.legal_actions()} == {("pass", "MKT")}
    game.process({"type": "pass", "entity": "MKT", "entity_type": "corporation"})
    assert game.state.corporations["MKT"].price == [10, 3]  # (no route: withheld, $10)


def test_18chesapeake_a_home_reserved_in_one_city_of_baltimore_keeps_its_slot_when_the_cities_merge() -> None:
    """A corporation's home space stays reserved until it places its home marker (the 1830 family's rule the site
    plays): B&O's home is Baltimore's first city (H6, `home: {hex: H6, city: 0}`), PLE had a marker in the second;
    the brown X7 makes the two cities one of two slots, which the marker and the reservation fill. railbook had put
    the reservation in the marker's slot and let C&A place a marker there (differential run 11 seed 150024,
    action 460; the site: "no token slots available on H6")."""
    game, _ = _game_at("18Chesapeake", 150024, 459)
    hs = game.state.hexes["H6"]
    assert hs.tile == "X7" and hs.tokens == [["C|PLE", None]]
    assert sorted(r for r in hs.reservations[0] if r) == ["C|B&O"]
    placements = [d for d in game.legal_actions() if d.type == "place_token" and d.entity == "C&A"]
    assert placements and not [d for d in placements if d.fields["city"].startswith("X7-0")]
    stored = json.loads((DATA / "18chesapeake_soak_150024.json").read_text(encoding="utf-8"))["actions"][459]
    assert (stored["type"], stored["city"]) == ("place_token", "X7-0-0")


def test_18chesapeake_the_initial_rounds_income_round_ends_a_set_and_exports_a_train() -> None:
    """18Chesapeake (the site's game): "At the end of each set of ORs the next available non-permanent train will be
    exported"; the operating round that pays the sold privates' income when everyone passes in the initial round
    is such a set (`bid_box_auction.all_passed.income_round_ends_or_set`). Differential seed 10003: the site's
    first bank train at OR 4.1 was 2-4, railbook's 2-3."""
    game, record = _game_at("18Chesapeake", 10003, 10)
    assert [a["type"] for a in record["actions"][-3:]] == ["pass", "pass", "pass"]
    assert game.state.round.kind == "initial"
    assert "-- The bank exports a 2 train --" in game.log
    assert game.state.depot[0] == "2-1"


def test_1870_an_upgrades_new_track_must_lie_on_a_legal_route() -> None:
    """1870 "LAY OR UPGRADE TRACK": the company "must be able to trace a legal train route of any length from one of
    its station markers to and along one of the new track segments, or increase the value of a city it can run
    to". On L17 (a straight, reached from M18 only) the curve of #23 at rotation 2 starts at the edge to K16,
    whose city GMO reaches only through L17 itself: a route to the curve would pass K16 twice. railbook's network
    walk let the upgrade through; the site refused it (differential seed 20000)."""
    import pytest
    from railbook.engine.errors import IllegalAction

    # (the stored game was played before railbook offered private purchases between players in 1870's stock
    # rounds: its record carries a creation date of the site's time without them, option site_no_private_trades)
    game, _ = _game_at("1870", 20000, 987)
    assert str(game.state.hexes["L17"].tile) == "9" and game.acting_entities() == ["C|GMO"]
    (lays,) = [d for d in game.legal_descriptions() if d["entity"] == "GMO" and d["type"] == "lay_tile"]
    on_l17 = {(c["tile"], c["rotation"]) for c in lays["choices"] if c["hex"] == "L17"}
    assert ("23-1", 5) in on_l17 and ("23-1", 2) not in on_l17  # the curve toward M18's side is usable
    with pytest.raises(IllegalAction, match="must add track"):
        game.process(
            {
                "type": "lay_tile",
                "entity": "GMO",
                "entity_type": "corporation",
                "hex": "L17",
                "tile": "23-1",
                "rotation": 2,
            }
        )


def test_18chesapeake_an_upgrade_must_add_usable_track_or_change_a_city() -> None:
    """18Chesapeake plays the site's default track rule (its source, game.rb, keeps base.rb's semi-restrictive
    TRACK_RESTRICTION): an upgrade must add track the company can use or change a city's value
    (`track.new_track_must_be_usable: true`; it was off). The game is railbook's own random game 20002 (its first
    342 moves, tests/data), where PLE's #26 on B6 adds nothing PLE can use: the site refused it."""
    import json
    from pathlib import Path

    import pytest
    from railbook.engine.errors import IllegalAction

    data = json.loads((Path(__file__).parent / "data" / "18chesapeake_soak_20002_342.json").read_text())
    game = Game.start(rulebook_for_title("18Chesapeake"), data["players"], seed=data["seed"], options=data["options"])
    for action in data["actions"]:
        game.process(action)
    lay = {"type": "lay_tile", "entity": "PLE", "entity_type": "corporation", "hex": "B6"}
    (lays,) = [d for d in game.legal_descriptions() if d["entity"] == "PLE" and d["type"] == "lay_tile"]
    assert {"hex": "B6", "tile": "26-0", "rotation": 4} not in lays["choices"]
    with pytest.raises(IllegalAction, match="must add track"):
        game.process({**lay, "tile": "26-0", "rotation": 4})


def test_1856_a_private_token_in_place_of_the_normal_one_is_the_privates_action() -> None:
    """1856 Waterloo & Saugeen: the owning company "may place a free station marker on either city on the Kitchener
    hex ... in the place of the public company's normal ... station marker placement". CV, with $33 and its next
    marker at $40, keeps its token step for that free marker: the private places it (`place_token` by WSRC), and
    CV itself is offered only `pass` -- not a `place_token` of its own with no city to choose (railbook offered
    one; the site skips the step, see docs/CONFORMANCE.md)."""
    game, record = _game_at("1856", 20001, 411)
    assert (record["actions"][-2]["company"], record["actions"][-1]["type"]) == ("WSRC", "pass")  # bought; track passed
    assert game.context.cash("C|CV") == 33
    assert _types(game, "CV") == {"pass"}
    (token,) = [d for d in game.legal_descriptions() if d["entity"] == "WSRC"]
    assert token["type"] == "place_token" and token["choices"]


def test_1856_the_sites_private_marker_waits_in_the_route_step_not_in_an_open_token_step() -> None:
    """The site's way (option `site_private_marker_until_routes`, on for its records): the Waterloo & Saugeen's
    free marker may be placed until the routes are run, and the token step opens only where the company's own
    network has a city with room. CV (as in the test above) has no such city: with the option it goes on to its
    routes at once and the private may still place the marker there; the rulebook's way holds the token step
    (differential run 5: 9 of the 1856 games' first divergences, e.g. seeds 50002, 50006, 50040)."""
    from railbook.engine.replay import record_options

    rulebook = rulebook_for_title("1856")
    assert "site_private_marker_until_routes" in record_options({"created_at": 1_795_000_000}, rulebook)
    track, _ = _game_at("1856", 20001, 410, ("site_private_marker_until_routes",))
    assert "lay_tile" in _types(track, "CV") and not _types(track, "WSRC")  # not in the track step
    game, _ = _game_at("1856", 20001, 411, ("site_private_marker_until_routes",))
    assert _types(game, "CV") == {"run_routes"}
    (token,) = [d for d in game.legal_descriptions() if d["entity"] == "WSRC"]
    assert token["type"] == "place_token" and token["choices"]
    game.process({"type": "place_token", "entity": "WSRC", "entity_type": "company", **token["choices"][0]})
    assert "I12" in {t.hex for t in game.state.corporations["CV"].tokens if t.used}
    assert _types(game, "CV") == {"run_routes"}


def test_1856_a_private_is_offered_mid_turn_only_when_the_treasury_pays_for_it() -> None:
    """1856 "PRIVATE COMPANIES": a company "may purchase a private company at any time during that public
    company's operating round"; it pays from its treasury, and a loan is an action of its own first. BBG, left
    with $5 after buying GLSC (the W&S, the one private left, costs at least $20), was offered `buy_company` on the
    strength of a loan it could take; the site offers it after the loan (differential seeds 50001, 50003, 50037)."""
    game, record = _game_at("1856", 50003, 189)
    assert (record["actions"][-1]["type"], record["actions"][-1]["company"]) == ("buy_company", "GLSC")
    assert game.context.cash("C|BBG") == 5
    from railbook.engine.digest import acting

    assert "buy_company" not in acting(game)["BBG"] and "take_loan" in acting(game)["BBG"]  # (the digest's list)
    assert "buy_company" not in _types(game, "BBG")
    game.process({"type": "take_loan", "entity": "BBG", "entity_type": "corporation"})
    assert "buy_company" in acting(game)["BBG"] and "buy_company" in _types(game, "BBG")


def test_1856_a_company_closed_by_its_withholding_redeems_no_loans() -> None:
    """1856 "CLOSED SECTION": "Any time a company's share value token enters the 'Closed' section ... that company
    is immediately removed from play". BBG, running nothing with four loans, withholds into the closed section;
    the lower price had cut its loan cap, and railbook redeemed the excess first, charging its president $113 he
    did not have (a cash crisis, then his bankruptcy); the company is gone before that (the site agrees:
    differential seed 50003, action 228)."""
    game, record = _game_at("1856", 50003, 228)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("run_routes", "BBG")
    assert game.state.corporations["BBG"].closed
    assert game.context.cash("P|p4") == 11 and game.acting_entities() == ["C|THB"]


def test_1856_a_lifted_home_marker_is_put_back_before_a_bonus_right_is_bought() -> None:
    """THB's #59 on Hamilton lifts its home marker, which THB puts back in either city before anything else
    (`track.unconnected_city_tokens: layer_places`, the site's way where the rulebook is silent); railbook also
    offered the bridge right meanwhile (`special_buy`), which the site refused ("Blocking step Place Home Token
    cannot process action special_buy": differential seeds 50024, 60000). It may buy the right once the marker is
    back."""
    from railbook.engine.digest import acting

    game, record = _game_at("1856", 60000, 262)
    assert (record["actions"][-1]["type"], record["actions"][-1]["hex"]) == ("lay_tile", "L15")
    assert set(acting(game)["THB"]) - {"bankrupt"} == {"place_token"}
    (token,) = [d for d in game.legal_descriptions() if d["type"] == "place_token"]
    game.process({"type": "place_token", "entity": "THB", "entity_type": "corporation", **token["choices"][0]})
    assert "special_buy" in acting(game)["THB"]


def test_1856_the_sites_interest_of_a_company_that_does_not_run_waits_for_its_next_action() -> None:
    """The site's way (option `site_interest_after_next_action`, on for its records): a company that runs no trains
    pays its loans' interest after its next action of the turn, on the loans it has then, and none where its turn
    ends first. BBG, the round's last, withholds with two loans (seed 70104, action 176): the rulebook's turn
    charges its $20 ("Pay interest on Government Loans"), the site nothing. WR (seed 70101) passes its track step
    with $18 and two loans, then takes a third: the rulebook's turn charged $10 from the treasury and $10 from its
    president before the loan brought $90; the site's loan brings $100 and the three loans' $30 follow."""
    from railbook.engine.replay import record_options

    rulebook = rulebook_for_title("1856")
    assert "site_interest_after_next_action" in record_options({"created_at": 1_795_000_000}, rulebook)
    cash = {}
    for options in ((), ("site_interest_after_next_action",)):
        game, record = _game_at("1856", 70104, 176, options)
        assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("lay_tile", "TCC")
        assert game.state.round.kind == "stock"  # BBG's turn was the round's last
        cash[options] = game.context.cash("C|BBG")
    assert cash[()] + 20 == cash[("site_interest_after_next_action",)] == 77
    site = ("site_interest_after_next_action",)
    for options, after_pass, after_loan in (((), (8, 35), (98, 35)), (site, (18, 45), (88, 45))):
        game, record = _game_at("1856", 70101, 237, options)
        assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("pass", "WR")
        assert (game.context.cash("C|WR"), game.context.cash("P|p2")) == after_pass
        game.process({"type": "take_loan", "entity": "WR", "entity_type": "corporation"})
        assert (game.context.cash("C|WR"), game.context.cash("P|p2")) == after_loan


def test_1850_a_privates_extra_yellow_lay_must_reach_the_new_track() -> None:
    """1850 [6.1]: "Companies may not lay yellow tiles in hexes the company cannot reach ... to some of the new
    track on the new tile"; the extra yellow lays of P2, P4 and P6 [6.1.2, 15.2] are track lays like any other.
    MP's Western Land Grant lay of #4 on H17 at rotation 5, which MP cannot reach, was allowed (differential seed
    20003; the site: "H17 is not legally rotated for 4")."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, record = _game_at("1850", 20003, 285)
    assert (record["actions"][-1]["type"], record["actions"][-1]["company"]) == ("buy_company", "WLG")
    lays = [c for d in game.legal_descriptions() if d["entity"] == "WLG" for c in d.get("choices", [])]
    assert not [c for c in lays if c["hex"] == "H17"]
    with pytest.raises(IllegalAction, match="does not connect"):
        game.process(
            {"type": "lay_tile", "entity": "WLG", "entity_type": "company", "hex": "H17", "tile": "4-0", "rotation": 5}
        )


def test_1850_a_privates_extra_yellow_lay_comes_after_the_companys_own_lay() -> None:
    """1850 [15.1]: "Railroad companies that lay yellow tiles using a private company must do these track lays
    after the company has done its normal track lay/upgrade (P3 is an exception ...)" ([6.1.2] likewise). GN owns
    the Western Land Grant (P6): at the start of its turn P6 may not lay, once GN has laid its own tile it may
    (`params.after_normal_lay`; in its previous turn GN laid, then P6, then the Credit Mobilier, P2). Differential
    seed 50041, action 330 (and eight more games of run 5 with P2, P4 or P6): railbook allowed the Western Land
    Grant's lay first, the site refused it."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, record = _game_at("1850", 50041, 329)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("dividend", "GN")
    assert game.state.companies["WLG"].owner == "C|GN"
    assert "lay_tile" in _types(game, "GN")
    assert not _types(game, "WLG")
    wlg_lay = {"type": "lay_tile", "entity": "WLG", "entity_type": "company", "hex": "G4", "tile": "6-0", "rotation": 2}
    with pytest.raises(IllegalAction):
        game.process(dict(wlg_lay))
    game.process(
        {"type": "lay_tile", "entity": "GN", "entity_type": "corporation", "hex": "C10", "tile": "28-0", "rotation": 3}
    )
    assert "lay_tile" in _types(game, "WLG")
    game.process(dict(wlg_lay))
    assert game.state.hexes["G4"].tile_id == "6-0"


def test_1850_the_gant_brothers_lay_costs_30_plus_terrain() -> None:
    """1850 [15.2] P4: "The public company that owns this private company may purchase a yellow track lay each turn
    for $30. The company must also pay any terrain costs." The ability's `cost` was not charged (differential seeds
    50004, 50012, 50014: the site took $30 more from the company at the Gant Brothers' lay)."""
    game, record = _game_at("1850", 71000, 470)
    assert [(a["type"], a["entity"]) for a in record["actions"][-3:]] == [
        ("lay_tile", "KATY"),  # its own lay
        ("buy_company", "KATY"),
        ("buy_company", "KATY"),  # the Gant Brothers
    ]
    assert game.state.companies["GBC"].owner == "C|KATY"
    terrain = int(game.context.book.hexes["K8"].get("cost") or 0)
    before, bank = game.context.cash("C|KATY"), game.context.cash("bank")
    game.process(
        {"type": "lay_tile", "entity": "GBC", "entity_type": "company", "hex": "K8", "tile": "58-2", "rotation": 0}
    )
    assert before - game.context.cash("C|KATY") == 30 + terrain == game.context.cash("bank") - bank


def test_1850_a_closed_companys_trains_go_to_the_open_market_the_sites_leave_play() -> None:
    """1850 [5.1.1]: when a company closes in the black area, "Any trains owned by that company are placed on the open
    market", where they sell at the printed price ([10.6]). On 18xx.games they stay with the closed company and are
    not offered (option ``site_closed_company_trains_removed``, on for every record of the site). Differential seed
    50017: MP closed with three 2-trains in the stock round (action 133); at SOO's train purchase railbook offered
    them beside the bank's 2-3, and later, after CBQ's one new train of the turn ([10.3]), kept CBQ's turn open for
    them where the site ended the operating round (ten games of run 5 diverged so)."""
    from railbook.engine.replay import record_options

    rulebook = rulebook_for_title("1850")
    site, record = _game_at("1850", 50017, 140)
    assert "MP" not in {c for c, corp in site.state.corporations.items() if not corp.closed}
    assert "site_closed_company_trains_removed" in record_options(record, rulebook)
    rule = _played_without(record, rulebook, "site_closed_company_trains_removed")

    def offered(game: Game) -> set[str]:
        (buy,) = [d for d in game.legal_descriptions() if d["entity"] == "SOO" and d["type"] == "buy_train"]
        return {c["train"] for c in buy["choices"]}

    assert offered(site) == {"2-3"}
    in_market = offered(rule) - {"2-3"}  # (one of each kind the open market holds)
    assert "2-3" in offered(rule) and in_market and in_market <= {"2-0", "2-1", "2-2"}


def test_1850_a_company_whose_only_route_is_to_the_mesabi_range_need_not_buy_a_train() -> None:
    """1850 [10.1]: "An operating railway with a legal route of any length [8.1] must own a train"; the Mesabi Range
    is on a route only for a company with a Mesabi token ([8.2], [15.2] P5). NP's home Duluth (B11) reaches only the
    Mesabi Range (A10) and NP has no token: it has no legal route, so it may pass its train purchase, and it runs
    nothing. Differential seeds 50003, 50025, 50037 (action 101): railbook counted the Mesabi Range as a stop and
    forced the purchase; the site offered the pass."""
    from railbook.engine import board

    game, record = _game_at("1850", 50037, 101)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("pass", "NP")  # its track step
    assert not game.state.corporations["NP"].trains
    net = board.network(game.context, "C|NP")
    assert "A10" in net.hex_edges and {h for h, _ in net.nodes} == {"B11"}  # its track ends at the Mesabi Range
    assert _types(game, "NP") >= {"buy_train", "pass"}
    assert not net.route_available


def test_1850_no_track_is_reached_through_the_mesabi_range_without_a_token() -> None:
    """1850 [6.1]: a company reaches new track by "an unblocked ... train run of any length from one of its tokens";
    no train of a company without a Mesabi token runs to or through the Mesabi Range (A10; [8.2], [15.2] P5), so
    the hexes beyond it are not reached that way. Differential seed 60000 (action 75; likewise 50021, 50034): NP,
    from Duluth (B11) with no Mesabi token, laid #9 on B9 next to A10; the site refused ("B9 is not legally rotated
    for 9")."""
    import pytest
    from railbook.engine import board
    from railbook.engine.errors import IllegalAction

    game, record = _game_at("1850", 60000, 74)
    assert (record["actions"][-1]["entity"], record["actions"][-1]["hex"]) == ("NP", "B11")  # its first tile
    assert "lay_tile" in _types(game, "NP")
    assert "A10" not in {h for h, _ in board.network(game.context, "C|NP").nodes}
    lays = [c for d in game.legal_descriptions() if d["entity"] == "NP" for c in d.get("choices", [])]
    on_b9 = {(c["tile"], c["rotation"]) for c in lays if c.get("hex") == "B9"}
    assert ("9-0", 1) in on_b9 and ("9-0", 0) not in on_b9  # joined to Duluth, not only to the Mesabi Range
    assert not [c for c in lays if c.get("hex") in ("A8", "A12")]
    with pytest.raises(IllegalAction, match="does not connect"):
        game.process(
            {
                "type": "lay_tile",
                "entity": "NP",
                "entity_type": "corporation",
                "hex": "B9",
                "tile": "9-0",
                "rotation": 0,
            }
        )


def test_1850_the_western_land_grant_stays_open_after_its_third_lay_on_the_site_it_closes() -> None:
    """1850 [15.2] P6: "If all three track lays have not been used, this company survives until phase six": with
    its lays used it stays open (and pays) until phase 5 closes it. 18xx.games closes it as the third lay is made
    (differential seed 50036, action 633): option ``site_land_grant_closes_when_used``, on for every site record."""
    rulebook = rulebook_for_title("1850")
    rule, record = _game_at("1850", 71001, 620)  # a railbook game: no site option
    stored = json.loads((DATA / "1850_soak_71001.json").read_text(encoding="utf-8"))["actions"][620]
    third = {k: v for k, v in stored.items() if k != "id"}
    assert third["entity"] == "WLG" and rule.state.companies["WLG"].owner is not None
    site = Game.start(
        rulebook, [p["id"] for p in record["players"]], seed=71001, options=["site_land_grant_closes_when_used"]
    )
    for action in record["actions"]:
        site.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
    for game in (rule, site):
        game.process(dict(third))
    assert not rule.state.companies["WLG"].closed
    assert site.state.companies["WLG"].closed


def test_1850_one_new_train_a_turn_from_the_bank_the_site_counts_the_open_market_too() -> None:
    """1850 [10.3]: "A company may purchase one new train a turn from the bank. It may purchase as many used trains
    from other companies as it can hold": a train from the open market (discarded there, [10.5]) is not a new one.
    18xx.games counts it as the turn's train from the bank and sells no more there (option
    ``site_open_market_trains_count_as_new``, on for every site record). Differential seed 80109 (action 750): UP
    bought the open market's 3-train; the site ended its turn, railbook still offered the bank's 5-train."""
    from railbook.engine.replay import record_options

    rulebook = rulebook_for_title("1850")
    site, record = _game_at("1850", 80109, 750)
    last = record["actions"][-1]
    assert (last["type"], last["entity"], last["train"]) == ("buy_train", "UP", "3-3")
    assert "site_open_market_trains_count_as_new" in record_options(record, rulebook)
    rule = _played_without(record, rulebook, "site_open_market_trains_count_as_new")

    def offered(game: Game) -> set[str]:
        return {c["train"] for d in game.legal_descriptions() if d["type"] == "buy_train" for c in d["choices"]}

    assert "5-1" in offered(rule)
    assert "5-1" not in offered(site)


def test_1850_an_upgrades_new_track_is_on_a_route_that_uses_one_path_at_each_tile_edge() -> None:
    """1850 [6.2]: "at least one new track segment on the new tile must form part of a legal route of the company";
    a route uses only one of two segments meeting at a tile edge ([8.1]). MP (St. Louis) reaches M14's #24 (paths
    1-3, 1-4) from M12; #42 at rotation 4 adds only 3-4, which a route could enter only by leaving M14 along 1-3
    (or 1-4) and coming back to the same edge: no legal route. Differential seed 80208 (action 598): railbook
    allowed it, the site refused ("Must use new track or change city value")."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, record = _game_at("1850", 80208, 597)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("run_routes", "MP")
    assert game.state.hexes["M14"].tile == "24" and "lay_tile" in _types(game, "MP")
    lays = [c for d in game.legal_descriptions() if d["entity"] == "MP" for c in d.get("choices", [])]
    assert not [c for c in lays if c.get("hex") == "M14" and c["tile"].startswith("42-") and c["rotation"] == 4]
    with pytest.raises(IllegalAction, match="must add track"):
        game.process(
            {
                "type": "lay_tile",
                "entity": "MP",
                "entity_type": "corporation",
                "hex": "M14",
                "tile": "42-0",
                "rotation": 4,
            }
        )


def test_1830_a_private_bought_from_a_player_leaves_brown_zone_shares_buyable() -> None:
    """1830 (the title's source, the site's game): a private bought from another player in a stock round is the
    turn's purchase, but a corporation whose price lies in the brown (multiple-buy) zone may still have its shares
    bought in that turn, as after a first share of it (`stock_round.multiple_buy_after_private`). Differential seed
    30009: after p4's purchase of CS the site still offered him shares, railbook ended his turn."""
    game, record = _game_at("1830", 30009, 98)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("buy_company", "p4")
    (buy,) = [d for d in game.legal_descriptions() if d["entity"] == "p4" and d["type"] == "buy_shares"]
    corps = {c["shares"][0].split("_")[0] for c in buy["choices"]}
    from railbook.engine import market

    kinds = [market.kinds_at(game.context, game.state.corporations[c].price) for c in corps]
    assert corps and all("multiple_buy" in k for k in kinds)  # the brown cells only
    assert "buy_company" not in _types(game, "p4") and "par" not in _types(game, "p4")


def test_1830_a_player_at_the_certificate_limit_may_buy_a_share_in_the_orange_zone() -> None:
    """1830 (market zones: yellow, orange and brown certificates do not count toward the limit): a player whose
    certificates reach the limit may still buy a share whose price lies in the orange zone, as the count he is held
    to leaves it out. Bot game seed 130002 (action 443): p1 at 20 of 20 with NYC at $45 (orange); the site offered him
    the NYC share from the market, railbook offered nothing to buy (its purchase check knew the yellow cells only)."""
    from railbook.engine import market, shares

    game, _ = _game_at("1830", 130002, 443)
    assert shares.num_certs(game.context, "P|p1") == game.state.cert_limit == 20
    assert "unlimited_holding" in market.kinds_at(game.context, game.state.corporations["NYC"].price)
    (buy,) = [d for d in game.legal_descriptions() if d["entity"] == "p1" and d["type"] == "buy_shares"]
    corps = {c["shares"][0].split("_")[0] for c in buy["choices"]}
    assert corps == {"NYC"}


def test_1830_the_b_and_o_private_is_not_sold_between_players() -> None:
    """1830 (the title's source, the site's game): the Baltimore & Ohio private (`no_buy`) is never for sale from
    its owner, to a corporation nor to another player. Differential seed 30007 (action 185): the B&O was the only
    other player's private left for p2; the site had nothing to offer him, counted his turn a pass and ended the
    stock round; railbook offered it and kept the round going."""
    game, record = _game_at("1830", 30007, 185)
    assert game.state.companies["BO"].owner == "P|p4"
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("pass", "p1")
    assert game.state.turn == 5  # the stock round of turn 4 ended (its operating round had nobody to run)
    before, _ = _game_at("1830", 30007, 184)
    assert before.state.turn == 4 and before.state.round.kind == "stock"
    assert all(
        c["company"] != "BO" for d in before.legal_descriptions() if d["type"] == "buy_company" for c in d["choices"]
    )


def test_1830_a_train_traded_in_for_a_diesel_goes_back_to_the_bank_for_sale() -> None:
    """1830 and 18Chesapeake (the titles' source, the site's game: the exchanged train is reclaimed by the depot,
    step/train.rb): a 4, 5 or 6 traded in for a D returns to the bank and is for sale again, and the cheapest bank
    train a president must help pay for (`emergency_cheapest_only`) counts it (`trains.traded_in_to: pool`).
    Differential seed 40000 (action 1207): ERIE, short of money, bought a 6 for $630; the site refused, the 5 that
    CPR had traded in being the cheapest train the bank had. (Checked on seed 50012's trade-in.)"""
    from railbook.engine import depot

    game, record = _game_at("1830", 50012, 1122)
    last = record["actions"][-1]
    assert (last["type"], last.get("exchange")) == ("buy_train", "5-2")
    assert "5-2" in depot.depot_trains(game.context)


def test_a_station_needs_a_legal_route_that_crosses_no_hexside_twice() -> None:
    """A station is placed where the company "must be able to trace a valid train route from any of its existing
    station markers to the city" (1856 "STATION MARKERS", 1850 [7.3.1], 1870), and a route uses no track twice: a
    hexside is one piece of track, however many paths of a tile end at it. CPR (home A19) reaches E19's city only
    by running C21-D20 twice, once on each of two paths that share that hexside, around the town on B20 (differential
    seeds 50004 and 50014: railbook placed the station, the site offered none and ran the trains)."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, record = _game_at("1830", 50004, 1015)
    last = record["actions"][-1]
    assert (last["type"], last["entity"], last["hex"]) == ("lay_tile", "CPR", "C21")
    assert "run_routes" in _types(game, "CPR") and "place_token" not in _types(game, "CPR")
    with pytest.raises(IllegalAction, match="cannot place_token"):  # the token step has ended: no city to reach
        game.process(
            {"type": "place_token", "entity": "CPR", "entity_type": "corporation", "city": "14-1-0", "slot": 1}
        )


def test_new_track_must_be_reached_by_a_legal_route_not_only_by_the_networks_walk() -> None:
    """1846 §6 "Connections": "Track is connected if a path of any length can be traced from any station token of
    that corporation to that piece of track without backtracking" (the other rulebooks: a legal train route). B&O's
    network walk reaches the side of F14 facing G13 only along G13's curve that a route could use by crossing
    another hexside twice: a straight on F14 there is no legal lay (differential seed 50041, action 824: the site
    refused it "not legally rotated"; 18Chesapeake seed 50010 alike)."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, _ = _game_at("1830", 50041, 823)
    assert game.acting_entities() == ["C|B&O"]
    (lays,) = [d for d in game.legal_descriptions() if d["entity"] == "B&O" and d["type"] == "lay_tile"]
    assert not [c for c in lays["choices"] if c["hex"] == "F14"]
    with pytest.raises(IllegalAction, match="no legal route"):
        game.process(
            {
                "type": "lay_tile",
                "entity": "B&O",
                "entity_type": "corporation",
                "hex": "F14",
                "tile": "9-0",
                "rotation": 3,
            }
        )


def test_18chesapeake_a_teleport_token_waits_for_nothing_but_itself() -> None:
    """The titles' source, the site's game: the step placing a private's teleport token (its `SpecialToken`) comes
    before the company's purchase of privates, and while the token is pending it blocks what follows. After the
    C&OC's tile on its hex, PLE may not buy another private first (differential seeds 60004 of 18Chesapeake and
    1830: railbook let the company buy one, the site refused)."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, record = _game_at("18Chesapeake", 60004, 83)
    last = record["actions"][-1]
    assert (last["type"], last["entity"]) == ("lay_tile", "C&OC")
    assert _types(game, "C&OC") == {"place_token", "pass"} and not _types(game, "PLE")
    with pytest.raises(IllegalAction, match="waiting for C&OC"):
        game.process(
            {"type": "buy_company", "entity": "PLE", "entity_type": "corporation", "company": "B&OR", "price": 1}
        )


def test_1830_buffalo_is_held_whole_for_the_eries_home() -> None:
    """1830 (the title's source, the site's game: the Erie's home on E11 is reserved for the whole tile, and
    TILE_RESERVATION_BLOCKS_OTHERS is :always): until the Erie places its home station, no other company places one
    in either city of Buffalo (home ``whole_hex``). Differential seed 90004, action 813: NYC, which had just laid
    #59 there, placed a station in the city the Erie's reservation did not name; the site offered none."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, record = _game_at("1830", 90004, 812)
    last = record["actions"][-1]
    assert (last["type"], last["entity"], last["hex"]) == ("lay_tile", "NYC", "E11")
    assert not game.state.corporations["ERIE"].floated
    assert "place_token" not in _types(game, "NYC")
    with pytest.raises(IllegalAction):
        game.process(
            {"type": "place_token", "entity": "NYC", "entity_type": "corporation", "city": "59-1-1", "slot": 0}
        )


def test_1817_a_player_who_acted_for_his_company_starts_no_company_in_that_turn() -> None:
    """1817 §5 "Stock Round": "On each turn, the active player may act either for himself or for one of his
    companies", and §5.6 lists what a company may do then (loans, its own shares). Once A&A has taken a loan in its
    president's turn, he may not also start a new company (differential seed 40000, action 76: railbook still
    offered the IPO bid, the site only the pass)."""
    game, record = _game_at("1817", 40000, 76)
    last = record["actions"][-1]
    assert (last["type"], last["entity"]) == ("take_loan", "A&A")
    assert _types(game, "p1") == {"pass"}


def test_1850_no_sale_after_buy_sell_buy_in_one_turn() -> None:
    """1850 [5.3.4] "Buy/Sell Order": a turn is "sell ... and then buy a single certificate, or first buy a single
    certificate and then sell". A player who bought, sold, and bought again (a multiple-buy cell) may not sell
    once more: the turn is neither (differential seed 40001, action 319: railbook still offered `sell_shares`)."""
    game, record = _game_at("1850", 40001, 319)
    assert [a["type"] for a in record["actions"][-3:]] == ["buy_shares", "sell_shares", "buy_shares"]
    assert {a["entity"] for a in record["actions"][-3:]} == {"p2"}
    assert "sell_shares" not in _types(game, "p2") and "pass" in _types(game, "p2")


def test_18chesapeake_two_players_a_purchase_takes_the_markets_last_share_out_of_the_game() -> None:
    """18Chesapeake with two players (the title's source, the site's game: share_pool.rb): when a player who is not
    the president buys a certificate of a corporation while the market holds one, the market's last certificate
    leaves the game first (`short_handed.market_share_leaves_on_purchase`). Differential seed 40000, action 27: p2
    bought PLE_6 from a market of three; the site's market was left with one, railbook's with two."""
    from railbook.engine import shares

    game, record = _game_at("18Chesapeake", 40000, 27)
    last = record["actions"][-1]
    assert (last["type"], last["entity"], last["shares"]) == ("buy_shares", "p2", ["PLE_6"])
    assert game.state.corporations["PLE"].owner != "P|p2"
    assert shares.percent_of(game.context, "pool", "PLE") == 10
    assert "PLE_6" in shares.shares_of(game.context, "P|p2", "PLE")
    before, _ = _game_at("18Chesapeake", 40000, 26)
    assert shares.percent_of(before.context, "pool", "PLE") == 30


def test_1817_a_tile_laid_this_turn_is_not_upgraded_by_the_second_tile_action() -> None:
    """1817 §6.3: "For an additional fee of $20, a Company may perform a second tile operation ... Also, a Company
    may not lay a yellow tile and upgrade it during the same turn" (`track.lays[].not_on_hex_laid_this_turn`).
    Differential seed 30011 (action 213): Belt laid a yellow #6 on I12 and upgraded it to #15 at once; the site
    refused ("I12 cannot be laid as this hex was already laid on this turn")."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, record = _game_at("1817", 30011, 212)
    last = record["actions"][-1]
    assert (last["type"], last["entity"], last["hex"]) == ("lay_tile", "Belt", "I12")
    lays = [d for d in game.legal_descriptions() if d["entity"] == "Belt" and d["type"] == "lay_tile"]
    assert all(c["hex"] != "I12" for d in lays for c in d["choices"])
    upgrade = {"type": "lay_tile", "entity": "Belt", "entity_type": "corporation", "hex": "I12", "tile": "15-1"}
    with pytest.raises(IllegalAction, match="laid this turn"):
        game.process({**upgrade, "rotation": 1})


def test_1817_a_privates_yellow_tile_as_the_second_tile_action_pays_its_fee() -> None:
    """1817 §1.2.6: the Pittsburgh Steel Mill's special tile "counts as a yellow tile lay", and §6.3: "For an
    additional fee of $20, a Company may perform a second tile operation". WC, with no cash, laid its own tile and
    then had PSM lay X00 in Pittsburgh for nothing (differential seed 30004, action 110; the site: "WC has 0 and
    cannot spend 20")."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, record = _game_at("1817", 30004, 109)
    last = record["actions"][-1]
    assert (last["type"], last["entity"]) == ("lay_tile", "WC")
    assert game.state.companies["PSM"].owner == "C|WC" and game.state.corporations["WC"].cash < 20
    assert "lay_tile" not in _types(game, "PSM")
    lay = {"type": "lay_tile", "entity": "PSM", "entity_type": "company", "hex": "F13", "tile": "X00-0"}
    with pytest.raises(IllegalAction, match="cannot pay"):
        game.process({**lay, "rotation": 2})


def test_1846_an_emergency_sale_keeps_the_rule_on_corporations_that_have_not_operated() -> None:
    """1846 §5.21: "Only the current President may sell a corporation's stock before the corporation has operated"
    -- in an emergency sale for a train as well. Differential seed 40008 (action 40): PRR's president sold a share
    of NYC, not yet operated and not his, to buy PRR's train; the site refused ("Cannot sell shares of NYC")."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, _ = _game_at("1846", 40008, 39)
    nyc = game.state.corporations["NYC"]
    assert not nyc.operated and nyc.owner != "P|p2" and game.acting_entities() == ["C|PRR"]
    sales = [d for d in game.legal_descriptions() if d["type"] == "sell_shares" and d["entity"] == "p2"]
    assert all(not c["shares"][0].startswith("NYC") for d in sales for c in d["choices"])
    with pytest.raises(IllegalAction):
        game.process(
            {"type": "sell_shares", "entity": "p2", "entity_type": "player", "shares": ["NYC_1"], "percent": 10}
        )


def test_1830_a_president_sells_shares_only_for_the_cheapest_train_he_must_help_buy() -> None:
    """1830 (the site's game, EBUY_DEPOT_TRAIN_MUST_BE_CHEAPEST, no selling more than needed): a president who must
    help pay for a train is held to the cheapest bank train (`emergency_cheapest_only`), so he may sell shares only
    while he and the company cannot pay for that one. Differential seed 40007 (action 1027): NYNH ($420) and its
    president ($488) could pay for the cheapest train ($630); railbook let him sell a share (counting the dearest
    train), the site refused ("Cannot sell shares of NYNH")."""
    game, record = _game_at("1830", 40007, 1026)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("pass", "NYNH")
    assert game.acting_entities() == ["C|NYNH"]
    assert "sell_shares" not in _types(game, "p1")
    (buy,) = [d for d in game.legal_descriptions() if d["type"] == "buy_train"]
    assert min(c["price"] for c in buy["choices"] if isinstance(c["price"], int)) <= 420 + 488


def test_1856_the_kitchener_tile_takes_the_place_of_the_companys_tile_lay() -> None:
    """1856 "Waterloo & Saugeen Railway Co.": "The company may also place the Kitchener tile ... Both actions are in
    the place of the public company's normal tile and/or station marker placement" (`params.consumes_tile_lay`).
    Differential seed 40010 (action 193): after the W&S laid #59 for LPS, railbook still offered LPS a tile lay;
    the site had ended its track step."""
    game, record = _game_at("1856", 40010, 193)
    last = record["actions"][-1]
    assert (last["type"], last["entity"], last["hex"]) == ("lay_tile", "WSRC", "I12")
    assert game.state.companies["WSRC"].owner == "C|LPS"
    assert "lay_tile" not in _types(game, "LPS")


def test_1856_the_w_and_s_marker_is_not_placed_after_the_companys_own() -> None:
    """1856 "Waterloo & Saugeen Railway Co.": the free marker in Kitchener is "in the place of the public company's
    normal ... station marker placement": once GT has placed its own marker in the turn, its W&S places none (a
    private's token ability without ``params.extra_action`` is the turn's placement). Differential seed 100015
    (action 330; also 100039): railbook let the W&S place it in GT's route step, the site refused ("Token already
    placed this turn")."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, record = _game_at("1856", 100015, 329)
    last = record["actions"][-1]
    assert (last["type"], last["entity"]) == ("place_token", "GT")
    assert game.state.companies["WSRC"].owner == "C|GT"
    assert not _types(game, "WSRC")
    stored = json.loads((DATA / "1856_soak_100015.json").read_text(encoding="utf-8"))
    wsrc = stored["actions"][329]
    assert (wsrc["type"], wsrc["entity"]) == ("place_token", "WSRC")
    with pytest.raises(IllegalAction):
        game.process({k: v for k, v in wsrc.items() if k != "id"})


def test_1856_the_repayments_follow_a_train_step_the_deferred_interest_leaves_with_nothing_to_buy() -> None:
    """1856 turn order: "Buy one or more trains. Redeem Government loans (Optional)". CPR ran no trains, so with
    the site's option its interest is charged after its next action, its train purchase (seed 100010, action
    186): $232 were left for another $225 train before the interest, $212 after. The train step is then over and
    the repayments come next, as after any train purchase (the site offers `payoff_loan` or `pass`, and no private
    until they are passed); railbook had left the train step open with nothing to buy and offered the private
    purchase of the turn's end first (its repayment after it was refused by the site)."""
    from railbook.engine.digest import acting

    game, record = _game_at("1856", 100010, 186)
    last = record["actions"][-1]
    assert (last["type"], last["entity"]) == ("buy_train", "CPR")
    assert game.context.cash("C|CPR") == 212
    assert acting(game)["CPR"] == ["bankrupt", "pass", "payoff_loan"]
    assert _types(game, "CPR") == {"payoff_loan", "pass"}


def test_1856_excess_loans_are_redeemed_before_the_voluntary_repayments() -> None:
    """1856 "Redeem Government Loans": "If a company has more loan stamps than there are shares in the hands of
    players, it must redeem the excess"; with that, "it may retire as many government loans as it wishes". The
    forced redemption comes first, as soon as the train purchase is over (the site does so; the rulebook orders
    neither): WGB (three loans, 20% with players) repays one at once and, with $24 left, has nothing more to do, so
    its turn ends (differential seed 40008, action 272: railbook offered a voluntary repayment first)."""
    from railbook.engine.mechanics.loans import loans_of

    game, record = _game_at("1856", 40008, 272)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("pass", "WGB")
    assert loans_of(game.context, "WGB") == 2
    assert game.acting_entities() == ["C|LPS"]


def test_1856_with_the_sites_option_the_excess_loans_are_redeemed_after_the_interest_the_same_action_charges() -> None:
    """1856 turn order: "Pay interest on Government Loans" comes before "Redeem Government loans". BBG ran no
    trains, so with the site's option its interest waits for its next action, the pass of its train step, which
    also ends the step: the interest on its three loans ($30 of its $112) is charged first, then the one loan
    over its cap is redeemed ($82 from the treasury, $18 from p5). railbook had redeemed first and charged
    interest on two loans (differential run 10 seed 140031, action 140: $10 too little to the bank)."""
    from railbook.engine.mechanics.loans import loans_of

    game, record = _game_at("1856", 140031, 139)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("pass", "BBG")
    assert (game.context.cash("C|BBG"), loans_of(game.context, "BBG"), game.context.cash("P|p5")) == (112, 3, 36)
    game.process({k: v for k, v in _stored("1856", 140031)[139].items() if k != "id"})
    assert (game.context.cash("C|BBG"), loans_of(game.context, "BBG"), game.context.cash("P|p5")) == (0, 2, 18)


def test_1856_with_the_sites_option_a_train_step_passed_by_leaves_the_redemption_to_the_next_action() -> None:
    """Option `site_redemption_after_action`: where a company's train step is passed by with nothing to buy, the
    site redeems its loans over the cap only after its next action, and its repayment step waits for that
    action (`payoff_loan` or `pass`); a voluntary repayment then counts against the excess. BBG (three loans,
    two shares with players, $125, no run) passes its token step: railbook had redeemed one loan at once and
    ended the turn, so the interest deferred to the next action was never charged (differential run 10 seed
    140047, action 275; also run 11 seeds 150015, 150016, run 12 seed 160013)."""
    from railbook.engine.digest import acting
    from railbook.engine.mechanics.loans import loans_of

    game, record = _game_at("1856", 140047, 275)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("pass", "BBG")
    assert (game.context.cash("C|BBG"), loans_of(game.context, "BBG")) == (125, 3)
    assert acting(game)["BBG"] == ["bankrupt", "pass", "payoff_loan"]
    # the voluntary repayment, then the interest on the two loans left; nothing is over the cap any more
    game.process({k: v for k, v in _stored("1856", 140047)[275].items() if k != "id"})
    assert loans_of(game.context, "BBG") == 2
    assert game.context.cash("C|BBG") == 125 - 100 - 20 + 50  # (and the next round's private income)
    # the pass instead: the interest on three loans, then the excess loan redeemed, $5 from the president
    game, _ = _game_at("1856", 140047, 275)
    before = game.context.cash("P|p4")
    game.process({"type": "pass", "entity": "BBG", "entity_type": "corporation"})
    assert loans_of(game.context, "BBG") == 2
    assert game.context.cash("P|p4") == before - 5


def test_1856_with_the_sites_option_the_repayments_come_before_a_discard_after_a_phase_change() -> None:
    """Option `site_redemption_after_action`: THB's 4-train starts phase 3 and leaves it a train over the limit;
    the site's repayment step, open once the train step is over, comes before the discard ("excess trains ...
    are discarded": the rulebook orders the two not), which waits for its pass (differential run 10 seed
    140060, action 496; also 140018, run 11 seed 150022: railbook had offered both at once)."""
    import pytest
    from railbook.engine.digest import acting
    from railbook.engine.errors import IllegalAction

    game, record = _game_at("1856", 140060, 496)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("buy_train", "THB")
    assert acting(game)["THB"] == ["bankrupt", "pass", "payoff_loan"]
    train = next(t for t in game.context.entity_trains("C|THB") if game.state.trains[t].sym == "3")
    with pytest.raises(IllegalAction):
        game.process({"type": "discard_train", "entity": "THB", "entity_type": "corporation", "train": train})
    game.process({"type": "pass", "entity": "THB", "entity_type": "corporation"})
    assert acting(game)["THB"] == ["bankrupt", "discard_train"]


def test_1856_the_dividend_waits_for_the_interest_the_president_must_raise() -> None:
    """1856 "Pay Interest on Outstanding Government Loans": what the company cannot pay, "the president must pay
    ... If the president cannot raise enough money through stock sales, that player is bankrupt. The game is then
    over ... the share value of the company is not adjusted down for non-payment of dividends as the game ended
    before this phase occurs." WR runs for nothing with $7 and two loans: p3 owes the $20 interest but has $13:
    the dividend step waits for his cash crisis; he goes bankrupt and WR's price stays at $35 (differential run
    10 seed 140037: railbook had withheld first, $30, and p3's result was $10 lower)."""
    from railbook.engine.digest import acting

    game, record = _game_at("1856", 140037, 280)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("run_routes", "WR")
    assert acting(game) == {"p3": ["bankrupt"]}
    assert not any(line.startswith("WR withholds") for line in game.log[-4:])
    before = game.state.corporations["WR"].price
    game.process({"type": "bankrupt", "entity": "p3", "entity_type": "player"})
    assert game.state.finished and game.state.corporations["WR"].price == before
    assert not any(line.startswith("WR withholds") for line in game.log[-4:])


def test_1856_the_cgr_operates_in_its_turn_order_with_few_shares_out() -> None:
    """1856 "Canadian Government Railways": the CGR "is not started like other public companies"; "After this
    initial operating round, the CGR follows its normal turn order". Formed from CA alone (p3 two shares, one in the
    market, 70% unissued) after CA had operated, it operates first in the next operating round at $250, as on the
    site; railbook had held it to "Initial Shares Needed to Operate" (six sold) and skipped it for good (bot game
    seed 130036, action 1210). The digest reports it floated from its formation, as the site does, and the 8-train
    variant's last phase by the site's name "8"."""
    from railbook.engine.digest import acting, digest

    game, record = _game_at("1856", 130036, 1210)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("buy_train", "CV")
    assert game.context.current_operator() == "C|CGR"
    assert set(acting(game)["CGR"]) >= {"lay_tile", "pass"}
    line = digest(game)
    assert line["corporations"]["CGR"]["floated"] is True and line["phase"] == "8"


def _stored(title: str, seed: int) -> list[dict[str, Any]]:
    return json.loads((DATA / f"{title.lower()}_soak_{seed}.json").read_text(encoding="utf-8"))["actions"]


def test_1870_a_player_buys_another_players_private_in_place_of_a_certificate() -> None:
    """1870 "BUYING SHARES": "A player may purchase a private company from another player instead of a share
    certificate". railbook left it out for the site's records; the site offers it today from phase 2 (option
    `site_private_trades_from_phase_2`), and its records before 2026-08-02 rely on its absence (option
    `site_no_private_trades`). Differential seed 40014 (action 381): the site offered p1 `buy_company`."""
    from railbook.engine.replay import record_options

    rulebook = rulebook_for_title("1870")
    game, record = _game_at("1870", 40014, 382)  # (two track-step passes inserted since, MRBC)
    assert game.state.round.kind == "stock" and game.context.phase_name() == "2"
    (buy,) = [d for d in game.legal_descriptions() if d["entity"] == "p1" and d["type"] == "buy_company"]
    assert {c["company"] for c in buy["choices"]} == {"GRSC"}  # the one private another player holds
    options = record_options(record, rulebook)
    assert "site_private_trades_from_phase_2" in options and "site_no_private_trades" not in options
    assert "site_no_private_trades" in record_options({**record, "created_at": 1_700_000_000}, rulebook)


def test_18chesapeake_a_begun_two_tile_lay_is_not_forfeited_to_another_private() -> None:
    """18Chesapeake (the site's game, entities.rb: C-P "may lay two connected tiles", `must_lay_all`): once the
    C-P's first tile is down its second must follow; another private's lay (the B&S) neither comes first nor ends it
    (railbook let the B&S lay and forfeited the C-P's second, as for 1846's lay-together privates; differential
    seed 40014, action 197: the site refused)."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, record = _game_at("18Chesapeake", 40014, 196)
    assert (record["actions"][-1]["entity"], record["actions"][-1]["hex"]) == ("C-P", "H2")
    assert {(d["entity"], d["type"]) for d in game.legal_descriptions()} == {("C-P", "lay_tile")}
    lay = {"type": "lay_tile", "entity": "B&S", "entity_type": "company", "hex": "G5", "tile": "9-0"}
    with pytest.raises(IllegalAction):
        game.process({**lay, "rotation": 2})


def test_1870_the_sites_private_trade_leaves_multiple_buy_shares_open() -> None:
    """1870 on 18xx.games (option `site_private_trades_from_phase_2`): after a player buys another's private in a
    stock round he may still buy shares of a corporation in a multiple-buy zone (the site's `can_buy_multiple?`
    looks at share purchases only; the rulebook's "instead of a share certificate" stays the default).
    Differential seed 40023 (actions 378, 380): the site offered the buyer `buy_shares` after his purchase of GRSC."""
    from railbook.engine import market

    game, record = _game_at("1870", 40023, 378)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("buy_company", "p4")
    (buy,) = [d for d in game.legal_descriptions() if d["entity"] == "p4" and d["type"] == "buy_shares"]
    corps = {c["shares"][0].split("_")[0] for c in buy["choices"]}
    assert corps and all(
        "multiple_buy" in market.kinds_at(game.context, game.state.corporations[c].price) for c in corps
    )


def _without_option(title: str, seed: int, actions: int, option: str) -> tuple[Game, Game]:
    """Game ``seed`` of ``tests/data`` after its first ``actions``, with ``option`` (as stored) and without it."""
    rulebook = rulebook_for_title(title)
    stored = json.loads((DATA / f"{title.lower()}_soak_{seed}.json").read_text(encoding="utf-8"))
    games = []
    for options in (
        stored["settings"]["optional_rules"],
        [o for o in stored["settings"]["optional_rules"] if o != option],
    ):
        record = {**stored, "settings": {**stored["settings"], "optional_rules": options}}
        game = start_from_record(record, rulebook)
        for action in stored["actions"][:actions]:
            game.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
        games.append(game)
    return games[0], games[1]


def test_1850_and_1856_a_player_buys_another_players_private_in_place_of_a_certificate() -> None:
    """1850 [15.1] "A player may buy a private company in the place of their stock certificate purchase during the
    stock round" (from other players, "for any mutually agreed upon price of at least $1"); 1856 "PRIVATE COMPANIES":
    "A player may purchase a private company from another player in the place of their stock certificate purchase".
    The rule is the default now; 18xx.games has no such action (option ``site_no_private_trades``, on for every
    record of the site). The stored games were played with the option."""
    from railbook.engine.replay import record_options

    for title, seed, actions, buyer in (("1850", 20003, 10, "p1"), ("1856", 20001, 255, "p2")):
        site, rule = _without_option(title, seed, actions, "site_no_private_trades")
        assert rule.state.round.kind == "stock"
        (buy,) = [d for d in rule.legal_descriptions() if d["entity"] == buyer and d["type"] == "buy_company"]
        companies = rule.state.companies
        assert buy["choices"] and all(companies[c["company"]].owner not in (None, buyer) for c in buy["choices"])
        assert all(c["price"]["min"] == 1 for c in buy["choices"])
        assert "buy_company" not in _types(site, buyer)
        rulebook = rulebook_for_title(title)
        assert "site_no_private_trades" in record_options({"created_at": 1_795_000_000, "settings": {}}, rulebook)
        assert "site_no_private_trades" not in record_options({"settings": {}}, rulebook)


def test_1850_a_company_redeems_from_any_player_who_agrees_the_site_from_its_president_only() -> None:
    """1850 [5.10.3]: with no share in the open market a company "may redeem a share from a player. It may redeem them
    from any player it wishes" (the player may refuse, [5.10.4]). 18xx.games lists those shares but buys only its
    president's ("Cannot buy share from player"): option ``site_redeem_from_president_only``, on for every record
    of the site. Differential seed 40023 (action 26): RI redeemed RI_3 from p4, not its president."""
    from railbook.engine.replay import record_options

    rulebook = rulebook_for_title("1850")
    site, record = _game_at("1850", 40023, 25)
    options = record_options(record, rulebook)
    assert "site_redeem_from_president_only" in options
    rule = Game.start(
        rulebook, [p["id"] for p in record["players"]], seed=40023, options=[o for o in options if "redeem" not in o]
    )
    for action in record["actions"]:
        rule.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})

    def redeemable(game: Game) -> dict[str, str | None]:
        (buy,) = [d for d in game.legal_descriptions() if d["entity"] == "RI" and d["type"] == "buy_shares"]
        return {c["shares"][0]: game.state.shares[c["shares"][0]].owner for c in buy["choices"]}

    president = site.state.corporations["RI"].owner
    assert not site.state.holdings.get("pool", {}).get("RI")
    everyone = redeemable(rule)
    assert "RI_3" in everyone and everyone["RI_3"] != president
    assert set(redeemable(site).values()) <= {president}


def test_a_site_record_has_no_company_buy_a_private_where_the_sites_engine_fails_on_its_closing() -> None:
    """1850 on 18xx.games: once a company owning P3 or P5 closes in phase 2 ([5.1.1]: its marker enters the black
    area), the site's engine fails at the next question of who owns those privates (`player?` on nil; 32 of 43
    differential games stopped there). The title's ``site.private_closing_fails_in_phases`` keeps the soak player
    writing a site record from buying a private into a company in phase 2 ([11.1] allows it); railbook's own games
    still do. Differential seed 30019: KATY bought P3 and P5 (actions 63, 65) and closed with them (action 169)."""
    import random

    from railbook.soak import choose

    game, _ = _game_at("1850", 30019, 62)
    stored = json.loads((DATA / "1850_soak_30019.json").read_text(encoding="utf-8"))["actions"][62]
    assert game.context.phase_name() == "2" and (stored["type"], stored["entity"]) == ("buy_company", "KATY")
    assert "buy_company" in _types(game, "KATY")
    site = [choose(game, random.Random(i), site=True) for i in range(30)]
    assert site and all(a is not None and a["type"] != "buy_company" for a in site)
    ours = [choose(game, random.Random(i)) for i in range(30)]
    assert any(a is not None and a["type"] == "buy_company" for a in ours)


def test_1830_the_delaware_and_hudsons_token_is_offered_only_with_a_token_to_place() -> None:
    """1830's Delaware & Hudson (the site's game: the owning corporation lays the F16 tile and may place a station
    token there): with no token left the corporation has nothing to decide and goes on to run its trains, as on the
    site; railbook had waited for the private to pass (differential seed 40010, action 624: the site refused the
    pass)."""
    game, record = _game_at("1830", 40010, 624)
    last = record["actions"][-1]
    assert (last["type"], last["entity"], last["hex"]) == ("lay_tile", "DH", "F16")
    assert not game.context.tokens_left(str(game.state.companies["DH"].owner))
    assert game.acting_entities() == ["C|B&M"]
    assert "run_routes" in _types(game, "B&M")


def test_a_site_record_notices_the_connection_check_when_one_company_ends_a_round_and_opens_the_next() -> None:
    """1870 on 18xx.games: the connection runs are checked after each operator's turn, and its records carry the
    check as a `destination_connection` notice by that operator. When the one company left operating ends an
    operating round and opens the next, its turn has ended all the same: the exporter writes the notice (it had
    looked for a change of operator only; differential seed 40001, action 580: the site waited for it)."""
    game, stored, extra = _exported("1870", 40001)
    last = stored["actions"][-1]
    assert (last["type"], last["entity"]) == ("dividend", "MKT")
    assert game.state.round.kind == "operating" and game.acting_entities() == ["C|MKT"]
    assert [(x["type"], x["entity"]) for x in extra][:1] == [("destination_connection", "MKT")]


def test_a_site_record_names_the_next_company_whose_connection_the_check_after_a_turn_found() -> None:
    """1870 ("Eligibility is checked for every company after each company completes its turn"): GMO's turn ends
    (bot seed 180004, action 636) and the check finds TP, the next to operate, connected; TP's connection run comes
    next, GMO still the operator. The notice after GMO's turn names TP (it had named it only for GMO's own run, an
    operating round's last company: the site then refused TP's marker choice, "Run Routes cannot process action
    choose")."""
    game, stored, extra = _exported("1870", 180004)
    last = stored["actions"][-1]
    assert (last["type"], last["entity"]) == ("dividend", "GMO")
    assert game.acting_entities() == ["C|TP"]
    assert extra == [
        {"type": "destination_connection", "entity": "GMO", "entity_type": "corporation", "corporations": ["TP"]}
    ]


def test_a_site_record_writes_no_second_check_after_a_turn_when_the_connection_run_after_it_ends_the_game() -> None:
    """1870: IC's turn ends, its check names GMO, and GMO's connection run (IC still the operator) ends the game, the
    bank broken (bot seed 130023, action 748). The check after IC's turn was written before the run; the exporter
    wrote it again after the game's last action, which the site refuses ("GameIsOver")."""
    game, stored, extra = _exported("1870", 130023)
    assert game.state.finished and game.state.game_end_reason == "bank"
    assert (stored["actions"][-1]["type"], stored["actions"][-1]["entity"]) == ("dividend", "GMO")
    assert extra == []


def test_1856_the_sites_destination_notice_follows_a_lifted_marker_and_a_turn_across_two_rounds() -> None:
    """The exporter's model of the site's automatic `destination_connection` notice (1856: once the track step is
    over): where a first tile on a hex of unconnected cities lifts a marker (LPS's #59 on Kitchener, action 321),
    the notice waits until the marker is put back, as the site's own step for it comes first (it refused the
    notice at the lay); and a company that ends one operating round and opens the next (GT, actions 498-500) gets
    its notice in the new turn too (the site waited for it: differential seeds 50002, 50003)."""
    from railbook.engine.replay import record_options

    from railbook.site_export import SiteAutoActions

    rulebook = rulebook_for_title("1856")
    stored = json.loads((DATA / "1856_soak_50002.json").read_text(encoding="utf-8"))
    game = Game.start(
        rulebook, [p["id"] for p in stored["players"]], seed=50002, options=record_options(stored, rulebook)
    )
    autos = SiteAutoActions(game)
    notices: dict[int, list[str]] = {}
    for n, action in enumerate(stored["actions"], 1):
        game.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
        autos.action(game, action)
        notices[n] = [x["entity"] for x in autos.after(game) if x["type"] == "destination_connection"]
    assert (stored["actions"][320]["type"], stored["actions"][320]["hex"]) == ("lay_tile", "I12")
    assert notices[321] == [] and notices[322] == ["LPS"]
    assert stored["actions"][497]["entity"] == stored["actions"][499]["entity"] == "GT"
    assert notices[499] == [] and notices[500] == ["GT"]


def test_1856_the_sites_destination_notice_comes_after_a_track_step_that_ends_the_run() -> None:
    """Also after a track step that leaves the company nothing to run (GT, seed 50040, action 199: its route and
    dividend are over at once), though the loan step, which comes before the track step, blocks again for the
    repayments: the site waited for the notice there."""
    from railbook.engine import rounds

    game, stored, extra = _exported("1856", 50040)
    assert (stored["actions"][-1]["type"], stored["actions"][-1]["entity"]) == ("pass", "GT")
    step = rounds.active_step(game.context)
    assert step is not None and step.name == "loan"
    assert [(x["type"], x["entity"]) for x in extra] == [("destination_connection", "GT")]


def test_1856_the_sites_destination_notice_comes_before_a_game_ended_by_the_run_after_the_track_step() -> None:
    """Also where the company's run after its track step ends the game (GW, seed 100001, action 318: its withholding
    moves it into the closed section, the last company, and nobody can act any more): the site checks after the
    track step before it runs, and waited for the notice there (it listed `destination_connection` for GW)."""
    game, stored, extra = _exported("1856", 100001)
    assert (stored["actions"][-1]["type"], stored["actions"][-1]["entity"]) == ("lay_tile", "GW")
    assert game.state.finished and game.state.corporations["GW"].closed
    assert [(x["type"], x["entity"]) for x in extra] == [("destination_connection", "GW")]


def test_18chesapeake_the_track_step_stays_open_for_a_private_only_while_it_has_a_lay_to_make() -> None:
    """18Chesapeake (the site's game): the track step stays open after the company's own lay while a private it owns
    may still lay its extra tiles (the C-P: two joined tiles in H2 and I3). Once another company has built in I3 the
    C-P's pair can no longer be laid, and the step ends with the company's lay, as on the site (railbook had waited for
    a pass; differential seed 40001, action 224)."""
    game, record = _game_at("18Chesapeake", 40001, 224)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("lay_tile", "N&W")
    assert game.state.companies["C-P"].owner == "C|N&W" and game.state.hexes["I3"].tile is not None
    assert {d["type"] for d in game.legal_descriptions()} == {"run_routes"}


def test_1817_no_share_is_sold_in_the_stock_round_its_company_formed() -> None:
    """1817 §5.2: "Shares in a company may not be sold during the stock round the company formed due to an IPO"
    (`stock_round.sell_after: after_launch_round`, which the engine had accepted but not played: differential seed
    50001, action 239, p4 sold a PSNR share in the round PSNR formed; the site refused)."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, record = _game_at("1817", 50001, 238)
    stored = json.loads((DATA / "1817_soak_50001.json").read_text(encoding="utf-8"))["actions"][238]
    assert (stored["type"], stored["entity"], stored["shares"]) == ("sell_shares", "p4", ["PSNR_1"])
    assert game.state.round.kind == "stock"
    assert any(a["type"] == "bid" and a.get("corporation") == "PSNR" for a in record["actions"][-40:])
    assert "sell_shares" not in _types(game, "p4")
    with pytest.raises(IllegalAction):
        game.process({k: v for k, v in stored.items() if k != "id"})


def test_1846_a_company_in_receivership_is_never_run_empty_by_the_random_player() -> None:
    """1846 §7.1: a corporation with its President certificate in the Stock Market "will run routes with any
    train(s) it owns (for the most money possible)". The random player ran such a company's trains on no route one
    time in ten, as it may for a company with a president; 18xx.games then fails on its own automatic withhold
    ("No step found for action dividend": differential run 5, 5 of 42 games, e.g. seed 50003 action 169, GT with a
    2-train and a $50 route). A company in receivership now runs its best routes; others still run empty at times."""
    import random

    from railbook.soak import concrete

    game, _ = _game_at("1846", 50003, 168)
    descs = [d for d in game.legal_descriptions() if d["type"] == "run_routes"]
    assert [d["entity"] for d in descs] == ["GT"]
    assert game.context.hooks("in_receivership", "C|GT")
    runs = [concrete(descs[0], random.Random(i), game) for i in range(40)]
    assert all(a is not None and a["routes"] for a in runs)
    # the same description for a company with a president: an empty run now and then
    game.state.corporations["GT"].owner = "P|p3"
    assert not game.context.hooks("in_receivership", "C|GT")
    runs = [concrete(descs[0], random.Random(i), game) for i in range(40)]
    assert any(a is not None and a["routes"] == [] for a in runs)


def test_1846_a_forfeited_paired_lay_ends_private_lays_for_the_round_on_the_site_only() -> None:
    """1846 §6: "At any time while operating, a corporation may buy one or more private companies and/or exercise
    the special properties of already purchased companies". On 18xx.games, once the Michigan Central's (or the Ohio
    & Indiana's) second tile is forfeited because something else was done after its first, no private lays track
    for the rest of that operating round (differential run 5: 3 of 42 games stopped there; seed 50039: MC laid B10
    (action 40), the C&WI token forfeited its second tile (41), PRR bought the Little Miami (42) whose H12 lay the
    site refused). The rulebook's way stays the default; option ``site_special_lays_end_at_forfeit`` (on for every
    site record) plays the site's."""
    import pytest
    from railbook.engine.errors import IllegalAction

    rulebook = rulebook_for_title("1846")
    stored = json.loads((DATA / "1846_soak_50039.json").read_text(encoding="utf-8"))
    lay = stored["actions"][42]
    assert (lay["type"], lay["entity"], lay["hex"]) == ("lay_tile", "LM", "H12")
    for site in (True, False):
        record = {**stored, "actions": stored["actions"][:42]}
        if not site:
            record.pop("created_at")
        game = start_from_record(record, rulebook)
        for action in record["actions"]:
            game.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
        assert ("site_special_lays_end_at_forfeit" in game.options) is site
        move = {k: v for k, v in lay.items() if k != "id"}
        if site:
            assert "lay_tile" not in _types(game, "LM")
            with pytest.raises(IllegalAction):
                game.process(move)
        else:
            assert "lay_tile" in _types(game, "LM")
            game.process(move)
    # a paired private's own lay that forfeits another's binds the site's step to itself: nothing closes (seed 50037:
    # MC's first tile (action 59), then the Little Miami's two (60, 61), accepted by the site)
    game, record = _game_at("1846", 50037, 61)
    assert "site_special_lays_end_at_forfeit" in game.options
    lays = [(a["type"], a["entity"]) for a in record["actions"][-3:]]
    assert lays == [("lay_tile", "MC"), ("lay_tile", "LM"), ("lay_tile", "LM")]


def test_1870_the_sites_sale_after_a_private_trade_goes_by_the_kinds_of_move_in_the_turn() -> None:
    """18xx.games decides whether a player may still sell in a stock turn by the kinds of move he has made (sale,
    share purchase, par, private bought from a player): no sale when exactly two kinds were made and the last was
    a purchase. Its private purchase from a player is a kind apart, so a private and then a share allow no sale
    (differential seed 50007, action 483: railbook offered one) and a private, a sale and a share allow another
    (seed 50023, action 237: railbook refused it, as for buy, sell, buy). That trade and the purchases after it
    are the site's (option ``site_private_trades_from_phase_2``; the rulebook: a private "instead of a share
    certificate"), so its records play this with it (``stock_round.sell_order_by_action_kinds``)."""
    game, record = _game_at("1870", 50007, 483)
    assert [(a["type"], a["entity"]) for a in record["actions"][-2:]] == [("buy_company", "p2"), ("buy_shares", "p2")]
    assert "site_private_trades_from_phase_2" in game.options
    assert "sell_shares" not in _types(game, "p2") and "buy_shares" in _types(game, "p2")
    game, record = _game_at("1870", 50023, 237)
    moves = [(a["type"], a["entity"]) for a in record["actions"][-4:]]
    assert moves == [("buy_company", "p5"), ("sell_shares", "p5"), ("sell_shares", "p5"), ("buy_shares", "p5")]
    assert "sell_shares" in _types(game, "p5")


def test_1870_original_tiles_has_27_tiles_fewer_and_a_site_record_names_the_copies_the_site_kept() -> None:
    """1870 ``original_tiles`` (and ``original_rules``, which includes it): the original, more restrictive tile set,
    27 tiles fewer (18xx.games takes them out by id: #8's copies 8-0 and 8-1, ...). A record written for the site
    names the copies it kept: railbook's first #8 is the site's 8-2 (differential seed 50022, action 39: "8-0" was
    refused, "h_to_args() returned nil :tile")."""
    from railbook.soak import site_record

    rulebook = rulebook_for_title("1870")
    lays = [
        {"type": "lay_tile", "entity": "IC", "entity_type": "corporation", "hex": "K18", "tile": t, "rotation": 5}
        for t in ("8-0", "8-1", "5-0", "9-0")
    ]
    for options, want in ((["original_rules"], ["8-2", "8-3", "5-0", "9-3"]), ([], ["8-0", "8-1", "5-0", "9-0"])):
        game = Game.start(rulebook, ["p1", "p2", "p3"], seed=1, options=options)
        assert game.context.book.tiles["8"]["count"] == (20 if options else 22)
        record = site_record(rulebook, 1, ["p1", "p2", "p3"], options, lays, game)
        assert [a["tile"] for a in record["actions"]] == want
    game = Game.start(rulebook, ["p1", "p2", "p3"], seed=1, options=["original_tiles"])
    removed = sum(int(t["count"]) for t in rulebook["tiles"].values() if t["count"] != "unlimited") - sum(
        int(t["count"]) for t in game.context.book.tiles.values() if t["count"] != "unlimited"
    )
    assert removed == 27


def test_a_site_record_notices_the_connection_check_after_the_games_last_turn() -> None:
    """1870 on 18xx.games: a game that ends with its operating round (the bank broken, `after: full_or`) still has
    the connection check after the last operator's turn, before the end; the exporter wrote nothing once the game
    was over (differential seed 50029, action 1845: the site waited for ATSF's notice). A game ended at once by
    its action (`after: immediate`) has no such check."""
    from types import SimpleNamespace

    from railbook.site_export import SiteAutoActions

    def game(reason: str | None, finished: bool, closed: bool = False, kind: str = "operating") -> Any:
        round_ = SimpleNamespace(kind=kind, data={"current_operator": "C|ATSF"}, round_num=2)
        state = SimpleNamespace(
            finished=finished,
            game_end_reason=reason,
            round=round_,
            turn=44,
            cash={},
            corporations={"ATSF": SimpleNamespace(closed=closed)},
            mechanics={"destinations": SimpleNamespace(reached=[])},
        )
        end = [{"type": "bank", "after": "full_or"}, {"type": "stock_market", "after": "immediate"}]
        mechanics = {"destinations": {"checked": "after_each_operator_turn"}}
        return SimpleNamespace(state=state, rulebook={"end": end, "mechanics": mechanics})

    for reason, want in (("bank", [("destination_connection", "ATSF")]), ("stock_market", [])):
        autos = SiteAutoActions(game(None, False))
        ended = game(reason, True)
        assert [(x["type"], x["entity"]) for x in autos.after(ended)] == want


def test_a_site_record_has_no_connection_check_after_the_turn_of_a_company_that_closed_in_it() -> None:
    """1870 on 18xx.games: a company whose price falls into a closing cell in its own turn closes, and the site goes
    on without the connection check after that turn (differential seed 50026, action 1242: SP's empty run closed it
    as the operating round's last turn; the site was in the stock round and refused the notice the exporter wrote).
    The check after an ordinary last turn of a round stays."""
    from types import SimpleNamespace

    from railbook.site_export import SiteAutoActions

    def game(kind: str, operator: str | None, closed: bool) -> Any:
        round_ = SimpleNamespace(kind=kind, data={"current_operator": operator}, round_num=2)
        state = SimpleNamespace(
            finished=False,
            game_end_reason=None,
            round=round_,
            turn=41,
            cash={},
            corporations={"SP": SimpleNamespace(closed=closed)},
            mechanics={"destinations": SimpleNamespace(reached=[])},
        )
        return SimpleNamespace(
            state=state,
            rulebook={"end": [], "mechanics": {"destinations": {"checked": "after_each_operator_turn"}}},
            acting_entities=lambda: ["P|p3"],
        )

    for closed, want in ((True, []), (False, [("destination_connection", "SP")])):
        autos = SiteAutoActions(game("operating", "C|SP", False))
        assert [(x["type"], x["entity"]) for x in autos.after(game("stock", None, closed))] == want


def test_1817_simultaneous_cash_crises_by_liquidation_order_the_site_in_seat_order() -> None:
    """1817 §7: "Liquidate companies in the red liquidation area, in reverse order they were placed in
    liquidation", and §7.2.4 step 8 has each liquidated company's president settle its debts ("Cash Crisis",
    §7.4) before the next company: the crises come in the order of the liquidations (the default). 18xx.games
    books every debt at once and takes the crises in seat order from the president of the company it settled last
    (option ``site_crises_in_seat_order``, `loans.crisis_order: seat_from_last_company`, on for every record of
    the site). Differential seed 50008 (action 237): DL&W (p6's), PW (p3's) and A&S (p2's) are liquidated with no
    bid; p6 and p2 owe; railbook asked p6 first, the site p2."""
    from railbook.engine.replay import record_options

    rulebook = rulebook_for_title("1817")
    assert "site_crises_in_seat_order" in record_options({"created_at": 1_795_000_000}, rulebook)
    assert "site_crises_in_seat_order" not in record_options({}, rulebook)
    site, rule = _without_option("1817", 50008, 237, "site_crises_in_seat_order")
    for game in (site, rule):
        assert game.state.round.kind == "acquisition"
        assert {"DL&W", "PW", "A&S"}.isdisjoint(c for c, v in game.state.corporations.items() if v.floated)
    assert {d["entity"] for d in rule.legal_descriptions()} == {"p6"}  # DL&W, liquidated first
    assert {d["entity"] for d in site.legal_descriptions()} == {"p2"}  # seat order from A&S's president
    assert _types(site, "p2") == _types(rule, "p6") == {"bankrupt"}  # neither holds a share he may sell


def test_1817_a_company_already_in_liquidation_keeps_its_place_there() -> None:
    """1817 §7: "Liquidate companies in the red liquidation area, in reverse order they were placed in liquidation".
    J went to liquidation when it could not pay its interest (action 198); its president's bankruptcy just after
    (action 199) put PW there too, and J, already there, is not placed again: R (action 204), then PW, then J.
    railbook moved J behind PW and offered J before PW (differential seed 50028, action 213: the site auctioned
    PW)."""
    game, record = _game_at("1817", 50028, 212)
    assert (record["actions"][197]["type"], record["actions"][197]["entity"]) == ("buy_train", "J")
    assert (record["actions"][198]["type"], record["actions"][198]["entity"]) == ("bankrupt", "p4")
    data = game.state.round.data
    assert game.state.round.kind == "acquisition"
    assert data["auction"]["corp"] == "PW"
    assert data["offering"].index("PW") < data["offering"].index("J")


def test_1817_a_new_companys_station_markers_are_due_by_the_end_of_the_stock_round() -> None:
    """1817 §5.5: the markers of a 5- or 10-share company "must be made prior to the end of the stock round ...
    Companies may take loans to pay for the initial station markers ... If the stock round ends without the company
    purchasing the required station markers, the company is placed in liquidation" (`company_sizes.unpaid_markers:
    due_by_end_of_stock_round`). WT started with $30 and could not pay its $50 marker; the loan it took next paid
    for it (the site: cash 30 -> 80); railbook never bought it (differential seed 60001, action 142; later "WT
    has 240 and cannot spend 241"). Had nobody acted for WT, it would have gone to liquidation."""
    from railbook.engine import market

    game, record = _game_at("1817", 60001, 141)
    wt = game.state.corporations["WT"]
    assert game.state.round.kind == "stock" and game.context.cash("C|WT") == 30
    tokens = len(wt.tokens)
    after, record = _game_at("1817", 60001, 142)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("take_loan", "WT")
    assert after.context.cash("C|WT") == 30 + 100 - 50
    assert len(after.state.corporations["WT"].tokens) == tokens + 1
    while game.state.round.kind == "stock":  # everyone passes: the round ends with WT's marker unpaid
        (player,) = {d["entity"] for d in game.legal_descriptions() if d["entity_type"] == "player"}
        game.process({"type": "pass", "entity": player, "entity_type": "player"})
    assert game.state.round.kind == "operating"
    assert "liquidation" in market.kinds_at(game.context, wt.price)
    assert "C|WT" not in game.state.round.entities


def test_1817_a_player_in_a_cash_crisis_sells_no_more_than_he_needs() -> None:
    """1817 §7.4: "A player in cash crisis must sell one share of stock at a time to the open market ... until he
    has enough cash to make the payment" (`loans.crisis_sales: no_more_than_needed`). p6 owes $11 of NYSW's
    interest; one A&A share ($50) pays it, so he may not sell two (differential seed 60000, action 191: railbook
    sold A&A_2 and A&A_3; the site: "Cannot sell shares of A&A")."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, record = _game_at("1817", 60000, 190)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("buy_train", "NYSW")
    (sale,) = [d for d in game.legal_descriptions() if d["entity"] == "p6" and d["type"] == "sell_shares"]
    assert sale["choices"] and all(len(c["shares"]) == 1 for c in sale["choices"])
    assert any(c["shares"][0].startswith("A&A_") for c in sale["choices"])
    two = {"type": "sell_shares", "entity": "p6", "entity_type": "player", "shares": ["A&A_2", "A&A_3"], "percent": 40}
    with pytest.raises(IllegalAction, match="cannot sell"):
        game.process(two)
    game.process({**two, "shares": ["A&A_2"], "percent": 20})
    assert game.context.cash("P|p6") == 50 - 11


def test_1817_the_train_step_ends_when_nothing_can_be_bought_the_site_holds_it_for_a_pass() -> None:
    """1817 §6.7: "Trains may not be purchased from companies in liquidation", and §7.2.4 step 5: when the bank
    liquidates a company for $0, "its private companies and trains are removed from the game". PLE, having bought a
    2 from SR ($7 left), can buy nothing more: PW's trains are in liquidation (its president p3 went bankrupt), so
    its train step is over and the interest it cannot pay falls on p2 (the default). 18xx.games lists `buy_train`
    for any train another company holds (and for the trains it leaves with a company the bank liquidated), so PLE
    must pass the step first (option `site_train_step_held`, on for every site record; differential seed 50029,
    action 127)."""
    from railbook.engine.replay import record_options

    rulebook = rulebook_for_title("1817")
    assert "site_train_step_held" in record_options({"created_at": 1_795_000_000}, rulebook)
    site, rule = _without_option("1817", 50029, 127, "site_train_step_held")
    _, record = _game_at("1817", 50029, 127)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("buy_train", "PLE")
    assert {(d["entity"], d["type"]) for d in rule.legal_descriptions()} == {("p2", "bankrupt")}
    assert {(d["entity"], d["type"]) for d in site.legal_descriptions()} == {("PLE", "pass")}
    site.process({"type": "pass", "entity": "PLE", "entity_type": "corporation"})
    assert {(d["entity"], d["type"]) for d in site.legal_descriptions()} == {("p2", "bankrupt")}


def test_1817_money_paid_to_a_player_in_debt_pays_his_debt() -> None:
    """1817 §7.4: a cash crisis is a payment the player's "cash on hand" cannot cover. p1 owed $37 for his H short
    (§7.2.4 step 9) when PW's liquidation paid him $110 (its surplus, step 9): he pays the $37 from it and is in no
    crisis; of the others who owe, the site takes p2 first (seat order from PW's president, p1). railbook had left
    p1 owing with $110 in hand and offered him the bankruptcy (differential seed 50020, action 438)."""
    game, record = _game_at("1817", 50020, 438)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("pass", "A&A")
    assert game.state.round.kind == "acquisition"
    assert game.context.cash("P|p1") == 110 - 37
    assert {d["entity"] for d in game.legal_descriptions()} == {"p2"}
    assert "P|p1" not in game.state.mechanics["loans"].owed


def test_1817_a_company_in_the_gray_or_red_area_takes_no_loan_in_the_stock_round_but_on_the_site() -> None:
    """1817 §5.6: a player may act for a company "for which he is president and whose share price is not in the red
    liquidation or gray acquisition areas": Belt, in the acquisition area, takes no loan in the stock round, so p2,
    with nothing else to do, ends it (the default). 18xx.games forbids only the company's purchase of its own shares
    there and lets it take loans (option `site_loans_in_gray_zones`, on for every site record; differential seed
    50001, action 178: Belt's loan in the stock round)."""
    from railbook.engine.replay import record_options

    rulebook = rulebook_for_title("1817")
    assert "site_loans_in_gray_zones" in record_options({"created_at": 1_795_000_000}, rulebook)
    stored = json.loads((DATA / "1817_soak_50001b.json").read_text(encoding="utf-8"))
    named = stored["settings"]["optional_rules"]
    games = []
    for options in (named, [o for o in named if o != "site_loans_in_gray_zones"]):
        game = start_from_record({**stored, "settings": {**stored["settings"], "optional_rules": options}}, rulebook)
        for action in stored["actions"][:177]:
            game.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
        games.append(game)
    site, rule = games
    assert "acquisition" in _market_kinds(rule, "Belt")
    assert rule.state.round.kind == "operating"
    assert site.state.round.kind == "stock"
    assert {(d["entity"], d["type"]) for d in site.legal_descriptions()} == {("Belt", "take_loan"), ("p2", "pass")}


def _market_kinds(game: Game, corp: str) -> list[str]:
    from railbook.engine import market

    return list(market.kinds_at(game.context, game.state.corporations[corp].price))


def test_1817_a_company_over_its_train_limit_discards_before_the_acquisitions() -> None:
    """1817 §7: "If a company is above its train limit at any time, it must put excess trains of its choice in the
    open market". The operating round's export started phase 4 and left PLE over its limit; the merger round, where
    no company converts, waits for the discard before the acquisition round offers PLE for sale (railbook had
    passed the merger round by and offered PLE first; differential seed 50003, action 238)."""
    game, record = _game_at("1817", 50003, 238)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("take_loan", "PLE")
    assert game.state.round.kind == "merger"
    assert {(d["entity"], d["type"]) for d in game.legal_descriptions()} == {("PLE", "discard_train")}


def test_1817_a_ranch_is_never_laid_next_to_a_b_city() -> None:
    """1817 `volatility`, the ranch privates (P22, P23): a ranch comes "when placing a yellow track tile towards an
    adjacent revenue center ... provided the tile is neither adjacent to a B-City or Chicago or Atlanta" (the
    private's text on 18xx.games, which checks the neighbouring tiles as they are at the lay). P24 made Indianapolis
    (F3) a B city with its X00 at move 118; P23's ranch on G4 next to it (move 277) is refused, as the site refuses
    it (differential run 7 seed 90009: railbook had accepted it), while ranch hexes away from B cities are offered."""
    import pytest
    from railbook.engine import board
    from railbook.engine.errors import IllegalAction

    game, _ = _game_at("1817", 90009, 276)
    stored = json.loads((DATA / "1817_soak_90009.json").read_text(encoding="utf-8"))["actions"][276]
    assert (stored["entity"], stored["hex"]) == ("P23", "G4")
    assert board.label(game.context, "F3") == "B"
    offered = [d for d in game.legal_descriptions() if d["entity"] == "P23" and d["type"] == "lay_tile"]
    hexes = {c["hex"] for d in offered for c in d.get("choices") or []}
    assert hexes and not hexes & {"G4", "E4", "F5", "G2"}  # G4's and F3's ranch neighbours
    with pytest.raises(IllegalAction, match="next to F3"):
        game.process({k: v for k, v in stored.items() if k not in ("id", "auto_actions")})


def test_1817_a_company_offered_for_sale_is_named_a_corporation() -> None:
    """1817 §7.2.3: "Friendly sales are offered by the President of the company". The offer names the corporation
    as a corporation, so that a record written for 18xx.games does not take it for a private of the same name
    (run 5 seed 50027: corporation ME offered, the record's action named the Mountain Engineers private "ME" and the
    site refused "Can only offer up ME")."""
    import random

    from railbook.engine import randomplay

    game, _ = _game_at("1817", 90009, 162)
    offers = [d for d in game.legal_descriptions() if d["type"] == "assign" and d["entity"] == "p6"]
    assert offers and offers[0]["target"] == "GT" and offers[0]["target_type"] == "corporation"
    action = randomplay.concrete(offers[0], random.Random(1))
    assert action is not None and action["target_type"] == "corporation"
    game.process(action)


def test_1817_an_obsolete_train_holds_no_train_step_open() -> None:
    """1817 on 18xx.games (option `site_train_step_held`): a company's train step stays open while another company
    holds a train it may not buy, until that train's type rusts. A type gone obsolete (2+ once a 4 has left the
    bank) is for sale to nobody and holds nothing: DL&W, its 3 bought and the 4 out of its reach, ends its train
    step and pays its interest at once, taking the loan it needs (railbook had held the step for a pass;
    differential run 8 seed 100020, action 298: the site charged $30 and moved on to the loans)."""
    from railbook.engine import rounds
    from railbook.engine.mechanics import loans, trains
    from railbook.params.loans import LOAN_STEP

    game, record = _game_at("1817", 100020, 298)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("buy_train", "DL&W")
    ctx = game.context
    assert "2+" in trains.STATE.of(ctx).gone and any(t.obsolete for t in ctx.state.trains.values() if t.sym == "2+")
    assert not trains.unbuyable_held(ctx, "C|DL&W")
    assert _types(game, "DL&W") == {"take_loan", "pass"}
    assert rounds.active_step(ctx).name == LOAN_STEP  # the loans after the interest, not the train step
    assert (ctx.cash("C|DL&W"), loans.loans_of(ctx, "DL&W")) == (75, 3)  # $245 paid, a loan taken, $30 interest


def test_1817_a_site_records_loan_ids_stay_below_the_banks_seventy() -> None:
    """The site numbers 1817's loans 0-69 (the Bank of New York's 70, §1.2.5) and refuses a loan id past them
    ("h_to_args() returned nil :loan", differential run 8 seed 100031, action 515: id 70, once more than 70 loans
    had been taken in the game). The exporter takes the ids the bank holds, a repaid loan going back to the end.
    1856's rulebook has no bank total, but the site numbers 110 loans (`site.loan_ids`; run 14 seed 190073, action
    1014: id 110 refused the same way after 110 loans taken and repaid)."""
    from railbook.site_export import SiteAutoActions

    game = Game.start(rulebook_for_title("1817"), ["p1", "p2", "p3"], seed=1)
    autos = SiteAutoActions(game)
    assert autos.loans_free == list(range(70))
    game56 = Game.start(rulebook_for_title("1856"), ["p1", "p2", "p3"], seed=1)
    assert SiteAutoActions(game56).loans_free == list(range(110))
    game46 = Game.start(rulebook_for_title("1846"), ["p1", "p2", "p3"], seed=1)
    assert len(SiteAutoActions(game46).loans_free) > 110  # no loans numbered by the site: plenty


def test_1817_interest_before_a_pending_discard_on_the_site_the_discard_first_by_the_rules() -> None:
    """1817: GT's 4 starts phase 4 and leaves it over its train limit. The rulebook has the excess discarded
    "immediately" (§6.7), then "After buying trains, interest is paid" (§6.8), then the loans repaid (§6.9): GT
    discards, and no repayment is offered before the interest (railbook had offered it; the default). 18xx.games
    charges the interest as soon as the train step is over and offers the repayments before the discard (option
    `site_interest_before_discard`, on for every site record; differential run 8 seed 100022, action 263)."""
    game, record = _game_at("1817", 100022, 263)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("buy_train", "GT")
    assert _types(game, "GT") == {"pass", "payoff_loan"}
    assert game.context.cash("C|GT") == 278  # $400 for the 4, $75 interest on 5 loans
    rule = _played_without(record, rulebook_for_title("1817"), "site_interest_before_discard")
    assert _types(rule, "GT") == {"discard_train"}
    assert rule.context.cash("C|GT") == 353  # no interest yet


def test_1830_the_erie_chooses_its_home_city_in_buffalo_once_the_tile_has_track() -> None:
    """1830 on 18xx.games: the Erie's home reservation holds the whole Dunkirk & Buffalo hex (`home.whole_hex`);
    when it first operates with a tile laid there (#59, two cities with track), it chooses the city of its home
    token before anything else of its turn (the site's "Place Home Token" step; differential run 8 seed 100002,
    action 928: railbook had put it in the first city and offered the track step)."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, _ = _game_at("1830", 100002, 927)
    assert game.state.hexes["E11"].tile == "59"
    assert {(d["entity"], d["type"]) for d in game.legal_descriptions()} == {("ERIE", "place_token")}
    offer = next(d for d in game.legal_descriptions() if d["type"] == "place_token")
    cities = [c["city"] for c in offer["choices"]]
    assert len(cities) == 2 and not game.state.corporations["ERIE"].tokens[0].used
    with pytest.raises(IllegalAction):
        game.process({"type": "lay_tile", "entity": "ERIE", "hex": "E11", "tile": "68-0", "rotation": 5})
    game.process({"type": "place_token", "entity": "ERIE", "city": cities[1]})
    token = game.state.corporations["ERIE"].tokens[0]
    assert (token.used, token.hex, token.city) == (True, "E11", 1)
    assert "lay_tile" in _types(game, "ERIE")


def test_1817_a_merger_numbers_the_merged_companys_short_before_the_share_sold_with_it() -> None:
    """1817 §7.1 (a 5-share company merges with another): the merged company's certificates become the survivor's,
    new ones numbered after its printed ten. 18xx.games files a short sale's short before the share sold with it and
    turns the merged company's certificates over in that order: Bess's short (Bess_11) becomes ME_10 and the share
    (Bess_10) ME_11 (differential run 8 seed 100019: railbook had numbered them the other way round, and a record's
    later purchase of "ME_10" named a short on the site)."""
    game, record = _game_at("1817", 100019, 225)
    assert (record["actions"][-1]["type"], record["actions"][-1]["corporation"]) == ("merge", "Bess")
    shares_now = game.state.shares
    assert (shares_now["ME_10"].percent, shares_now["ME_10"].owner) == (-10, "P|p1")
    assert (shares_now["ME_11"].percent, shares_now["ME_11"].owner) == (10, "pool")


def test_1817_a_company_moved_into_liquidation_during_its_own_auction_is_no_longer_auctioned() -> None:
    """1817 (`entered_acquisition_this_round_offered` off: a company pushed into another zone during the merger
    round is not auctioned in it): PW, offered for acquisition, loses its president to his bankruptcy and goes to
    liquidation while its auction waits for bids; once the other player's cash crisis is over, it is skipped like
    any company that moved this round, and the operating round begins (differential run 8 seed 100018: railbook
    had gone on with PW's auction; the site skipped it)."""
    game, record = _game_at("1817", 100018, 222)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("sell_shares", "p3")
    assert game.state.round.kind == "acquisition"  # p3's crisis first
    last = json.loads((DATA / "1817_soak_100018.json").read_text(encoding="utf-8"))["actions"][222]
    assert (last["type"], last["entity"]) == ("bankrupt", "p3")
    game.process({k: v for k, v in last.items() if k not in ("id", "auto_actions")})
    assert "liquidation" in _market_kinds(game, "PW")
    assert game.state.round.kind == "operating"


def test_1817_the_station_subsidy_pays_at_the_conversion_on_the_site_it_pays_for_the_markers() -> None:
    """1817 `volatility`, P21 Station Subsidy: the card reads "receives $50 every time it converts (not merges)"
    (the default: ME, converting to 5 shares, receives $50, then pays $50 for the station marker the conversion
    calls for). 18xx.games takes the $50 off the marker instead, and gives nothing where none is bought (option
    `site_station_subsidy_off_markers`, on for every site record; run 5 seed 50031 and a game played for it, seed
    130013, identical modulo standing to its end with the option)."""
    from railbook.engine.replay import record_options

    rulebook = rulebook_for_title("1817")
    stored = json.loads((DATA / "1817_soak_130013.json").read_text(encoding="utf-8"))
    assert "site_station_subsidy_off_markers" in record_options(stored, rulebook)
    assert (stored["actions"][114]["type"], stored["actions"][114]["entity"]) == ("convert", "ME")
    upto = {**stored, "actions": stored["actions"][:115]}
    cash = {}
    for name, left_out in (("site", ""), ("rule", "site_station_subsidy_off_markers")):
        game = _played_without(upto, rulebook, left_out)
        at_conversion = game.context.cash("C|ME")
        game.process({k: v for k, v in stored["actions"][115].items() if k not in ("id", "auto_actions")})
        cash[name] = (at_conversion, game.context.cash("C|ME"), len(game.state.corporations["ME"].tokens))
    assert cash["rule"] == (118, 68, 2)  # $50 at the conversion, $50 for the marker
    assert cash["site"] == (68, 68, 2)  # the marker for nothing


def test_1856_thb_chooses_its_hamilton_city_once_a_tile_with_track_lies_there() -> None:
    """1856 (the rulebook: the home marker goes on "the appropriate large city dot in its starting city", and
    Hamilton has two): where a tile with track lies on Hamilton when THB first operates, THB chooses the city of its
    home marker before its track (`home.choose_city`, step `home_token`), as on the site ("Place Home Token"). Bot
    game seed 130004 (action 610): WGB's #59 lay on L15; railbook had put THB's marker into the first city."""
    game, _ = _game_at("1856", 130004, 610)
    thb = game.state.corporations["THB"]
    assert not thb.tokens[0].used
    (place,) = [d for d in game.legal_descriptions() if d["entity"] == "THB" and d["type"] == "place_token"]
    assert len(place["choices"]) == 2
    assert "lay_tile" not in _types(game, "THB")
    game.process(
        {"type": "place_token", "entity": "THB", "entity_type": "corporation", "city": place["choices"][1]["city"]}
    )
    assert thb.tokens[0].used and thb.tokens[0].hex == "L15" and thb.tokens[0].city == 1
    assert "lay_tile" in _types(game, "THB")


def test_1856_the_cgr_operates_at_once_after_the_six_buyer_when_no_forming_company_has_operated() -> None:
    """1856 "Triggering Formation": "If none of them have operated, the CGR will operate immediately during the
    current operating round" -- it sells no shares first, so the rule that an unoperated company needs shares sold
    to operate is not its rule. Bot game seed 130049: LPS bought the first 6 (action 1500) fourth in the round,
    THB (still to operate) merged into the CGR (1505); railbook inserted the CGR after LPS but skipped it as "not
    sold enough shares", and TGB laid next (the site: the CGR operates). The site reports it floated from forming."""
    from railbook.engine.digest import digest

    game, _ = _game_at("1856", 130049, 1505)
    assert digest(game)["corporations"]["CGR"]["floated"]
    game.process({"type": "pass", "entity": "LPS", "entity_type": "corporation"})
    assert game.context.current_operator() == "C|CGR"
    assert "lay_tile" in _types(game, "CGR") and "lay_tile" not in _types(game, "TGB")


def test_1846_a_receiverships_price_falling_to_0_in_a_turn_a_closing_started_closes_it_in_that_action() -> None:
    """1846 5.25: "If a corporation's stock price falls to $0, for any reason, it is immediately removed from the
    game". Seed 170003, action 206: ERIE ran for nothing, withheld and fell to $0, and closed; its closing started
    NYC's turn, which NYC (in receivership, no train) played without a move: it withheld, fell from $10 to $0 and
    bought a 4/6 train. railbook closed ERIE only and NYC at the next action; the site closes both (a closing
    checks the close cells again). NYC's train stays bought (phase III) and its last $25 go to the bank."""
    game, _ = _game_at("1846", 170003, 205)
    assert not game.state.corporations["NYC"].closed and game.state.corporations["NYC"].owner == "pool"
    stored = json.loads((DATA / "1846_soak_170003.json").read_text(encoding="utf-8"))["actions"][205]
    game.process({k: v for k, v in stored.items() if k not in ("id", "auto_actions")})
    assert game.state.corporations["ERIE"].closed and game.state.corporations["NYC"].closed
    assert game.context.phase_name() == "III"


def test_1856_a_companys_own_marker_on_kitchener_closes_the_ws_by_the_rulebook_and_not_on_the_site() -> None:
    """1856 "Waterloo & Saugeen Railway Co.": the owner "may place a free station marker on either city on the
    Kitchener hex ... The Waterloo & Saugeen Railway Co. is removed from play at the end of the operating round that
    the owning company performs either action". CV placed its own marker on Kitchener (I12), free by the private
    (bot seed 180006, action 497): by the rulebook the W&S closes at the end of that operating round; on the site it
    closes only where the private itself acted, and stays open (option ``site_private_closes_when_it_acts``, on for
    the site's records)."""
    from railbook.engine.replay import record_options

    rulebook = rulebook_for_title("1856")
    site, record = _game_at("1856", 180006, 516)
    assert "site_private_closes_when_it_acts" in record_options(record, rulebook)
    assert site.state.round.kind == "stock"
    assert not site.state.companies["WSRC"].closed and site.state.companies["WSRC"].owner == "C|CV"
    rule = _played_without(record, rulebook, "site_private_closes_when_it_acts")
    assert rule.state.companies["WSRC"].closed
    assert "I12" in [t.hex for t in rule.state.corporations["CV"].tokens if t.used]


def test_1817_the_inventor_pays_for_the_first_train_of_a_type_bought_from_a_company_too() -> None:
    """1817 volatility expansion, P14 Inventor: "The bank pays the owning corp when the first type of each train is
    purchased or exported" (the site's card; the expansion is not in the 2012 rulebook): a purchase from another
    company counts, as on 18xx.games. Seed 160036, action 198: PSNR, owning the Inventor, bought UR's 2-train for
    $123, the first 2 bought since a company owned the Inventor (the first 2s were bought while a player held it):
    the bank pays PSNR $20 (railbook had paid only for a train leaving the depot)."""
    game, _ = _game_at("1817", 160036, 197)
    assert game.state.companies["P14"].owner == "C|PSNR"
    psnr, ur = game.state.cash["C|PSNR"], game.state.cash["C|UR"]
    action = json.loads((DATA / "1817_soak_160036.json").read_text(encoding="utf-8"))["actions"][197]
    assert (action["type"], action["entity"], action["train"], action["price"]) == ("buy_train", "PSNR", "2-1", 123)
    assert game.state.trains["2-1"].owner == "C|UR"
    game.process({k: v for k, v in action.items() if k != "id"})
    assert game.state.cash["C|UR"] == ur + 123
    assert game.state.cash["C|PSNR"] == psnr - 123 + 20


def test_a_player_above_a_share_limit_is_held_to_sales_only_while_that_companys_shares_can_be_sold() -> None:
    """1856 "Stock Market": a player above the 60% share limit "must sell sufficient shares/certificates at the first
    opportunity" to conform. Bot seed 180005, action 1388: p2, no longer above the certificate limit, holds 90% of
    WGB (yellow section: the share limit holds there) and can sell no more WGB in this turn (he has just sold one:
    a company's shares are sold in one block a turn); railbook made him sell something else first (CV), which does
    not bring him back to the limit; the site lets him buy or pass. Only a sale that ends the excess is forced."""
    from railbook.engine import shares

    game, _ = _game_at("1856", 180005, 1388)
    assert shares.percent_of(game.context, "P|p2", "WGB") == 90
    assert not shares.holding_ok(game.context, "P|p2", "WGB")
    assert _types(game, "p2") == {"buy_shares", "pass", "sell_shares"}


def test_1817_the_loan_shark_charges_its_10_at_every_interest_step_with_loans_or_without() -> None:
    """1817 volatility expansion, P12 Loan Shark: the owning company "must pay $10 more at every Pay Loan Interest
    step" (the site's card; the expansion is not in the 2012 rulebook). WC, owning it with no loan, passed its train
    step (seed 160093, action 71): the site charged the $10 there, railbook only while a company had loans."""
    game, _ = _game_at("1817", 160093, 70)
    assert game.state.companies["P12"].owner == "C|WC"
    cash = game.state.cash["C|WC"]
    action = json.loads((DATA / "1817_soak_160093.json").read_text(encoding="utf-8"))["actions"][70]
    assert (action["type"], action["entity"]) == ("pass", "WC")
    game.process({k: v for k, v in action.items() if k != "id"})
    assert game.state.cash["C|WC"] == cash - 10


def test_a_privates_lay_does_not_go_into_a_hex_another_private_blocks() -> None:
    """1850 (every title with `blocks_hexes`): a hex a private blocks while a player owns it takes no tile, not even
    another private's lay (a private lays only in the hexes it blocks itself). Bot game seed 130006 (action 217): the
    Gant Brothers (GBC, owned by RI) laid on I12, which the player-owned Mississippi & Missouri blocks; the site
    refused ("I12 is blocked by Mississippi and Missouri Railroad")."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, _ = _game_at("1850", 130006, 216)
    assert game.state.companies["MMR"].owner == "P|p1"
    (lays,) = [d for d in game.legal_descriptions() if d["entity"] == "GBC" and d["type"] == "lay_tile"]
    assert lays["choices"] and all(c["hex"] != "I12" for c in lays["choices"])
    stored = json.loads((DATA / "1850_soak_130006.json").read_text(encoding="utf-8"))["actions"][216]
    assert (stored["entity"], stored["hex"]) == ("GBC", "I12")
    with pytest.raises(IllegalAction, match="blocked"):
        game.process({k: v for k, v in stored.items() if k not in ("id", "auto_actions")})


def test_1846_a_share_issued_before_a_withhold_names_its_price_in_the_site_record() -> None:
    """1846 §6.1: a corporation issuing a share receives "one value less than its current stock price". The
    site's engine credits a record's issue at the price the market shows unless the action names another, so the
    exporter names it where it differs from the market's price *as the action found it*: C&O at $40 with no train
    issued a share in its track step (seed 100048, action 94) for $30, and withholding at once moved it to $30,
    so the exporter, comparing with the price after the action, named none and the site credited $40
    (differential run 8: C&O's cash $10 apart from there on)."""
    from railbook.engine.replay import record_options

    from railbook.site_export import SiteAutoActions

    rulebook = rulebook_for_title("1846")
    stored = json.loads((DATA / "1846_soak_100048.json").read_text(encoding="utf-8"))
    game = Game.start(
        rulebook, [p["id"] for p in stored["players"]], seed=100048, options=record_options(stored, rulebook)
    )
    autos = SiteAutoActions(game)
    written: dict[str, Any] = {}
    for action in stored["actions"]:
        cash = game.state.cash["C|C&O"]
        game.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
        written = autos.action(game, action)
        autos.after(game)
    assert (written["type"], written["entity"], written["shares"]) == ("sell_shares", "C&O", ["C&O_1"])
    assert game.state.cash["C|C&O"] - cash == 30
    assert written["share_price"] == 30


def test_1846_a_company_that_can_pay_for_a_bank_train_gets_no_money_from_its_president() -> None:
    """1846 §6.5: "If it is unable to buy a train from another corporation or the bank with its own funds, it must
    buy a currently available train ... using all of its treasury with the remainder coming ... from its
    President's cash". C&O, trainless after the 4s rusted, had $575 with a 5 ($500) and a 4/6 ($450) in the bank;
    railbook let its president help buy a 6 for $800 (seed 120005, action 522; the site: "C&O has 575 and cannot
    spend 800"). Now only what the treasury pays for is offered (`trains.president_cash_only_below_cheapest`)."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, _ = _game_at("1846", 120005, 521)
    assert game.state.cash["C|C&O"] == 575 and not game.state.corporations["C&O"].trains
    buys = [d for d in game.legal_descriptions() if d["type"] == "buy_train" and d["entity"] == "C&O"]
    prices = [c["price"] for d in buys for c in d["choices"]]
    assert prices and all(p <= 575 for p in prices if isinstance(p, int))
    assert 500 in prices and 450 in prices
    with pytest.raises(IllegalAction):
        game.process(
            {
                "type": "buy_train",
                "entity": "C&O",
                "entity_type": "corporation",
                "train": "6-2",
                "variant": "6",
                "price": 800,
            }
        )
    assert "sell_shares" not in _types(game, "p1")  # (no emergency sale by the president either)
    game.process(
        {
            "type": "buy_train",
            "entity": "C&O",
            "entity_type": "corporation",
            "train": "5-2",
            "variant": "5",
            "price": 500,
        }
    )
    assert game.state.cash["C|C&O"] == 75


def test_1850_a_privates_lay_is_barred_from_a_hex_a_players_private_blocks() -> None:
    """1850 [15.1]: "Private companies in the hands of players prevent a public company from laying tiles in the hex
    the private company occupies"; a company's lay through its Western Land Grant is such a lay. KATY laid P6's
    extra yellow tile in St. Louis (L13) while p2 owned the Mississippi River Bridge Company (P3), which blocks it
    (fresh differential seed 120049, action 339; the site: "L13 is blocked by Mississippi River Bridge Company").
    P3's own lay in L13 stays its owner company's (not blocked by itself)."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, record = _game_at("1850", 120049, 338)
    assert (record["actions"][-1]["entity"], game.state.companies["MRB"].owner) == ("GBC", "P|p2")
    assert game.state.companies["WLG"].owner == "C|KATY"
    lays = [c for d in game.legal_descriptions() if d["entity"] == "WLG" for c in d.get("choices", [])]
    assert not [c for c in lays if c["hex"] == "L13"]
    with pytest.raises(IllegalAction, match="blocked by MRB"):
        game.process(
            {"type": "lay_tile", "entity": "WLG", "entity_type": "company", "hex": "L13", "tile": "57-1", "rotation": 2}
        )


def test_1850_the_land_grants_second_yellow_lay_may_pay_for_the_mesabi_rights() -> None:
    """1850 [6.5.1]: "Paying for the Mesabi Range counts as a yellow tile lay"; [15.2] P6: "the owning company is
    allowed to lay a second tile which must be yellow ... one extra yellow tile lay anywhere on the map board and two
    extra yellow tile lays in the land west of the Mississippi river". So the Western Land Grant's lay may be that
    payment, once the company has laid its own tile ([15.1]), the lay it takes being the one allowed anywhere (the
    Mesabi Range is not west of the river: glossary). The site offers it as `choose_ability` (differential seeds
    140032, 150001, 150017, 150021: listed by the site alone before). Seed 150021, action 470: NP has laid B11."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, record = _game_at("1850", 150021, 470)
    assert (record["actions"][-1]["entity"], game.state.companies["WLG"].owner) == ("NP", "C|NP")
    assert {"choose_ability", "lay_tile"} <= _types(game, "NP") and "choose" not in _types(game, "NP")
    cash, count = game.state.cash["C|NP"], game.state.companies["WLG"].abilities[0].count
    game.process({"type": "choose_ability", "entity": "NP", "entity_type": "corporation", "choice": "Buy Mesabi Token"})
    assert game.state.cash["C|NP"] == cash - 80
    assert game.state.companies["WLG"].abilities[0].count == count - 1
    assert "WLG" not in {d["entity"] for d in game.legal_descriptions()}  # its one lay of the turn is used
    with pytest.raises(IllegalAction):  # (NP holds the rights now)
        game.process(
            {"type": "choose_ability", "entity": "NP", "entity_type": "corporation", "choice": "Buy Mesabi Token"}
        )


def test_1850_the_land_grants_lay_left_for_the_west_cannot_pay_for_the_mesabi_rights() -> None:
    """1850 [15.2] P6: one of the Western Land Grant's three lays may go anywhere, two only west of the Mississippi;
    the Mesabi Range is not west of it (glossary: the hex west of it counts as the river). GN's Land Grant has used
    its lay allowed anywhere (C10), so its last lay cannot pay for the Mesabi rights; 18xx.games still offers it
    (differential seed 140051, action 593: `choose_ability` listed by the site alone, "Standing")."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, record = _game_at("1850", 140051, 593)
    assert (record["actions"][-1]["entity"], game.state.companies["WLG"].owner) == ("GN", "C|GN")
    assert "choose_ability" not in _types(game, "GN") and "lay_tile" in _types(game, "WLG")
    with pytest.raises(IllegalAction):
        game.process(
            {"type": "choose_ability", "entity": "GN", "entity_type": "corporation", "choice": "Buy Mesabi Token"}
        )


def test_1850_a_protectable_sales_marker_arrives_in_its_new_box_as_of_the_sale() -> None:
    """1850 [5.8.2]: "As shares are sold, adjust their token position ... down one level for each full share sold
    unless protected"; [5.9]: if protected, "the share price is restored to its original position as if the sale
    never took place"; glossary "Share Price Order": "When several tokens are in the same share price box, the order
    is from top to bottom". p1 sold KATY (president p3, who may protect) and then CB&Q (his own: nothing to
    protect); both dropped into the $40 box. KATY's marker, moved once p3 had declined, takes its place there as of
    its sale, above CB&Q's, so KATY operates first (as on 18xx.games, run 11 seed 150008: railbook had put it below
    and run CB&Q first)."""
    game, record = _game_at("1850", 150008, 611)
    assert [a["shares"] for a in record["actions"][458:460]] == [["KATY_3"], ["CBQ_2"]]
    price = {c: game.state.corporations[c].price for c in ("KATY", "CBQ")}
    assert price["KATY"] == price["CBQ"]
    assert {d["entity"] for d in game.legal_descriptions() if d["type"] == "lay_tile"} == {"KATY"}


def test_1850_a_forced_sale_bars_buying_back_through_the_next_set_the_site_allows_it() -> None:
    """1850 [5.3.3]: "Once a player has sold a share of a company, that player may not buy another share in that
    company until after the next set of operating rounds". p1 sold KATY in operating round 22.1 (its president's
    forced sale for a train): the next set is 23's, so he may not buy KATY in stock round 23. 18xx.games lets him
    (run 12 seed 160036, action 744: `buy_shares` listed by the site alone): option
    ``site_buy_back_after_operating_round_sale``, on for every site record."""
    rulebook = rulebook_for_title("1850")
    site, record = _game_at("1850", 160036, 744)
    assert ["KATY_4", "KATY_0"] in [a.get("shares") for a in record["actions"][700:744] if a["entity"] == "p1"]
    rule = _played_without(record, rulebook, "site_buy_back_after_operating_round_sale")
    assert "buy_shares" in _types(site, "p1")
    assert "buy_shares" not in _types(rule, "p1")


def test_1846_a_receivership_that_ran_its_obsolete_trains_withholds_one_step_left() -> None:
    """1846 §7 (receivership): "retain all of its earnings (shifting its stock price one box to the left). If it does
    not own a train at this step, shift its stock price two boxes to the left instead." B&O, in receivership, ran
    its two obsolete 2-trains (which then left the game) and withheld: it owned trains at that step, so one box
    (seed 190026, action 207, `first_ed`: railbook moved it two, the site one). A receivership with no train at
    all still moves two."""
    from railbook.engine import market

    game, _ = _game_at("1846", 190026, 206)
    bo = game.state.corporations["B&O"]
    assert bo.owner == "pool" and market.price_at(game.context, bo.price) == 70
    assert sorted(game.state.trains[t].sym for t in bo.trains) == ["2", "2"]
    stored = json.loads((DATA / "1846_soak_190026.json").read_text(encoding="utf-8"))["actions"][206]
    assert (stored["type"], stored["entity"]) == ("run_routes", "B&O")
    game.process({k: v for k, v in stored.items() if k not in ("id", "auto_actions")})
    assert "B&O withholds 140" in game.log
    assert market.price_at(game.context, bo.price) == 60


def test_a_companys_buy_of_its_own_shares_that_ends_a_stock_round_names_no_price_from_its_cash() -> None:
    """The exporter names a company's price for its own shares where its cash change shows one off the market's
    (1846 issues and redemptions). 1817 run 14 seed 190045, action 182: Belt bought back a 20% share at the market's
    $40 as the stock round's last move, and the operating round that began paid Belt $45 from its privates in the
    same action; the exporter read $5 a share from the cash and the site refused the purchase ("Cannot buy a share
    of Belt"). An action that began a round tells no price by its cash: the market's stands."""
    from railbook.engine.replay import record_options

    from railbook.site_export import SiteAutoActions

    rulebook = rulebook_for_title("1817")
    stored = json.loads((DATA / "1817_soak_190045.json").read_text(encoding="utf-8"))
    game = Game.start(
        rulebook, [p["id"] for p in stored["players"]], seed=190045, options=record_options(stored, rulebook)
    )
    autos = SiteAutoActions(game)
    written: dict[str, Any] = {}
    for action in stored["actions"]:
        game.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
        written = autos.action(game, action)
        autos.after(game)
    assert (written["type"], written["entity"], written["shares"]) == ("buy_shares", "Belt", ["Belt_20"])
    assert "share_price" not in written
    assert any(line.startswith("Belt collects") for line in game.log[-4:])


def test_1817_the_inventor_pays_for_the_first_rusted_train_of_a_type_on_the_site_only() -> None:
    """1817 (volatility) P14 Inventor: "The bank pays the owning corp when the first type of each train is purchased
    or exported" (the site's card). Run 16 seed 250015, action 380: PSNR, owning the Inventor, bought the first 4
    ($40) and the bank's 2-trains rusted. 18xx.games pays for every train leaving the game, a rusted one too, and
    paid $20 more for the 2s (none of which had paid: the Inventor had no company owner when they were bought);
    by the card, rusting is no export. The site's way is option `site_inventor_pays_for_rusted_trains`, on for
    every site record (param `private_payouts.payout_on_rusting`)."""
    game, record = _game_at("1817", 250015, 379)
    cash = game.context.cash("C|PSNR")
    last = json.loads((DATA / "1817_soak_250015.json").read_text(encoding="utf-8"))["actions"][379]
    assert (last["type"], last["entity"], last["train"]) == ("buy_train", "PSNR", "4-0")
    game.process({k: v for k, v in last.items() if k not in ("id", "auto_actions")})
    assert [line for line in game.log if "from P14" in line][-2:] == [
        "PSNR collects 40 from P14",
        "PSNR collects 20 from P14",
    ]
    rule = _played_without(
        {**record, "actions": [*record["actions"], last]},
        rulebook_for_title("1817"),
        "site_inventor_pays_for_rusted_trains",
    )
    assert rule.context.cash("C|PSNR") == game.context.cash("C|PSNR") - 20
    assert cash - 400 + 60 - 100 == game.context.cash("C|PSNR")  # ($100: the interest on its 10 loans)


def test_1850_a_companys_redeemed_share_counts_as_sold_at_the_end_of_an_early_stock_round() -> None:
    """1850 [5.2.3]: "companies that have all ten shares in the hands of players or the company (redeemed) at the
    end of the stock round are adjusted up one row". Run 16 seed 250012: NP, with one redeemed share and the nine
    others with players, rose at the end of the turn-5 stock round on 18xx.games, which counts redeemed shares from
    the start again; railbook counted them only from turn 7 (the site's way for a time after December 2024, now
    the option `site_sold_out_from_turn_7`)."""
    from railbook.engine import market

    game, record = _game_at("1850", 250012, 233)
    np_ = game.state.corporations["NP"]
    assert (game.state.turn, market.price_at(game.context, np_.price)) == (5, 10)
    last = json.loads((DATA / "1850_soak_250012.json").read_text(encoding="utf-8"))["actions"][233]
    game.process({k: v for k, v in last.items() if k not in ("id", "auto_actions")})
    assert game.state.round.kind == "operating" and market.price_at(game.context, np_.price) == 20
    rulebook = rulebook_for_title("1850")
    from railbook.engine.replay import record_options

    options = [*record_options(record, rulebook), "site_sold_out_from_turn_7"]
    period = Game.start(rulebook, [p["id"] for p in record["players"]], seed=250012, options=options)
    for action in [*record["actions"], last]:
        period.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
    assert market.price_at(period.context, period.state.corporations["NP"].price) == 10


def test_1870_unprotected_sales_join_their_new_box_in_the_order_of_the_sales() -> None:
    """1870 "SHARE PRICE PROTECTION": after the seller's turn the special turns "are then offered and taken in the
    order the shares were sold", an unprotected sale's marker then moving by the normal rules. Run 15 seed 200079:
    p2 sold IC (p1 president) and then GMO (his own company, which nobody can protect), both from $50 to $40. IC's
    marker joins the $40 box first and IC operates first, as on the site; railbook had moved GMO at its sale and
    IC only at p1's decision, and GMO operated first."""
    game, _ = _game_at("1870", 200079, 501)
    assert game.state.round.kind == "operating"
    assert game.acting_entities() == ["C|IC"]


def test_1850_the_land_grant_stays_open_when_its_last_lay_pays_for_the_mesabi_rights() -> None:
    """18xx.games closes the Western Land Grant as its third lay is made (option `site_land_grant_closes_when_used`,
    on for its records), but keeps it open when its last lay pays for the Mesabi rights ([6.5.1]), as the rulebook
    keeps it open in any case (run 15 seed 200253, action 809: SOO's last Land Grant lay bought its Mesabi token;
    railbook had closed the private)."""
    game, _ = _game_at("1850", 200253, 808)
    assert game.state.companies["WLG"].owner == "C|SOO"
    last = json.loads((DATA / "1850_soak_200253.json").read_text(encoding="utf-8"))["actions"][808]
    assert (last["type"], last["entity"]) == ("choose_ability", "SOO")
    game.process({k: v for k, v in last.items() if k not in ("id", "auto_actions")})
    assert "SOO buys a mine token for 80" in game.log
    assert not game.state.companies["WLG"].closed and game.state.companies["WLG"].owner == "C|SOO"


def test_1850_a_bankrupts_sale_of_the_company_in_need_moves_its_price_at_once() -> None:
    """1850 [5.8.2] moves a price "as shares are sold"; a sale of another company waits for its president's price
    protection, which the game's end at the bankruptcy never reaches (``sales_move_prices: false``), but nobody can
    protect a sale of the company whose train its president could not fund: he is the seller, and its price drops
    at once (``operating_corporation_sales_move``). UP has no train and $74; p4 sells his one UP share he may and
    goes bankrupt: UP's price drops from $30 to $20, as on the site (differential run 15 seed 200298; railbook had
    left it at $30)."""
    from railbook.engine.digest import acting, digest

    game, record = _game_at("1850", 200298, 574)
    assert (record["actions"][-1]["type"], record["actions"][-1]["entity"]) == ("lay_tile", "UP")
    assert "bankrupt" in acting(game)["UP"]
    assert digest(game)["corporations"]["UP"]["price"] == 30
    game.process({"type": "bankrupt", "entity": "UP", "entity_type": "corporation"})
    after = digest(game)["corporations"]["UP"]
    assert game.state.finished and after["price"] == 20
    assert after["shares"]["p4"] == 20  # (his president's certificate; the other share sold)


def test_1850_a_player_a_closure_leaves_nothing_to_do_passes_for_the_priority() -> None:
    """1850 [5.2.2]: "The priority card is given to the person to the left of the last person to perform an action
    affecting the position of the priority card". p1 (2 players) sold CBQ and bought SOO; p2 declined to protect
    CBQ, which closed at $0; p2, with nothing left he could do, passed, and p1 then passed: the last to act was p1,
    so p2 has the priority. railbook had moved past p2 without counting his pass and gave it to p1 (differential
    run 17 seed 300042; the site agrees with the rule)."""
    game, record = _game_at("1850", 300042, 521)
    assert [(a["type"], a["entity"]) for a in record["actions"][-3:]] == [
        ("sell_shares", "p1"),
        ("buy_shares", "p1"),
        ("pass", "p2"),
    ]
    assert "CBQ closes" in game.log[-3:]
    before = len(game.log)
    game.process({"type": "pass", "entity": "p1", "entity_type": "player"})
    assert [line for line in game.log[before:] if "priority" in line] == ["p2 has priority deal"]


def test_1846_little_miamis_new_track_on_each_tile_must_lie_on_the_join() -> None:
    """1846 Little Miami (second-edition privates): the owning corporation "may lay and/or upgrade an extra free
    tile in each hex to connect" Cincinnati (H12) and Dayton (G13). Dayton's #5 already points at Cincinnati; a #15
    turned so that its new track runs away from Cincinnati joins nothing, however Cincinnati is then upgraded, so
    it is no first lay (railbook had accepted it and then the #295 in Cincinnati, whose new track alone made the
    join; the site refuses that: "Some new track on each tile laid by Little Miami must be used to connect H12 and
    G13", differential run 18 seed 350061). The #295 first, whose new edge meets Dayton's old track, may go on."""
    import pytest
    from railbook.engine.errors import IllegalAction

    game, _ = _game_at("1846", 350061, 98)
    offered = [d for d in game.legal_descriptions() if d["entity"] == "LM" and d["type"] == "lay_tile"]
    choices = {(c["hex"], c["tile"], c["rotation"]) for d in offered for c in d["choices"]}
    assert ("G13", "15-0", 5) not in choices and ("H12", "295-0", 1) in choices
    dayton = {"type": "lay_tile", "entity": "LM", "entity_type": "company", "hex": "G13", "tile": "15-0"}
    with pytest.raises(IllegalAction, match="no later lay could then join H12 and G13"):
        game.process({**dayton, "rotation": 5})
    game.process({**dayton, "hex": "H12", "tile": "295-0", "rotation": 1})
    with pytest.raises(IllegalAction, match="the new track on G13 must help join H12 and G13"):
        game.process({**dayton, "rotation": 5})


def test_1846_a_redemption_names_its_price_one_value_above_the_market() -> None:
    """1846 §6.1: a corporation redeems shares from the Stock Market "paying one value more than its current stock
    price". GT ($60) may redeem GT_1: the choice names $70 per share, and the move costs $70. The choice names its
    price so that a record for 18xx.games names it too: the exporter had worked it out from the cash, which a
    redemption that also ended the operating round (GT's privates' income paid as the next began) did not tell, and
    the site, with no price named, charged the market's $60 (differential run 18 seed 350103)."""
    game, record = _game_at("1846", 350103, 51)
    assert record["actions"][-1]["type"] == "buy_company"
    (offered,) = [d for d in game.legal_descriptions() if d["entity"] == "GT" and d["type"] == "buy_shares"]
    assert offered["choices"] == [{"shares": ["GT_1"], "share_price": 70}]
    cash = game.state.cash["C|GT"]
    game.process({"type": "buy_shares", "entity": "GT", "entity_type": "corporation", "shares": ["GT_1"]})
    assert any(line == "GT redeems GT_1 for 70" for line in game.log)
    assert game.state.cash["C|GT"] - cash == -70 + 35  # (and the privates' income of the operating round it began)


def test_1850_own_sales_wait_on_the_site_but_the_operating_companys() -> None:
    """1850 [5.8.2] moves a price "As shares are sold ... unless protected": p1, NP's president, sells an NP share and
    then an MP share (MP is his too) to buy NP's train, and goes bankrupt. By the rules MP drops at the sale ($40 to
    $30), no one but p1 being able to protect it. The site queues every sale but the operating company's own shares
    for its protection step, which the bankruptcy's end of the game never reaches: MP stays at $40 (option
    `site_own_sales_wait`, on for the site's records; differential run 17 seed 300107)."""
    import copy

    from railbook.engine.digest import digest

    stored = json.loads((DATA / "1850_soak_300107.json").read_text(encoding="utf-8"))
    site = rulebook_for_title("1850")
    rules = copy.deepcopy(site)
    del rules["options"]["site_own_sales_wait"]["site_before"]  # (the rulebook's moves for this record)

    def prices(rulebook: dict[str, Any], n: int) -> tuple[int, int]:
        game = start_from_record({**stored, "actions": stored["actions"][:n]}, rulebook)
        for action in stored["actions"][:n]:
            game.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
        corps = digest(game)["corporations"]
        return corps["NP"]["price"], corps["MP"]["price"]

    assert [(a["type"], a["shares"]) for a in stored["actions"][940:942]] == [
        ("sell_shares", ["NP_3"]),
        ("sell_shares", ["MP_4"]),
    ]
    assert prices(site, 943)[1] == prices(site, 941)[1] == 40
    assert prices(rules, 942)[1] == prices(rules, 943)[1] == 30


def test_1856_the_limit_follows_the_companies_when_the_cgr_does_not_form_by_the_rulebook_and_not_on_the_site() -> None:
    """1856 "Non-Formation": "If all companies are able to pay off their loans, the Canadian Government Railways
    does not form. Adjust the certificate limit ... (i.e the number of companies available is 11 minus any that have
    already closed)". Bot seed 130034, six players: every company repaid its loans at the first 6 (action 1450);
    with eleven companies the limit is 15, and p6, holding 11 certificates, may buy a twelfth in the next stock
    round (action 1473). The site keeps the players table's 11 when the CGR does not form and offers him no
    purchase (option ``site_no_limit_change_without_cgr``, on for the site's records)."""
    from railbook.engine.replay import record_options

    rulebook = rulebook_for_title("1856")
    site, record = _game_at("1856", 130034, 1472)
    assert "site_no_limit_change_without_cgr" in record_options(record, rulebook)
    assert site.state.corporations["CGR"].closed
    assert site.state.round.kind == "stock" and site.state.cert_limit == 11
    assert _types(site, "p6") == {"pass", "sell_shares"}
    rule = _played_without(record, rulebook, "site_no_limit_change_without_cgr")
    assert rule.state.cert_limit == 15
    assert "buy_shares" in _types(rule, "p6")
    buy = json.loads((DATA / "1856_soak_130034.json").read_text(encoding="utf-8"))["actions"][1472]
    assert (buy["type"], buy["entity"], buy["shares"]) == ("buy_shares", "p6", ["WR_6"])
    rule.process({k: v for k, v in buy.items() if k != "id"})
    assert rule.state.shares["WR_6"].owner == "P|p6"


def test_1856_the_cgrs_president_chooses_the_absorbed_trains_it_keeps() -> None:
    """1856 "Trains" (CGR): "When the CGR starts, the president chooses which trains, if any, to keep from the trains
    that were owned by the absorbed companies. The CGR will keep all permanent (type 5 or higher) trains (up to
    three)". Bot seed 620002: the CGR formed from THB alone (action 1569), with THB's 4-train; railbook only made a
    national over its limit discard, where the site (and the rule) lets the president discard the 4 or keep it
    (`national_railway.trains.choose_kept`)."""
    game, _ = _game_at("1856", 620002, 1571)
    assert game.state.corporations["CGR"].trains == ["4-0"]
    assert _types(game, "CGR") >= {"discard_train", "pass"} and "lay_tile" not in _types(game, "CGR")
    (discard,) = [d for d in game.legal_descriptions() if d["type"] == "discard_train" and d["entity"] == "CGR"]
    assert discard["choices"] == [{"train": "4-0"}]
    kept = Game.from_json(rulebook_for_title("1856"), game.to_json())
    game.process({"type": "discard_train", "entity": "CGR", "entity_type": "corporation", "train": "4-0"})
    assert game.state.corporations["CGR"].trains == [] and game.state.trains["4-0"].owner != "C|CGR"
    assert "discard_train" not in _types(game, "CGR")
    kept.process({"type": "pass", "entity": "CGR", "entity_type": "corporation"})  # (the record: it keeps the 4)
    assert kept.state.corporations["CGR"].trains == ["4-0"] and "lay_tile" in _types(kept, "CGR")


def test_1856_the_cgrs_price_does_not_move_for_any_reason_before_it_owns_a_permanent_train() -> None:
    """1856 "Until the CGR has a permanent train ... its token on the Stock Market is not adjusted from its starting
    position for any reason": a sale of its shares does not move it either (railbook held it on dividends only; bot
    seed 620002, the trainless CGR at $125 when p2 sells a share, action 1772)."""
    from railbook.engine import market

    game, _ = _game_at("1856", 620002, 1771)
    cgr = game.state.corporations["CGR"]
    assert cgr.trains == [] and market.price_at(game.context, cgr.price) == 125
    sale = json.loads((DATA / "1856_soak_620002.json").read_text(encoding="utf-8"))["actions"][1771]
    assert (sale["type"], sale["entity"], sale["shares"]) == ("sell_shares", "p2", ["CGR_3"])
    game.process({k: v for k, v in sale.items() if k != "id"})
    assert market.price_at(game.context, game.state.corporations["CGR"].price) == 125


def test_a_marker_moved_to_another_city_by_an_upgrade_is_recorded_in_that_city() -> None:
    """An upgrade carries each marker to the city of the new tile its city's track becomes (1856 bot seed 620002,
    action 1295: THB's marker in city 1 of #59 on N17, whose track leaves by edge 2, goes to city 0 of #68 rotated
    5); the company's own record of the marker follows, so that what reads it (the CGR's marker exchange, action
    1569) puts the CGR's marker in that city, where the site has it, and not in the free one."""
    before, _ = _game_at("1856", 620002, 1294)
    assert before.state.hexes["N17"].tokens == [[None], ["C|THB"]]
    game, _ = _game_at("1856", 620002, 1295)
    assert game.state.hexes["N17"].tokens == [["C|THB"], [None]]
    (n17,) = [t for t in game.state.corporations["THB"].tokens if t.used and t.hex == "N17"]
    assert n17.city == 0
    formed, _ = _game_at("1856", 620002, 1571)
    assert formed.state.hexes["N17"].tokens == [["C|CGR"], [None]]
