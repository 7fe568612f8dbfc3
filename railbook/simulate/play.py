"""One simulated game: bots in seats, played to its end (or a cap), with the figures a designer asks about.

Game ``i`` of a run seeded ``S`` is seeded ``S + i``: the engine's shuffles, each bot's seed and the seating
(the bots' order rotated by ``i``) follow from it, so a game's record does not depend on where it was played.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from railbook.bots import make_bot

MAX_ACTIONS = 5000
MAX_OFFERS = 8  # offers turned down in one decision before the buyer's choice stands
ENDLESS_ROUND = 1000  # actions in one round before the game counts as stalled
#: ends that are not the rules' own
NOT_RULE_ENDS = ("stalled", "capped", "dnf", "manually_ended", "error")

_RUNS = re.compile(r"^(\S+) runs for (-?\d+)")
_FLOATS = re.compile(r"^(\S+) floats$")
_BUYS = re.compile(r"^(\S+) (?:buys|wins) (\S+) for (\d+)")  # a player buying a private (at an auction's end too)


@dataclass(frozen=True)
class GameSetup:
    """What a run plays: the bots (one name per seat before rotation), the options and the action cap."""

    bots: tuple[str, ...]
    options: tuple[str, ...] = ()
    max_actions: int = MAX_ACTIONS


def seats_for(bots: tuple[str, ...], index: int) -> list[dict[str, str]]:
    """The seats of game ``index``: players p1.. in seat order, the bots rotated by the game's index."""
    n = len(bots)
    turn = index % n
    order = bots[turn:] + bots[:turn]
    return [{"player": f"p{i + 1}", "bot": name} for i, name in enumerate(order)]


@dataclass
class _Tracker:
    """Figures gathered while a game is played."""

    rounds: int = 0
    operating_rounds: int = 0
    last_round: tuple[Any, ...] = ()
    in_round: int = 0
    log_seen: int = 0
    phase_seen: int = -1
    phases: list[dict[str, Any]] = field(default_factory=list)
    bank_broken_at: dict[str, int] | None = None
    companies: dict[str, dict[str, Any]] = field(default_factory=dict)
    privates: dict[str, dict[str, Any]] = field(default_factory=dict)


def _corp(t: _Tracker, sym: str) -> dict[str, Any]:
    return t.companies.setdefault(sym, {"floated_or": None, "revenue": {}, "trains_bought": 0, "final_price": None})


def play_game(rulebook: dict[str, Any], seed: int, index: int, setup: GameSetup) -> dict[str, Any]:
    """Play game ``index`` (seed ``seed``) with ``setup``'s bots; its record (one line of games.jsonl)."""
    from railbook.bots.reading import share_price
    from railbook.engine.game import Game
    from railbook.soak import round_key

    seats = seats_for(setup.bots, index)
    players = [s["player"] for s in seats]
    bots = {s["player"]: make_bot(s["bot"], seed * 1000 + i) for i, s in enumerate(seats)}
    started, cpu = time.perf_counter(), time.process_time()
    game = Game.start(rulebook, players, seed=seed, options=list(setup.options))
    t = _Tracker()
    total = _money(game)
    failures: list[str] = []
    actions = 0
    end: str | None = None
    error: str | None = None
    while not game.state.finished:
        if actions >= setup.max_actions:
            end = "capped"
            break
        now = round_key(game)
        if now != t.last_round:
            failures.extend(_broken(game, total, actions))
            t.last_round, t.in_round = now, 0
            t.rounds += 1
            if game.state.round is not None and game.state.round.kind == "operating":
                t.operating_rounds += 1
        t.in_round += 1
        if t.in_round > ENDLESS_ROUND:
            end = "stalled"
            break
        player = _decider(game)
        if player is None:
            end, error = "stalled", "no one may act"
            break
        try:
            action = agreed_choice(game, bots, player)
            before = _private_owners(game)
            cash_before = {p: game.context.cash(f"P|{p}") for p in players}
            game.process(action)
        except Exception as exc:  # a bot's or the engine's fault: the record says which, the run goes on
            end, error = "error", f"{type(exc).__name__}: {exc}"[:500]
            break
        actions += 1
        if action.type == "buy_train" and action.entity_type in ("corporation", "minor"):
            _corp(t, action.entity)["trains_bought"] += 1
        _observe(game, t, before, cash_before)
    if end is None:
        end = game.state.game_end_reason or "finished"
    failures.extend(_broken(game, total, actions))
    outcome = game.outcome()
    for sym, corp in game.state.corporations.items():
        if sym in t.companies:
            t.companies[sym]["final_price"] = share_price(game, sym) if not corp.closed else 0
    return {
        "seed": seed,
        "index": index,
        "title": game.title,
        "options": list(setup.options),
        "seats": seats,
        "actions": actions,
        "rounds": t.rounds,
        "operating_rounds": t.operating_rounds,
        "end_reason": end,
        "rule_end": end not in NOT_RULE_ENDS,
        "error": error,
        "invariant_failures": failures[:10],
        "values": dict(outcome.values),
        "ranking": list(outcome.ranking),
        "winner_bot": next(s["bot"] for s in seats if outcome.ranking and s["player"] == outcome.ranking[0]),
        "phases": t.phases,
        "bank_broken": t.bank_broken_at,
        "companies": t.companies,
        "privates": t.privates,
        "seconds": round(time.perf_counter() - started, 3),
        "cpu_seconds": round(time.process_time() - cpu, 3),
    }


def _money(game: Any) -> int:
    return sum((game.to_json()["state"].get("cash") or {}).values())


def _broken(game: Any, total: int, actions: int) -> list[str]:
    """The game's broken invariants (``railbook soak``'s: money kept, no negative cash, certificates whole),
    checked as each round starts and at the end."""
    from railbook.soak import invariants

    return [
        f"after action {actions}: {name}: {message}" for name, message in invariants(game.to_json()["state"], total)
    ]


def _decider(game: Any) -> str | None:
    """The player who decides now: the first acting one; for an entity no one controls yet (a corporation placing
    its home token while its shares are still auctioned) the player who acted last."""
    acting = game.acting()
    if acting:
        return str(acting[0])
    if not game.acting_entities():
        return None
    last = game.state.last_action_entity or ""
    ids = game.state.player_ids
    return last[2:] if last.startswith("P|") and last[2:] in ids else (ids[0] if ids else None)


def agreed_choice(game: Any, bots: dict[str, Any], player: str) -> Any:
    """The player's choice, once the other player whose train or private it would buy at the buyer's price agrees:
    an offer turned down is left out of the choices (after ``MAX_OFFERS`` refusals, every such offer)."""
    from railbook.bots.consent import Refusals, seller_of

    refused: list[Any] = []
    view = game
    while True:
        try:
            action = bots[player].choose(view, player)
        except RuntimeError:  # nothing left but the offers turned down: the last one stands
            if not refused:
                raise
            return refused[-1]
        seller = seller_of(game, action)
        if seller is None or seller not in bots or bots[seller].agrees(game, seller, action):
            return action
        refused.append(action)
        view = Refusals(game, refused, every=len(refused) >= MAX_OFFERS)


def _private_owners(game: Any) -> dict[str, str | None]:
    return {sym: c.owner for sym, c in game.state.companies.items()}


def _observe(game: Any, t: _Tracker, owners: dict[str, str | None], cash: dict[str, int]) -> None:
    """Read what the last action did: runs, floats, phases, the bank, privates bought by players."""
    where = {"round": t.rounds, "or": t.operating_rounds}
    log = game.state.log
    for line in log[t.log_seen :]:
        m = _RUNS.match(line)
        if m and m.group(1) in game.state.corporations:
            rev = _corp(t, m.group(1))["revenue"]
            key = str(t.operating_rounds)
            rev[key] = rev.get(key, 0) + int(m.group(2))
            continue
        m = _FLOATS.match(line)
        if m and m.group(1) in game.state.corporations:
            _corp(t, m.group(1))["floated_or"] = t.operating_rounds
            continue
        m = _BUYS.match(line)
        company = game.state.companies.get(m.group(2)) if m else None
        if m and company is not None and not company.blank and m.group(2) not in t.privates:
            t.privates[m.group(2)] = {
                "price": int(m.group(3)),
                "value": int(company.value),
                "player": m.group(1),
                **where,
            }
    t.log_seen = len(log)
    if game.state.phase != t.phase_seen:
        t.phase_seen = game.state.phase
        t.phases.append({"phase": game.context.phase_name(), **where})
    if game.state.bank_broken and t.bank_broken_at is None:
        t.bank_broken_at = where
    for sym, company in game.state.companies.items():  # bought without a line saying for how much: what it cost
        owner = company.owner
        if owner != owners.get(sym) and owner and owner.startswith("P|") and sym not in t.privates:
            paid = cash.get(owner[2:], 0) - game.context.cash(owner)
            if paid > 0 and not company.blank:
                t.privates[sym] = {"price": paid, "value": int(company.value), "player": owner[2:], **where}
