"""Fields of the format the engine did not read before issue 36 ("a closed format"), each now played, in the small
title of ``test_base_vocabulary``; and the keys that left the format, refused with the valid ones named."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from railbook.compiler.errors import TitleError
from railbook.engine import market
from railbook.engine.game import Game
from railbook.engine.mechanics import core
from railbook.engine.shares import move_share, new_share
from railbook.engine.state import pkey

from tests.test_base_vocabulary import float_wr, small_title

PLAYERS = ["ann", "bob", "cy"]


def _buy(g: Game, who: str, sid: str) -> None:
    g.process({"type": "buy_shares", "entity": who, "entity_type": "player", "shares": [sid], "percent": 10}, False)


def _pass(g: Game, who: str) -> None:
    g.process({"type": "pass", "entity": who, "entity_type": "player"}, False)


def _ann_buys_up_to(g: Game, percent: int) -> bool:
    """Ann pars WR and buys one share a turn (the others pass) until she holds ``percent``; False when refused."""
    g.process({"type": "par", "entity": "ann", "entity_type": "player", "corporation": "WR", "share_price": "70,0,1"})
    _pass(g, "bob")
    _pass(g, "cy")
    for n in range(1, percent // 10 - 1):
        sid = f"WR_{n}"
        if not any(a.type == "buy_shares" and sid in a.fields.get("shares", []) for a in g.legal_actions()):
            return False
        _buy(g, "ann", sid)
        _pass(g, "bob")
        _pass(g, "cy")
    return True


@pytest.mark.parametrize(("own", "allowed"), [(None, False), (70, True)])
def test_a_corporation_s_own_share_limit(tmp_path: Path, own: int | None, allowed: bool) -> None:
    """``corporations.<c>.max_ownership_percent`` replaces ``stock_round.max_percent_per_player`` for that
    corporation (1817 §5.4: 100% of a company)."""

    def change(t: dict[str, Any]) -> None:
        if own is not None:
            t["corporations"]["WR"]["max_ownership_percent"] = own

    g = Game.start(small_title(tmp_path, change), PLAYERS, seed=1)
    assert _ann_buys_up_to(g, 70) is allowed


@pytest.mark.parametrize("always", [False, True])
def test_ipo_shares_at_market_price(tmp_path: Path, always: bool) -> None:
    """``always_market_price``: the corporation's IPO shares sell at the market price although the title sells
    IPO shares at par (1846 §5.4, incremental capitalization)."""

    def change(t: dict[str, Any]) -> None:
        t["corporations"]["WR"]["always_market_price"] = always

    g = Game.start(small_title(tmp_path, change), PLAYERS, seed=1)
    g.process({"type": "par", "entity": "ann", "entity_type": "player", "corporation": "WR", "share_price": "70,0,1"})
    market.move(g.context, "WR", "right", 2)  # the market price is now 90, the par still 70
    cash = g.context.cash(pkey("bob"))
    _buy(g, "bob", "WR_1")
    assert cash - g.context.cash(pkey("bob")) == (90 if always else 70)


def test_trains_removed_at_a_player_count(tmp_path: Path) -> None:
    """``players.<n>.trains_removed`` takes copies of a train out of the game at that player count."""

    def change(t: dict[str, Any]) -> None:
        t["players"]["3"]["trains_removed"] = {"2": 1}

    counts = {}
    for n, players in ((2, PLAYERS[:2]), (3, PLAYERS)):
        g = Game.start(small_title(tmp_path / str(n), change), players, seed=1)
        counts[n] = sum(1 for t in g.state.trains.values() if t.sym == "2")
    assert counts == {2: 4, 3: 3}


def _moved(tmp_path: Path, movement: dict[str, Any], pos: list[int], direction: str) -> list[int]:
    def change(t: dict[str, Any]) -> None:
        t["market"]["rows"] = ["60 70p 80p 90p 100 110", "50 60 70 80 90", "40 50 60"]
        t["market"]["movement"] = movement

    g = Game.start(small_title(tmp_path, change), PLAYERS, seed=1)
    return market.step(g.context, pos, direction)


def test_2d_moves_follow_the_movement_rules(tmp_path: Path) -> None:
    """``market.movement.right``/``left`` (``columns``, ``blocked``) and ``up.rows`` of a 2d market: 1850 [5.8.1]
    (at a row's end RIGHT goes up, LEFT down), and the rule's other choices."""
    assert _moved(tmp_path / "a", {}, [1, 4], "right") == [0, 4], "by default a blocked RIGHT goes up"
    assert _moved(tmp_path / "b", {"right": {"blocked": "stay"}}, [1, 4], "right") == [1, 4]
    assert _moved(tmp_path / "c", {"right": {"columns": 2}}, [1, 0], "right") == [1, 2]
    assert _moved(tmp_path / "d", {}, [2, 0], "left") == [2, 0], "a blocked LEFT goes down, or stays at the bottom"
    assert _moved(tmp_path / "e", {"left": {"blocked": "up"}}, [1, 0], "left") == [0, 0]
    assert _moved(tmp_path / "f", {"up": {"rows": 2}}, [2, 1], "up") == [0, 1]


def test_a_sale_drops_per_share_rows(tmp_path: Path) -> None:
    """``market.movement.down.per_share``: rows down for each share sold."""

    def change(t: dict[str, Any]) -> None:
        t["market"]["rows"] = ["60 70p 80p", "50 60 70", "40 50 60", "30 40 50"]
        t["market"]["movement"] = {"down": {"per_share": 2}}

    g = Game.start(small_title(tmp_path, change), PLAYERS, seed=1)
    g.process({"type": "par", "entity": "ann", "entity_type": "player", "corporation": "WR", "share_price": "70,0,1"})
    market.drop(g.context, "WR", 1)
    assert g.state.corporations["WR"].price == [2, 1]


def test_a_1d_market_stops_at_its_ceiling(tmp_path: Path) -> None:
    """``market.movement.ceiling_col``: no move right of that column (1817: nothing above $600)."""

    def change(t: dict[str, Any]) -> None:
        t["market"] = {"type": "1d", "legend": {"p": "par"}, "rows": ["60 70p 80p 90 100"]}
        t["market"]["movement"] = {"ceiling_col": 3}

    g = Game.start(small_title(tmp_path, change), PLAYERS, seed=1)
    assert market.step(g.context, [0, 2], "right") == [0, 3]
    assert market.step(g.context, [0, 3], "right") == [0, 3]


@pytest.mark.parametrize(("over", "col"), [(None, 2), (2, 3)])
def test_a_company_over_100_percent_moves_further(tmp_path: Path, over: int | None, col: int) -> None:
    """``end_of_stock_round.over_100_percent``: a company more than 100% held by players (short sales) moves by
    this instead of ``sold_out`` at the end of a stock round (1817 §9.3 Short Squeeze)."""

    def change(t: dict[str, Any]) -> None:
        t["market"] = {"type": "1d", "legend": {"p": "par"}, "rows": ["60 70p 80p 90 100"]}
        t["market"]["movement"] = {"end_of_stock_round": {"sold_out": 1}}
        if over is not None:
            t["market"]["movement"]["end_of_stock_round"]["over_100_percent"] = over

    g = Game.start(small_title(tmp_path, change), PLAYERS, seed=1)
    g.process({"type": "par", "entity": "ann", "entity_type": "player", "corporation": "WR", "share_price": "70,0,1"})
    ctx = g.context
    ctx.state.corporations["WR"].floated = True
    for n in range(1, 9):
        move_share(ctx, f"WR_{n}", pkey("bob"))
    new_share(ctx, "WR", pkey("ann"), 10)
    new_share(ctx, "WR", pkey("cy"), -10)  # cy's short: ann and bob hold 110%
    ctx.hooks("stock_round_finished")
    assert g.state.corporations["WR"].price == [0, col]


def test_a_share_price_ends_the_game(tmp_path: Path) -> None:
    """An ``end`` trigger ``stock_market`` with ``params.price``: a share price at or above it ends the game (1850
    [16.1] $400 Finish)."""

    def change(t: dict[str, Any]) -> None:
        t["end"] = [{"type": "stock_market", "after": "immediate", "params": {"price": 100}}]

    g = Game.start(small_title(tmp_path, change), PLAYERS, seed=1)
    float_wr(g)
    assert core.end_check(g.context) is None
    market.move(g.context, "WR", "right", 3)  # 70 -> 100
    assert core.end_check(g.context) == "immediate"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t["market"].setdefault("movement", {}).update(zones_cumulative=True), "'zones_cumulative'"),
        (lambda t: t["privates"]["TP"]["abilities"][0].setdefault("params", {}).update(which_train=1), "which_train"),
        (lambda t: t["end"][0].setdefault("params", {}).update(if_in_stock_round="x"), "if_in_stock_round"),
        (lambda t: t["mechanics"].update(bid_box_auction={"order": ["MR"], "then": "stock_round"}), "'then'"),
    ],
)
def test_keys_no_rule_reads_are_refused(tmp_path: Path, edit: Any, message: str) -> None:
    """A key the engine would not play is a located error naming the valid keys, not a silent no-op."""
    with pytest.raises(TitleError, match=message) as err:
        small_title(tmp_path, edit)
    assert "valid" in str(err.value) or "did you mean" in str(err.value)
