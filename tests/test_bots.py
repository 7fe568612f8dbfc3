"""Bots: the interface, determinism, legality of every move, and the heuristic bot's basic sense (short games;
`make bench` and `railbook simulate` measure strength over full games)."""

from __future__ import annotations

import pytest
from railbook.compiler.load import available_titles
from railbook.engine.game import Game
from railbook.engine.legal import LegalAction

from railbook.bots import BOTS, Bot, HeuristicBot, RandomBot, make_bot

needs_1846 = pytest.mark.skipif("1846" not in available_titles(), reason="games/1846 not written yet")


@pytest.fixture(scope="module")
def rulebook() -> dict:
    from railbook.api import rulebook_for_title

    return rulebook_for_title("1846")


def _play(rulebook: dict, bots: list[str], seed: int, actions: int) -> list[dict]:
    from railbook.engine.game import Game

    players = [f"p{i + 1}" for i in range(len(bots))]
    seated = {p: make_bot(b, seed * 10 + i) for i, (p, b) in enumerate(zip(players, bots, strict=True))}
    game = Game.start(rulebook, players, seed=seed)
    log = []
    for _ in range(actions):
        if game.state.finished:
            break
        player = game.acting()[0]
        action = seated[player].choose(game, player)
        assert isinstance(action, LegalAction) and action.complete
        game.process(action)  # an IllegalAction here fails the test: bots only make legal moves
        log.append(action.to_action())
    return log


def test_bots_are_registered_and_made_by_name() -> None:
    assert {"random": RandomBot, "heuristic": HeuristicBot} == BOTS
    bot = make_bot("heuristic", 3)
    assert isinstance(bot, Bot) and bot.seed == 3
    with pytest.raises(ValueError, match="no bot named"):
        make_bot("grandmaster", 1)


@needs_1846
def test_the_same_seeds_give_the_same_moves(rulebook: dict) -> None:
    bots = ["heuristic", "random", "heuristic", "random"]
    assert _play(rulebook, bots, 11, 120) == _play(rulebook, bots, 11, 120)


@needs_1846
def test_heuristic_bots_start_companies_and_run_trains(rulebook: dict) -> None:
    log = _play(rulebook, ["heuristic"] * 4, 5, 200)
    kinds = {a["type"] for a in log}
    assert {"par", "buy_shares", "buy_train", "run_routes", "dividend", "lay_tile"} <= kinds
    runs = [a for a in log if a["type"] == "run_routes"]
    assert any(a["routes"] for a in runs), "a company with a train runs a route"
    assert not any(a["type"] == "sell_shares" and a["entity_type"] == "player" for a in log)


def _play_to_a_corporations_lays(bot: HeuristicBot, game: Game, limit: int) -> list[LegalAction]:
    """The bot plays every seat until a corporation with a train may lay track: its lays (skips after ``limit``
    actions without one)."""
    for _ in range(limit):
        lays = [a for a in game.legal_actions() if a.type == "lay_tile" and a.entity_type == "corporation"]
        if lays and game.context.entity_trains(f"C|{lays[0].entity}"):
            return lays
        game.process(bot.choose(game, game.acting()[0]))
    pytest.skip(f"no corporation with a train laid track in {limit} actions")


@needs_1846
def test_heuristic_lays_track_that_raises_revenue(rulebook: dict) -> None:
    from railbook.engine.game import Game

    from railbook.bots import trial

    bot = HeuristicBot(1)
    game = Game.start(rulebook, ["p1", "p2", "p3", "p4"], seed=5)
    lays = _play_to_a_corporations_lays(bot, game, 400)
    sym = lays[0].entity
    chosen = bot.choose(game, game.acting()[0])
    if chosen.type == "lay_tile":
        gains = [trial.revenue_after(game, a, sym) or 0 for a in lays[:30]]
        after = trial.revenue_after(game, chosen, sym)
        assert after is not None and after >= trial.revenue(game, sym)
        assert after >= min(gains)


@needs_1846
def test_remembered_route_totals_are_the_optimisers(rulebook: dict) -> None:
    """The bot's memo of solved route problems gives what the optimiser gives: for the problem now, with one more
    train, and after each lay tried on a copy (where a lay leaves the problem unchanged, the same total)."""
    from railbook.engine.game import Game

    from railbook.bots import trial

    bot = HeuristicBot(2)
    game = Game.start(rulebook, ["p1", "p2", "p3", "p4"], seed=7)
    lays = _play_to_a_corporations_lays(bot, game, 600)
    sym = lays[0].entity
    totals = trial.Totals()
    found = trial.problem(game, sym)
    assert totals.total(found) == trial.solve_total(found) > 0
    assert totals.total(found) == trial.solve_total(found)  # remembered
    train = game.state.trains[game.context.entity_trains(f"C|{sym}")[0]]
    extra = [trial.extra_train(game, train.sym, train.name)]
    assert totals.total(found, extra) == trial.solve_total(found, extra) >= totals.total(found)
    remembering, fresh = trial.Sandbox(game, totals), trial.Sandbox(game)
    for lay in lays[:12]:
        assert remembering.try_(lay, sym) == fresh.try_(lay, sym)


def _cross_sale(rulebook: dict) -> tuple[object, LegalAction]:
    """A game of random bots at a moment one player's corporation may buy another player's corporation's train."""
    from railbook.engine.game import Game

    from railbook.bots.consent import seller_of

    for seed in range(1, 6):
        bots = {p: RandomBot(seed * 10 + i) for i, p in enumerate(["p1", "p2", "p3", "p4"])}
        game = Game.start(rulebook, list(bots), seed=seed)
        for _ in range(1500):
            if game.state.finished:
                break
            offers = [a for a in game.legal_actions() if a.type == "buy_train" and seller_of(game, a) is not None]
            if offers:
                return game, offers[0]
            player = game.acting()[0]
            game.process(bots[player].choose(game, player))
    pytest.skip("no train offered between two players' corporations in 5 random games")


@needs_1846
def test_a_sale_between_players_waits_for_the_sellers_consent(rulebook: dict) -> None:
    """A corporation buys another player's train at a price the two agree: the seller is asked, and an offer
    turned down leaves the buyer's choices."""
    from railbook.bots.consent import Refusals, seller_of

    game, offer = _cross_sale(rulebook)
    seller = seller_of(game, offer)
    train = game.state.trains[str(offer.fields["train"])]
    assert seller is not None and f"P|{seller}" == game.context.controller(train.owner)
    assert seller != game.context.controller(f"C|{offer.entity}")
    cheap = offer.with_(price=1) if "price" in offer.open else offer
    face = int(game.context.book.trains[train.sym]["price"])
    assert not HeuristicBot(1).agrees(game, seller, cheap) or int(cheap.fields["price"]) * 2 >= face
    view = Refusals(game, [cheap])
    offered = [(a.type, a.entity, a.fields.get("train")) for a in view.legal_actions()]
    assert (offer.type, offer.entity, offer.fields["train"]) not in offered
    assert len(view.legal_actions()) < len(game.legal_actions())
    described = [
        (d["type"], d["entity"], c.get("train"))
        for d in view.legal_descriptions()
        for c in (d.get("choices") if isinstance(d.get("choices"), list) else [d])
        if isinstance(c, dict)
    ]
    assert (offer.type, offer.entity, offer.fields["train"]) not in described
    assert view.state is game.state


@needs_1846
def test_simulated_players_buy_no_train_or_private_of_another_without_consent(rulebook: dict) -> None:
    """With sellers that never agree, no train or private changes hands between two players at the buyer's price;
    the offers were made and turned down."""
    from railbook.engine.game import Game

    from railbook.bots.consent import seller_of
    from railbook.simulate.play import agreed_choice

    turned_down: list[LegalAction] = []

    class Refuser(RandomBot):
        def agrees(self, game: object, player: str, action: LegalAction) -> bool:
            turned_down.append(action)
            return False

    players = ["p1", "p2", "p3", "p4"]
    for seed in (1, 2, 3):
        bots = {p: Refuser(seed * 10 + i) for i, p in enumerate(players)}
        game = Game.start(rulebook, players, seed=seed)
        for _ in range(1500):
            if game.state.finished:
                break
            player = game.acting()[0]
            action = agreed_choice(game, bots, player)
            assert seller_of(game, action) is None
            game.process(action)
        if turned_down:
            break
    assert turned_down, "some corporation offered to buy another player's train or private"


@pytest.mark.skipif("1817" not in available_titles(), reason="games/1817 not written yet")
def test_heuristic_bots_keep_the_cash_to_start_a_company_through_the_private_auction() -> None:
    """Bidding for privates, a heuristic bot keeps twice the depot's first train's price (or the float at the lowest
    par, when more): in 1817 (an auction of every private first), random bidders had left it too little to start a
    company that could buy a train and keep going."""
    from railbook.api import rulebook_for_title

    book = rulebook_for_title("1817")
    players = ["p1", "p2", "p3", "p4"]
    bots = {p: make_bot("heuristic", 40 + i) for i, p in enumerate(players)}
    game = Game.start(book, players, seed=4)
    first = game.state.round.kind
    bids = 0
    while game.state.round.kind == first:
        player = game.acting()[0]
        action = bots[player].choose(game, player)
        bids += action.type == "bid"
        game.process(action)
    train = min(int(t.get("price") or 0) for t in book["trains"].values())
    assert bids > 0
    assert all(game.context.cash(f"P|{p}") >= 2 * train for p in players)
