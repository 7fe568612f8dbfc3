"""Random legal play: turn :meth:`Game.legal_descriptions` into concrete actions.

Used by the property tests (and handy to smoke-test a new title): every action chosen here must be
accepted by :meth:`Game.process`.
"""

from __future__ import annotations

import random
from typing import Any

from . import board
from . import routes as R
from .book import NODE
from .context import Context
from .errors import IllegalAction
from .game import Game

PASSIVE = ("pass",)


def random_chain(g: Context, start: tuple[str, str], rnd: random.Random) -> tuple[list[str], tuple[str, str]] | None:
    """A random walk along track from the stop ``start`` to the next stop: (hex chain, stop reached)."""
    h, name = start
    t = board.track(g, h)
    outs = list(t.node_paths.get(name, ()))
    if not outs:
        return None
    pi = rnd.choice(outs)
    entered = (NODE, name)
    chain = [h]
    for _ in range(64):
        other = t.paths[pi].other(entered)
        if other[0] == NODE:
            node = t.nodes[other[1]]
            if node.kind != "junction":
                return chain, (h, other[1])
            nxt = [pj for pj in t.node_paths.get(other[1], ()) if pj != pi]
            if not nxt:
                return None
            pi, entered = rnd.choice(nxt), other
            continue
        nb = g.book.neighbours[h].get(other[1])
        if nb is None:
            return None
        back = (other[1] + 3) % 6
        t = board.track(g, nb)
        nxt = list(t.edge_paths.get(back, ()))
        if not nxt:
            return None
        h, pi, entered = nb, rnd.choice(nxt), (0, back)
        chain.append(h)
    return None


def random_routes(g: Context, key: str, rnd: random.Random, tries: int = 12) -> list[dict[str, Any]]:
    """Legal routes for some of the trains of the operator ``key``, found by random walks from its tokens (may be
    empty; each train's route is kept only if the routes together stay legal)."""
    starts = board.token_nodes(g, key)
    if not starts:
        return []
    chosen: list[dict[str, Any]] = []
    for train in [t for t in g.entity_trains(key) if not g.state.trains[t].operated]:
        for _ in range(tries):
            stop = rnd.choice(starts)
            chains: list[list[str]] = []
            for _ in range(rnd.randint(1, 4)):
                step = random_chain(g, stop, rnd)
                if step is None:
                    break
                chains.append(step[0])
                stop = step[1]
            if not chains:
                continue
            spec = {"train": train, "connections": chains}
            try:
                R.evaluate(g, key, [*chosen, spec])
            except IllegalAction:
                continue
            chosen.append(spec)
            break
    return chosen


def concrete(desc: dict[str, Any], rnd: random.Random, game: Game | None = None) -> dict[str, Any] | None:
    """One action satisfying a legal-action description (None when it offers no choice)."""
    action = {"type": desc["type"], "entity": desc["entity"], "entity_type": desc["entity_type"]}
    if desc["type"] == "run_routes":
        action["routes"] = random_routes(game.context, game.context.entity_key(action), rnd) if game is not None else []
        return action
    ranged = ("min", "max", "step")
    fixed = {k: v for k, v in desc.items() if k not in ("type", "choices", *ranged)}
    action.update(fixed)  # fields the description fixes (e.g. the company being auctioned)
    choices = desc.get("choices")
    if choices is None:
        choices = [{}]
    if not choices:
        return None
    choice = dict(rnd.choice(choices))
    step = int(choice.pop("step", desc.get("step", 1)) or 1)
    if "min" in choice or "min" in desc:  # a price range given beside the choice: {min, max[, step]}
        choice["price"] = {"min": choice.pop("min", desc.get("min")), "max": choice.pop("max", desc.get("max"))}
    for key, value in list(choice.items()):
        if isinstance(value, dict) and "min" in value and "max" in value:
            lo, hi = int(value["min"]), int(value["max"])
            lo = -(-lo // step) * step
            if hi < lo:
                return None
            choice[key] = lo + step * rnd.randint(0, (hi - lo) // step)
    action.update(choice)
    return action


def random_action(game: Game, rnd: random.Random, pass_weight: float = 0.3) -> dict[str, Any] | None:
    """A random legal action for the acting entity, or None when there is none."""
    descs = game.legal_descriptions()
    if not descs:
        return None
    active = [d for d in descs if d["type"] not in PASSIVE]
    passes = [d for d in descs if d["type"] in PASSIVE]
    order = []
    if passes and (not active or rnd.random() < pass_weight):
        order = passes + active
    else:
        rnd.shuffle(active)
        order = active + passes
    for desc in order:
        action = concrete(desc, rnd, game)
        if action is not None:
            return action
    return None


def play(game: Game, seed: int = 0, max_actions: int = 500) -> int:
    """Play random legal actions until the game ends or ``max_actions``; returns the count played."""
    rnd = random.Random(seed)
    n = 0
    while not game.state.finished and n < max_actions:
        action = random_action(game, rnd)
        if action is None:
            raise RuntimeError(f"no legal action but the game is not over (round {game.state.round.kind})")
        game.process(action)
        n += 1
    return n
