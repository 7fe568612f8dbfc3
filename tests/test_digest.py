"""``railbook replay --digest`` and ``railbook soak --records``: the state digest of docs/CONFORMANCE.md and games
written as 18xx.games records (no reference engine needed: its format is checked here, its agreement by
tools/differential.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from railbook.engine.digest import digest_stream

from railbook.api import rulebook_for_title
from railbook.soak import play_game, play_record

GOLDEN = Path(__file__).parent / "snapshots" / "digest-1846-seed-5.jsonl"
LINE_KEYS = {"acting", "bank", "companies", "corporations", "entity", "id", "phase", "players", "round", "tiles"}
LINE_KEYS |= {"turn", "type"}


def _short(title: str, seed: int, actions: int) -> dict:
    record, report = play_record(rulebook_for_title(title), seed, max_actions=actions)
    assert not report.failures, report.failures
    return record


def _lines(record: dict) -> list[dict]:
    return list(digest_stream(record, rulebook_for_title(str(record["title"]))))


@pytest.mark.parametrize("title", ["1846", "1856", "1870"])
def test_a_digest_line_per_action_then_the_outcome(title: str) -> None:
    record = _short(title, 3, 40)
    lines = _lines(record)
    assert len(lines) == len(record["actions"]) + 1
    for line, action in zip(lines, record["actions"], strict=False):
        assert set(line) == LINE_KEYS
        assert (line["id"], line["type"], line["entity"]) == (action["id"], action["type"], str(action["entity"]))
        for types in line["acting"].values():
            assert types == sorted(set(types))
        for sym, corp in line["corporations"].items():
            assert {"cash", "floated", "president", "tokens", "trains"} <= set(corp), sym
            assert corp["tokens"] == sorted(corp["tokens"]) and corp["trains"] == sorted(corp["trains"])
            if "shares" in corp:
                assert sum(corp["shares"].values()) == 100, (sym, corp["shares"])
                assert all(v for v in corp["shares"].values())
        assert all(isinstance(v, int) for v in line["players"].values())
        assert line["turn"].count(".") == 1
    assert set(lines[-1]) == {"game_end_reason", "result"}


def test_loans_appear_only_in_titles_with_loans() -> None:
    with_loans = _lines(_short("1856", 4, 30))
    without = _lines(_short("1846", 4, 30))
    assert all("loans" in c for line in with_loans[:-1] for c in line["corporations"].values() if "price" in c)
    assert not any("loans" in c for line in without[:-1] for c in line["corporations"].values())


def test_the_digest_is_deterministic() -> None:
    record = _short("1870", 8, 60)
    assert _lines(record) == _lines(json.loads(json.dumps(record)))


def test_a_refused_action_ends_the_stream_with_an_error_line() -> None:
    record = _short("1846", 2, 20)
    record["actions"][10] = {**record["actions"][10], "type": "buy_train", "train": "9-9"}
    lines = _lines(record)
    assert len(lines) == 11
    assert lines[-1]["id"] == record["actions"][10]["id"] and lines[-1]["error"]


def test_messages_get_no_line_and_log_entries_do() -> None:
    record = _short("1846", 2, 12)
    actions = record["actions"]
    actions.insert(3, {"type": "message", "entity": "p1", "entity_type": "player", "message": "hi", "id": 100})
    actions.insert(5, {"type": "log", "entity": "p1", "entity_type": "player", "message": "x", "id": 101})
    ids = [line.get("id") for line in _lines(record)]
    assert 100 not in ids and 101 in ids


def test_a_short_game_digests_as_recorded() -> None:
    """A golden digest: the first 25 actions of a railbook game of 1846 (seed 5).  Regenerate it with
    ``RAILBOOK_GOLDEN=1`` after a change that is meant to change what the digest shows."""
    import os

    record = _short("1846", 5, 25)
    text = "".join(json.dumps(line, sort_keys=True, separators=(",", ":")) + "\n" for line in _lines(record))
    if os.environ.get("RAILBOOK_GOLDEN") or not GOLDEN.exists():
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()


def test_soak_writes_records_the_replay_accepts(tmp_path: Path) -> None:
    from railbook.api import replay

    rulebook = rulebook_for_title("1856")
    report = play_game(rulebook, 11, max_actions=80, records=str(tmp_path))
    assert not report.failures
    record = json.loads((tmp_path / "1856_11.json").read_text())
    assert record["title"] == "1856" and record["settings"]["seed"] == 11
    assert isinstance(record["settings"]["optional_rules"], list)
    assert [a["id"] for a in record["actions"]] == list(range(1, len(record["actions"]) + 1))
    assert {"id", "name"} <= set(record["players"][0])
    for a in record["actions"]:
        if a["type"] in ("take_loan", "payoff_loan"):
            assert isinstance(a["loan"], int)
        if a["type"] == "place_token":
            assert isinstance(a["slot"], int)
    assert replay(record).actions == len(record["actions"])


def test_a_game_played_with_the_sites_dated_options_replays_its_own_log_with_them() -> None:
    """``play_record(..., also=...)`` plays options the record does not name (the site's dated behaviours its
    creation date turns on); the game's own log is replayed with them too, or the check fails where they matter
    (1850 seed 50000: a private traded between players with the option off)."""
    _, report = play_record(rulebook_for_title("1850"), 50000, max_actions=400, also=["site_no_private_trades"])
    assert report.actions == 400
    assert not [f for f in report.failures if f.invariant == "log.replay"]


def test_a_record_for_the_site_has_no_player_pass_while_the_cm_is_unsold() -> None:
    """1850 (title data ``site.unowned_private_income_fails: [CM]``): the site's engine fails when it pays the
    privates' income with the CM unsold (an initial round everyone passes). A record written for the site has no
    player pass while the CM is unsold and he may do anything else (differential seed 50005 passed all round)."""
    from railbook.engine.replay import filter_actions, normalise, start_from_record

    rulebook = rulebook_for_title("1850")
    record, report = play_record(rulebook, 50005, max_actions=60, also=["site_no_private_trades"])
    assert not report.failures
    game = start_from_record(record, rulebook)
    for action in filter_actions(record["actions"]):
        if game.state.companies["CM"].owner is not None:
            break
        if action["type"] == "pass" and action["entity_type"] == "player":
            mine = [d for d in game.legal_descriptions() if d["entity"] == action["entity"]]
            assert {d["type"] for d in mine} == {"pass"}, f"{action['entity']} passed with {mine}"
        game.process(normalise(action))
    assert game.state.companies["CM"].owner is not None


def test_a_bots_record_for_the_site_keeps_the_site_rules_of_the_random_player() -> None:
    """A bot's game written for the site (``play_record(..., bots=...)``) is held to the same site rules: no
    player pass while the CM is unsold and he may do anything else the site rules leave him (a bid that keeps the
    CM's price free), no private company passing."""
    from railbook.engine.replay import filter_actions, normalise, start_from_record

    from railbook.soak import _site_trades

    rulebook = rulebook_for_title("1850")
    for seed in (1, 2, 3):
        record, report = play_record(rulebook, seed, max_actions=40, also=["site_no_private_trades"], bots="heuristic")
        assert not report.failures
        game = start_from_record(record, rulebook)
        assert not [a for a in record["actions"] if a["type"] == "pass" and a["entity_type"] == "company"]
        for action in filter_actions(record["actions"]):
            if game.state.companies["CM"].owner is not None:
                break
            if action["type"] == "pass" and action["entity_type"] == "player":
                left = _site_trades(game, game.legal_descriptions())
                mine = [d for d in left if d["entity"] == action["entity"]]
                assert {d["type"] for d in mine} == {"pass"}, f"seed {seed}: {action['entity']} passed with {mine}"
            game.process(normalise(action))


def _stalling_sales(record: dict, rulebook: dict) -> list[int]:
    """The ids of the record's stock-round sales after which the site's stock round stops for good: a sale that
    closes a corporation, after which the seller can do nothing more and neither can the next two players in seating
    order (the round goes on at a later seat or with a new turn of the seller's, or ends)."""
    from railbook.engine.replay import filter_actions, normalise, start_from_record

    game = start_from_record(record, rulebook)
    out = []
    for action in filter_actions(record["actions"]):
        st = game.state
        stock = st.round is not None and st.round.kind == "stock"
        before = (st.turn, st.round.round_num if st.round else None)
        open_ = {k for k, c in st.corporations.items() if not c.closed}
        game.process(normalise(action))
        if not stock or action["type"] != "sell_shares" or action["entity_type"] != "player":
            continue
        if not any(game.state.corporations[k].closed for k in open_):
            continue
        st = game.state
        seats = list(st.player_ids)
        acting = game.acting()
        if st.finished or (st.turn, st.round.round_num if st.round else None) != before or not acting:
            out.append(action["id"])
        elif action["entity"] in acting and not st.round.data.get("current_actions"):
            out.append(action["id"])  # every other player skipped: a new turn of the seller's
        elif action["entity"] not in acting:
            if (seats.index(acting[0]) - seats.index(action["entity"]) - 1) % len(seats) >= 2:
                out.append(action["id"])
    return out


def test_a_record_for_the_site_makes_no_sale_that_stops_its_stock_round() -> None:
    """1856 (title data ``site.closing_stalls_stock_round``): the site's stock round stops for good after a sale
    into the closing cell that leaves the seller and the next two players nothing to do (it keeps one of them active
    with nothing offered: 38 of 43 such sales in differential runs 7-8, none of 165 other closing sales). Seed
    100042 of run 8 made one (action 106, p1's CPR share: p2 to p6 could do nothing, the site stopped); written for
    the site now, the game makes none."""
    from railbook.engine.replay import record_options

    rulebook = rulebook_for_title("1856")
    stored = json.loads((Path(__file__).parent / "data" / "1856_soak_100042.json").read_text(encoding="utf-8"))
    assert _stalling_sales(stored, rulebook) == [106]
    dated = [o for o in record_options({"created_at": 1_795_000_000}, rulebook) if o.startswith("site_")]
    record, report = play_record(rulebook, 100042, max_actions=400, also=dated)
    # (played so, every corporation closes and the game stalls: a random game's end, not the round's stop)
    assert not [f for f in report.failures if f.invariant != "game.stalled"]
    assert _stalling_sales({**record, "created_at": 1_795_000_000}, rulebook) == []


def _private_markers_over_lifted_ones(record: dict, rulebook: dict) -> list[int]:
    """The ids of the record's markers placed by a private while markers a first tile lifted are still to be put
    back."""
    from railbook.engine.replay import filter_actions, normalise, start_from_record

    game = start_from_record(record, rulebook)
    out = []
    for action in filter_actions(record["actions"]):
        lifted = game.state.round is not None and game.state.round.data.get("lifted_tokens")
        if action["type"] == "place_token" and action["entity_type"] == "company" and lifted:
            out.append(action["id"])
        game.process(normalise(action))
    return out


def test_a_record_for_the_site_places_no_private_marker_before_a_lifted_one_is_back() -> None:
    """1856: THB's first tile on Hamilton lifts its home marker (put back by THB in a city of its choice). The site
    places the W&S marker meanwhile with that lifted marker and then refuses to put it back ("Token is already
    used"; differential seed 110016, actions 179-180). A record written for the site has the lifted markers put
    back first."""
    from railbook.engine.replay import record_options

    rulebook = rulebook_for_title("1856")
    stored = json.loads((Path(__file__).parent / "data" / "1856_soak_110016.json").read_text(encoding="utf-8"))
    assert _private_markers_over_lifted_ones(stored, rulebook) == [179]
    dated = [o for o in record_options({"created_at": 1_795_000_000}, rulebook) if o.startswith("site_")]
    record, report = play_record(rulebook, 110016, max_actions=200, also=dated)
    assert not report.failures
    assert _private_markers_over_lifted_ones({**record, "created_at": 1_795_000_000}, rulebook) == []


def _stalled_turns(record: dict, rulebook: dict) -> list[int]:
    """The record's stock-round turns that end, with a corporation closed in them, where the site's engine would
    stall (``railbook.engine.digest.stalled_turn``): the ids of the actions that end them."""
    from railbook.engine.digest import closed_at_round_end, open_prices, stalled_turn, stock_turn, stock_turn_goes_on
    from railbook.engine.replay import filter_actions, normalise, start_from_record

    def stock_round(game) -> tuple | None:
        r = game.state.round
        return (game.state.turn, r.round_num) if r is not None and r.kind == "stock" else None

    def closed(game) -> set[str]:
        return {k for k, c in game.state.corporations.items() if c.closed}

    game = start_from_record(record, rulebook)
    out, player, before, at = [], None, set(), None
    for action in filter_actions(record["actions"]):
        if player is None or stock_turn(game) != player:
            player, before, at = stock_turn(game), closed(game), stock_round(game)
        prices = open_prices(game)
        game.process(normalise(action))
        if player is None or stock_turn_goes_on(game, player):
            continue
        same = stock_round(game) == at and not game.state.finished
        ended = closed_at_round_end(game, action, prices, closed(game) - before)
        if closed(game) - before and stalled_turn(game, player, True, same, ended):
            out.append(action["id"])
        player = None
    return out


def test_a_record_for_the_site_has_no_stock_turn_the_site_would_stall_after_a_closing() -> None:
    """1846, 1870 (title data ``site.closing_stalls_stock_round``): when a corporation closes in a stock-round turn
    and the next two players have nothing to do, the site's engine keeps the second waiting with nothing offered
    and accepts no move (docs/CONFORMANCE.md, "Standing"; differential run 8: 1870 seed 100008 at action 151, p4's
    turn after his sale that closed SLSF; 1846 seed 100023 at 121). A record written for the site plays such a
    turn again with the closing move avoided; the same game played for railbook alone keeps it."""
    import copy

    for title, seed, actions, stalls in (("1870", 100008, 160, 151), ("1846", 100023, 125, 121)):
        rulebook = rulebook_for_title(title)
        plain = copy.deepcopy(rulebook)
        plain["site"] = {k: v for k, v in (plain.get("site") or {}).items() if k != "closing_stalls_stock_round"}
        also = ["site_private_trades_from_phase_2"] if title == "1870" else None
        dated = {"created_at": 1_795_000_000}  # (the site's dated options on, as the game was played with them)
        record, report = play_record(plain, seed, max_actions=actions, also=also)
        assert not report.failures
        assert _stalled_turns({**record, **dated}, rulebook) == [stalls]
        record, report = play_record(rulebook, seed, max_actions=actions, also=also)
        assert not report.failures and report.actions == actions
        assert _stalled_turns({**record, **dated}, rulebook) == []


def test_a_record_for_the_site_keeps_a_last_pass_whose_round_end_closes_a_corporation() -> None:
    """1846 "At the end of a stock round ... all stocks with any shares in the Stock Market fall one value": where
    the pass that ends the round takes a price into the closing cell, the site closes the corporation as it
    finishes its round and goes on to the operating round (the reference engine on differential run 10 seed
    140031: p3's pass after ERIE had fallen to $10). The stall guard had taken that pass for a stalling closing,
    played the turn again and ended it with the sale that does stall the site ("No step found", a stock round it
    never ends; seeds 140031 and 140062). Such a pass is kept now; the sale into the closing cell is still
    avoided (``test_a_record_for_the_site_has_no_stock_turn_the_site_would_stall_after_a_closing``)."""
    from railbook.engine.replay import filter_actions, normalise, record_options, start_from_record

    rulebook = rulebook_for_title("1846")
    dated = [o for o in record_options({"created_at": 1_795_000_000}, rulebook) if o.startswith("site_")]
    record, report = play_record(rulebook, 140031, max_actions=281, also=dated)
    assert not report.failures
    last = record["actions"][-1]
    assert (last["type"], last["entity"]) == ("pass", "p3")
    game = start_from_record({**record, "created_at": 1_795_000_000}, rulebook)
    for action in filter_actions(record["actions"][:-1]):
        game.process(normalise(action))
    assert not game.state.corporations["ERIE"].closed and game.state.round.kind == "stock"
    game.process(normalise(last))
    assert game.state.corporations["ERIE"].closed and game.state.round.kind != "stock"
    assert _stalled_turns({**record, "created_at": 1_795_000_000}, rulebook) == []


def test_a_record_for_the_site_makes_no_lay_its_stale_graph_refuses_after_a_closing() -> None:
    """1846, 1870 (title data ``site.closing_leaves_graph_stale``): the site keeps its route graph when a
    corporation closes and its markers leave the map, until the next lay or placement (differential run 8, 1870
    seed 100035, action 334: MKT's #26 on C10, reached through Topeka where the closed ATSF's marker had been,
    refused as "not legally rotated"). Railbook's map is right (MKT reaches C10); a record written for the site
    makes another move there, one the map with ATSF's marker put back allows; the game played for railbook
    alone keeps the lay. (Since the MRBC holds its owner's track step open, seed 100035 takes another line; seed
    100004 meets the same at action 524: FW's #9 on I4, reached through Dallas, J5, where the closed TP's marker
    had been.)"""
    import copy

    from railbook.engine.errors import IllegalAction
    from railbook.engine.game import Game
    from railbook.engine.replay import filter_actions, normalise, start_from_record

    rulebook = rulebook_for_title("1870")
    plain = copy.deepcopy(rulebook)
    plain["site"] = {k: v for k, v in (plain.get("site") or {}).items() if k != "closing_leaves_graph_stale"}
    also = ["site_private_trades_from_phase_2"]
    dated = {"created_at": 1_795_000_000}
    record, report = play_record(plain, 100004, max_actions=524, also=also)
    assert not report.failures
    lay = record["actions"][523]
    assert (lay["type"], lay["entity"], lay["hex"], lay["tile"]) == ("lay_tile", "FW", "I4", "9-6")
    game = start_from_record({**record, **dated, "actions": record["actions"][:523]}, rulebook)
    for action in filter_actions(record["actions"][:523]):
        game.process(normalise(action))
    Game.from_json(rulebook, game.to_json()).process(normalise(lay))  # (legal on the map as it is)
    assert game.state.corporations["TP"].closed
    data = game.to_json()
    data["state"]["hexes"]["J5"]["tokens"][0][0] = "C|TP"  # (its marker put back)
    with pytest.raises(IllegalAction):
        Game.from_json(rulebook, data).process(normalise(lay))
    site, report = play_record(rulebook, 100004, max_actions=524, also=also)
    assert not report.failures
    assert site["actions"][:523] == record["actions"][:523] and site["actions"][523] != lay


def test_1850_a_record_for_the_site_makes_no_lay_its_stale_graph_refuses_after_a_closing() -> None:
    """1850 has the site's stale graph after a closing too (title data ``site.closing_leaves_graph_stale``): MILW
    closed in a stock round with a marker in Madison (G16), and CB&Q's #9 on E16, reached through Madison's freed
    slot, was refused as "not legally rotated" (differential run 11 seed 150005, action 766). A record written for
    the site makes another move there; the game played without the site's guard keeps the lay."""
    import copy

    from railbook.engine.replay import record_options

    from railbook.soak import record_setups

    rulebook = rulebook_for_title("1850")
    counts, _options = record_setups(rulebook)
    dated = [o for o in record_options({"created_at": 1_795_000_000}, rulebook) if o.startswith("site_")]
    plain = copy.deepcopy(rulebook)
    plain["site"] = {k: v for k, v in (plain.get("site") or {}).items() if k != "closing_leaves_graph_stale"}
    record, report = play_record(plain, 150005, max_actions=766, setups=(counts, ["reduced_tokens"]), also=dated)
    assert not report.failures
    lay = record["actions"][765]
    assert (lay["type"], lay["entity"], lay.get("hex")) == ("lay_tile", "CBQ", "E16")
    site, report = play_record(rulebook, 150005, max_actions=766, setups=(counts, ["reduced_tokens"]), also=dated)
    assert not report.failures
    assert site["actions"][:765] == record["actions"][:765] and site["actions"][765] != lay


def test_a_record_for_the_site_keeps_the_cms_price_free_of_bids_while_it_is_unsold() -> None:
    """1850, two players ($1,050 each): bids could lock away so much cash that no one can buy the CM once it is
    offered, and the initial round ended in everyone's pass with it unsold (differential seeds 100000, 100011,
    100019: the site failed paying its income). A record written for the site keeps every bidder the CM's price
    free while it is unsold, so it is sold in the first initial round."""
    from railbook.engine.replay import filter_actions, normalise, start_from_record

    rulebook = rulebook_for_title("1850")
    record, report = play_record(rulebook, 100011, max_actions=40, also=["site_no_private_trades"])
    assert len(record["players"]) == 2 and not report.failures
    game = start_from_record(record, rulebook)
    first_round = game.state.round.kind
    for action in filter_actions(record["actions"]):
        if game.state.companies["CM"].owner is not None:
            break
        assert game.state.round.kind == first_round
        game.process(normalise(action))
    assert game.state.companies["CM"].owner is not None


@pytest.mark.parametrize("seed,actions", [(100012, 815), (100016, 550)])
def test_an_1850_record_for_the_site_has_no_stock_turn_the_site_would_stall_after_a_closing(
    seed: int, actions: int
) -> None:
    """1850 (title data ``site.closing_stalls_stock_round``, as 1846, 1856 and 1870): after a stock-round turn in
    which a corporation closed -- by a sale, or a pass declining price protection, as the price moves then -- the
    site skips the players with nothing to do and keeps the last one skipped active with no move (differential seed
    100030, action 334: p2's sale closed MILW; run 9 seed 110020 after such a pass). A record written for the site
    has no such turn."""
    from railbook.engine.replay import record_options

    rulebook = rulebook_for_title("1850")
    dated = [o for o in record_options({"created_at": 1_795_900_000}, rulebook) if o.startswith("site_")]
    record, report = play_record(rulebook, seed, max_actions=actions, also=dated)
    assert not [f for f in report.failures if f.invariant != "game.stalled"]
    assert _stalled_turns({**record, "created_at": 1_795_900_000}, rulebook) == []


def test_a_finished_record_carries_its_outcome(tmp_path: Path) -> None:
    record, report = play_record(rulebook_for_title("1856"), 1)
    assert report.finished
    assert record["result"] and record["game_end_reason"] == report.end_reason
    assert _lines(record)[-1] == {"game_end_reason": record["game_end_reason"], "result": record["result"]}


def test_the_check_after_an_operating_rounds_last_turn_names_the_company_that_connected_in_it() -> None:
    """1870: TP, the operating round's only company, connects to its destination with its own lay; its connection
    run follows its turn ("Eligibility is checked for every company after each company completes its turn"), and
    TP stays the operator for it. The site's check after that turn must name TP, or the site's round moves on and
    it refuses the run (run 9 seed 110006, action 1401: the notice had named nobody). The game as written then is
    kept in tests/data (with the track-step passes railbook asks for since the MRBC holds that step) and played
    through the exporter."""
    from railbook.engine.game import Game
    from railbook.engine.replay import record_options

    from railbook.site_export import SiteAutoActions

    rulebook = rulebook_for_title("1870")
    stored = json.loads((Path(__file__).parent / "data" / "1870_soak_110006.json").read_text(encoding="utf-8"))
    game = Game.start(
        rulebook, [p["id"] for p in stored["players"]], seed=110006, options=record_options(stored, rulebook)
    )
    autos = SiteAutoActions(game)
    extra: list[dict] = []
    for action in stored["actions"]:
        game.process({k: v for k, v in action.items() if k not in ("id", "auto_actions")})
        autos.action(game, action)
        extra = autos.after(game)
    turn_end = stored["actions"][-1]
    assert (turn_end["type"], turn_end["entity"]) == ("dividend", "TP")
    assert {d["type"] for d in game.legal_descriptions()} == {"choose"}  # (TP's connection run: its marker)
    assert [x["corporations"] for x in extra] == [["TP"]]


def test_the_1870_records_carry_the_sites_destination_notices() -> None:
    record = _short("1870", 1, 220)
    notices = [x for a in record["actions"] for x in a.get("auto_actions") or []]
    assert notices and all(x["type"] == "destination_connection" for x in notices)
    assert all(isinstance(x["corporations"], list) for x in notices)


def test_the_replay_command_prints_the_digest_and_stops_at_a_refused_action(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from railbook.cli import _register_optional, app

    _register_optional()
    record = _short("1846", 2, 15)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(app, ["replay", str(path), "--digest"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in result.output.splitlines()]
    assert lines == _lines(record)
    assert result.output.splitlines()[0] == json.dumps(lines[0], sort_keys=True, separators=(",", ":"))
    record["actions"][5] = {**record["actions"][5], "type": "buy_train", "train": "9-9"}
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(app, ["replay", str(path), "--digest"])
    assert result.exit_code == 1
    assert "error" in json.loads(result.output.splitlines()[-1])


def test_a_company_the_operating_round_skips_is_not_reported_floated() -> None:
    """1856 "Initial Shares Needed to Operate": a company with fewer shares sold than the train on sale asks for does
    not operate; the digest reports a company floated from its first operating turn (as the site does), and counted
    the first company in the round's order as in its turn even where that round skips it (differential seed 50001,
    action 134: CA, two shares sold with 3-trains on sale)."""
    stored = json.loads((Path(__file__).parent / "data" / "1856_soak_50001.json").read_text(encoding="utf-8"))
    rulebook = rulebook_for_title("1856")
    lines = [x for x in digest_stream(stored, rulebook) if "id" in x]
    last = lines[-1]
    assert last["round"] == "Operating" and list(last["acting"]) == ["CV"]
    assert last["corporations"]["CA"]["shares"]["p3"] == 20 and not last["corporations"]["CA"]["floated"]


def test_a_record_for_the_site_places_no_marker_while_its_graph_may_be_stale_after_a_closing() -> None:
    """1846 (``site.closing_leaves_graph_stale``): after NYC closed (its marker in D20 gone) and with no lay since,
    the site's marker check kept its answer from before and refused PRR's marker in D20 (differential run 16 seed
    250047, action 250), which the map with NYC's marker put back allows (D20 has two slots). A record written
    for the site places no marker until the next lay; the game played for railbook alone keeps the placement."""
    import copy

    rulebook = rulebook_for_title("1846")
    plain = copy.deepcopy(rulebook)
    plain["site"] = {k: v for k, v in (plain.get("site") or {}).items() if k != "closing_leaves_graph_stale"}
    record, report = play_record(plain, 250047, max_actions=250)
    assert not report.failures
    marker = record["actions"][249]
    assert (marker["type"], marker["entity"], marker["city"]) == ("place_token", "PRR", "D20-0-0")
    site, report = play_record(rulebook, 250047, max_actions=250)
    assert not report.failures
    assert site["actions"][:249] == record["actions"][:249] and site["actions"][249]["type"] != "place_token"


def test_a_record_for_the_site_makes_no_redemption_the_sites_engine_fails_on() -> None:
    """1870 (``site.redemption_fails_on_lone_president_certificate``): with none of its shares in the open market the
    site lists one share of each player to redeem, the president's too unless he holds as much as the most any
    other player holds, and fails where he holds his certificate alone (differential run 16 seed 250013, action
    370: GMO's redemption of p4's share, "A share bundle must contain at least one share"). The rules allow the
    redemption (railbook plays it); a record written for the site makes another move there."""
    import copy

    from railbook.engine.digest import site_redemption_fails
    from railbook.engine.replay import filter_actions, normalise, start_from_record

    rulebook = rulebook_for_title("1870")
    plain = copy.deepcopy(rulebook)
    site_data = plain.get("site") or {}
    plain["site"] = {k: v for k, v in site_data.items() if k != "redemption_fails_on_lone_president_certificate"}
    also = ["site_private_trades_from_phase_2"]
    record, report = play_record(plain, 250013, max_actions=370, also=also)
    assert not report.failures
    redeem = record["actions"][369]
    assert (redeem["type"], redeem["entity"], redeem["shares"]) == ("buy_shares", "GMO", ["GMO_3"])
    game = start_from_record({**record, "created_at": 1_795_000_000, "actions": record["actions"][:369]}, rulebook)
    for action in filter_actions(record["actions"][:369]):
        game.process(normalise(action))
    assert site_redemption_fails(game, "GMO")
    site, report = play_record(rulebook, 250013, max_actions=370, also=also)
    assert not report.failures
    assert site["actions"][:369] == record["actions"][:369] and site["actions"][369] != redeem


def test_a_record_for_the_site_makes_no_lay_its_graph_refuses_after_a_liquidation() -> None:
    """1817 (``site.closing_leaves_graph_stale``): a liquidation takes the company's markers off the map without
    closing it, and the site's graph stays as it was (differential run 13 seed 170080, action 270: GT's marker in
    I12 gone, PW's Major Coal Mine lay on I10 beyond it refused "not legally rotated"). A record written for the site
    makes another move there; the game played for railbook alone keeps the lay."""
    record, site = _played_with_and_without("1817", "closing_leaves_graph_stale", 170080, 270)
    lay = record["actions"][269]
    assert (lay["type"], lay["entity"], lay["hex"]) == ("lay_tile", "MAJC", "I10")
    assert site["actions"][:269] == record["actions"][:269] and site["actions"][269] != lay


def test_a_record_for_the_site_makes_no_lay_its_graph_refuses_after_rights_were_bought() -> None:
    """1850 (``site.closing_leaves_graph_stale``): a company that buys the Mesabi Mining Company gains the rights to
    the Mesabi Range, and the site's graph, computed before without them, stays as it was until the next lay or
    placement (bot game seed 180009, action 415: GN bought the MRC, and the Gant Brothers' lay for GN on A8, beyond
    the range, was refused "not legally rotated"). A record written for the site makes another move there."""
    record, site = _played_with_and_without("1850", "closing_leaves_graph_stale", 180009, 415, bots="heuristic")
    lay = record["actions"][414]
    assert (lay["type"], lay["entity"], lay["hex"]) == ("lay_tile", "GBC", "A8")
    assert site["actions"][:414] == record["actions"][:414] and site["actions"][414] != lay


def test_a_record_for_the_site_buys_the_train_the_sites_memo_of_a_route_demands() -> None:
    """1830 (``site.route_memo_keeps_train_duty``): ERIE laid #59 on E11, which lifted its home marker, and put it back
    in the city whose track meets no other station; railbook finds no route and lets ERIE, with no train, pass its
    train step; the site, whose check of the lay found the route the marker had in the other city and kept it,
    refuses the pass (differential run 15 seed 200123, action 1028). A record written for the site buys the train."""
    record, site = _played_with_and_without("1830", "route_memo_keeps_train_duty", 200123, 1028)
    lifted = record["actions"][1026]
    assert (lifted["type"], lifted["entity"], lifted["city"]) == ("place_token", "ERIE", "59-1-1")
    assert (record["actions"][1027]["type"], record["actions"][1027]["entity"]) == ("pass", "ERIE")
    assert site["actions"][:1027] == record["actions"][:1027]
    assert (site["actions"][1027]["type"], site["actions"][1027]["entity"]) == ("buy_train", "ERIE")


def _played_with_and_without(title: str, fact: str, seed: int, n: int, **kw: str) -> tuple[dict, dict]:
    """Seed ``seed`` of ``title`` played for the site (the site options of today on) for ``n`` moves, without and with
    the title's ``site.<fact>``: the two records (no failure in either)."""
    import copy

    from railbook.engine.replay import record_options

    rulebook = rulebook_for_title(title)
    plain = copy.deepcopy(rulebook)
    plain["site"] = {k: v for k, v in (plain.get("site") or {}).items() if k != fact}
    also = [o for o in record_options({"created_at": 1_795_000_000}, rulebook) if o.startswith("site_")]
    record, report = play_record(plain, seed, max_actions=n, also=also, **kw)
    assert not report.failures
    site, report = play_record(rulebook, seed, max_actions=n, also=also, **kw)
    assert not report.failures
    return record, site


def test_1850_a_record_for_the_site_has_the_buyer_of_mine_rights_lay_before_its_route_step() -> None:
    """1850: NP bought the Mesabi Mining Company (the rights to the Mesabi Range, A10) at action 287, and no tile or
    marker was laid after it; its only route, B11 to A10, enters the mine. The site's route graph, unchanged by the
    purchase, finds no route: it skipped NP's route step and refused the run railbook made ("Route must contain
    token"; differential run 17 seed 300089, NP passing its track step at action 303). A record written for the site
    has NP lay a tile there instead, which renews the site's graph."""
    record, site = _played_with_and_without("1850", "closing_leaves_graph_stale", 300089, 304)
    assert (record["actions"][286]["type"], record["actions"][286]["company"]) == ("buy_company", "MRC")
    assert not any(a["type"] in ("lay_tile", "place_token") for a in record["actions"][287:302])
    assert site["actions"][:302] == record["actions"][:302]
    assert (record["actions"][302]["type"], record["actions"][302]["entity"]) == ("pass", "NP")
    assert (site["actions"][302]["type"], site["actions"][302]["entity"]) == ("lay_tile", "NP")


def test_1856_a_record_for_the_site_notices_the_connection_check_after_the_lay_of_a_turn_begun_with_a_home_marker() -> (
    None
):
    """1856 (connections checked after each tile lay): THB began its first turn by placing its home marker, took a
    loan and laid its tile; the site's check follows the lay. The record's empty notice rides on that lay, not on the
    marker's placement before the track step (a home marker is no track step's end) nor on the tunnel and bridge
    purchases after it (differential run 17 seed 300150: the site listed the check two moves before the notice)."""
    from railbook.engine.replay import record_options

    rulebook = rulebook_for_title("1856")
    also = [o for o in record_options({"created_at": 1_795_000_000}, rulebook) if o.startswith("site_")]
    record, report = play_record(rulebook, 300150, max_actions=500, also=also)
    assert not report.failures
    thb = [a for a in record["actions"][493:499] if a["entity"] == "THB"]
    kinds = [(a["type"], bool(a.get("auto_actions"))) for a in thb]
    assert ("place_token", False) in kinds and ("lay_tile", True) in kinds
    assert not any(notice for kind, notice in kinds if kind != "lay_tile")
