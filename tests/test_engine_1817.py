"""1817 on the interpreter: the shared records, and the initial auction, IPO auctions, company turns and short
sales through the public API."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from railbook.engine import Game, market
from railbook.engine.errors import IllegalAction, UnsupportedTitle
from railbook.engine.replay import ReplayError, load, record_options, replay

from railbook.api import rulebook_for_title

from .conftest import fixture_files

FILES = fixture_files("1817")
NO_FIXTURES = "the shared 1817 records are not available (set RAILBOOK_SHARED to the shared/ folder)"

#: Where each record the engine cannot follow yet stops (index and id of the action, rule).
STOPS: dict[str, str] = {}


def _params() -> list[Any]:
    return [
        pytest.param(
            p,
            id=p.name,
            marks=[pytest.mark.xfail(reason=STOPS[p.name], strict=True, raises=(ReplayError, UnsupportedTitle))]
            if p.name in STOPS
            else [],
        )
        for p in FILES
    ]


@pytest.mark.skipif(not FILES, reason=NO_FIXTURES)
@pytest.mark.parametrize("path", _params())
def test_record_replays_to_its_result(path: Path) -> None:
    record = load(path)
    outcome = replay(record, rulebook_for_title("1817"), strict=True)
    assert outcome.matches, (outcome.result, outcome.game_end_reason, record.get("result"))


@pytest.mark.skipif(not FILES, reason=NO_FIXTURES)
@pytest.mark.parametrize("path", [p for p in FILES if p.name in STOPS], ids=lambda p: p.name)
def test_record_stops_where_expected(path: Path) -> None:
    with pytest.raises((ReplayError, UnsupportedTitle)) as err:
        replay(load(path), rulebook_for_title("1817"), strict=True)
    assert STOPS[path.name] in str(err.value)


def test_records_play_the_default_variants_unless_a_named_option_excludes_them() -> None:
    rb = rulebook_for_title("1817")
    plain = record_options({"settings": {"optional_rules": []}}, rb)
    assert {"increased_short_sales", "more_players"} <= set(plain)
    assert Game.start(rb, PLAYERS, options=plain).context.params["short_selling"].max_shorts_by_size[10] == 10
    five = record_options({"settings": {"optional_rules": ["five_shorts"]}}, rb)
    assert "five_shorts" in five and "increased_short_sales" not in five
    assert Game.start(rb, PLAYERS, options=five).context.params["short_selling"].max_shorts_by_size[10] == 5


def playable_1817() -> dict[str, Any]:
    return rulebook_for_title("1817")


# ------------------------------------------------------------------------------------- by the API

PLAYERS = ["a", "b", "c", "d"]


def act(g: Game, entity: str, type: str, **fields: Any) -> None:
    etype = "corporation" if entity.isupper() or "&" in entity else "player"
    g.process({"type": type, "entity": entity, "entity_type": etype, **fields})


def new_game() -> Game:
    return Game.start(playable_1817(), PLAYERS)


def after_auction(g: Game) -> Game:
    """Everyone passes at once: every private leaves the game unsold."""
    for p in PLAYERS:
        act(g, p, "pass")
    return g


def test_nomination_auction_sells_with_seed_money() -> None:
    g = new_game()
    assert g.acting() == ["a"]
    bid = next(a for a in g.legal_descriptions() if a["type"] == "bid")
    minm = next(c for c in bid["choices"] if c["company"] == "MINM")
    assert minm["min"] == 0  # face $60 minus the $200 seed money, never below 0
    act(g, "a", "bid", company="MINM", price=10)
    assert g.acting() == ["b"]
    with pytest.raises(IllegalAction):
        act(g, "b", "bid", company="MINM", price=12)  # not a multiple of $5
    with pytest.raises(IllegalAction):
        act(g, "b", "bid", company="MINM", price=10)  # not above the high bid
    act(g, "b", "bid", company="MINM", price=20)
    for p in ("c", "d", "a"):
        act(g, p, "pass")
    assert g.state.companies["MINM"].owner == "P|b"
    assert g.context.cash("P|b") == 315 - 20
    assert g.acting() == ["b"]  # the next nominator sits left of the last one


def test_unsold_privates_leave_when_everyone_passes() -> None:
    g = new_game()
    act(g, "a", "bid", company="MAIL", price=50)
    for p in ("b", "c", "d"):
        act(g, p, "pass")
    assert g.state.round.kind == "auction"
    for p in ("b", "c", "d", "a"):
        act(g, p, "pass")
    assert g.state.round.kind == "stock"
    assert g.state.companies["MINM"].removed and not g.state.companies["MAIL"].removed
    assert g.acting() == ["b"]  # priority: left of the last nominator


def test_volatility_pyramid_deals_lots_into_tiers() -> None:
    g = Game.start(playable_1817(), PLAYERS, seed=7, options=["volatility"])
    tiers = g.state.mechanics["nomination_auction"].tiers
    assert [len(t) for t in tiers] == [1, 2, 3, 4, 5, 6]
    drawn = [s for s in ("PSM", "P16", "P17", "P24") if not g.state.companies[s].removed]
    assert tiers[0] == drawn and len(drawn) == 1  # one city-tile private on top, the other three out
    bottom = list(tiers[-1])
    bid = next(a for a in g.legal_descriptions() if a["type"] == "bid")
    assert sorted(c["company"] for c in bid["choices"]) == sorted(bottom)
    assert all(a["type"] != "pass" for a in g.legal_descriptions())  # a lot must be nominated
    with pytest.raises(IllegalAction):
        act(g, "a", "bid", company=tiers[-2][0], price=0)  # not in the bottom tier
    act(g, "a", "bid", company=bottom[1], price=0)
    for p in ("b", "c", "d"):
        act(g, p, "pass")
    # the lot left of the sold one is now alone in its tier: it leaves the game
    assert g.state.companies[bottom[0]].removed
    tiers = g.state.mechanics["nomination_auction"].tiers
    assert tiers[-1][:2] == [None, None] and tiers[-1][2:] == bottom[2:]
    assert g.acting() == ["b"]  # the next nominator sits left of the last winner
    again = Game.from_json(playable_1817(), g.to_json())
    assert again.state.mechanics["nomination_auction"].tiers == tiers


def start_company(g: Game, player: str, corp: str, price: int, city: str) -> None:
    act(g, player, "bid", corporation=corp, price=price)
    act(g, corp, "place_token", city=city, slot=0)


def test_ipo_auction_starts_a_two_share_company() -> None:
    g = after_auction(new_game())
    assert g.acting() == ["a"]
    start_company(g, "a", "A&A", 140, "D9-0-0")
    assert g.acting() == ["b"]
    act(g, "b", "bid", corporation="A&A", price=150)
    for p in ("c", "d", "a"):
        act(g, p, "pass")
    corp = g.state.corporations["A&A"]
    assert corp.owner == "P|b" and corp.floated
    assert (
        market.price_at(g.context, g.state.corporations["A&A"].price) == 70
    )  # half the bid ($75), rounded down to a market value
    assert g.context.cash("C|A&A") == 150 and g.context.cash("P|b") == 315 - 150
    assert [s.percent for s in g.state.shares.values() if s.corp == "A&A"] == [100]
    assert g.acting() == ["b"]  # play goes on left of the starter
    with pytest.raises(IllegalAction):
        act(g, "b", "bid", corporation="A&A", price=100)  # already started


def test_winner_pays_with_privates_at_face_value() -> None:
    g = new_game()
    act(g, "a", "bid", company="MAJM", price=0)
    for p in ("b", "c", "d"):
        act(g, p, "pass")
    for p in ("b", "c", "d", "a"):
        act(g, p, "pass")
    # priority: b.  b starts PW; a wins it at $200 and pays $120 of it with the Major Mail Contract.
    start_company(g, "b", "PW", 190, "G18-0-0")
    for p in ("c", "d"):
        act(g, p, "pass")
    act(g, "a", "bid", corporation="PW", price=200)
    act(g, "b", "pass")
    assert g.acting() == ["a"]
    assert [a["type"] for a in g.legal_descriptions()] == ["assign", "pass"]
    act(g, "a", "assign", target="MAJM", target_type="company")
    assert g.state.companies["MAJM"].owner == "C|PW"
    assert g.context.cash("P|a") == 315 - 200 + 120 and g.context.cash("C|PW") == 200 - 120
    assert g.acting() == ["c"]


def test_a_company_takes_loans_in_its_presidents_stock_turn() -> None:
    g = after_auction(new_game())
    start_company(g, "a", "A&A", 140, "D9-0-0")
    for p in ("b", "c", "d"):
        act(g, p, "pass")
    for p in ("b", "c", "d"):
        act(g, p, "pass")
    assert g.acting() == ["a"]
    before = market.price_at(g.context, g.state.corporations["A&A"].price)
    act(g, "A&A", "take_loan")
    assert g.context.cash("C|A&A") == 240
    assert market.price_at(g.context, g.state.corporations["A&A"].price) < before  # each loan moves the price left
    types = [a["type"] for a in g.legal_descriptions()]
    assert "buy_shares" not in types and "pass" in types  # acting for a company is the whole turn
    act(g, "a", "pass")
    assert g.state.round.kind == "stock" and g.acting() == ["b"]


def _or_with_mine_private() -> Game:
    """a owns the Minor Coal Mine and starts UR in Blacksburg (I12) paying $30 of the bid with it; the first
    operating round begins with UR."""
    g = new_game()
    act(g, "a", "bid", company="MINC", price=0)
    for p in ("b", "c", "d"):
        act(g, p, "pass")
    for p in ("b", "c", "d", "a"):
        act(g, p, "pass")
    start_company(g, "b", "UR", 140, "I12-0-0")
    for p in ("c", "d"):
        act(g, p, "pass")
    act(g, "a", "bid", corporation="UR", price=150)
    act(g, "b", "pass")
    act(g, "a", "assign", target="MINC", target_type="company")
    while g.state.round.kind == "stock":
        act(g, g.acting()[0], "pass")
    assert g.state.round.kind == "operating" and g.context.current_operator() == "C|UR"
    return g


def test_a_coal_mine_lays_the_turns_second_tile_with_a_mine_token() -> None:
    g = _or_with_mine_private()
    assert g.context.cash("C|UR") == 150 - 30
    act(g, "UR", "lay_tile", hex="I12", tile="5-0", rotation=2)
    assert g.context.cash("C|UR") == 120 - 15  # the mountain's $15 on the first lay
    with pytest.raises(IllegalAction):
        g.process(
            {"type": "lay_tile", "entity": "MINC", "entity_type": "company", "hex": "H9", "tile": "8-0", "rotation": 5}
        )  # Charleston is no mine site
    g.process(
        {"type": "lay_tile", "entity": "MINC", "entity_type": "company", "hex": "H11", "tile": "8-0", "rotation": 5}
    )
    assert g.context.cash("C|UR") == 105 - 20  # the second lay's $20; the mountain is waived for the mine
    assert g.state.mechanics["mines"].tokens == {"H11": 1}
    assert not g.state.companies["MINC"].abilities  # its one token is used
    assert not g.context.hooks("lay_allowed", "C|UR", "H11", "83", 0)  # a mine's tile is never upgraded
    assert g.context.hooks("lay_allowed", "C|UR", "I12", "14", 0)
    with pytest.raises(IllegalAction):
        act(g, "UR", "lay_tile", hex="J11", tile="8-1", rotation=0)  # both lays of the turn are used


@pytest.mark.skipif(not any(p.name == "15528.json" for p in FILES), reason=NO_FIXTURES)
def test_a_short_sale_sells_a_new_share_and_leaves_a_short() -> None:
    record = load(next(p for p in FILES if p.name == "15528.json"))
    index = next(i for i, a in enumerate(record["actions"]) if a["type"] == "short")
    short = record["actions"][index]
    g = replay({**record, "actions": record["actions"][:index]}, rulebook_for_title("1817")).game
    player, corp = f"P|{short['entity']}", short["corporation"]
    pid = str(short["entity"])
    legal = next(a for a in g.legal_descriptions() if a["type"] == "short")
    assert {"corporation": corp} in legal["choices"]
    held = {c["corporation"] for c in legal["choices"]}
    assert not any(g.state.shares[s].percent > 0 for c in held for s in g.state.holdings.get(player, {}).get(c, []))
    cash, value, pool = g.context.cash(player), g.result()[pid], len(g.state.holdings.get("pool", {}).get(corp, []))
    act(g, pid, "short", corporation=corp)
    gained = g.context.cash(player) - cash
    assert gained > 0 and f"shorts a 20% share of {corp} for {gained}" in g.state.log[-1]
    assert g.result()[pid] == value  # the cash received is owed back by the short at the current price
    assert len(g.state.holdings["pool"][corp]) == pool + 1
    assert [g.state.shares[s].percent for s in g.state.holdings[player][corp]] == [-20]
    assert not any(a["type"] == "short" for a in g.legal_descriptions())  # one short sale per turn
    market_share = g.state.holdings["pool"][corp][-1]
    with pytest.raises(IllegalAction):  # shorting counts as selling: no buying it back this round
        act(g, pid, "buy_shares", shares=[market_share])


@pytest.mark.skipif(not any(p.name == "15528.json" for p in FILES), reason=NO_FIXTURES)
@pytest.mark.parametrize(("trigger_or", "final_ors"), [(1, 2), (2, 3)])
def test_the_first_8_train_ends_the_game_after_the_final_sets_acquisition_round(
    trigger_or: int, final_ors: int
) -> None:
    """§8: the set of the trigger is completed, a stock round is played, then a final set of 2 ORs (trigger in
    OR 1) or 3 ORs (trigger in OR 2), each followed by its merger and acquisition rounds. The trigger (phase 8,
    begun by the first 8-train) is restated as that train leaving the bank, so that a faked export sets it off
    without the rest of phase 8 (rusting, train limits) breaking the recorded game."""
    record = load(next(p for p in FILES if p.name == "15528.json"))
    rb = copy.deepcopy(rulebook_for_title("1817"))
    end = next(t for t in rb["end"] if t["type"] == "final_phase")
    end.update(type="final_train", params={**end.get("params", {}), "train": "8"})
    g = replay({**record, "actions": []}, rb).game
    played: list[tuple[int, str, int]] = []
    triggered_turn = None
    for action in record["actions"]:
        if action["type"] == "message":
            continue
        r = g.state.round
        if triggered_turn is None and r.kind == "operating" and r.round_num == trigger_or and g.state.turn >= 3:
            next(t for t in g.state.trains.values() if t.sym == "8").owner = ""  # as if exported
            triggered_turn = g.state.turn
        if not played or played[-1] != (g.state.turn, r.kind, r.round_num):
            played.append((g.state.turn, r.kind, r.round_num))
        if triggered_turn is not None and g.state.turn > triggered_turn and r.kind == "operating":
            assert g.state.operating_rounds == final_ors
            if final_ors != 2:
                return  # the recorded game went on with its 2-OR sets from here
        g.process({**action, "entity": str(action["entity"])})
        if g.state.finished:
            break
    assert g.state.finished and g.state.game_end_reason == "final_train"
    assert triggered_turn is not None
    final = [(kind, n) for turn, kind, n in played if turn == triggered_turn + 1]
    assert final[0] == ("stock", 1)
    assert final[1:] == [(k, n) for n in range(1, final_ors + 1) for k in ("operating", "merger", "acquisition")]


def test_a_presidents_certificate_and_a_short_in_the_pool_are_no_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    """A short pairs only with an ordinary one-share certificate (``shares.close_short_pairs``): a bankrupt
    president's certificate joining a short in the pool closes nothing, and the check that found no closable pair
    stands until the holdings change (soak game 34 once had the memo audit call that answer stale)."""
    from railbook.engine import flags, memo

    from railbook import soak

    monkeypatch.setattr(memo, "AUDIT", True)
    monkeypatch.setattr(flags, "AUDIT", True)
    report = soak.play_game(rulebook_for_title("1817"), 34, max_actions=200)
    assert not report.failures, report.failures[0].message


def test_a_coal_mine_leads_to_a_city_that_connects_or_could_after_upgrades() -> None:
    """§1.2.6: "Coal mines must directly connect to a city or red offboard location, or be placed adjacent to a city
    such that if the adjacent city were sufficiently upgraded, it could directly connect to the coal mine." A mine
    on B25 leads only to Boston (C26, across its edge 2): with Boston's last tile (#597) turned away from B25 no
    upgrade can connect it, and the mine is refused; with #593 there, whose upgrade #597 keeps its track and may
    add that edge, or with #597 facing B25, it is allowed."""
    from railbook.engine.mechanics import mines

    g = _or_with_mine_private()
    kinds = ["city", "offboard", "town"]

    def boston(tile: str, rotation: int) -> Game:
        data = g.to_json()
        data["state"]["hexes"]["C26"].update({"tile": tile, "tile_id": f"{tile}-0", "rotation": rotation})
        return Game.from_json(g.rulebook, data)

    assert not mines._next_to(boston("597", 3).context, "B25", [5], kinds)
    assert mines._next_to(boston("593", 1).context, "B25", [5], kinds)
    assert mines._next_to(boston("597", 1).context, "B25", [5], kinds)
