"""The heuristic bot: a competent beginner, generic over titles (rule data and typed legal actions only).

Every legal action of the player (and of the companies it runs) gets a score; the best is taken, a pass scores 0,
so an action scoring below 0 is taken only when nothing else may be done.  In short: float companies it can run,
buy shares of its own and of paying companies, lay the track that raises the best route revenue (the exact
optimiser, on copies of the game), place tokens, run the best routes, pay out unless a train must be saved for,
buy trains in time, take a loan only to buy one; everything else (mergers, specials, ...) is avoided while a pass is
allowed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from railbook.engine.legal import IntRange, LegalAction

from . import reading as R
from . import trial
from .base import Bot, entity_key, mine

#: lay_tile / place_token options tried with the optimiser per decision (the rest are ranked by rule data alone)
TRIALS = 6
#: a route problem with more links than this (a late map with long trains: building and solving it takes a tenth of
#: a second or more) has only the best two options by rule data tried with the optimiser
BIG_PROBLEM = 1000
BIG_TRIALS = 2
FORCED = -100.0  # going bankrupt: only when nothing else is allowed


class HeuristicBot(Bot):
    """Scores each legal action by what it does for the player's value; ties broken by the seeded random source."""

    name = "heuristic"

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self._totals = trial.Totals()

    def choose(self, game: Any, player: str) -> LegalAction:
        options = mine(game, player, game.legal_actions())
        if not options:
            raise RuntimeError("no legal action to choose")
        self._revenue_cache: dict[str, Any] = {}
        self._sandbox = trial.Sandbox(game, self._totals)
        self._pars: dict[str, list[int]] = {}
        for action in options:
            if action.type == "par":
                sym = str(action.fields.get("corporation"))
                self._pars.setdefault(sym, []).append(R.par_value(action.fields.get("share_price")))
        scored: list[tuple[float, float, LegalAction]] = []
        lays: list[LegalAction] = []
        tokens: list[LegalAction] = []
        for action in options:
            if action.type == "lay_tile" and action.entity_type != "company":
                lays.append(action)
                continue
            if action.type == "place_token" and action.entity_type != "company":
                tokens.append(action)
                continue
            score, filled = self.score(game, player, action)
            scored.append((score, self.rnd.random(), filled))
        for group in (lays, tokens):
            if group:
                scored.extend(self.score_track(game, group))
        scored.sort(key=lambda s: (s[0], s[1]), reverse=True)
        return scored[0][2]

    def agrees(self, game: Any, player: str, action: LegalAction) -> bool:
        """Sells a train at its face price or more when the selling company keeps a lasting one (a train the next
        purchase rusts: at half its face), a private at its face value or more."""
        price = int(action.fields.get("price") or 0)
        if action.type == "buy_company":
            company = game.state.companies.get(str(action.fields.get("company")))
            return company is not None and price >= int(company.value)
        train = game.state.trains.get(str(action.fields.get("train")))
        if train is None:
            return False
        face = int((game.context.book.trains.get(train.sym) or {}).get("price") or 0)
        lasting = R.live_trains(game, str(train.owner))
        if train.id not in lasting:
            return price * 2 >= face
        return price >= face and len(lasting) > 1

    # ------------------------------------------------------------------------------------------ scoring

    def score(self, game: Any, player: str, action: LegalAction) -> tuple[float, LegalAction]:
        """(score, the action with its open choices filled)."""
        rule: Callable[[Any, str, LegalAction], tuple[float, LegalAction]] | None = getattr(
            self, f"_{action.type}", None
        )
        if rule is not None:
            return rule(game, player, action)
        return -1.0, _least(action)  # a move the bot does not know: only when it must

    def _pass(self, game: Any, player: str, action: LegalAction) -> tuple[float, LegalAction]:
        return 0.0, action

    def _bankrupt(self, game: Any, player: str, action: LegalAction) -> tuple[float, LegalAction]:
        return FORCED, _least(action)

    def _bid(self, game: Any, player: str, action: LegalAction) -> tuple[float, LegalAction]:
        if "corporation" in action.fields:
            return self._bid_corporation(game, player, action)
        sym = action.fields.get("company")
        company = game.state.companies.get(sym) if sym else None
        if company is None:
            return 0.5, _least(action)
        if company.blank:
            return -0.5, _least(action)
        cash = game.context.cash(f"P|{player}")
        price = _open_min(action, "price", int(action.fields.get("price") or company.value))
        worth = int(company.value) + 2 * int(company.revenue)
        if price > worth or price > 0.6 * cash or cash - price < self._start_reserve(game, player):
            return -0.5, _least(action)
        return 1.0 + (worth - price) / max(worth, 1), _least(action)

    def _start_reserve(self, game: Any, player: str) -> int:
        """The cash a player keeps from a private's price while it may start a company and one is left to start:
        the float at the market's lowest par, or twice the depot's next train when that is more (a company it starts
        must buy one and have some cash left)."""
        if not self._may_start(game, player):
            return 0
        left = [s for s, c in game.state.corporations.items() if not (c.ipoed or c.floated)]
        pars = [int(p.get("price") or 0) for p in (game.rulebook.get("market") or {}).get("par") or []]
        if not left or not pars:
            return 0
        nxt = R.next_depot_train(game)
        return max(min(pars) * min(R.float_percent(game, s) for s in left) // 10, 2 * nxt[1] if nxt else 0)

    def _bid_corporation(self, game: Any, player: str, action: LegalAction) -> tuple[float, LegalAction]:
        """A bid to start a corporation (an auctioned IPO), when the player could run another: enough for the
        depot's next train (a company that cannot buy one sinks), within most of the player's cash."""
        sym = str(action.fields.get("corporation"))
        corp = game.state.corporations.get(sym)
        if corp is None or corp.ipoed or corp.floated or not self._may_start(game, player):
            return -0.5, _least(action)
        rng = action.open.get("price")
        nxt = R.next_depot_train(game)
        want = nxt[1] if nxt else 0
        cash = game.context.cash(f"P|{player}")
        if not isinstance(rng, IntRange):
            price = int(action.fields.get("price") or 0)
            return (2.0 if price * 1.25 <= cash else -0.5), action
        price = next((v for v in rng.values() if v >= want), None) if want > rng.min else rng.min
        if price is None or price * 1.1 > cash:
            return -0.5, _least(action)
        return 2.0, action.with_(price=price)

    def _may_start(self, game: Any, player: str) -> bool:
        """Whether the player may start another corporation: every one it runs has floated, and it runs fewer
        than its share of them."""
        mine_ = R.presided(game, player)
        if any(not game.state.corporations[s].floated for s in mine_):
            return False
        return len(mine_) < max(1, len(game.state.corporations) // max(len(game.state.players), 1))

    def _par(self, game: Any, player: str, action: LegalAction) -> tuple[float, LegalAction]:
        sym = str(action.fields.get("corporation"))
        price = R.par_value(action.fields.get("share_price"))
        cash = game.context.cash(f"P|{player}")
        if not self._may_start(game, player):
            return -0.5, action
        need = price * R.float_percent(game, sym) // 10
        if price <= 0 or need > cash:
            return -0.5, action
        # a par at which the player can float the company and still buy about half of it, but none of the lower
        # half of the pars offered (a company parred low sinks to where it closes or stalls)
        target = cash * 10 / max(R.float_percent(game, sym), R.president_percent(game, sym) + 30)
        pars = sorted(self._pars.get(sym) or [price])
        target = max(target, pars[len(pars) // 2])
        return 2.0 - abs(price - target) / 1000, action

    def _buy_shares(self, game: Any, player: str, action: LegalAction) -> tuple[float, LegalAction]:
        if action.entity_type != "player":
            return -0.5, _least(action)  # a company buying (back) shares: not needed to play
        ids = action.fields.get("shares") or []
        share = game.state.shares.get(ids[0]) if ids else None
        if share is None:
            return -0.5, _least(action)
        sym = share.corp
        corp = game.state.corporations[sym]
        key = f"P|{player}"
        if corp.owner == key:
            if not corp.floated:
                return 3.0, _least(action)
            held = R.player_percent(game, player, sym)
            return (1.5 if held < 60 else 0.6), _least(action)
        if not corp.floated or not corp.trains:
            return -0.3, _least(action)
        if R.share_price(game, sym) < R.par_price(game, sym):
            return -0.2, _least(action)  # a falling company
        return 1.0 + len(corp.trains) / 10, _least(action)

    def _sell_shares(self, game: Any, player: str, action: LegalAction) -> tuple[float, LegalAction]:
        ids = action.fields.get("shares") or []
        share = game.state.shares.get(ids[0]) if ids else None
        if action.entity_type != "player" or share is None:
            key = entity_key(action)  # a company issuing shares: only to buy its first train (issues sink the price)
            short = R.train_reserve(game, key) > game.context.cash(key) and not game.context.entity_trains(key)
            return (0.5 if short else -1.0), _least(action)
        corp = game.state.corporations[share.corp]
        if corp.owner == f"P|{player}":
            return -5.0 - len(ids), _least(action)
        dead = corp.floated and not corp.trains and corp.operated >= 2
        return (0.3 if dead else -2.0 - len(ids) / 10), _least(action)

    def _run_routes(self, game: Any, player: str, action: LegalAction) -> tuple[float, LegalAction]:
        desc = next(
            (d for d in game.legal_descriptions() if d["type"] == "run_routes" and str(d["entity"]) == action.entity),
            {},
        )
        between = desc.get("route_between")
        routes = trial.best_routes(game, action.entity, between)
        if not between and isinstance(desc.get("routes"), str):  # a rule on routes the optimiser does not know
            routes = trial.accepted_routes(game, action, routes)
        return 100.0, action.with_(routes=routes)

    def _dividend(self, game: Any, player: str, action: LegalAction) -> tuple[float, LegalAction]:
        key = entity_key(action)
        kind = str(action.fields.get("kind"))
        short = R.cash_needed(game, key) > game.context.cash(key)
        prefs = {"payout": 2.0, "half": 1.5, "withhold": 1.0} if not short else {"withhold": 2.0, "half": 1.5}
        return prefs.get(kind, 0.5), _least(action)

    def _buy_train(self, game: Any, player: str, action: LegalAction) -> tuple[float, LegalAction]:
        key = entity_key(action)
        cash = game.context.cash(key)
        tid = action.fields.get("train")
        train = game.state.trains.get(tid) if tid else None
        from_depot = train is not None and train.owner in (R.DEPOT, "pool", "bank", "discard")
        price = int(action.fields.get("price") or 0)
        if "price" in action.open:
            rng = action.open["price"]
            assert isinstance(rng, IntRange)
            price = rng.min
            action = action.with_(price=price)
        lasting = R.live_trains(game, key)
        if not from_depot:
            seller = train.owner if train is not None else None
            same_boss = seller is not None and game.context.controller(seller) == game.context.controller(key)
            seller_keeps = seller is not None and len(R.live_trains(game, seller)) > 1
            if lasting or not same_boss or not seller_keeps or price > cash:
                return -0.5, action
            return 0.8, action
        if not lasting:
            keeps = 1.0 if tid is not None and R.lasting(game, str(tid)) else 0.0  # not one the next train rusts
            if price <= cash:
                return 4.0 + keeps + price / 10000, action  # the biggest it can pay for
            return 2.5 + keeps / 2 - price / 10000, action  # the president helps: the cheapest
        if price > cash:
            return -0.5, action
        gain = self._train_gain(game, action)
        return (1.2 + gain / 100 if gain > 0 else -0.5), action

    def _train_gain(self, game: Any, action: LegalAction) -> int:
        """What one more train adds to the operator's best revenue (worked out once per train face)."""
        memo = self._revenue_cache.setdefault(f"train-gain-{action.entity}", {})
        train = game.state.trains.get(str(action.fields.get("train")))
        if train is None:
            return 0
        face = str(action.fields.get("variant") or train.name)
        if face not in memo:
            found = self._problem(game, action.entity)
            with_it = self._totals.total(found, [trial.extra_train(game, train.sym, face)])
            memo[face] = with_it - self._base_revenue(game, action.entity)
        return int(memo[face])

    def _buy_company(self, game: Any, player: str, action: LegalAction) -> tuple[float, LegalAction]:
        key = entity_key(action)
        company = game.state.companies.get(action.fields.get("company") or "")
        if company is None or company.owner != f"P|{player}" or "price" not in action.open:
            return -0.5, _least(action)
        rng = action.open["price"]
        assert isinstance(rng, IntRange)
        nxt = R.next_depot_train(game)
        room = game.context.cash(key) - R.cash_needed(game, key) - (nxt[1] if nxt else 0)
        price = max((v for v in rng.values() if v <= room), default=None)
        if price is None:
            return -0.5, _least(action)
        return 0.9, action.with_(price=price)

    def _take_loan(self, game: Any, player: str, action: LegalAction) -> tuple[float, LegalAction]:
        """A loan only when it makes the train the company lacks affordable (tried on the sandbox for its sum)."""
        key = entity_key(action)
        need, cash = R.cash_needed(game, key), game.context.cash(key)
        if need <= cash:
            return -0.5, _least(action)
        tried = self._sandbox.try_(action, action.entity, routes=False)
        gained = -tried[1] if tried is not None else 0
        if gained <= 0:
            return -0.5, _least(action)
        if cash + gained >= need:
            return 0.7, _least(action)
        # a company without any train, whose loans together would buy one: one loan at a time towards it
        left = R.loans_left(game, action.entity)
        no_train = not game.context.entity_trains(key)
        return (0.7 if no_train and cash + gained * max(left, 1) >= need else -0.5), _least(action)

    def _payoff_loan(self, game: Any, player: str, action: LegalAction) -> tuple[float, LegalAction]:
        key = entity_key(action)
        nxt = R.next_depot_train(game)
        spare = game.context.cash(key) - (nxt[1] if nxt else 0) - R.interest_due(game, action.entity)
        return (0.6 if spare > 0 else -0.5), _least(action)

    # ------------------------------------------------------------------------------------ track, tokens

    def score_track(self, game: Any, options: list[LegalAction]) -> list[tuple[float, float, LegalAction]]:
        """Tile lays or token places of one operator: ranked by rule data, the best few tried with the optimiser
        (an operator without a train is lent the depot's next one)."""
        ranked = sorted(options, key=lambda a: (self._track_rank(game, a), self.rnd.random()), reverse=True)
        key = entity_key(ranked[0])
        sym = ranked[0].entity
        cash = game.context.cash(key)
        reserve = R.cash_needed(game, key)
        base = self._base_revenue(game, sym)
        found = self._problem(game, sym)
        trials = self.trials(found)
        out: list[tuple[float, float, LegalAction]] = []
        for i, action in enumerate(ranked):
            action = _least(action)
            cost = _cost(action)
            if cost and cash - cost < reserve:
                out.append((-0.5, 0.0, action))
                continue
            prior = 0.2 + self._track_rank(game, action) / 100
            if i < trials:
                tried = self._sandbox.try_(action, sym)
                if tried is None:
                    continue
                gain, cost = tried[0] - base, max(cost, tried[1])
                if cost and cash - cost < reserve:
                    out.append((-0.5, 0.0, action))
                    continue
                out.append((prior + max(gain, 0) / 10 - cost / 1000, self.rnd.random(), action))
            else:
                out.append((prior - cost / 1000 - 0.1, self.rnd.random(), action))
        return out

    def trials(self, found: Any) -> int:
        """How many lays or tokens to try with the optimiser on the operator's route problem ``found``."""
        return TRIALS if found is None or len(found.links) <= BIG_PROBLEM else BIG_TRIALS

    def _problem(self, game: Any, sym: str) -> Any:
        """The operator's route problem now (once per decision)."""
        key = f"problem-{sym}"
        if key not in self._revenue_cache:
            self._revenue_cache[key] = trial.problem(game, sym)
        return self._revenue_cache[key]

    def _base_revenue(self, game: Any, sym: str) -> int:
        """The operator's best revenue now (an operator without a train lent the depot's next one)."""
        if sym not in self._revenue_cache:
            self._revenue_cache[sym] = self._totals.total(self._problem(game, sym))
        return int(self._revenue_cache[sym])

    def _track_rank(self, game: Any, action: LegalAction) -> float:
        """How promising a lay or a token looks from rule data: upgrades of cities and towns first."""
        if action.type == "place_token":
            return 50.0
        tile = str(action.fields.get("tile") or "").rsplit("-", 1)[0]
        spec = (game.rulebook.get("tiles") or {}).get(tile) or {}
        stops = len(spec.get("cities") or []) * 2 + len(spec.get("towns") or [])
        revenue = sum(int(c.get("revenue") or 0) for c in spec.get("cities") or [] if isinstance(c, dict))
        upgrade = game.state.hexes.get(str(action.fields.get("hex"))) is not None and bool(
            game.state.hexes[str(action.fields.get("hex"))].tile
        )
        return stops * 10 + revenue / 10 + (5 if upgrade else 0)


def _least(action: LegalAction) -> LegalAction:
    """The action with each open range at its least."""
    fills = {k: v.min for k, v in action.open.items() if isinstance(v, IntRange)}
    return action.with_(**fills) if fills else action


def _open_min(action: LegalAction, name: str, default: int) -> int:
    rng = action.open.get(name)
    return rng.min if isinstance(rng, IntRange) else default


def _cost(action: LegalAction) -> int:
    for name in ("cost", "price"):
        value = action.fields.get(name)
        if isinstance(value, int):
            return value
    return 0
