"""Round machinery: draft, stock and operating rounds as ordered step lists, and the game's sequence.

This mirrors the turn structure of the 18xx.games engine so recorded games replay move for move:
after each action the blocking steps that have nothing to do are skipped, a round ends when no step
blocks, and the next round starts.  Rounds are data: the rulebook's ``rounds`` states the sequence (``start``
rounds once, then the ``cycle`` repeated) and each round kind's type (its turn structure, contributed by a
mechanic) and step list (steps contributed by mechanics).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import market
from . import memo as _memo
from .errors import IllegalAction, MalformedAction, illegal
from .state import RoundState, StepState, kind_of, sym_of
from .steps.base import step_active, step_allowed, step_blocking, step_blocks, step_current_actions, step_current_entity

if TYPE_CHECKING:
    from .context import Context
    from .steps.base import Step, StepBase


ENTITY_TYPES = {"P": "player", "C": "corporation", "M": "minor", "X": "company"}

# ------------------------------------------------------------------------------------------ steps


#: rounds in a row that may pass within one action, with nothing changing, before the game counts as stalled
STALL_ROUNDS = 25
#: checks in a row with nothing changed before the game counts as stalled
STALL_CHECKS = 20


def bump(g: Context) -> None:
    """Mark that the state changed: memoised step queries are stale."""
    g.epoch += 1


_NO_ENTITY = object()  # (``tell`` about an action alone)


def tell(g: Context, hook: str, action: dict[str, Any], entity: Any = _NO_ENTITY) -> None:
    """Notify a hook about an action (and its entity, where given) whose handlers mostly change nothing: memoised
    answers stay valid unless a handler logged something (or bumped the epoch itself)."""
    logged = len(g.state.log)
    if entity is _NO_ENTITY:
        g.hooks(hook, action)
    else:
        g.hooks(hook, action, entity)
    if len(g.state.log) != logged:
        bump(g)


def steps(g: Context) -> list[Step]:
    """Live step objects of the current round (cached until the state object changes)."""
    r = g.state.round
    cached = g.cache.get("steps")
    if cached is not None and cached[0] is r:
        return cached[1]
    objs = []
    classes = g.rules.step_classes
    for st in r.steps:
        cls = classes.get(st.name)
        if cls is None:
            cls = classes[st.name] = g.rules.step_types[st.name.split("#")[0]]
        objs.append(cls(g, st, st.data.get("_opts", {})))
    g.cache["steps"] = (r, objs)
    return objs


def steps_named(g: Context, name: str) -> list[Step]:
    """The current round's steps of type ``name``, in order (looked up by name once per round)."""
    objs = steps(g)
    kept = g.cache.get("steps_named")
    if kept is None or kept[0] is not objs:
        named: dict[str, list[Step]] = {}
        for s in objs:
            named.setdefault(s.name, []).append(s)
        kept = g.cache["steps_named"] = (objs, named)
    return kept[1].get(name) or []


def _memo_now(g: Context) -> dict[Any, Any]:
    """The game's memoised answers of the current epoch: :func:`railbook.engine.memo._answers_now` for a typed game.
    (``memo`` loads before ``Context`` exists and reads the game untyped; calling it from here costs the replays
    ≈ 0.65% more instructions per kept action, measured 2026-11-28 on the titles closest to their speed goals.)"""
    m = g.memo
    answers: dict[Any, Any] = m[1]
    if m[0] != g.epoch:
        m[0] = g.epoch
        answers.clear()
    return answers


def active_step(g: Context) -> Step | None:
    """The first active step that blocks (memoised until the epoch changes, like the steps' answers it reads)."""
    m = g.memo
    epoch = g.epoch
    answers: dict[Any, Any] = _memo_now(g)
    found = answers.get(_ACTIVE_STEP, _UNSET)
    if found is not _UNSET:
        if g.audit and _first_blocking(g) is not found:
            raise _memo.StaleMemo(f"stale memo for rounds.active_step: {found!r} cached")
        return found  # type: ignore[no-any-return]
    found = _first_blocking(g)
    if g.epoch == epoch and m[0] == epoch:  # not stored when asking changed the state
        answers[_ACTIVE_STEP] = found
    return found


_ACTIVE_STEP = ("rounds.active_step",)
_UNSET = object()


def _first_blocking(g: Context) -> Step | None:
    s: StepBase
    for s in steps(g):
        if step_active(s) and step_blocking(s):
            return s
    return None


def active_entities(g: Context) -> list[str]:
    s = active_step(g)
    return s.active_entities() if s else []


def skip_steps(g: Context) -> None:
    """Skip the steps before the first that blocks where they have nothing to do.  When none is skipped (nothing
    changes), the step it stops at is the one :func:`active_step` finds, and is remembered as its answer."""
    r = g.state.round
    epoch = g.epoch
    found: StepBase | None = None
    s: StepBase
    for s in steps(g):
        if not step_active(s) or not step_blocks(s):
            continue
        if r.entities and r.entity_index < len(r.entities) and g.is_closed(r.entities[r.entity_index]):
            epoch = -1  # (a step passed over unasked: active_step would ask it)
            continue
        if step_blocking(s):
            found = s
            break
        s.skip()
        bump(g)
        if not s.st.passed and s.st.data.get("hold"):
            break  # (a step its skip left holding the turn: the steps after it wait, e.g. for a debt to be paid)
    if g.epoch == epoch:
        _memo_now(g)[_ACTIVE_STEP] = found


def program(g: Context, kind: str) -> list[tuple[str, dict[str, Any]]]:
    """The steps of a round kind, in order, with their options (from the rulebook; worked out once per book and
    shared: read-only)."""
    out = g.rules.programs.get(kind)
    if out is None:
        out = g.rules.programs[kind] = [
            (ref["step"], {k: v for k, v in ref.items() if k != "step" and v is not None})
            for ref in g.rules.rounds["kinds"][kind]["steps"]
        ]
    return out


def round_type(g: Context, kind: str) -> RoundType:
    return g.rules.round_types[g.rules.rounds["kinds"][kind]["type"]]


def _plan(g: Context, kind: str) -> list[tuple[str, type, dict[str, Any], bool]]:
    """The steps of a round kind as (state name, class, options, whether the class adds round data): worked out
    once per book and shared (read-only)."""
    out = g.rules.plans.get(kind)
    if out is None:
        types = g.rules.step_types
        out = g.rules.plans[kind] = [
            (f"{name}#{i}", types[name], opts, bool(types[name].round_state()))
            for i, (name, opts) in enumerate(program(g, kind))
        ]
    return out


def new_round(g: Context, kind: str, round_num: int = 1) -> None:
    plan = _plan(g, kind)
    rtype = round_type(g, kind)
    r = RoundState(kind=kind, round_num=round_num)
    g.state.round = r
    r.entities = g.hooks("round_entities", rtype.name)
    data: dict[str, Any] = {"last_to_act": None, "pass_order": [], "at_start": True}
    for name, cls, opts, adds_data in plan:
        st = StepState(name=name)
        if opts:
            st.data["_opts"] = opts
        r.steps.append(st)
        if adds_data:
            data.update(cls.round_state())  # type: ignore[attr-defined]
    r.data = data
    g.cache.pop("steps", None)  # (step objects keep the round's data: none made for this round before it was set)
    bump(g)
    for s in steps(g):
        s.setup()
    bump(g)
    g.hooks("round_started", rtype.name)
    bump(g)
    rtype.setup(g)


def start_first_round(g: Context) -> None:
    seq = g.state.sequence
    seq.section, seq.entry, seq.iteration, seq.index = "start", 0, 0, -1
    advance(g)


def next_entity_index(g: Context) -> None:
    bump(g)
    r = g.state.round
    if r.entities:
        r.entity_index = (r.entity_index + 1) % len(r.entities)


# ------------------------------------------------------------------------------------- stock round


def stock_setup(g: Context) -> None:
    stock_start_entity(g)


def stock_finished(g: Context) -> bool:
    if g.state.finished:
        return True
    r = g.state.round
    for k in r.entities:
        if not g.player(k).passed:
            return False
    return True


def stock_start_entity(g: Context) -> None:
    for s in steps(g):
        s.unpass()
        s.setup()
    bump(g)
    skip_steps(g)
    if active_step(g) is None:
        stock_next_entity(g)


def stock_next_entity(g: Context) -> None:
    if stock_finished(g):
        next_entity_index(g)
        g.hooks("stock_round_finished")
        return
    next_entity_index(g)
    stock_start_entity(g)


def stock_after_process(g: Context, action: dict[str, Any]) -> None:
    if active_step(g) is not None:
        return
    stock_next_entity(g)


# --------------------------------------------------------------------------------- operating round


def operating_setup(g: Context) -> None:
    r = g.state.round
    r.data["current_operator"] = None
    g.hooks("operating_round_started")
    bump(g)
    if g.hooks("block_or_start"):
        return
    if any_to_act(g):
        start_operating(g)


def any_to_act(g: Context) -> bool:
    for e in g.state.round.entities:
        if not g.is_closed(e):
            return True
    return False


def start_operating(g: Context) -> None:
    r = g.state.round
    if not r.entities:
        return
    entity = r.entities[r.entity_index]
    if g.is_closed(entity) or g.hooks("operator_skips", entity):
        if r.entity_index >= len(r.entities) - 1:
            r.data["last_skipped"] = True  # nobody is left to operate: the round is over
            r.data["current_operator"] = None
            bump(g)
        operating_next_entity(g)
        return
    r.data["current_operator"] = entity
    r.data["current_operator_acted"] = False
    for t in g.entity_trains(entity):
        g.state.trains[t].operated = False
    g.hooks("operator_started", entity)
    bump(g)
    skip_steps(g)
    if not operating_finished(g):
        return
    operating_next_entity(g)


def operating_next_entity(g: Context) -> None:
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


def operating_finished(g: Context) -> bool:
    finished = active_step(g) is None or not any_to_act(g) or bool(g.state.round.data.get("last_skipped"))
    if finished and g.state.round.data.get("current_operator") is not None:
        g.state.round.data["current_operator"] = None
        bump(g)
    return finished


def operating_after_process(g: Context, action: dict[str, Any]) -> None:
    r = g.state.round
    tell(g, "after_operating_action", action)
    op = r.data.get("current_operator")
    ent_key = g.entity_key(action) if op is not None else None
    if ent_key is not None and g.controller(ent_key) is not None:
        if ent_key == op or (kind_of(ent_key) == "X" and g.company(ent_key).owner == op):
            r.data["current_operator_acted"] = True
    if active_step(g) is not None:
        entity = r.entities[r.entity_index]
        owner = g.owner(entity)
        if (owner and kind_of(owner) == "P") or g.hooks("in_receivership", entity):
            return
    if not g.state.finished:
        operating_next_entity(g)


def recalculate_order(g: Context) -> None:
    """Re-sort the corporations that have not operated yet in this operating round."""
    r = g.state.round
    if r.kind != "operating":
        return
    done = r.entities[: r.entity_index + 1]
    rest = r.entities[r.entity_index + 1 :]
    order = [e for e in g.hooks("round_entities", "operating") if e in rest]
    order += [e for e in rest if e not in order]
    r.entities = done + order


@dataclass(frozen=True)
class RoundType:
    """A round's turn structure: how it starts, what follows an action, when it is over, what ends it."""

    name: str
    setup: Callable[[Context], None]
    after: Callable[[Context, dict[str, Any]], None]
    finished: Callable[[Context], bool]
    on_finish: Callable[[Context], None] = lambda g: None
    on_idle: Callable[[Context], None] | None = None  # nobody can act though the round goes on (e.g. after a closure)


def _priority_after_last(g: Context) -> None:
    reorder_players(g)


def _stock_idle(g: Context) -> None:
    """Nobody can act though the stock round goes on (a closure took away all the player to act could do): his
    steps are skipped as for any player with nothing to do, so he passes (and counts as passed for the round's
    end and the priority), and play goes on."""
    s: StepBase
    for s in steps(g):
        if step_active(s) and step_blocks(s):
            s.skip()
    bump(g)
    stock_next_entity(g)


def step_round(name: str) -> RoundType:
    """A round of players' turns that its steps drive alone (a draft, an auction): it ends when no step is
    left to act, and priority then goes to the player after the last who acted."""
    return RoundType(name, lambda g: None, lambda g, action: None, lambda g: active_step(g) is None, reorder_players)


STOCK = RoundType("stock", stock_setup, stock_after_process, stock_finished, _priority_after_last, _stock_idle)
OPERATING = RoundType("operating", operating_setup, operating_after_process, operating_finished)


def round_finished(g: Context) -> bool:
    return round_type(g, g.state.round.kind).finished(g)


# ------------------------------------------------------------------------------------ processing


#: actions that change nothing here: chat, log lines, a player's standing orders (``program_*``)
_NOT_MOVES = frozenset({"message", "log", "program_share_pass", "program_buy_shares", "program_disable"})


def process(g: Context, action: dict[str, Any]) -> None:
    """Process one action completely (the round transitions it causes included)."""
    if g.state.finished:
        if g.hooks("record_notice", action):
            return  # a record's notice about the last move (the site checks it before its end test)
        raise illegal("game.finished", "the game is over")
    fields: dict[str, Any] = action  # (declared so in the compiled build: engine/*.pxd)
    found = fields.get("type")
    if not isinstance(found, str):
        raise MalformedAction("action has no type")
    atype: str = found
    if atype in _NOT_MOVES or atype.startswith("program_"):
        return
    if atype == "end_game":
        g.hooks("end_game", "manually_ended", True)
        return
    if g.hooks("record_notice", action):
        return
    entity = g.entity_key(action)
    tell(g, "preprocess", action, entity)
    process_in_round(g, action, entity)
    tell(g, "action_processed", action, entity)
    g.state.last_action_entity = entity  # read only by hooks (never by memoised queries)
    g.state.last_action_type = action.get("type")
    if g.cache.pop("closed_during_action", False):
        # a closure after the round moved on may leave the entity to act with nothing to do
        rtype = round_type(g, g.state.round.kind)
        if rtype.on_idle and not g.state.finished and active_step(g) is None and not rtype.finished(g):
            rtype.on_idle(g)
    g.state.actions_done += 1
    timing = g.hooks("end_check")
    if timing == "immediate":
        g.hooks("end_game", None, False)
    spins, seen, still = 0, None, 0
    while not g.state.finished and round_finished(g):
        for p in g.state.players:
            p.passed = False
        if g.hooks("end_now", timing):
            g.hooks("end_game", None, False)
        else:
            transition(g)
        timing = g.hooks("end_check")
        if timing == "immediate" and not g.state.finished:
            g.hooks("end_game", None, False)
        spins += 1
        if spins % STALL_ROUNDS == 0:
            # rounds pass with nobody able to act: once nothing changes either (money, trains on sale, phase)
            # for STALL_CHECKS checks in a row, no one ever will, and the game ends -- unless a limit on the
            # game's length (turns) ends it first, as it does within that many rounds
            now = (dict(g.state.cash), len(g.state.depot), g.state.phase)
            still = still + 1 if now == seen else 0
            if still >= STALL_CHECKS and not g.state.finished:
                g.hooks("end_game", "stalled", False)
            seen = now


def process_in_round(g: Context, action: dict[str, Any], entity: str) -> None:
    atype = action["type"]
    chosen: StepBase | None = None
    s: StepBase
    for s in steps(g):
        if not step_active(s):
            continue
        accepts = atype in s._handles and step_allowed(s, entity, atype)  # a step takes only what it handles
        blocking = step_blocking(s)  # memoised: mostly known from the question asked after the last action
        if blocking and not accepts:
            current = step_current_entity(s)
            who = g.name(current) if current else "nobody"
            raise illegal(
                "turn.order",
                f"{g.name(entity)} cannot {atype} now: waiting for {who} to "
                f"{'/'.join(step_current_actions(s)) or 'act'} ({s.description or s.name})",
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
    round_type(g, g.state.round.kind).after(g, action)


def transition(g: Context) -> None:
    """Start the round that follows the finished one."""
    bump(g)
    r = g.state.round
    rtype = round_type(g, r.kind)
    g.hooks("round_finished", rtype.name)
    bump(g)
    rtype.on_finish(g)
    advance(g)


def advance(g: Context) -> None:
    """Move along the rulebook's round sequence and start the next round."""
    spec = g.rules.rounds
    seq = g.state.sequence
    while True:
        entries = _entries(spec, seq.section)
        if not entries:
            if seq.section == "start":
                seq.section, seq.entry, seq.iteration, seq.index = "cycle", 0, 0, -1
                continue
            raise IllegalAction("round.sequence", "the rulebook's round cycle is empty")
        entry = entries[seq.entry]
        seq.index += 1
        if seq.index >= len(entry["rounds"]):
            seq.index = 0
            seq.iteration += 1
            if seq.iteration >= seq.repeat:
                seq.entry += 1
                seq.iteration, seq.index = 0, -1
                if seq.entry >= len(entries):
                    if seq.section == "cycle":
                        g.state.turn += 1
                        g.hooks("or_set_finished")
                        if g.state.finished:
                            return
                    seq.section, seq.entry = "cycle", 0
                continue
        if seq.iteration == 0 and seq.index == 0:
            seq.repeat = _repeat(g, entry)
            if entry.get("repeat") == "operating_rounds":
                g.state.operating_rounds = seq.repeat
        new_round(g, entry["rounds"][seq.index], seq.iteration + 1)
        return


def _entries(spec: dict[str, Any], section: str) -> list[dict[str, Any]]:
    return [e if isinstance(e, dict) else {"rounds": [e]} for e in spec.get(section) or []]


def _repeat(g: Context, entry: dict[str, Any]) -> int:
    rep = entry.get("repeat", 1)
    if rep == "operating_rounds":
        final = g.state.extra.get("final_set_ors")
        if final is not None and g.state.turn == g.state.final_turn:
            return int(final)  # the final set's length fixed by the game-end trigger
        return int(g.phase_spec().get("operating_rounds", 1))
    return int(rep)


def or_group_end(g: Context) -> bool | None:
    """For a cycle entry of several rounds repeated once per OR (``operating_rounds``): whether the round now
    ending is the last round of the set's last repetition.  None when the ORs are not such a group."""
    seq = g.state.sequence
    if seq.section != "cycle":
        return None
    entries = _entries(g.rules.rounds, "cycle")
    if seq.entry >= len(entries):
        return None
    entry = entries[seq.entry]
    if entry.get("repeat") != "operating_rounds" or len(entry["rounds"]) < 2:
        return None
    return seq.iteration == seq.repeat - 1 and seq.index == len(entry["rounds"]) - 1


def reorder_players(g: Context) -> None:
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


def legal_actions(g: Context) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    seen = set()
    candidates: list[str] = []
    for e in active_entities(g):
        candidates.append(e)
        if kind_of(e) == "P":  # a player may act for the companies he presides (e.g. redeem in a stock round)
            candidates.extend(f"C|{c}" for c, cs in g.state.corporations.items() if cs.owner == e and not cs.closed)
    # privates players own may act between turns (abilities timed `any`, `stock_round`, ...)
    candidates.extend(f"X|{c}" for p in g.state.players for c in p.companies)
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
                desc = {"entity": sym_of(e), "entity_type": ENTITY_TYPES.get(kind_of(e), e), **desc}
                out.append(desc)
        if step_blocking(s):
            break
    return out


def sort_corporations(g: Context, syms: list[str]) -> list[str]:
    return sorted(syms, key=lambda c: market.sort_key(g, c))
