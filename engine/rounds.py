"""Round machinery: draft, stock and operating rounds as ordered step lists, and the game's sequence.

This mirrors the turn structure of the 18xx.games engine so recorded games replay move for move:
after each action the blocking steps that have nothing to do are skipped, a round ends when no step
blocks, and the next round starts (stock round -> N operating rounds -> stock round ...).  The steps a
round uses come from the title's mechanics (:func:`railbook.engine.mechanics.program`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import market, mechanics
from .errors import IllegalAction, MalformedAction, illegal
from .state import RoundState, StepState, kind_of, sym_of
from .steps.base import Step

if TYPE_CHECKING:
    from .game import Game


# ------------------------------------------------------------------------------------------ steps


def bump(g: Game) -> None:
    """Mark that the state changed: memoised step queries are stale."""
    g.epoch += 1


def steps(g: Game) -> list[Step]:
    """Live step objects of the current round (cached until the state object changes)."""
    r = g.state.round
    cached = g.cache.get("steps")
    if cached is not None and cached[0] is r:
        return cached[1]
    objs = []
    for st in r.steps:
        cls, opts = mechanics.STEP_TYPES[st.name.split("#")[0]], st.data.get("_opts", {})
        objs.append(cls(g, st, opts))
    g.cache["steps"] = (r, objs)
    return objs


def active_step(g: Game) -> Step | None:
    for s in steps(g):
        if s.active() and s.blocking():
            return s
    return None


def active_entities(g: Game) -> list[str]:
    s = active_step(g)
    return s.active_entities() if s else []


def skip_steps(g: Game) -> None:
    r = g.state.round
    for s in steps(g):
        if not s.active() or not s.blocks():
            continue
        if r.entities and r.entity_index < len(r.entities) and g.is_closed(r.entities[r.entity_index]):
            continue
        if s.blocking():
            break
        s.skip()
        bump(g)


def new_round(g: Game, kind: str, round_num: int = 1) -> None:
    program = mechanics.program(g, kind)
    r = RoundState(kind=kind, round_num=round_num)
    g.state.round = r
    g.cache.pop("steps", None)
    r.entities = mechanics.round_entities(g, kind)
    data: dict[str, Any] = {"last_to_act": None, "pass_order": [], "at_start": True}
    for i, (name, opts) in enumerate(program):
        st = StepState(name=f"{name}#{i}")
        if opts:
            st.data["_opts"] = opts
        r.steps.append(st)
        data.update(mechanics.STEP_TYPES[name].round_state())
    r.data = data
    bump(g)
    for s in steps(g):
        s.setup()
    bump(g)
    mechanics.round_started(g, kind)
    bump(g)
    KINDS[kind]["setup"](g)


def start_first_round(g: Game) -> None:
    new_round(g, mechanics.first_round_kind(g))


def next_entity_index(g: Game) -> None:
    bump(g)
    r = g.state.round
    if r.entities:
        r.entity_index = (r.entity_index + 1) % len(r.entities)


# ------------------------------------------------------------------------------------- draft round


def draft_setup(g: Game) -> None:
    pass


def draft_after_process(g: Game, action: dict[str, Any]) -> None:
    pass


def draft_finished(g: Game) -> bool:
    return active_step(g) is None


# ------------------------------------------------------------------------------------- stock round


def stock_setup(g: Game) -> None:
    stock_start_entity(g)


def stock_finished(g: Game) -> bool:
    if g.state.finished:
        return True
    r = g.state.round
    return all(g.player(k).passed for k in r.entities)


def stock_start_entity(g: Game) -> None:
    for s in steps(g):
        s.unpass()
        s.setup()
    bump(g)
    skip_steps(g)
    if active_step(g) is None:
        stock_next_entity(g)


def stock_next_entity(g: Game) -> None:
    if stock_finished(g):
        next_entity_index(g)
        mechanics.finish_stock_round(g)
        return
    next_entity_index(g)
    stock_start_entity(g)


def stock_after_process(g: Game, action: dict[str, Any]) -> None:
    if active_step(g) is not None:
        return
    stock_next_entity(g)


# --------------------------------------------------------------------------------- operating round


def operating_setup(g: Game) -> None:
    r = g.state.round
    r.data["current_operator"] = None
    mechanics.payout_companies(g)
    mechanics.reset_per_or_abilities(g)
    bump(g)
    if mechanics.block_or_start(g):
        return
    if any_to_act(g):
        start_operating(g)


def any_to_act(g: Game) -> bool:
    return any(not g.is_closed(e) for e in g.state.round.entities)


def start_operating(g: Game) -> None:
    r = g.state.round
    if not r.entities:
        return
    entity = r.entities[r.entity_index]
    if g.is_closed(entity):
        operating_next_entity(g)
        return
    r.data["current_operator"] = entity
    r.data["current_operator_acted"] = False
    for t in g.entity_trains(entity):
        g.state.trains[t].operated = False
    mechanics.operator_started(g, entity)
    bump(g)
    skip_steps(g)
    if not operating_finished(g):
        return
    operating_next_entity(g)


def operating_next_entity(g: Game) -> None:
    r = g.state.round
    if r.entity_index >= len(r.entities) - 1:
        return
    next_entity_index(g)
    if g.is_closed(r.entities[r.entity_index]):
        operating_next_entity(g)
        return
    for s in steps(g):
        s.unpass()
        s.setup()
    bump(g)
    start_operating(g)


def operating_finished(g: Game) -> bool:
    finished = active_step(g) is None or not any_to_act(g)
    if finished and g.state.round.data.get("current_operator") is not None:
        g.state.round.data["current_operator"] = None
        bump(g)
    return finished


def operating_after_process(g: Game, action: dict[str, Any]) -> None:
    r = g.state.round
    mechanics.operating_after_action(g, action)
    bump(g)
    op = r.data.get("current_operator")
    if op is not None and g.controller(g.entity_key(action)) is not None:
        ent_key = g.entity_key(action)
        if ent_key == op or mechanics.acts_for(g, ent_key) == op:
            r.data["current_operator_acted"] = True
    if active_step(g) is not None:
        entity = r.entities[r.entity_index]
        owner = g.owner(entity)
        if (owner and kind_of(owner) == "P") or mechanics.in_receivership(g, entity):
            return
    if not g.state.finished:
        operating_next_entity(g)


def recalculate_order(g: Game) -> None:
    """Re-sort the corporations that have not operated yet in this operating round."""
    r = g.state.round
    if r.kind != "operating":
        return
    done = r.entities[: r.entity_index + 1]
    rest = r.entities[r.entity_index + 1 :]
    order = [e for e in mechanics.round_entities(g, "operating") if e in rest]
    order += [e for e in rest if e not in order]
    r.entities = done + order


KINDS: dict[str, dict[str, Any]] = {
    "draft": {"setup": draft_setup, "after": draft_after_process, "finished": draft_finished},
    "stock": {"setup": stock_setup, "after": stock_after_process, "finished": stock_finished},
    "operating": {"setup": operating_setup, "after": operating_after_process, "finished": operating_finished},
}


def round_finished(g: Game) -> bool:
    return KINDS[g.state.round.kind]["finished"](g)


# ------------------------------------------------------------------------------------ processing


def process(g: Game, action: dict[str, Any]) -> None:
    """Process one action completely (the round transitions it causes included)."""
    if g.state.finished:
        raise illegal("game.finished", "the game is over")
    atype = action.get("type")
    if not isinstance(atype, str):
        raise MalformedAction("action has no type")
    if atype in ("message", "log", "program_share_pass", "program_buy_shares", "program_disable") or atype.startswith(
        "program_"
    ):
        return
    if atype == "end_game":
        mechanics.end_game(g, "manually_ended", manual=True)
        return
    entity = g.entity_key(action)
    g.cache.pop("steps", None)
    bump(g)
    mechanics.preprocess(g, action, entity)
    bump(g)
    process_in_round(g, action, entity)
    mechanics.action_processed(g, action, entity)
    bump(g)
    g.state.actions_done += 1
    timing = mechanics.end_check(g)
    if timing == "immediate":
        mechanics.end_game(g)
    while not g.state.finished and round_finished(g):
        for p in g.state.players:
            p.passed = False
        if mechanics.end_now(g, timing):
            mechanics.end_game(g)
        else:
            transition(g)
        timing = mechanics.end_check(g)
        if timing == "immediate" and not g.state.finished:
            mechanics.end_game(g)


def process_in_round(g: Game, action: dict[str, Any], entity: str) -> None:
    atype = action["type"]
    chosen = None
    for s in steps(g):
        if not s.active():
            continue
        accepts = atype in s.actions(entity)
        blocking = s.blocking()
        if blocking and not accepts:
            current = s.current_entity()
            who = g.name(current) if current else "nobody"
            raise illegal(
                "turn.order",
                f"{g.name(entity)} cannot {atype} now: waiting for {who} to "
                f"{'/'.join(s.current_actions()) or 'act'} ({s.description or s.name})",
            )
        if blocking or accepts:
            chosen = s
            break
    if chosen is None:
        raise illegal("turn.order", f"{g.name(entity)} cannot {atype} now")
    chosen.st.acted = True
    chosen.process(action, entity)
    g.state.round.data["at_start"] = False
    bump(g)
    skip_steps(g)
    KINDS[g.state.round.kind]["after"](g, action)


def transition(g: Game) -> None:
    """Start the round that follows the finished one."""
    bump(g)
    r = g.state.round
    kind = r.kind
    mechanics.round_finished(g, kind)
    bump(g)
    if kind == "draft":
        reorder_players(g)
        new_round(g, "stock")
    elif kind == "stock":
        g.state.operating_rounds = int(g.phase_spec().get("operating_rounds", 1))
        reorder_players(g)
        new_round(g, "operating", 1)
    elif kind == "operating":
        if r.round_num < g.state.operating_rounds:
            new_round(g, "operating", r.round_num + 1)
        else:
            g.state.turn += 1
            mechanics.or_set_finished(g)
            if g.state.finished:
                return
            new_round(g, "stock")
    else:
        raise IllegalAction("round.kind", f"unknown round kind {kind}")


def reorder_players(g: Game) -> None:
    """Priority: the player after the last to act goes first (18xx 'after_last_to_act')."""
    r = g.state.round
    live = [p for p in g.state.players if not p.bankrupt]
    if not live:
        return
    player = live[r.entity_index % len(live)]
    idx = g.state.players.index(player)
    g.state.players = g.state.players[idx:] + g.state.players[:idx]
    g.log(f"{player.name} has priority deal")


# ------------------------------------------------------------------------------------ legal actions


def legal_actions(g: Game) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    seen = set()
    candidates: list[str] = []
    for e in active_entities(g):
        candidates.append(e)
    op = g.current_operator()
    if op:
        candidates.append(op)
        candidates.extend(f"X|{c}" for c in g.companies_of(op))
        owner = g.owner(op)
        if owner and kind_of(owner) == "P":
            candidates.append(owner)
            candidates.extend(f"X|{c}" for c in g.companies_of(owner))
    for s in steps(g):
        if not s.active():
            continue
        for e in candidates:
            if g.is_closed(e):
                continue
            for desc in s.legal(e):
                key = (e, desc.get("type"), repr(sorted(desc.items())))
                if key in seen:
                    continue
                seen.add(key)
                desc = {"entity": sym_of(e), "entity_type": mechanics.entity_type(e), **desc}
                out.append(desc)
        if s.blocking():
            break
    return out


def sort_corporations(g: Game, syms: list[str]) -> list[str]:
    return sorted(syms, key=lambda c: market.sort_key(g, c))
