"""Mechanic parameters the titles set, played through the public API (Game.start / process / legal_actions)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from railbook.engine import randomplay
from railbook.engine.errors import IllegalAction
from railbook.engine.game import Game
from railbook.engine.mechanics.dividends import earnings
from railbook.engine.state import BANK, kind_of

from railbook.api import rulebook_for_title


def _book(title: str, **changes: dict[str, Any]) -> dict[str, Any]:
    """The title's rulebook with some mechanic parameters changed (``mechanic={field: value}``)."""
    book = copy.deepcopy(rulebook_for_title(title))
    for mechanic, fields in changes.items():
        book["mechanics"][mechanic].update(fields)
    return book


def _act(g: Game, atype: str, entity: str, entity_type: str = "player", **fields: Any) -> None:
    g.process({"type": atype, "entity": entity, "entity_type": entity_type, **fields})


def _after_private_sale(book: dict[str, Any], options: tuple[str, ...] = ()) -> Game:
    """1850/1870: each player in turn buys the cheapest private at its price until the stock round starts."""
    g = Game.start(book, ["a", "b", "c"], options=options)
    while g.state.round.kind != "stock":
        bid = next(a for a in g.legal_descriptions() if a["type"] == "bid")
        choice = bid["choices"][0]
        price = choice["price"]["min"] if isinstance(choice["price"], dict) else choice["price"]
        _act(g, "bid", g.acting()[0], company=choice["company"], price=price)
    return g


def _pass_round(g: Game) -> None:
    kind, turn = g.state.round.kind, g.state.turn
    while g.state.round.kind == kind and g.state.turn == turn:
        _act(g, "pass", g.acting()[0])


# ------------------------------------------------------------------------------- capitalization


@pytest.mark.parametrize("paid", ["end_of_stock_round", "at_float"])
def test_full_capital_comes_at_the_end_of_the_float_round(paid: str) -> None:
    """1850 [5.6.4], [5.10.8]: the treasury (10 x par) arrives at the end of the stock round in which the sixth
    share sold, so the company cannot redeem in that round."""
    g = _after_private_sale(_book("1850", capitalization={"full_capital_paid": paid}))
    _act(g, "par", g.acting()[0], corporation="CBQ", share_price="68,5,6")
    for i in range(1, 7):  # floats with the fourth; two more leave room for redeemed shares (at most 4 held)
        _act(g, "buy_shares", g.acting()[0], shares=[f"CBQ_{i}"])
    assert g.state.corporations["CBQ"].floated
    capital = 10 * 68
    if paid == "at_float":
        assert g.context.cash("C|CBQ") == capital
        # still no redemption in this round: a company redeems with the cash it had at the round's start
        while g.state.corporations["CBQ"].owner != f"P|{g.acting()[0]}":
            _act(g, "pass", g.acting()[0])
        with pytest.raises(IllegalAction):
            _act(g, "buy_shares", "CBQ", "corporation", shares=["CBQ_1"])
        return
    assert g.context.cash("C|CBQ") == 0
    while g.state.corporations["CBQ"].owner != f"P|{g.acting()[0]}":
        _act(g, "pass", g.acting()[0])
    with pytest.raises(IllegalAction):  # nothing to redeem with
        _act(g, "buy_shares", "CBQ", "corporation", shares=["CBQ_1"])
    while g.state.round.kind == "stock":
        _act(g, "pass", g.acting()[0])
    assert g.context.cash("C|CBQ") == capital


@pytest.mark.parametrize("historical", [True, False])
def test_in_historical_order_a_company_waits_for_those_before_it(historical: bool) -> None:
    """1850 option Historical Order Start [16.4]: MILW, floated, may not operate while CB&Q (before it) has not."""
    options = ("historical_order",) if historical else ()
    g = _after_private_sale(rulebook_for_title("1850"), options)
    _act(g, "par", g.acting()[0], corporation="MILW", share_price="68,5,6")
    for i in range(1, 5):
        _act(g, "buy_shares", g.acting()[0], shares=[f"MILW_{i}"])
    assert g.state.corporations["MILW"].floated and not g.state.corporations["CBQ"].floated
    _pass_round(g)
    assert (g.context.current_operator() == "C|MILW") is not historical
    if historical:  # nobody could operate: the next stock round has begun
        assert g.state.round.kind == "stock" and g.state.corporations["MILW"].operated == 0


# ---------------------------------------------------------------------------------- private income


@pytest.mark.parametrize("from_phase", [None, "first"])
def test_privates_pay_no_income_from_the_phase_the_rules_name(from_phase: str | None) -> None:
    """1850 [4.2.5]: from phase 5 the privates left open no longer pay income (here: from the first phase)."""
    phase = None if from_phase is None else rulebook_for_title("1850")["phases"][0]["name"]
    g = _after_private_sale(_book("1850", private_companies={"no_income_from_phase": phase}))
    income = {p: sum(c.revenue for c in g.state.companies.values() if c.owner == f"P|{p}") for p in "abc"}
    before = {p: g.context.cash(f"P|{p}") for p in "abc"}
    _pass_round(g)  # nobody floats: the operating round only pays the privates
    after = {p: g.context.cash(f"P|{p}") for p in "abc"}
    assert all(income.values())
    assert after == {p: before[p] + (income[p] if phase is None else 0) for p in "abc"}


# --------------------------------------------------------------------------------------- dividends


@pytest.mark.parametrize("rounding", ["up", "down"])
def test_half_dividend_rounds_the_share_payout_as_the_rules_say(rounding: str) -> None:
    """1870's text: the company keeps half rounded up to a multiple of the share count (`down` per share);
    18xx.games keeps half rounded down (`up` per share)."""
    g = Game.start(_book("1870", dividends={"half_per_share_rounding": rounding}), ["a", "b", "c"], seed=1)
    rnd = random.Random(1)
    for _ in range(3000):
        desc = next((a for a in g.legal_descriptions() if a["type"] == "dividend"), None)
        if desc is not None and {"kind": "half"} in desc["choices"]:
            key = g.context.entity_key(desc)
            shares_n = 100 // min(s.percent for s in g.state.shares.values() if s.corp == desc["entity"])
            revenue = earnings(g.context, key)
            if revenue % (2 * shares_n):
                break
        action = randomplay.random_action(g, rnd, pass_weight=0.1)
        assert action is not None
        g.process(action)
    else:
        pytest.fail("random play reached no half dividend whose two roundings differ")
    cash = g.context.cash(key)
    _act(g, "dividend", desc["entity"], desc["entity_type"], kind="half")
    kept = revenue // 2 // shares_n * shares_n if rounding == "up" else -(-revenue // (2 * shares_n)) * shares_n
    assert g.context.cash(key) - cash == kept + _own_share_dividend(g, desc["entity"], revenue - kept, shares_n)


def _own_share_dividend(g: Game, corp: str, paid: int, shares_n: int) -> int:
    """What the company's own (treasury) shares earn of ``paid``."""
    own = sum(s.percent for s in g.state.shares.values() if s.corp == corp and s.owner == f"C|{corp}")
    return own * (paid // shares_n) // (100 // shares_n)


# ------------------------------------------------------------------------------------------ trains


def _cpr_must_buy(book: dict[str, Any]) -> Game:
    """1856: p0 launches CPR (p1 buys a share), p2 launches BBG and p0 buys one of its shares; in the first
    operating round CPR ($195) lays a tile that gives it a route, so it must buy a train."""
    g = Game.start(book, ["p0", "p1", "p2"])
    while g.state.round.kind != "stock":
        bid = next(a for a in g.legal_descriptions() if a["type"] == "bid")
        choice = bid["choices"][0]
        price = choice["price"]["min"] if isinstance(choice["price"], dict) else choice["price"]
        _act(g, "bid", g.acting()[0], company=choice["company"], price=price)
    assert g.acting() == ["p0"]
    _act(g, "par", "p0", corporation="CPR", share_price="65,5,4")
    _act(g, "buy_shares", "p1", shares=["CPR_1"], percent=10)
    _act(g, "par", "p2", corporation="BBG", share_price="65,5,4")
    _act(g, "buy_shares", "p0", shares=["BBG_1"], percent=10)
    while g.state.round.kind == "stock":
        _act(g, "pass", g.acting()[0])
    assert g.context.current_operator() == "C|CPR"
    _act(g, "lay_tile", "CPR", "corporation", hex="M6", tile="3-0", rotation=2)
    return g


def _with_a_discarded_three(g: Game) -> Game:
    """A 3-train ($225) lies discarded in the bank beside the new 2-trains ($100)."""
    three = next(t for t in g.state.depot if g.state.trains[t].sym == "3")
    g.state.depot.remove(three)
    g.state.discarded.append(three)
    g.context.epoch += 1
    return g


@pytest.mark.parametrize("cheapest_only", [True, False])
def test_a_president_pays_only_towards_the_cheapest_bank_train(cheapest_only: bool) -> None:
    """1856 (and 1850, 1870): once the president must contribute, only the cheapest train may be bought."""
    g = _with_a_discarded_three(_cpr_must_buy(_book("1856", trains={"emergency_cheapest_only": cheapest_only})))
    assert g.context.cash("C|CPR") < 225
    buy = next(a for a in g.legal_descriptions() if a["type"] == "buy_train")
    offered = {(c["train"], c["price"]) for c in buy["choices"]}
    three = next(t for t in g.state.discarded if g.state.trains[t].sym == "3")
    assert any(price == 100 for _, price in offered)
    assert ((three, 225) in offered) is not cheapest_only
    president = g.context.owner("C|CPR")
    cash = g.context.cash(president)
    action = {"train": three, "price": 225, "variant": "3"}
    if cheapest_only:
        with pytest.raises(IllegalAction):
            _act(g, "buy_train", "CPR", "corporation", **action)
        return
    _act(g, "buy_train", "CPR", "corporation", **action)
    assert g.context.cash(president) == cash - (225 - 195)


# ------------------------------------------------------------------------------------- stock round


@pytest.mark.parametrize("until", ["end_of_round", "after_next_operating_rounds"])
def test_a_sale_for_a_train_bars_buying_that_company_in_the_next_stock_round(until: str) -> None:
    """1850 [5.3.3]: a player who sold a company's shares may not buy it again until after the next set of
    operating rounds, so a sale in an operating round (here: for a train) bars it in the next stock round."""
    g = _cpr_must_buy(_book("1856", stock_round={"no_buy_after_sell_until": until}))
    g.context.spend(
        "C|CPR", BANK, g.context.cash("C|CPR")
    )  # CPR and its president are short of the $100 a 2-train costs
    g.context.spend("P|p0", BANK, g.context.cash("P|p0") - 50)
    _act(g, "sell_shares", "p0", shares=["BBG_1"], percent=10)
    _act(g, "buy_train", "CPR", "corporation", train="2-0", price=100, variant="2")
    while g.state.round.kind != "stock":
        step = next(a for a in g.legal_descriptions() if a["type"] == "pass")
        _act(g, "pass", step["entity"], step["entity_type"])
    g.context.spend(BANK, "P|p0", 200)  # money to buy with
    while g.acting() != ["p0"]:
        _act(g, "pass", g.acting()[0])
    buy = next((a for a in g.legal_descriptions() if a["type"] == "buy_shares"), {"choices": []})
    offered = {c["shares"][0].split("_")[0] for c in buy["choices"]}
    assert "CPR" in offered
    assert ("BBG" in offered) is (until == "end_of_round")
    if until == "after_next_operating_rounds":
        with pytest.raises(IllegalAction):
            _act(g, "buy_shares", "p0", shares=["BBG_2"], percent=10)


# ------------------------------------------------------------------------------------------------ 1817


def test_privates_count_nothing_in_the_final_value_where_the_rules_say() -> None:
    """1817 [§8]: company assets and private companies count for nothing."""
    for counted in (True, False):
        g = Game.start(_book("1817", private_companies={"count_in_final_value": counted}), ["a", "b", "c"])
        bid = next(a for a in g.legal_descriptions() if a["type"] == "bid")
        _act(g, "bid", "a", company=bid["choices"][0]["company"], price=bid["choices"][0]["min"])
        while g.state.round.kind == "auction":
            _act(g, "pass", g.acting()[0])
        (private,) = [c for c in g.state.companies.values() if c.owner == "P|a"]
        assert private.value > 0
        assert g.result()["a"] == g.context.cash("P|a") + (private.value if counted else 0)


@pytest.mark.parametrize("follows", [True, False])
def test_the_certificate_limit_follows_the_players_left(follows: bool) -> None:
    """1817 [§7]: after a bankruptcy the limit is the one for the players remaining."""
    book = _book("1817", certificate_limit={"follows_players_left": follows})
    g = Game.start(book, ["a", "b", "c", "d"], seed=0)
    rnd = random.Random(0)
    for _ in range(1000):
        if any(p.bankrupt for p in g.state.players):
            break
        action = randomplay.random_action(g, rnd, pass_weight=0.2)
        assert action is not None
        g.process(action)
    else:
        pytest.fail("random play bankrupted nobody")
    left = sum(1 for p in g.state.players if not p.bankrupt)
    assert g.state.cert_limit == book["players"][str(left if follows else 4)]["cert_limit"]


def _lockstep(changes: dict[str, dict[str, Any]], seed: int, offered: Any) -> tuple[Game, Game, dict[str, Any]]:
    """1817 played at random under the rule and, action for action, without it, until the game without the rule
    offers something (``offered(game, description, choice)``); returns both games and that action."""
    on = Game.start(rulebook_for_title("1817"), ["a", "b", "c", "d"], seed=seed)
    off = Game.start(_book("1817", **changes), ["a", "b", "c", "d"], seed=seed)
    rnd = random.Random(seed)
    for _ in range(1500):
        for desc in off.legal_descriptions():
            for choice in desc.get("choices") or []:
                if offered(off, desc, choice):
                    action = {k: v for k, v in desc.items() if k != "choices"}
                    return on, off, {**action, **choice}
        action = randomplay.random_action(on, rnd, pass_weight=0.3)
        assert action is not None
        on.process(dict(action))
        off.process(dict(action))
    pytest.fail("random play never offered it")


def _zone(g: Game, corp: str) -> set[str]:
    from railbook.engine import market

    return set(market.kinds_at(g.context, g.state.corporations[corp].price))


def test_no_train_is_bought_from_a_company_in_liquidation() -> None:
    """1817: a company in the liquidation zone sells no train to another company."""

    def from_liquidation(g: Game, desc: dict[str, Any], choice: dict[str, Any]) -> bool:
        owner = g.state.trains[choice["train"]].owner if desc["type"] == "buy_train" else ""
        return owner.startswith("C|") and "liquidation" in _zone(g, owner[2:])

    on, _off, action = _lockstep({"trains": {"no_buy_from_zones": []}}, 6, from_liquidation)
    buy = [a for a in on.legal_descriptions() if a["type"] == "buy_train"]
    assert all(c["train"] != action["train"] for a in buy for c in a["choices"])
    price = action["price"]["min"] if isinstance(action["price"], dict) else action["price"]
    with pytest.raises(IllegalAction):
        on.process({**action, "price": price})


def test_shares_in_the_acquisition_and_liquidation_zones_are_not_traded() -> None:
    """1817 [§5]: shares of a company in the acquisition or liquidation zone may be neither bought nor sold."""

    def in_zone(g: Game, desc: dict[str, Any], choice: dict[str, Any]) -> bool:
        if desc["type"] not in ("buy_shares", "sell_shares") or g.state.round.kind != "stock":
            return False
        corp = g.state.shares[choice["shares"][0]].corp
        return bool(_zone(g, corp) & {"acquisition", "liquidation"})

    on, _off, action = _lockstep({"stock_round": {"no_trade_zones": []}}, 3, in_zone)
    corp = on.state.shares[action["shares"][0]].corp
    same = [a for a in on.legal_descriptions() if a["type"] == action["type"] and a["entity"] == action["entity"]]
    assert all(on.state.shares[c["shares"][0]].corp != corp for a in same for c in a["choices"])
    with pytest.raises(IllegalAction):
        on.process(action)


@pytest.mark.parametrize("max_exits", [True, False])
def test_a_brown_city_upgrade_uses_the_most_exits_that_fit(max_exits: bool) -> None:
    """1817 [§6.3.2]: upgrading a normal city to brown, the tile must have as many exits as will fit. Here the
    company about to lay track from a plain home city finds it already green (#15) in phase 5: only #63 (six
    exits) may go there, not #611 (five) or #448 (four)."""
    from railbook.engine import board

    g = Game.start(_book("1817", track={"brown_city_max_exits": max_exits}), ["a", "b", "c", "d"], seed=1)
    rnd = random.Random(1)

    def plain_home() -> str | None:
        """The home hex of the company about to lay track, when it is an empty plain city (#57 fits)."""
        op = g.context.current_operator()
        if g.state.round.kind != "operating" or op is None or kind_of(op) != "C":
            return None
        if not any(a["type"] == "lay_tile" and a["entity"] == sym(op) for a in g.legal_descriptions()):
            return None
        home = next((t.hex for t in g.state.corporations[sym(op)].tokens if t.used), None)
        return home if home and board.rotations_keeping_track(g.context, home, "57") else None

    for _ in range(2000):
        if plain_home():
            break
        action = randomplay.random_action(g, rnd, pass_weight=0.5)
        assert action is not None
        g.process(action)
    home = plain_home()
    assert home is not None, "no company laid track from a plain home city"
    for name in ("57", "15"):  # the home city becomes yellow, then green
        rotation = board.rotations_keeping_track(g.context, home, name)[0]
        tile = board.next_copy_id(g.context, name)
        board.apply_lay(
            g.context,
            board.plan_lay(g.context, home, tile, rotation, key=None, check_phase=False, check_connection=False),
        )
    g.state.phase = g.context.book.phase_index["5"]
    g.context.epoch += 1
    lay = next(a for a in g.legal_descriptions() if a["type"] == "lay_tile")
    tiles = {c["tile"].split("-")[0] for c in lay["choices"] if c["hex"] == home}
    assert "63" in tiles
    assert bool(tiles & {"611", "448"}) is not max_exits


def sym(key: str | None) -> str:
    assert key is not None
    return key[2:]


@pytest.mark.parametrize("allowed", [True, False])
def test_a_player_may_buy_another_players_private_instead_of_a_certificate(allowed: bool) -> None:
    """The printed rule of 1850, 1856 and 1870 (off in those titles, as on 18xx.games, NOTES.md): in place of his
    certificate purchase a player buys a private from another player at any agreed price of at least $1; it is his
    purchase for the turn."""
    g = _after_private_sale(_book("1850", stock_round={"buy_private_from_player": allowed}))
    buyer = g.acting()[0]
    sym, private = next((s, c) for s, c in g.state.companies.items() if c.owner not in (None, f"P|{buyer}"))
    seller = str(private.owner)
    offers = [a for a in g.legal_descriptions() if a["type"] == "buy_company"]
    if not allowed:
        assert not offers
        with pytest.raises(IllegalAction):
            _act(g, "buy_company", buyer, company=sym, price=1)
        return
    (offer,) = offers
    assert {"company": sym, "price": {"min": 1, "max": g.context.cash(f"P|{buyer}")}} in offer["choices"]
    cash = (g.context.cash(f"P|{buyer}"), g.context.cash(seller))
    _act(g, "buy_company", buyer, company=sym, price=1)
    assert private.owner == f"P|{buyer}" and sym in g.context.player(f"P|{buyer}").companies
    assert (g.context.cash(f"P|{buyer}"), g.context.cash(seller)) == (cash[0] - 1, cash[1] + 1)
    assert g.acting() != [buyer] or not {"buy_shares", "par", "buy_company"} & {
        a["type"] for a in g.legal_descriptions()
    }


# ------------------------------------------------------------------------------------------ reissue


def test_a_reissued_share_sells_from_the_initial_offering_and_pays_the_company() -> None:
    """1870 share redemption and reissue: ATSF (all ten shares sold, so full capital) redeems a share from a
    player, reissues it in a later turn, and the next buyer pays the company (incremental from then on)."""
    g = Game.start(rulebook_for_title("1870"), ["a", "b", "c"])
    while g.state.round.kind != "stock":
        legal = g.legal_descriptions()
        par = next((a for a in legal if a["type"] == "par"), None)
        if par is not None:  # the president's certificate private sets its company's par at once
            _act(g, "par", g.acting()[0], **par["choices"][0])
            continue
        choice = next(a for a in legal if a["type"] == "bid")["choices"][0]
        price = choice["price"]["min"] if isinstance(choice["price"], dict) else choice["price"]
        _act(g, "bid", g.acting()[0], company=choice["company"], price=price)
    assert g.acting() == ["a"]
    _act(g, "par", "a", corporation="ATSF", share_price="68,5,6")
    for i in range(1, 9):
        _act(g, "buy_shares", g.acting()[0], shares=[f"ATSF_{i}"])

    def pass_until(done: Any) -> None:
        while not done():
            step = next(a for a in g.legal_descriptions() if a["type"] == "pass")
            _act(g, "pass", step["entity"], step["entity_type"])

    pass_until(lambda: g.state.round.kind == "operating")
    pass_until(lambda: g.state.round.kind == "stock" and g.acting() == ["a"])
    _act(g, "buy_shares", "ATSF", "corporation", shares=["ATSF_1"])  # redeemed from b
    assert g.state.shares["ATSF_1"].owner == "C|ATSF" and not g.state.shares["ATSF_1"].buyable
    pass_until(lambda: g.acting() == ["a"])
    _act(g, "sell_shares", "ATSF", "corporation", shares=["ATSF_1"], percent=10)
    assert g.state.shares["ATSF_1"].buyable
    buyer, cash = g.acting()[0], g.context.cash("C|ATSF")
    _act(g, "buy_shares", buyer, shares=["ATSF_1"])
    par = g.state.corporations["ATSF"].par
    assert par is not None and g.context.cash("C|ATSF") - cash == g.context.book.cell(*par)["price"]
