"""The base rule vocabulary of the 1830 family (issue 36), each rule played in a small game built here (not a record):
player timing words, ``exchange``, train ``events``, ``close`` on ``bought_train``, ``no_buy``, a seeded random
president's certificate, ``teleport``, ``train_export``, ``short_handed``, ``bid_box_auction.locked_cash`` and
``stock_round.multiple_buy_from_ipo``."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from railbook.compiler.compile import build_rulebook
from railbook.engine import abilities, depot, rounds
from railbook.engine.errors import IllegalAction
from railbook.engine.game import Game
from railbook.engine.mechanics import private_companies
from railbook.engine.rng import Lcg
from railbook.engine.state import Ability, ckey, pkey, xkey

BASE: dict[str, Any] = {
    "meta": {"title": "vocab", "full_name": "vocab", "designer": "tests", "sources": []},
    "players": {
        "2": {"cash": 1000, "bank": 9000, "cert_limit": 20},
        "3": {"cash": 800, "bank": 9000, "cert_limit": 16},
    },
    "rounds": {
        "cycle": ["stock", {"rounds": ["operating"], "repeat": "operating_rounds"}],
        "kinds": {
            "stock": {"type": "stock", "steps": ["exchange", "stock"]},
            "operating": {
                "type": "operating",
                "steps": [
                    "exchange",
                    "buy_company",
                    "teleport",
                    "track",
                    "token",
                    "route",
                    "dividend",
                    "discard_train",
                    "buy_train",
                ],
            },
        },
    },
    "mechanics": {
        "stock_round": {"sell_before_buy": True, "ipo_price": "par"},
        "capitalization": {"home_token": "at_float", "full_capital_paid": "at_float"},
        "private_companies": {},
        "private_abilities": {},
        "exchange": {},
        "teleport": {},
        "track": {},
        "tokens": {},
        "trains": {},
        "routes": {},
        "dividends": {"kinds": ["payout", "withhold"]},
    },
    "end": [{"type": "bank", "after": "full_or"}],
    "corporations": {
        "WR": {
            "name": "Western",
            "home": "B2",
            "tokens": [0, 40],
            "float_percent": 60,
            "capitalization": "full",
            "color": "#123456",
        },
        "ER": {
            "name": "Eastern",
            "home": "B6",
            "tokens": [0, 40],
            "float_percent": 60,
            "capitalization": "full",
            "color": "#123456",
        },
    },
    "privates": {
        "MR": {
            "name": "Mountain Railway",
            "value": 40,
            "revenue": 10,
            "abilities": [
                {"type": "exchange", "owner": "player", "when": "any", "corporation": "WR", "params": {"from": ["ipo"]}}
            ],
        },
        "TP": {
            "name": "Teleport",
            "value": 60,
            "revenue": 10,
            "abilities": [{"type": "teleport", "owner": "corporation", "hexes": ["C5"], "tiles": ["57"], "count": 1}],
        },
        "CV": {
            "name": "Vanderbilt",
            "value": 100,
            "revenue": 20,
            "abilities": [
                {"type": "shares", "params": {"random": "president"}},
                {"type": "no_buy"},
                {"type": "close", "when": "bought_train"},
            ],
        },
    },
    "map": {
        "layout": "pointy",
        "hexes": {
            "A1": {"color": "red", "offboards": [{"revenue": {"yellow": 20, "green": 40}}], "paths": ["5-o0"]},
            "A3": None,
            "A5": None,
            "A7": None,
            "B2": {"name": "West", "cities": [{"revenue": 0}]},
            "B4": {"cost": 40, "terrain": ["mountain"]},
            "B6": {"name": "East", "cities": [{"revenue": 0}]},
            "C1": None,
            "C3": None,
            "C5": {"name": "Hill", "cities": [{"revenue": 0}], "cost": 40, "terrain": ["mountain"]},
            "D4": None,
            "C7": {"color": "red", "offboards": [{"revenue": {"yellow": 30, "green": 50}}], "paths": ["2-o0"]},
        },
    },
    "trains": {
        "2": {"distance": 2, "price": 80, "count": 4, "rusts_on": "4"},
        "3": {"distance": 3, "price": 180, "count": 3, "events": [{"type": "close_companies"}]},
        "4": {"distance": 4, "price": 300, "count": 2},
    },
    "phases": [
        {"name": "2", "tiles": ["yellow"], "train_limit": 3, "operating_rounds": 1},
        {
            "name": "3",
            "on": "3",
            "tiles": ["yellow", "green"],
            "train_limit": 3,
            "operating_rounds": 2,
            "status": ["can_buy_companies"],
        },
        {"name": "4", "on": "4", "tiles": ["yellow", "green"], "train_limit": 2, "operating_rounds": 2},
    ],
    "market": {
        "type": "2d",
        "legend": {"p": "par", "b": "multiple_buy"},
        "rows": ["60 70p 80p 90p 100 110 120 135 150", "50b 60b 70b 80 90 100"],
    },
    "manifest": {"7": 4, "8": 8, "9": 8, "57": 2, "14": 2, "15": 2},
}

FILES = {
    "game.yaml": ["meta", "players", "rounds", "mechanics", "end", "options"],
    "companies.yaml": ["corporations", "privates"],
    "map.yaml": ["map"],
    "trains.yaml": ["trains", "phases"],
    "market.yaml": ["market"],
    "tiles.yaml": ["manifest"],
}


def small_title(tmp_path: Path, change: Any = None) -> dict[str, Any]:
    """The compiled rulebook of the small title above, after ``change(title)`` (JSON is YAML)."""
    title = copy.deepcopy(BASE)
    if change is not None:
        change(title)
    folder = tmp_path / "vocab"
    folder.mkdir(parents=True, exist_ok=True)
    for name, keys in FILES.items():
        part = {k: title[k] for k in keys if k in title}
        (folder / name).write_text(json.dumps(part, indent=1), encoding="utf-8")
    return build_rulebook(folder)


# (actions are processed non-atomically: a refused one is not rewound by replaying the log, which would lose the
# state the tests set up directly)


def give(g: Game, company: str, player: str) -> None:
    """Hand a private to a player (as the initial sale would)."""
    c = g.state.companies[company]
    c.owner = pkey(player)
    g.state.players[[p.id for p in g.state.players].index(player)].companies.append(company)
    g.context.epoch += 1  # (the steps' memoised answers see the change)


def float_wr(g: Game) -> None:
    """Players ann, bob and cy launch and float WR (60% at $70), then pass to the operating round."""
    g.process(
        {"type": "par", "entity": "ann", "entity_type": "player", "corporation": "WR", "share_price": "70,0,1"}, False
    )
    for who, sid in (("bob", "WR_1"), ("cy", "WR_2"), ("ann", "WR_3"), ("bob", "WR_4")):
        g.process({"type": "buy_shares", "entity": who, "entity_type": "player", "shares": [sid], "percent": 10}, False)


# ------------------------------------------------------------------------------------------------ timing words


def _ability(when: str) -> Ability:
    return Ability("tile_lay", {"type": "tile_lay", "when": when, "owner": "player"})


def test_player_timing_words(tmp_path: Path) -> None:
    g = Game.start(small_title(tmp_path), ["ann", "bob", "cy"], seed=1)
    give(g, "MR", "ann")
    ctx = g.context
    assert abilities.timing_ok(ctx, xkey("MR"), _ability("any"))
    assert abilities.timing_ok(ctx, xkey("MR"), _ability("stock_round"))
    assert abilities.timing_ok(ctx, xkey("MR"), _ability("owning_player_sr_turn")), "ann acts first"
    assert not abilities.timing_ok(ctx, xkey("MR"), _ability("owning_player_or_turn")), "not in a stock round"
    g.process({"type": "pass", "entity": "ann", "entity_type": "player"}, False)
    assert not abilities.timing_ok(ctx, xkey("MR"), _ability("owning_player_sr_turn")), "now bob's turn"


# ------------------------------------------------------------------------------------------------ exchange


def test_exchange_swaps_the_private_for_a_share_at_any_time(tmp_path: Path) -> None:
    g = Game.start(small_title(tmp_path), ["ann", "bob", "cy"], seed=1)
    give(g, "MR", "cy")
    g.process(
        {"type": "par", "entity": "ann", "entity_type": "player", "corporation": "WR", "share_price": "70,0,1"}, False
    )
    cash = g.context.cash(pkey("cy"))
    g.process(
        {"type": "buy_shares", "entity": "MR", "entity_type": "company", "shares": ["WR_1"], "percent": 10}, False
    )
    assert g.state.shares["WR_1"].owner == pkey("cy")
    assert g.state.companies["MR"].closed and g.context.cash(pkey("cy")) == cash
    assert g.acting_entities() == [pkey("bob")], "the exchange is not a turn"
    with pytest.raises(IllegalAction):
        g.process(
            {"type": "buy_shares", "entity": "MR", "entity_type": "company", "shares": ["WR_2"], "percent": 10}, False
        )


def test_exchange_only_from_the_sources_named(tmp_path: Path) -> None:
    def change(t: dict[str, Any]) -> None:
        t["privates"]["MR"]["abilities"][0]["params"]["from"] = ["pool"]

    g = Game.start(small_title(tmp_path, change), ["ann", "bob", "cy"], seed=1)
    give(g, "MR", "cy")
    with pytest.raises(IllegalAction):  # the pool holds no WR share
        g.process(
            {"type": "buy_shares", "entity": "MR", "entity_type": "company", "shares": ["WR_1"], "percent": 10}, False
        )


# ------------------------------------------------------------------------------------- train events, closing


def test_train_events_happen_when_the_first_of_its_type_leaves(tmp_path: Path) -> None:
    g = Game.start(small_title(tmp_path), ["ann", "bob", "cy"], seed=1)
    give(g, "TP", "ann")
    float_wr(g)
    ctx = g.context
    ctx.spend("bank", ckey("WR"), 1000)
    three = next(t for t in ctx.state.depot if ctx.state.trains[t].sym == "3")
    depot.buy_train(ctx, ckey("WR"), three, 180, None)
    assert g.state.companies["TP"].closed, "the 3-train's close_companies event"


def test_close_on_bought_train_follows_the_certificate(tmp_path: Path) -> None:
    g = Game.start(small_title(tmp_path), ["ann", "bob", "cy"], seed=7)
    cv = g.state.companies["CV"]
    drawn = next(a.spec["shares"][0] for a in cv.abilities if a.type == "shares")
    assert drawn == f"{['WR', 'ER'][Lcg(7).draw() % 2]}_0", "one seeded draw over the corporations, in order"
    corp = drawn.rsplit("_", 1)[0]
    other = "ER" if corp == "WR" else "WR"
    ctx = g.context
    for sym in (other, corp):
        ctx.spend("bank", ckey(sym), 500)
        depot.buy_train(ctx, ckey(sym), ctx.state.depot[0], 80, None)
        assert cv.closed == (sym == corp)


def test_no_buy_private_is_never_offered(tmp_path: Path) -> None:
    g = Game.start(small_title(tmp_path), ["ann", "bob", "cy"], seed=1)
    give(g, "CV", "ann")
    give(g, "TP", "bob")
    ctx = g.context
    ctx.state.phase = 1
    assert "CV" not in private_companies.purchasable(ctx, ckey("WR"))
    assert "TP" in private_companies.purchasable(ctx, ckey("WR"))


# ------------------------------------------------------------------------------------------------ teleport


def test_teleport_lays_unconnected_then_places_a_free_token(tmp_path: Path) -> None:
    g = Game.start(small_title(tmp_path), ["ann", "bob", "cy"], seed=1)
    float_wr(g)
    for who in ("cy", "ann", "bob"):
        g.process({"type": "pass", "entity": who, "entity_type": "player"}, False)
    ctx = g.context
    assert ctx.current_operator() == ckey("WR")
    c = g.state.companies["TP"]
    c.owner = ckey("WR")
    ctx.corp(ckey("WR")).companies.append("TP")
    ctx.epoch += 1
    cash = ctx.cash(ckey("WR"))
    g.process(
        {"type": "lay_tile", "entity": "TP", "entity_type": "company", "hex": "C5", "tile": "57-0", "rotation": 0},
        False,
    )
    assert ctx.cash(ckey("WR")) == cash - 40, "the mountain is paid"
    with pytest.raises(IllegalAction):  # the token first
        g.process({"type": "pass", "entity": "WR", "entity_type": "corporation"}, False)
    g.process({"type": "place_token", "entity": "TP", "entity_type": "company", "city": "57-0-0", "slot": 0}, False)
    assert ctx.cash(ckey("WR")) == cash - 40, "the token is free"
    assert any(t.hex == "C5" for t in ctx.corp(ckey("WR")).tokens)
    assert rounds.active_step(ctx).name not in ("teleport", "track", "token"), "the lay and token were the turn's"


# ----------------------------------------------------------------------------------------- train_export


def test_train_export_at_the_end_of_each_or_set(tmp_path: Path) -> None:
    def change(t: dict[str, Any]) -> None:
        t["mechanics"]["train_export"] = {"types": ["2"]}

    g = Game.start(small_title(tmp_path, change), ["ann", "bob", "cy"], seed=1)
    ctx = g.context
    before = len(ctx.state.depot)
    for who in ("ann", "bob", "cy"):
        g.process({"type": "pass", "entity": who, "entity_type": "player"}, False)
    assert len(ctx.state.depot) == before - 1, "no corporation operated; the set ended and a 2 left"
    for t in list(ctx.state.depot):
        if ctx.state.trains[t].sym == "2":
            ctx.state.depot.remove(t)
    ctx.hooks("or_set_finished")
    assert ctx.state.trains[ctx.state.depot[0]].sym == "3", "a 3 is not exported"


# ------------------------------------------------------------------------------------------- short_handed


def test_short_handed_shares(tmp_path: Path) -> None:
    def change(t: dict[str, Any]) -> None:
        t["mechanics"]["short_handed"] = {
            "players": [2],
            "president_percent": 30,
            "shares_out_of_play": 1,
            "except_private_certificate": True,
            "unsold_to_market_at_float": True,
        }

    book = small_title(tmp_path, change)
    g = Game.start(book, ["ann", "bob"], seed=7)
    drawn = next(a.spec["shares"][0] for a in g.state.companies["CV"].abilities if a.type == "shares")
    corp = drawn.rsplit("_", 1)[0]
    other = "ER" if corp == "WR" else "WR"
    assert g.state.shares[f"{corp}_0"].percent == 20
    assert g.state.shares[f"{other}_0"].percent == 30
    assert f"{other}_8" not in g.state.shares and f"{corp}_8" in g.state.shares
    assert Game.start(book, ["ann", "bob", "cy"], seed=7).state.shares[f"{other}_0"].percent == 20


# ------------------------------------------------------------------------------------- auction cash, buys


def test_locked_cash_leading_bids(tmp_path: Path) -> None:
    for mode in ("all_bids", "leading_bids"):

        def change(t: dict[str, Any], mode: str = mode) -> None:
            t["rounds"]["start"] = ["initial"]
            t["rounds"]["kinds"]["initial"] = {"type": "bid_box", "steps": ["company_pending_par", "bid_box"]}
            t["mechanics"]["bid_box_auction"] = {"order": ["MR", "TP", "CV"], "locked_cash": mode}

        g = Game.start(small_title(tmp_path / mode, change), ["ann", "bob"], seed=1)
        g.process({"type": "bid", "entity": "ann", "entity_type": "player", "company": "TP", "price": 600}, False)
        g.process({"type": "bid", "entity": "bob", "entity_type": "player", "company": "TP", "price": 650}, False)
        second = {"type": "bid", "entity": "ann", "entity_type": "player", "company": "CV", "price": 700}
        if mode == "all_bids":
            with pytest.raises(IllegalAction):  # 600 + 700 > 1000
                g.process(second, False)
        else:
            g.process(second, False)  # her outbid 600 sets nothing aside


def test_multiple_buy_from_ipo(tmp_path: Path) -> None:
    def change(t: dict[str, Any]) -> None:
        t["mechanics"]["stock_round"]["multiple_buy_from_ipo"] = True

    for flag in (False, True):
        g = Game.start(small_title(tmp_path / str(flag), change if flag else None), ["ann", "bob", "cy"], seed=1)
        g.process(
            {"type": "par", "entity": "ann", "entity_type": "player", "corporation": "WR", "share_price": "70,0,1"},
            False,
        )
        g.process({"type": "pass", "entity": "bob", "entity_type": "player"}, False)
        g.process({"type": "pass", "entity": "cy", "entity_type": "player"}, False)
        ctx = g.context
        ctx.state.corporations["WR"].price = [1, 0]  # a brown (multiple_buy) cell
        g.process(
            {"type": "buy_shares", "entity": "ann", "entity_type": "player", "shares": ["WR_1"], "percent": 10}, False
        )
        again = {"type": "buy_shares", "entity": "ann", "entity_type": "player", "shares": ["WR_2"], "percent": 10}
        if flag:
            g.process(again, False)
            assert g.state.shares["WR_2"].owner == pkey("ann")
        else:
            with pytest.raises(IllegalAction):
                g.process(again, False)


# --------------------------------------------------------------------------- a train with a private; end order


def test_private_brings_a_train_when_sold(tmp_path: Path) -> None:
    def change(t: dict[str, Any]) -> None:
        t["privates"]["TP"]["abilities"].append({"type": "train", "when": "sold", "params": {"train": "2"}})

    g = Game.start(small_title(tmp_path, change), ["ann", "bob", "cy"], seed=1)
    ctx = g.context
    n = len(ctx.state.depot)
    ctx.hooks("company_sold", "TP", ckey("WR"))
    assert [ctx.state.trains[t].sym for t in ctx.corp(ckey("WR")).trains] == ["2"]
    assert len(ctx.state.depot) == n - 1 and ctx.cash(ckey("WR")) == 0, "free, from the bank"


def test_end_triggers_of_one_timing_in_the_order_they_fired(tmp_path: Path) -> None:
    from railbook.engine.mechanics import core

    def change(t: dict[str, Any]) -> None:
        t["end"] = [
            {"type": "bank", "after": "full_or"},
            {"type": "final_train", "after": "full_or", "params": {"train": "3"}},
        ]

    g = Game.start(small_title(tmp_path, change), ["ann", "bob", "cy"], seed=1)
    ctx = g.context
    ctx.spend("bank", ckey("WR"), 500)
    three = next(t for t in ctx.state.depot if ctx.state.trains[t].sym == "3")
    depot.buy_train(ctx, ckey("WR"), three, 180, None)
    assert core.end_check(ctx) == "full_or"
    ctx.state.bank_broken = True
    core.end_check(ctx)
    assert ctx.state.extra["end_reason_now"] == "final_train", "it fired first, though `bank` sorts before it"


# ---------------------------------------------------------------------------------------------- validate


def test_validate_names_unknown_timing_words_and_missing_mechanics(tmp_path: Path) -> None:
    from railbook.compiler.errors import TitleError

    def typo(t: dict[str, Any]) -> None:
        t["privates"]["MR"]["abilities"][0]["when"] = "owning_player_turn"

    with pytest.raises(TitleError) as err:
        small_title(tmp_path / "a", typo)
    assert any("unknown timing word 'owning_player_turn'" in line for line in err.value.problems)

    def unplayed(t: dict[str, Any]) -> None:
        del t["mechanics"]["exchange"]
        t["rounds"]["kinds"]["stock"]["steps"] = ["stock"]
        t["rounds"]["kinds"]["operating"]["steps"].remove("exchange")

    with pytest.raises(TitleError) as err:
        small_title(tmp_path / "b", unplayed)
    assert any("mechanic exchange" in line for line in err.value.problems)


def test_one_new_train_per_turn_only_in_some_phases(tmp_path: Path) -> None:
    def change(t: dict[str, Any]) -> None:
        t["mechanics"]["trains"] = {"bank_trains_per_turn": 1, "bank_trains_per_turn_status": "one_train_per_turn"}
        t["phases"][0]["status"] = ["one_train_per_turn"]

    g = Game.start(small_title(tmp_path, change), ["ann", "bob", "cy"], seed=1)
    float_wr(g)
    for who in ("cy", "ann", "bob"):
        g.process({"type": "pass", "entity": who, "entity_type": "player"}, False)
    ctx = g.context
    step = next(s for s in rounds.steps(ctx) if s.name == "buy_train")
    step.st.data["new_bought"] = 1
    assert not step.new_trains_left(), "phase 2 lists the status: one new train a turn"
    ctx.state.phase = 1
    assert step.new_trains_left(), "phase 3 does not"


def test_companies_over_the_limit_discard_in_any_order(tmp_path: Path) -> None:
    def change(t: dict[str, Any]) -> None:
        t["rounds"]["kinds"]["stock"]["steps"] = ["discard_train", "exchange", "stock"]

    g = Game.start(small_title(tmp_path, change), ["ann", "bob", "cy"], seed=1)
    ctx = g.context
    for sym in ("WR", "ER"):
        ctx.spend("bank", ckey(sym), 1000)
        for _ in range(2):
            depot.buy_train(ctx, ckey(sym), ctx.state.depot[0], 80, None)
    ctx.state.phase = 2  # limit 2 ...
    for sym in ("WR", "ER"):
        t = next(x for x in ctx.state.depot if ctx.state.trains[x].sym == "3")
        depot.buy_train(ctx, ckey(sym), t, 180, None)  # ... and three trains each
    ctx.epoch += 1
    last = ctx.corp(ckey("ER")).trains[0]
    g.process({"type": "discard_train", "entity": "ER", "entity_type": "corporation", "train": last}, False)
    assert last not in ctx.corp(ckey("ER")).trains, "ER discards before WR"


# ------------------------------------------------------------------------------------------ old route format


def test_a_route_given_by_its_stops_hexes_only(tmp_path: Path) -> None:
    """Older 18xx.games records give a route as the hexes of its stops, without the track between them."""
    g = Game.start(small_title(tmp_path), ["ann", "bob", "cy"], seed=1)
    float_wr(g)
    ctx = g.context
    depot.buy_train(ctx, ckey("WR"), ctx.state.depot[0], 80, None)
    for who in ("cy", "ann", "bob"):
        g.process({"type": "pass", "entity": who, "entity_type": "player"}, False)
    g.process(
        {"type": "lay_tile", "entity": "WR", "entity_type": "corporation", "hex": "B2", "tile": "57-0", "rotation": 2},
        False,
    )
    while rounds.active_step(ctx).name != "route":
        g.process({"type": "pass", "entity": "WR", "entity_type": "corporation"}, False)
    train = ctx.corp(ckey("WR")).trains[0]
    run = {
        "type": "run_routes",
        "entity": "WR",
        "entity_type": "corporation",
        "routes": [{"train": train, "hexes": ["B2", "A1"]}],
    }
    g.process(run, False)
    assert any("runs for 40" in line for line in g.log), g.log[-3:]


def test_a_private_only_at_some_player_counts(tmp_path: Path) -> None:
    def change(t: dict[str, Any]) -> None:
        t["players"]["2"]["privates_removed"] = ["TP"]

    book = small_title(tmp_path, change)
    two = Game.start(book, ["ann", "bob"], seed=1)
    assert two.state.companies["TP"].closed and two.state.companies["TP"].removed
    assert not Game.start(book, ["ann", "bob", "cy"], seed=1).state.companies["TP"].closed


def test_a_player_owned_private_lays_in_his_stock_turn_and_his_companys_track_step(tmp_path: Path) -> None:
    def change(t: dict[str, Any]) -> None:
        t["rounds"]["kinds"]["stock"]["steps"] = ["exchange", "special_track", "stock"]
        t["rounds"]["kinds"]["operating"]["steps"].insert(2, "special_track")
        lay = {"type": "tile_lay", "owner": "player", "when": "owning_player_or_sr_turn", "hexes": ["C3", "A5"]}
        t["privates"]["MR"]["abilities"].append({**lay, "tiles": ["7", "8", "9"], "count": 2, "free": True})

    g = Game.start(small_title(tmp_path, change), ["ann", "bob", "cy"], seed=1)
    give(g, "MR", "ann")
    g.process(
        {"type": "lay_tile", "entity": "MR", "entity_type": "company", "hex": "A5", "tile": "8-0", "rotation": 4}, False
    )
    assert g.state.hexes["A5"].tile is not None
    float_wr(g)  # ann presides WR; now cy's turn
    with pytest.raises(IllegalAction):  # not in another player's turn
        g.process(
            {"type": "lay_tile", "entity": "MR", "entity_type": "company", "hex": "C3", "tile": "9-0", "rotation": 1},
            False,
        )
    for who in ("cy", "ann", "bob"):
        g.process({"type": "pass", "entity": who, "entity_type": "player"}, False)
    assert g.context.current_operator() == ckey("WR")
    g.process(
        {"type": "lay_tile", "entity": "MR", "entity_type": "company", "hex": "C3", "tile": "9-0", "rotation": 1}, False
    )
    assert rounds.active_step(g.context).name == "track", "WR still lays its own tile"


def test_a_private_sold_to_a_corporation_lays_its_tile_at_once(tmp_path: Path) -> None:
    def change(t: dict[str, Any]) -> None:
        t["rounds"]["kinds"]["operating"]["steps"].insert(0, "sold_track")
        lay = {"type": "tile_lay", "when": "sold", "hexes": ["C3"], "tiles": ["9"], "count": 1, "free": True}
        t["privates"]["MR"]["abilities"] = [lay]

    g = Game.start(small_title(tmp_path, change), ["ann", "bob", "cy"], seed=1)
    give(g, "MR", "bob")
    float_wr(g)
    for who in ("cy", "ann", "bob"):
        g.process({"type": "pass", "entity": who, "entity_type": "player"}, False)
    ctx = g.context
    ctx.state.phase = 1  # companies may buy privates
    ctx.epoch += 1
    g.process(
        {"type": "buy_company", "entity": "WR", "entity_type": "corporation", "company": "MR", "price": 40}, False
    )
    assert g.acting_entities() == [xkey("MR")], "the lay comes first"
    with pytest.raises(IllegalAction):
        g.process({"type": "pass", "entity": "WR", "entity_type": "corporation"}, False)
    g.process(
        {"type": "lay_tile", "entity": "MR", "entity_type": "company", "hex": "C3", "tile": "9-0", "rotation": 1}, False
    )
    assert g.state.hexes["C3"].tile == "9" and g.acting_entities() == [ckey("WR")]


def test_validate_refuses_an_upgrade_exception_no_rotation_fits(tmp_path: Path) -> None:
    from railbook.compiler.compile import check
    from railbook.compiler.errors import TitleError
    from railbook.compiler.load import load_title

    def change(t: dict[str, Any]) -> None:
        t["tile_rules"] = {"exceptions": [{"tiles": ["57"], "to": ["8"]}]}  # a city to a curve: no rotation keeps it

    FILES["tiles.yaml"].append("tile_rules")
    try:
        with pytest.raises(TitleError) as err:
            small_title(tmp_path, change)
        assert any("does not keep the track" in line for line in err.value.problems)
        with pytest.raises(TitleError):  # validate (check) refuses it, not only compile
            check(load_title(tmp_path / "vocab"))
    finally:
        FILES["tiles.yaml"].remove("tile_rules")


def test_a_city_without_token_spaces_never_blocks_and_takes_no_token(tmp_path: Path) -> None:
    from railbook.engine import board, stations

    def change(t: dict[str, Any]) -> None:
        t["map"]["hexes"]["C5"]["cities"] = [{"revenue": 10, "slots": 0}]

    g = Game.start(small_title(tmp_path, change), ["ann", "bob", "cy"], seed=1)
    ctx = g.context
    assert not board.city_blocks(ctx, "C5", 0, ckey("WR")), "routes pass a neutral city"
    assert not stations.tokenable(ctx, ckey("WR"), "C5", 0), "nobody may token it"
    assert board.city_blocks(ctx, "B6", 0, ckey("WR")) is False  # an empty one-space city does not block either


def test_a_stop_worth_more_to_some_train_types(tmp_path: Path) -> None:
    def change(t: dict[str, Any]) -> None:
        t["mechanics"]["train_stop_values"] = {"values": {"A1": {"2": 100}}}

    g = Game.start(small_title(tmp_path, change), ["ann", "bob", "cy"], seed=1)
    float_wr(g)
    ctx = g.context
    depot.buy_train(ctx, ckey("WR"), ctx.state.depot[0], 80, None)
    for who in ("cy", "ann", "bob"):
        g.process({"type": "pass", "entity": who, "entity_type": "player"}, False)
    lay = {"type": "lay_tile", "entity": "WR", "entity_type": "corporation", "hex": "B2", "tile": "57-0", "rotation": 2}
    g.process(lay, False)
    while rounds.active_step(ctx).name != "route":
        g.process({"type": "pass", "entity": "WR", "entity_type": "corporation"}, False)
    train = ctx.corp(ckey("WR")).trains[0]
    route = {"train": train, "connections": [["B2", "A1"]]}
    g.process({"type": "run_routes", "entity": "WR", "entity_type": "corporation", "routes": [route]}, False)
    assert any("runs for 120" in line for line in g.log), g.log[-3:]  # 20 + 100 (the printed value is 20)


def test_a_hex_cost_paid_on_every_lay(tmp_path: Path) -> None:
    from railbook.engine import board
    from railbook.engine.mechanics import track

    for every in (False, True):

        def change(t: dict[str, Any], every: bool = every) -> None:
            t["mechanics"]["track"] = {"terrain_cost_every_lay": ["C5"] if every else []}

        g = Game.start(small_title(tmp_path / str(every), change), ["ann", "bob", "cy"], seed=1)
        ctx = g.context
        first = board.plan_lay(ctx, "C5", "57-0", 0, key=None, check_connection=False)
        assert track.lay_cost(ctx, ckey("WR"), first) == 40
        ctx.state.hexes["C5"].cost_paid = True  # as after the first tile
        again = board.plan_lay(ctx, "C5", "57-0", 0, key=None, check_connection=False)
        assert track.lay_cost(ctx, ckey("WR"), again) == (40 if every else 0)


def test_validate_strict_lists_what_each_private_does(tmp_path: Path) -> None:
    from tests.conftest import run_cli

    small_title(tmp_path)
    out = run_cli("validate", str(tmp_path / "vocab"), "--strict")
    assert out.returncode == 0, out.stderr
    assert "MR Mountain Railway" in out.stdout
    assert "exchange, corporation WR, by its owning player when any" in out.stdout
    assert "[played by exchange]" in out.stdout and "[played by teleport]" in out.stdout
