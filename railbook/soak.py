"""Soak testing: random legal games of a title, with the game's invariants checked after every action.

Each game ``i`` of a soak with seed ``S`` is seeded ``S + i`` (player count, options, the engine's shuffles
and every choice follow from it; only player counts and options the engine can start are drawn), so
``railbook soak TITLE --games 1 --seed S+i`` replays a failing game exactly.  Only the engine's public API
is used: ``Game.start``, ``legal_actions``, ``process``, ``to_json``, ``from_json`` and ``result``; trains
run the optimiser's best routes.

Invariants, after every action: money is neither made nor lost (bank, players, companies; a loan moves
money, it does not create it); no one but the bank holds negative cash; each live corporation's
certificates add up to 100% and each is held once, by its recorded owner; the state survives JSON and back
unchanged; a round ends when its players keep passing (random players pass more the longer a stock round
lasts, so a round still going after ``ENDLESS_ROUND`` actions is a failure: passing does not end it).  At
the end of each game, replaying its own log from the start reproduces the final state.

A game must end by a rule of the title.  One that cannot go on -- no legal action for the acting entity
(``game.stuck``), or rounds going by with no one able to act and nothing changing, which the engine ends as
``stalled`` (``game.stalled``) -- is a failure of the title, with the seed that reproduces it.  A game stopped by
the action cap or by a turn limit (``dnf``) is counted as unended.  When no game of a soak reaches an end of the
rules, the title fails ("no game reached an end of the rules"); a soak capped below ``MAX_ACTIONS`` actions is too
short to judge that, and says so.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

BANK = "bank"
PASSIVE = ("pass",)
MAX_ACTIONS = 3000
#: end reasons that are no end of the title's rules: the engine's ``stalled`` (nobody can act), a turn limit's ``dnf``
NOT_RULE_ENDS = frozenset({"stalled", "dnf", "manually_ended"})
ENDLESS_ROUND = 600  # actions in one round: players who pass 95% of the time end any round long before


@dataclass
class Failure:
    """One broken invariant: which game (its seed), after which action, and what broke."""

    seed: int
    action: int
    invariant: str
    message: str


@dataclass
class GameReport:
    seed: int
    players: int
    options: list[str]
    actions: int
    finished: bool
    end_reason: str | None
    failures: list[Failure] = field(default_factory=list)

    @property
    def rule_end(self) -> bool:
        """The game ended by a rule of the title (not stalled, not cut short)."""
        return self.finished and self.end_reason not in NOT_RULE_ENDS and not self.failures

    @property
    def unended_as(self) -> str | None:
        """How a game without a rule end stopped: ``failed``, ``capped`` (the action cap), or its end reason."""
        if self.rule_end:
            return None
        if self.failures:
            return "failed"
        return self.end_reason if self.finished and self.end_reason else "capped"


@dataclass
class Summary:
    """What ``railbook soak`` prints for one title."""

    title: str
    playable: bool
    reason: str | None = None
    games: int = 0
    actions: int = 0
    finished: int = 0
    seconds: float = 0.0
    failures: list[Failure] = field(default_factory=list)
    end_reasons: dict[str, int] = field(default_factory=dict)
    rule_ends: int = 0
    unended: dict[str, int] = field(default_factory=dict)
    #: why the title fails as a whole (no game reached an end of the rules), or None
    title_failure: str | None = None
    #: why the soak cannot judge the title as a whole (its games were capped short), or None
    not_judged: str | None = None

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["games_per_second"] = round(self.games_per_second, 2)
        out["seconds"] = round(self.seconds, 2)
        return out


# --------------------------------------------------------------------------------------- playability


def start_error(rulebook: dict[str, Any], count: int, options: list[str] | None = None) -> str | None:
    """Why the engine cannot start a game of ``count`` players with ``options``, or None when it can."""
    from railbook.engine.errors import EngineError
    from railbook.engine.game import Game

    try:
        Game.start(rulebook, [f"p{i + 1}" for i in range(count)], seed=1, options=options or [])
    except EngineError as exc:
        return str(exc)
    return None


def not_playable(rulebook: dict[str, Any]) -> str | None:
    """Why the interpreter cannot play this title yet (at any player count), or None when it can."""
    counts = sorted(int(n) for n in rulebook.get("players") or {})
    if not counts:
        return "the rulebook lists no player counts"
    reasons = []
    for count in counts:
        reason = start_error(rulebook, count)
        if reason is None:
            return None
        reasons.append(reason)
    return reasons[0]


# ------------------------------------------------------------------------------------------- choices


def _routes(game: Any, entity: str, between: list[list[str]] | None = None) -> list[dict[str, Any]]:
    """The optimiser's best routes for ``entity`` as a ``run_routes`` list (empty when it finds none); with
    ``between`` (two hex lists) one route must run from a hex of one list to a hex of the other."""
    from railbook.routes import required_route, route_connections, solve
    from railbook.routes.adapter import problem_from_game

    try:
        problem = problem_from_game(game, entity)  # (with the route the rules require of the run now, if any)
        if between and not any(isinstance(b, dict) and b.get("required") for b in problem.bonuses):
            problem.bonuses = [*problem.bonuses, required_route(between)]
        solution = solve(problem)
    except (KeyError, ValueError):
        return []
    return [{"train": r.train, "connections": route_connections(problem, r)} for r in solution.routes]


def _routes_within(game: Any, action: dict[str, Any], best: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The optimiser's routes, else one of them alone, that the game accepts (tried on a copy; the first
    candidate when none is)."""
    from railbook.engine.errors import IllegalAction
    from railbook.engine.game import Game

    state = game.to_json()
    for routes in [best, *([r] for r in best)]:
        trial = Game.from_json(game.context.book.base, state)
        try:
            trial.process({**action, "routes": routes})
        except IllegalAction:
            continue
        return routes
    return best


LOW_BID = 0.7  # random bidders mostly bid the least they may: bids at random up to all their cash lock it away


def _lowest(desc: dict[str, Any]) -> dict[str, Any]:
    """The description with every price range ``{min, max}`` narrowed to its minimum."""

    def narrow(d: dict[str, Any]) -> dict[str, Any]:
        ranged = {k for k, v in d.items() if isinstance(v, dict) and "min" in v and "max" in v}
        out = {k: ({**v, "max": v["min"]} if k in ranged else v) for k, v in d.items()}
        if "min" in out and "max" in out:
            out["max"] = out["min"]
        return out

    narrowed = narrow(desc)
    if isinstance(desc.get("choices"), list):
        narrowed["choices"] = [narrow(c) if isinstance(c, dict) else c for c in desc["choices"]]
    return narrowed


def concrete(desc: dict[str, Any], rnd: random.Random, game: Any) -> dict[str, Any] | None:
    """One action that fits a legal-action description (None when it offers nothing to choose)."""
    from .engine.state import ckey

    action = {"type": desc["type"], "entity": desc["entity"], "entity_type": desc["entity_type"]}
    if desc["type"] == "run_routes":
        between = desc.get("route_between")
        if between:  # a required route (a connection run): never an empty run
            action["routes"] = _routes(game, str(desc["entity"]), between)
            return action
        # (a company in receivership runs "for the most money possible" (1846 §7.1): no empty run of choice there)
        best = rnd.random() < 0.9 or (
            desc.get("entity_type") == "corporation"
            and game.context.hooks("in_receivership", ckey(str(desc["entity"])))
        )
        action["routes"] = _routes(game, str(desc["entity"])) if best else []
        if isinstance(desc.get("routes"), str):  # a rule on the routes the optimiser does not know
            action["routes"] = _routes_within(game, action, action["routes"])
        return action
    choices = desc.get("choices")
    if isinstance(choices, dict):
        desc = {**desc, "choices": [choices]}
    if desc["type"] == "bid" and rnd.random() < LOW_BID:
        desc = _lowest(desc)
    from .engine import randomplay

    return randomplay.concrete(desc, rnd)  # fixed fields, a choice, prices within {min, max} on the step


def _fixed(price: Any) -> bool:
    return not isinstance(price, dict) or price.get("min") == price.get("max")


def _purchases_only(desc: dict[str, Any]) -> dict[str, Any] | None:
    """A weary bidder's view of a description: a bid keeps only its choices at a fixed price (buying what is
    offered at its price, not raising a bid); None when nothing is left."""
    if desc["type"] != "bid":
        return desc
    choices = desc.get("choices")
    if isinstance(choices, dict):
        choices = [choices]
    if isinstance(choices, list):
        fixed = [c for c in choices if not isinstance(c, dict) or _fixed(c.get("price"))]
        return {**desc, "choices": fixed} if fixed else None
    bounds = {k: desc[k] for k in ("min", "max") if k in desc}
    return desc if _fixed(desc.get("price", bounds or None)) else None


#: how many of a description's choices are drawn before it is given up where each drawn is avoided
AVOIDED_RETRIES = 8


def choose(
    game: Any,
    rnd: random.Random,
    pass_weight: float = 0.3,
    bid_weariness: float = 0.0,
    site: bool = False,
    avoid: Callable[[dict[str, Any]], bool] | None = None,
) -> dict[str, Any] | None:
    """A random legal action: mostly an active one, a pass now and then; with chance ``bid_weariness`` no bid
    (when something else may be done).  ``site``: for a game written as an 18xx.games record, a private company
    never passes when anything else may be done (declining an optional ability is no action on the site).
    ``avoid``: actions not to choose where another may be chosen."""
    descs = game.legal_descriptions()
    if site:
        kept = [d for d in descs if not (d["type"] == "pass" and d.get("entity_type") == "company")]
        descs = _site_trades(game, kept or descs)
    active = [d for d in descs if d["type"] not in PASSIVE]
    passes = [d for d in descs if d["type"] in PASSIVE]
    if bid_weariness and rnd.random() < bid_weariness:
        weary = [w for w in (_purchases_only(d) for d in active) if w is not None]
        if weary or passes:
            active = weary
    rnd.shuffle(active)
    order = passes + active if passes and (not active or rnd.random() < pass_weight) else active + passes
    avoided = None
    for desc in order:
        # (a description of several choices is tried again where the choice drawn is avoided: another may not be)
        tries = AVOIDED_RETRIES if avoid is not None and isinstance(desc.get("choices"), list) else 1
        for _ in range(min(tries, max(1, len(desc.get("choices") or ())))):
            action = concrete(desc, rnd, game)
            if action is not None and avoid is not None and avoid(action):
                avoided = avoided or action
                continue
            if action is not None:
                return action
    return avoided


def _site_trades(game: Any, descs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For a game written as an 18xx.games record: no player buys from another player a private that came with a
    certificate (the site hands the certificate over again and fails), no company buys a private in a phase of
    the title's ``site.private_closing_fails_in_phases`` (the site's engine fails once such a private closes with
    its company in that phase; no one can foresee whether it will), and no player passes while a private of
    ``site.unowned_private_income_fails`` is unsold and he may do anything else (an initial round everyone passes
    would pay the privates' income, and the site fails on the unowned one; nor does he bid away the cash he would
    need to buy it, or a round of bids could leave no one able to), and no private places a marker while markers a
    first tile lifted are still to be put back (the site takes a lifted one for it), and no company redeems a share
    where the site's engine fails listing the shares it may redeem (``site_redemption_fails``): docs/CONFORMANCE.md,
    "Standing"."""
    privates = game.rulebook.get("privates") or {}

    def with_shares(sym: Any) -> bool:
        return any(a.get("type") == "shares" for a in (privates.get(sym) or {}).get("abilities") or [])

    from railbook.engine.digest import (
        site_fails_on_company_privates,
        site_fails_on_unowned_income,
        site_redemption_fails,
        site_unowned_income_reserve,
    )

    no_company_buys = site_fails_on_company_privates(game)
    reserve = site_unowned_income_reserve(game)
    if reserve:
        descs = [r for r in (_bids_keeping(d, reserve) for d in descs) if r is not None]
    no_player_passes = site_fails_on_unowned_income(game) and any(
        d["type"] not in PASSIVE and d.get("entity_type") == "player" for d in descs
    )
    lifted = bool(game.state.round is not None and game.state.round.data.get("lifted_tokens"))
    out = []
    for d in descs:
        if d["type"] in PASSIVE and d.get("entity_type") == "player" and no_player_passes:
            continue
        if d["type"] == "place_token" and d.get("entity_type") == "company" and lifted:
            continue  # (the site places a private's marker with a lifted one, then cannot put that one back)
        if d["type"] == "buy_company" and d.get("entity_type") == "corporation" and no_company_buys:
            continue
        if d["type"] == "buy_shares" and d.get("entity_type") == "corporation":
            if site_redemption_fails(game, str(d.get("entity"))):
                continue  # (the site's engine fails listing the shares it may redeem)
        if d["type"] == "buy_company" and d.get("entity_type") == "player" and d.get("choices"):
            choices = [c for c in d["choices"] if not with_shares(c.get("company"))]
            if not choices:
                continue
            d = {**d, "choices": choices}
        out.append(d)
    return out


def site_allows(game: Any, action: dict[str, Any]) -> bool:
    """Whether a game written as an 18xx.games record may take ``action`` (a bot's choice): a move the random
    player's site rules (:func:`choose` with ``site``) keep, by type and entity, and a player's private purchase
    only of the private companies they leave him."""
    descs = game.legal_descriptions()
    kept = [d for d in descs if not (d["type"] == "pass" and d.get("entity_type") == "company")]
    for d in _site_trades(game, kept or descs):
        if d["type"] != action.get("type") or d.get("entity") != action.get("entity"):
            continue
        if d["type"] == "buy_company" and d.get("entity_type") == "player" and d.get("choices"):
            return any(c.get("company") == action.get("company") for c in d["choices"])
        return True
    return False


class _StallGuard:
    """For a game written as an 18xx.games record of a title whose ``site.closing_stalls_stock_round`` is set: a
    stock-round turn in which a corporation closed and after which the site's engine would keep a player waiting
    with nothing offered (``railbook.engine.digest.stalled_turn``) is played again from its start, the move that
    closed the corporation avoided where another can be made (docs/CONFORMANCE.md, "Standing": a stock round the
    site does not end)."""

    RETRIES = 6  # a turn played again at most so often; then it stands as played

    def __init__(self, game: Any) -> None:
        from railbook.engine.digest import site_stalls_on_closing

        self.game = game
        self.on = site_stalls_on_closing(game)
        self.player: str | None = None
        self.start: tuple[int, Any, int, frozenset[str], Any] | None = None  # (log length, exporter, actions,
        # the corporations closed, the round)
        self.closer: dict[str, Any] | None = None  # the turn's move that closed a corporation
        self.avoid: list[tuple[Any, ...]] = []
        self.retries = 0
        self.prices: dict[str, Any] = {}  # (each open corporation's price before the move)

    def _player(self, game: Any) -> str | None:
        from railbook.engine.digest import stock_turn

        return stock_turn(game) if self.on else None

    @staticmethod
    def _closed(game: Any) -> frozenset[str]:
        return frozenset(k for k, c in game.state.corporations.items() if c.closed)

    @staticmethod
    def _key(game: Any, action: dict[str, Any]) -> tuple[Any, ...]:
        """What is avoided: a sale by the company sold (whichever certificates), any other move as it is."""
        if action.get("type") == "sell_shares" and action.get("shares"):
            share = game.state.shares.get(str(action["shares"][0]))
            return ("sell_shares", action.get("entity"), share.corp if share is not None else None)
        return (json.dumps(action, sort_keys=True),)

    def turn(self, game: Any, log: list[Any], autos: Any, actions: int) -> None:
        """Before a move: a new stock-round turn starts a checkpoint."""
        from railbook.engine.digest import open_prices

        player = self._player(game)
        if player is not None:
            self.prices = open_prices(game)
        if player is None:
            self.player = self.start = None
        elif player != self.player:
            import copy

            self.player, self.closer, self.avoid, self.retries = player, None, [], 0
            self.start = (len(log), copy.deepcopy(autos), actions, self._closed(game), _stock_round(game))

    def avoided(self, action: dict[str, Any]) -> bool:
        return bool(self.avoid) and self._key(self.game, action) in self.avoid

    def after(self, game: Any, action: dict[str, Any]) -> tuple[int, Any, int] | None:
        """After a move of the turn: where the turn has ended in a stall, the game is taken back to its start and
        (log length, exporter, actions) to go on from are returned."""
        if self.start is None or self.player is None:
            return None
        closed = self._closed(game)
        if self.closer is None and closed - self.start[3]:
            self.closer = action
        from railbook.engine.digest import closed_at_round_end, stalled_turn, stock_turn_goes_on

        if stock_turn_goes_on(game, self.player):
            return None

        same = _stock_round(game) == self.start[4]
        ended = self.closer is action and closed_at_round_end(game, action, self.prices, closed - self.start[3])
        if (
            self.closer is None
            or self.retries >= self.RETRIES
            or not stalled_turn(game, self.player, True, same, ended)
        ):
            self.player = self.start = None
            return None
        import copy

        length, autos, actions, before, _ = self.start
        gone = closed - before
        played = game.actions[length:]
        for _ in range(len(played)):
            game.undo()
        # the move that closed it and the turn's sales of what closed (whose price move may wait for the turn's end)
        for move in [self.closer, *played]:
            key = self._key(game, move)
            if (move is self.closer or (key[0] == "sell_shares" and key[-1] in gone)) and key not in self.avoid:
                self.avoid.append(key)
        self.closer = None
        self.retries += 1
        return length, copy.deepcopy(autos), actions


class _StaleGraphGuard:
    """For a game written as an 18xx.games record of a title whose ``site.closing_leaves_graph_stale`` is set: from
    a move that takes station markers off the map (a closing, a liquidation) until the next tile lay or marker
    placement, the site's engine judges lays and markers by its route graph from before (as if those markers were
    still there; docs/CONFORMANCE.md, "Standing"): a lay is avoided where the map with them would not allow it, a
    marker placement always (the site's answer for markers may be older still). Rights to mine hexes bought by a
    purchase (not a lay) leave the site's graph as it was too: a lay the map without them refuses is avoided, and
    the company that bought them lays a tile rather than pass its track step where it can (its route step comes
    next, judged by that graph)."""

    MOVES = ("lay_tile", "place_token")  # (moves that renew the site's graph)
    JUDGED = (*MOVES, "choose")  # (and the rights to a mine, which need the map to reach it)

    def __init__(self, game: Any, rulebook: dict[str, Any]) -> None:
        from railbook.engine.digest import site_graph_stale_after_closing

        self.game, self.rulebook = game, rulebook
        self.on = site_graph_stale_after_closing(game)
        self.placed = self._placed(game) if self.on else frozenset()
        self.rights = self._rights(game) if self.on else frozenset()
        self.freed: list[tuple[str, str, int]] = []  # markers gone since the last lay or placement: (key, hex, city)
        self.gained: list[str] = []  # companies that gained rights to the mine hexes since then
        self.judged: dict[str, bool] = {}  # (this position's answers, by the move)

    @staticmethod
    def _placed(game: Any) -> frozenset[tuple[str, str, int]]:
        """The companies' station markers on the map: (company key, hex, city)."""
        return frozenset(
            (key, h, ci)
            for h, hs in game.state.hexes.items()
            for ci, slots in enumerate(hs.tokens)
            for key in slots
            if key and key.startswith("C|")
        )

    @staticmethod
    def _rights(game: Any) -> frozenset[str]:
        """The companies holding rights to the mine hexes (the site's graph walks their paths only for them)."""
        st = game.state.mechanics.get("mines")
        return frozenset(getattr(st, "rights", None) or [])

    def after(self, game: Any, action: dict[str, Any]) -> None:
        if not self.on:
            return
        self.judged = {}
        placed, rights = self._placed(game), self._rights(game)
        if action.get("type") in self.MOVES:
            self.freed, self.gained = [], []
        else:
            self.freed.extend(sorted(self.placed - placed))
            # (rights bought by a purchase leave the site's graph as it was too: 1850 bot seed 180009, GN's MRC)
            self.gained.extend(sorted(rights - self.rights))
        self.placed, self.rights = placed, rights

    def rewound(self, game: Any) -> None:
        """The game was taken back (a turn played again): what is known of the map is cleared to be safe."""
        placed = self._placed(game)
        self.placed, self.judged = placed, {}
        self.freed = [m for m in self.freed if m not in placed]
        self.rights = self._rights(game)
        self.gained = [c for c in self.gained if c in self.rights]

    def avoided(self, action: dict[str, Any]) -> bool:
        if self.gained and action.get("type") == "pass" and str(action.get("entity")) in self.gained:
            # (the company's own lay renews the site's graph before its route step, which the site skips, finding no
            # route, where the only one reaches the mine: 1850 run 17 seed 300089, NP after buying the MRC)
            return self._lay_instead(str(action.get("entity")))
        if not (self.freed or self.gained) or action.get("type") not in self.JUDGED:
            return False
        if action.get("type") == "place_token":
            # (the site's marker check keeps its answer from before the closing, which the map with the markers put
            # back does not always give: 1846 run 16 seed 250047, PRR's marker in D20 after NYC's closing)
            return True
        key = json.dumps(action, sort_keys=True)
        if key not in self.judged:
            self.judged[key] = not self._allowed_before(action)
        return self.judged[key]

    def _lay_instead(self, corp: str, most: int = 60) -> bool:
        """The company may lay a tile now that the site's graph allows (up to ``most`` of the lays offered tried)."""
        key = f"lay instead: {corp}"
        if key not in self.judged:
            lays = [
                {"type": "lay_tile", "entity": corp, "entity_type": d.get("entity_type", "corporation"), **choice}
                for d in self.game.legal_descriptions()
                if d["type"] == "lay_tile" and d.get("entity") == corp
                for choice in d.get("choices") or []
            ]
            self.judged[key] = any(self._allowed_before(lay) for lay in lays[:most])
        return self.judged[key]

    def _allowed_before(self, action: dict[str, Any]) -> bool:
        """Whether the move is legal on the map with the freed markers put back."""
        from railbook.engine.errors import IllegalAction
        from railbook.engine.game import Game

        data = self.game.to_json()
        st = data["state"]
        for key, h, ci in self.freed:
            slots = st["hexes"][h]["tokens"][ci]
            if None in slots and key not in slots:
                slots[slots.index(None)] = key
        mines = (st.get("mechanics") or {}).get("mines")
        if self.gained and isinstance(mines, dict):
            mines["rights"] = [c for c in mines.get("rights") or [] if c not in self.gained]
        try:
            Game.from_json(self.rulebook, data).process(action, atomic=False)
        except IllegalAction:
            return False
        return True


class _RouteMemoGuard:
    """For a game written as an 18xx.games record of a title whose ``site.route_memo_keeps_train_duty`` is set: once
    the site's route graph has found a company a route it keeps it, and makes the company buy a train whenever it has
    none. Its check of a lay that lifts the company's marker from a hex of unconnected cities finds the route the
    marker would have in the tile's other city (1830 run 15 seeds 200123, 200206: ERIE's #59 on E11, the marker put
    back in the city whose track meets no other station; docs/CONFORMANCE.md, "Standing", the site's memo of a
    route). A company so remembered, or that has run a route, and owns no train does not pass its train step where
    it can buy one."""

    def __init__(self, game: Any, rulebook: dict[str, Any]) -> None:
        from railbook.engine.digest import site_route_memo

        self.game, self.rulebook = game, rulebook
        self.on = site_route_memo(game)
        self.remembered: set[str] = set()
        self.lifted: list[list[Any]] = []  # the markers waiting to be put back before the action

    def after(self, game: Any, action: dict[str, Any]) -> None:
        if not self.on:
            return
        corp = str(action.get("entity"))
        if action.get("type") == "run_routes" and action.get("routes"):
            self.remembered.add(corp)
        if action.get("type") == "place_token":
            for hex_id, key, layer in self.lifted:
                if layer == f"C|{corp}" and self._route_elsewhere(game, hex_id, key):
                    self.remembered.add(key.split("|", 1)[1])
        r = game.state.round
        self.lifted = [list(x) for x in (r.data.get("lifted_tokens") or [])] if r is not None else []

    def _route_elsewhere(self, game: Any, hex_id: str, key: str) -> bool:
        """The company of marker ``key`` would have a route with its marker in another city of ``hex_id``."""
        from railbook.engine import board
        from railbook.engine.game import Game

        data = game.to_json()
        cities = data["state"]["hexes"][hex_id]["tokens"]
        here = next((ci for ci, slots in enumerate(cities) if key in slots), None)
        for ci, slots in enumerate(cities):
            if ci == here or None not in slots or here is None:
                continue
            copy_ = game.to_json()
            moved = copy_["state"]["hexes"][hex_id]["tokens"]
            moved[here][moved[here].index(key)] = None
            moved[ci][moved[ci].index(None)] = key
            for t in copy_["state"]["corporations"][key.split("|", 1)[1]]["tokens"]:
                if t.get("used") and t.get("hex") == hex_id and t.get("city") == here:
                    t["city"] = ci
                    break
            if board.network(Game.from_json(self.rulebook, copy_).context, key).route_available:
                return True
        return False

    def avoided(self, action: dict[str, Any]) -> bool:
        corp = str(action.get("entity"))
        if not self.on or action.get("type") != "pass" or action.get("entity_type") != "corporation":
            return False
        if corp not in self.remembered or self.game.state.corporations[corp].trains:
            return False
        return any(d["type"] == "buy_train" and d.get("entity") == corp for d in self.game.legal_descriptions())


def _either(*guards: Any) -> Callable[[dict[str, Any]], bool] | None:
    """One ``avoid`` test of the guards present: a move any of them avoids."""
    kept = [g for g in guards if g is not None]
    if not kept:
        return None
    return lambda action: any(g.avoided(action) for g in kept)


def _stock_round(game: Any) -> tuple[Any, ...] | None:
    """Which stock round the game is in (None outside one)."""
    r = game.state.round
    return (game.state.turn, r.round_num) if r is not None and r.kind == "stock" and not game.state.finished else None


def _bids_keeping(desc: dict[str, Any], reserve: int) -> dict[str, Any] | None:
    """A player's bid description whose raises leave him ``reserve`` free (a bid's ``max`` is all he may commit to
    it); a purchase at a fixed price is kept. None when no choice is left."""
    if desc["type"] != "bid" or desc.get("entity_type") != "player" or not isinstance(desc.get("choices"), list):
        return desc
    choices = []
    for c in desc["choices"]:
        price = c.get("price") if isinstance(c, dict) else None
        if isinstance(price, dict) and not _fixed(price) and isinstance(price.get("max"), int):
            top = price["max"] - reserve
            if top < price.get("min", 0):
                continue
            c = {**c, "price": {**price, "max": top}}
        choices.append(c)
    return {**desc, "choices": choices} if choices else None


def round_key(game: Any) -> tuple[Any, ...]:
    """Which round the game is in (changes when a new round starts)."""
    rnd, seq = game.state.round, game.state.sequence
    return (
        game.state.turn,
        rnd.kind if rnd else None,
        rnd.round_num if rnd else 0,
        seq.section,
        seq.entry,
        seq.iteration,
        seq.index,
    )


def patience(actions_in_round: int) -> float:
    """The chance to pass rather than act: random players tire of a round (a stock round where everyone may
    buy and sell without limit would otherwise churn for ever)."""
    return min(0.95, 0.3 + actions_in_round / 100)


def bid_weariness(actions_in_round: int) -> float:
    """The chance that a random player stops bidding in a long round other than a stock round: bidders who
    raise every turn may lock away all their cash, so that no one can ever buy what must be bought next (an
    initial auction where only the first private's price falls would then never end)."""
    return min(0.95, max(0.0, (actions_in_round - 100) / 200))


# ---------------------------------------------------------------------------------------- invariants


def invariants(state: dict[str, Any], total: int) -> list[tuple[str, str]]:
    """The broken invariants of a game state (its JSON form) as (name, message)."""
    broken: list[tuple[str, str]] = []
    cash: dict[str, int] = state.get("cash") or {}
    if sum(cash.values()) != total:
        broken.append(("money.conserved", f"money adds up to {sum(cash.values())}, not {total}"))
    negative = {k: v for k, v in cash.items() if k != BANK and v < 0}
    if negative:
        broken.append(("money.negative", f"negative cash: {negative}"))
    shares: dict[str, dict[str, Any]] = state.get("shares") or {}
    held: dict[str, str] = {}
    for holder, by_corp in (state.get("holdings") or {}).items():
        for ids in by_corp.values():
            for sid in ids:
                if sid in held:
                    broken.append(("shares.once", f"{sid} is held by {held[sid]} and {holder}"))
                held[sid] = holder
                owner = (shares.get(sid) or {}).get("owner")
                if owner != holder:
                    broken.append(("shares.owner", f"{sid} is held by {holder} but owned by {owner}"))
    percent: dict[str, int] = {}
    for sid, share in shares.items():
        if sid in held:
            percent[share["corp"]] = percent.get(share["corp"], 0) + int(share["percent"])
    for sym, corp in (state.get("corporations") or {}).items():
        if corp.get("closed") or corp.get("removed"):
            continue
        if percent.get(sym, 0) != 100:
            broken.append(("shares.100", f"{sym}'s certificates add up to {percent.get(sym, 0)}%"))
    return broken


# ---------------------------------------------------------------------------------------------- play


KEYED = ("hexes", "shares", "trains", "corporations", "minors", "companies")  # the state's large id -> object maps


class RoundTrip:
    """The state -> JSON -> state check, after every action of one game.  In the large id -> object maps only the
    entries whose JSON changed since the last check are written and read back: an unchanged entry's JSON reads
    back as it did then, so the state read back is still compared whole with the live one (a live entry that
    changed without changing its JSON is caught)."""

    def __init__(self) -> None:
        self.written: dict[str, dict[str, Any]] = {f: {} for f in KEYED}
        self.read: dict[str, dict[str, Any]] = {f: {} for f in KEYED}

    def differs(self, game: Any, data: dict[str, Any]) -> bool:
        """Whether the state ``data`` (``game.to_json()``) reads back from JSON text as other than ``game``'s."""
        from railbook.engine.context import decode_state

        state = data["state"]
        slim = dict(state)
        for f in KEYED:
            before = self.written[f]
            slim[f] = {k: v for k, v in state[f].items() if before.get(k) != v}
        back = _through_json({**data, "state": slim})
        again = decode_state(game.context.book, back["state"])
        for f in KEYED:
            fresh, before = getattr(again, f), self.read[f]
            merged = {k: fresh[k] if k in fresh else before[k] for k in state[f]}
            setattr(again, f, merged)
            self.written[f], self.read[f] = state[f], merged
        return bool(again != game.state or back["options"] != list(game.context.book.options))


def _through_json(data: dict[str, Any]) -> Any:
    """``data`` written as JSON text and read back (orjson: it also refuses keys that are not strings, which the
    standard module would quietly turn into strings)."""
    import orjson

    return orjson.loads(orjson.dumps(data))


def playable_setups(rulebook: dict[str, Any]) -> tuple[list[int], list[str]]:
    """The player counts and the options the engine starts a game with (the others it cannot play yet)."""
    counts = [n for n in sorted(int(n) for n in rulebook.get("players") or {}) if start_error(rulebook, n) is None]
    options = [
        o for o in sorted(rulebook.get("options") or {}) if counts and start_error(rulebook, counts[0], [o]) is None
    ]
    return counts, options


def setup_for(
    rulebook: dict[str, Any], seed: int, setups: tuple[list[int], list[str]] | None = None
) -> tuple[list[str], list[str]]:
    """The players and options of game ``seed``: a playable player count; no option or one playable one."""
    counts, options = setups or playable_setups(rulebook)
    rnd = random.Random(f"setup-{seed}")
    players = [f"p{i + 1}" for i in range(rnd.choice(counts))]
    chosen = [rnd.choice(options)] if options and rnd.random() < 0.5 else []
    return players, chosen


def site_record(
    rulebook: dict[str, Any], seed: int, players: list[str], options: list[str], log: list[dict[str, Any]], game: Any
) -> dict[str, Any]:
    """A game played by railbook as an 18xx.games record: players, settings (seed, optional rules), the actions
    with ids, and the outcome (``result``, ``game_end_reason``) once the game is over."""
    meta = rulebook.get("meta") or {}
    record: dict[str, Any] = {
        "id": seed,
        "description": f"railbook soak, seed {seed}",
        "title": str(meta.get("site_id") or rulebook.get("title")),
        "status": "finished" if game is not None and game.state.finished else "active",
        "players": [{"id": p, "name": p} for p in players],
        "settings": {"seed": seed, "optional_rules": list(options)},
        "actions": [{**a, "id": i + 1} for i, a in enumerate(_site_tile_ids(rulebook, game, log))],
    }
    if game is not None and game.state.finished:
        record["result"] = {str(k): v for k, v in game.result().items()}
        record["game_end_reason"] = game.state.game_end_reason
    return record


def _site_tile_ids(rulebook: dict[str, Any], game: Any, log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The log with the tile ids the site gives: where the title's ``site.removed_tile_copies_first`` says so and
    the game's options lower a tile's count, the site has taken that tile's first copies out, and railbook's n-th
    copy is the site's ``<tile>-<n + those copies>``."""
    if game is None:
        return log
    from railbook.engine.digest import site_tile_copies_taken_out

    skipped = site_tile_copies_taken_out(game, rulebook)
    if not skipped:
        return log
    out = []
    for a in log:
        tile = a.get("tile") if a.get("type") == "lay_tile" else None
        if isinstance(tile, str) and "-" in tile:
            name, _, n = tile.rpartition("-")
            if n.isdigit() and name in skipped:
                a = {**a, "tile": f"{name}-{int(n) + skipped[name]}"}
        out.append(a)
    return out


def record_setups(rulebook: dict[str, Any]) -> tuple[list[int], list[str]]:
    """:func:`playable_setups` less the options that only railbook names (``site_*``: dated behaviours of the
    site, which a new record of the site never plays)."""
    counts, options = playable_setups(rulebook)
    return counts, [o for o in options if not o.startswith("site_")]


def play_game(
    rulebook: dict[str, Any],
    seed: int,
    max_actions: int = MAX_ACTIONS,
    setups: tuple[list[int], list[str]] | None = None,
    records: str | None = None,
    bots: str | None = None,
) -> GameReport:
    """Play game ``seed`` to its end (or ``max_actions``), checking the invariants after every action; with
    ``records`` (a folder), the game is also written there as an 18xx.games record, ``<title>_<seed>.json``; with
    ``bots`` (a bot's name, ``railbook.bots``), that bot plays every seat instead of the random player."""
    if records is None:
        return _play_game(rulebook, seed, max_actions, setups, bots=bots)
    kept: list[Any] = []
    report = _play_game(rulebook, seed, max_actions, setups or record_setups(rulebook), kept, bots)
    players, options, log, game = kept
    record = site_record(rulebook, seed, players, options, log, game)
    from pathlib import Path

    from .jsonio import write_atomic

    title = str((rulebook.get("meta") or {}).get("site_id") or rulebook.get("title"))
    write_atomic(Path(records) / f"{title}_{seed}.json", json.dumps(record, ensure_ascii=False) + "\n")
    return report


def play_record(
    rulebook: dict[str, Any],
    seed: int,
    max_actions: int = MAX_ACTIONS,
    setups: tuple[list[int], list[str]] | None = None,
    also: list[str] | None = None,
    bots: str | None = None,
) -> tuple[dict[str, Any], GameReport]:
    """Game ``seed`` played as :func:`play_game` plays it (options: ``setups``, by default :func:`record_setups`;
    ``bots``: that bot in every seat, held to the site's rules as the random player is), as an 18xx.games record,
    with its report.  ``also``: options played besides the drawn ones but not written into the record (the site's
    dated behaviours that its date turns on when the record is replayed)."""
    kept: list[Any] = []
    report = _play_game(rulebook, seed, max_actions, setups or record_setups(rulebook), kept, bots, also)
    players, options, log, game = kept
    return site_record(rulebook, seed, players, options, log, game), report


def _play_game(
    rulebook: dict[str, Any],
    seed: int,
    max_actions: int = MAX_ACTIONS,
    setups: tuple[list[int], list[str]] | None = None,
    keep: list[Any] | None = None,
    bots: str | None = None,
    also: list[str] | None = None,
) -> GameReport:
    from railbook.engine.errors import IllegalAction
    from railbook.engine.game import Game

    players, options = setup_for(rulebook, seed, setups)
    report = GameReport(seed, len(players), options, 0, False, None)
    log: list[dict[str, Any]] = []
    if keep is not None:
        keep.extend([players, options, log, None])

    def fail(invariant: str, message: str) -> GameReport:
        report.failures.append(Failure(seed, report.actions, invariant, message))
        return report

    named = options
    if keep is not None:
        # an 18xx.games record: played with the options its replay will play (the title's default ones too)
        from railbook.engine.replay import record_options

        named = record_options({"settings": {"optional_rules": options}}, rulebook)
    played = [*named, *(o for o in also or [] if o not in named)]
    try:
        game = Game.start(rulebook, players, seed=seed, options=played)
    except Exception as exc:
        return fail("game.start", f"{type(exc).__name__}: {exc}")
    autos = None
    if keep is not None:
        from .site_export import SiteAutoActions

        keep[3] = game
        autos = SiteAutoActions(game)
    rnd = random.Random(seed)
    seats: dict[str, Any] = {}
    if bots is not None:
        from .bots import make_bot

        seats = {p: make_bot(bots, seed * 16 + i) for i, p in enumerate(players)}
    state = game.to_json()
    total = sum((state["state"].get("cash") or {}).values())
    roundtrip = RoundTrip()
    this_round: tuple[Any, ...] = ()
    in_round = 0
    stalls = _StallGuard(game) if autos is not None else None
    stale = _StaleGraphGuard(game, rulebook) if autos is not None else None
    memo = _RouteMemoGuard(game, rulebook) if autos is not None else None
    while not game.state.finished and report.actions < max_actions:
        if stalls is not None:
            stalls.turn(game, log, autos, report.actions)
        now = round_key(game)
        in_round = in_round + 1 if now == this_round else 0
        this_round = now
        kind = game.state.round.kind if game.state.round else None
        if in_round > ENDLESS_ROUND:
            return fail("round.endless", f"the {kind} round goes on after {ENDLESS_ROUND} actions")
        try:
            # players tire only of stock rounds: elsewhere (auctions, operating) passing ends nothing sooner
            stock = kind == "stock"
            if seats:
                acting = game.acting()
                action = seats[acting[0]].choose(game, acting[0]).to_action() if acting else None
                avoid = _either(stalls, stale, memo)
                if action is not None and autos is not None:
                    held = avoid is not None and avoid(action)
                    if held or not site_allows(game, action):
                        action = choose(game, rnd, patience(0), 0.0, True, avoid)
            else:
                action = choose(
                    game,
                    rnd,
                    patience(in_round if stock else 0),
                    0.0 if stock else bid_weariness(in_round),
                    autos is not None,
                    _either(stalls, stale, memo),
                )
        except Exception as exc:
            return fail("legal_actions", f"{type(exc).__name__}: {exc}")
        if action is None:
            return fail("game.stuck", "no legal action, but the game is not over")
        try:
            game.process(action)
        except IllegalAction as exc:
            return fail("legal.refused", f"{json.dumps(action)[:300]} was offered but refused: {exc}")
        except Exception as exc:
            return fail("engine.error", f"{json.dumps(action)[:300]}: {type(exc).__name__}: {exc}")
        log.append(action)
        if autos is not None:
            written = autos.action(game, action)
            extra = autos.after(game)
            log[-1] = {**written, "auto_actions": extra} if extra else written
        report.actions += 1
        if stale is not None:
            stale.after(game, action)
        if memo is not None:
            memo.after(game, action)
        if stalls is not None:
            back = stalls.after(game, action)
            if back is not None:  # (the turn played again from its start, its closing move avoided)
                log[back[0] :] = []
                autos, report.actions = back[1], back[2]
                if stale is not None:
                    stale.rewound(game)
                continue
        state = game.to_json()
        for name, message in invariants(state["state"], total):
            fail(name, message)
        try:
            differs = roundtrip.differs(game, state)
        except Exception as exc:
            return fail("json.roundtrip", f"{type(exc).__name__}: {exc}")
        if differs:
            fail("json.roundtrip", "the state read back from JSON differs")
        if report.failures:
            return report
    report.finished = bool(game.state.finished)
    report.end_reason = game.state.game_end_reason
    if report.end_reason == "stalled":
        kind = game.state.round.kind if game.state.round else None
        fail(
            "game.stalled",
            f"rounds go by with no one able to act and nothing changing (turn {game.state.turn}, a {kind} round): "
            "no rule of the title ends the game",
        )
    try:
        replayed = Game.start(rulebook, players, seed=seed, options=played)
        for action in log:
            replayed.process({k: v for k, v in action.items() if k != "auto_actions"})
        same = replayed.to_json() == state and replayed.result() == game.result()
    except Exception as exc:
        return fail("log.replay", f"replaying the game's own log failed: {type(exc).__name__}: {exc}")
    if not same:
        fail("log.replay", "replaying the game's own log gives a different state")
    return report


# ------------------------------------------------------------------------------------------- workers

_WORKER: dict[str, Any] = {}


def _init(
    rulebook: dict[str, Any],
    max_actions: int,
    setups: tuple[list[int], list[str]],
    parent: int,
    records: str | None = None,
    bots: str | None = None,
) -> None:
    from .workers import die_with_parent

    die_with_parent(parent)
    _WORKER.update(rulebook=rulebook, max_actions=max_actions, setups=setups, records=records, bots=bots)


def _one(seed: int) -> GameReport:
    w = _WORKER
    return play_game(w["rulebook"], seed, w["max_actions"], w["setups"], w.get("records"), w.get("bots"))


def play_games(
    rulebook: dict[str, Any],
    seeds: list[int],
    jobs: int = 0,
    max_actions: int = MAX_ACTIONS,
    records: str | None = None,
    bots: str | None = None,
) -> Iterator[GameReport]:
    """Reports of the games ``seeds``, played on ``jobs`` processes (0: one per core), in any order; with
    ``records`` each game is also written there as an 18xx.games record, with ``bots`` played by that bot
    (:func:`play_game`)."""
    jobs = jobs or os.cpu_count() or 1
    setups = record_setups(rulebook) if records is not None else playable_setups(rulebook)
    if jobs == 1 or len(seeds) == 1:
        for seed in seeds:
            yield play_game(rulebook, seed, max_actions, setups, records, bots)
        return
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with context.Pool(
        min(jobs, len(seeds)), initializer=_init, initargs=(rulebook, max_actions, setups, os.getpid(), records, bots)
    ) as pool:
        yield from pool.imap_unordered(_one, seeds, chunksize=1)


def soak(
    title: str,
    rulebook: dict[str, Any],
    games: int,
    seed: int,
    jobs: int = 0,
    max_actions: int = MAX_ACTIONS,
    progress: Callable[[Summary], None] | None = None,
    records: str | None = None,
    bots: str | None = None,
) -> Summary:
    """Play ``games`` random games of a title (seeds ``seed`` .. ``seed + games - 1``) and sum them up;
    ``progress`` sees the running summary after each game; with ``records`` (a folder) every game is written there
    as an 18xx.games record; with ``bots`` (a bot's name) that bot plays every seat."""
    reason = not_playable(rulebook)
    if reason is not None:
        return Summary(title, False, reason.removeprefix(f"{title}: "))
    summary = Summary(title, True)
    start = time.perf_counter()
    for report in play_games(rulebook, [seed + i for i in range(games)], jobs, max_actions, records, bots):
        summary.games += 1
        summary.actions += report.actions
        summary.finished += report.finished
        if report.end_reason:
            summary.end_reasons[report.end_reason] = summary.end_reasons.get(report.end_reason, 0) + 1
        summary.rule_ends += report.rule_end
        how = report.unended_as
        if how is not None:
            summary.unended[how] = summary.unended.get(how, 0) + 1
        summary.failures.extend(report.failures)
        if progress is not None:
            summary.seconds = time.perf_counter() - start
            progress(summary)
    summary.seconds = time.perf_counter() - start
    summary.failures.sort(key=lambda f: (f.seed, f.action))
    if summary.games and not summary.rule_ends:
        if max_actions < MAX_ACTIONS and set(summary.unended) <= {"capped"}:
            summary.not_judged = f"no game reached an end of the rules within {max_actions} actions (too few to judge)"
        else:
            summary.title_failure = f"no game of {summary.games} reached an end of the rules"
    return summary
