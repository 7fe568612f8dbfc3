"""``core``: the rules every title has.

The stock and operating round types; who takes part in a round; private income at the start of each operating
round; abilities and privates that end when a phase starts (``closes_on``); a corporation whose price reaches a
closing cell leaves the game; the certificate limit (the rulebook's table, by players or by corporations left);
a player's value (cash + shares at market price + privates at face value); and the game-end triggers of the
rulebook's ``end`` with their timing (``immediate``, ``current_round``, ``current_or``, ``full_or``,
``one_more_full_or_set``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from railbook.params.core import DECLARATION

from .. import board, depot, market, rounds, shares
from .. import memo as _memo
from ..closing import close_company, close_operator
from ..contract import Mechanic
from ..interfaces import PRIVATE_COMPANIES
from ..state import BANK, DEPOT, ckey, kind_of, mkey, sym_of, xkey

if TYPE_CHECKING:
    from ..context import Context
    from ..state import Ability, Corporation, Minor, Player, Train

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


def round_entities(g: Context, kind: str) -> list[str] | None:
    if kind == "stock":
        return g.player_keys()
    if kind == "operating":
        floated_minors = [mkey(m) for m, s in g.state.minors.items() if s.floated and not s.closed]
        corps = [
            c for c in g.state.corp_order if g.state.corporations[c].floated and not g.state.corporations[c].closed
        ]
        corps.sort(key=lambda c: market.sort_key(g, c))
        return floated_minors + [ckey(c) for c in corps]
    return None


def operating_round_started(g: Context) -> None:
    """Private income, then per-OR ability counters start again."""
    payout_companies(g)
    for c in g.state.companies.values():
        for a in c.abilities:
            a.count_this_or = a.corp_count_this_or = 0
    for corp in g.state.corporations.values():
        for a in corp.abilities:
            a.count_this_or = a.corp_count_this_or = 0


@cython.locals(g="Context")
def payout_companies(g: Context) -> None:
    """Private companies pay their income to their owners at the start of each operating round (none from the
    phase ``private_companies.no_income_from_phase``)."""
    income = PRIVATE_COMPANIES.get(g)
    stop = income.no_income_from_phase(g) if income is not None else None
    paying = stop is None or not g.phase_at_least(stop)
    for sym, c in g.state.companies.items():
        if not paying or c.closed or c.blank or not c.owner or c.revenue <= 0 or c.owner == BANK:
            continue
        to = c.owner
        if kind_of(to) == "C" and any(a.type == "income_to_president" for a in c.abilities):
            to = g.state.corporations[sym_of(to)].owner or to  # the owning company's president collects it
        g.spend(BANK, to, c.revenue)
        g.log(f"{g.name(to)} collects {c.revenue} from {sym}")
    for sym, c in g.state.companies.items():
        if c.closed or not c.owner or kind_of(c.owner) not in ("C", "M"):
            continue
        for a in c.abilities:
            if a.type != "revenue_bonus" or a.spec.get("when") != "or_start" or not a.spec.get("amount"):
                continue
            if (a.spec.get("params") or {}).get("requires_train") and not g.entity_trains(c.owner):
                continue
            g.spend(BANK, c.owner, int(a.spec["amount"]))
            g.log(f"{g.name(c.owner)} collects {a.spec['amount']} from {sym}")


def ability_removed(g: Context, owner: str, ability: Ability) -> None:
    if ability.type == "reservation":
        # a reservation never blocks track: a change of tokens in those hexes is all the networks need to know
        board.invalidate(g, board.unreserve(g, owner, ability.spec.get("hexes") or None))


def ability_used_up(g: Context, owner: str, ability: Ability) -> None:
    """``params.closes_when_used``: a private closes once that ability is used up."""
    if kind_of(owner) == "X" and (ability.spec.get("params") or {}).get("closes_when_used"):
        g.log(f"{sym_of(owner)} closes: its ability is used up")
        close_company(g, sym_of(owner))


def phase_reached(g: Context, name: str) -> None:
    """Abilities and privates that end when a phase starts (``closes_on``)."""
    for sym, c in g.state.companies.items():
        spec = g.book.privates.get(sym) or {}
        if c.closed:
            continue
        for a in list(c.abilities):
            if a.spec.get("closes_on") == name:
                g.remove_ability(xkey(sym), a)
        if spec.get("closes_on") == name and not _event_closes(g, name):
            close_company(g, sym)
    for sym, corp in g.state.corporations.items():
        for a in list(corp.abilities):
            if a.spec.get("closes_on") == name:
                g.remove_ability(ckey(sym), a)


@cython.locals(g="Context")
def _event_closes(g: Context, name: str) -> bool:
    phase = g.book.phases[g.book.phase_index[name]]
    return any(e.get("type") == "close_companies" for e in phase.get("events") or [])


def action_processed(g: Context, action: dict[str, Any], entity: str) -> None:
    """A corporation whose price reaches a 'close' cell leaves the game."""
    closing = g.book.cells_by_kind.get("close")
    if not closing:
        return
    if not _markers_on(g, "close", closing):  # (most actions find none, without looking at every company)
        if g.audit:
            _memo.audit("companies on close cells", [], _on_close_cells(g, closing))
        return
    closed = True
    while closed:  # (a closing may let the next company operate by itself into a close cell: it goes too)
        closed = False
        for sym in list(g.state.corp_order):
            if _on_close_cell(g, sym, closing):
                g.log(f"{sym} closes")
                close_operator(g, ckey(sym))
                closed = True


def _markers_on(g: Context, kind: str, cells: frozenset[tuple[int, int]]) -> bool:
    """Whether any company's marker stands on the market's cells of ``kind`` (``cells``), read from those cells'
    stacks of markers (their keys worked out once per game)."""
    kept: dict[str, list[str]] = g.table("market_cell_keys")
    keys = kept.get(kind)
    if keys is None:
        keys = kept[kind] = [market.cell_key(cell) for cell in sorted(cells)]
    stacks = g.state.market
    for k in keys:
        if stacks.get(k):
            return True
    return False


def _on_close_cell(g: Context, sym: str, closing: frozenset[tuple[int, int]]) -> bool:
    corp: Corporation = g.state.corporations[sym]
    return not corp.closed and corp.price is not None and (corp.price[0], corp.price[1]) in closing


def _on_close_cells(g: Context, closing: frozenset[tuple[int, int]]) -> list[str]:
    """The companies still open whose price is on a close cell, in the companies' order."""
    return [sym for sym in g.state.corp_order if _on_close_cell(g, sym, closing)]


def update_cert_limit(g: Context) -> None:
    n = len(g.state.players)
    spec = g.book.players_setup(n)["cert_limit"]
    if isinstance(spec, int):
        g.state.cert_limit = spec
        return
    table = {int(k): int(v) for k, v in spec.items()}
    by = g.book.raw.get("cert_limit_by", "players")
    if by == "players":
        g.state.cert_limit = table.get(n, min(table.values()))
        return
    live = sum(1 for c in g.state.corporations.values() if not c.closed and not c.removed)
    keys = sorted(k for k in table if k >= live)
    g.state.cert_limit = table[keys[0]] if keys else table[sorted(table)[0]]


def player_value(g: Context, player: str) -> int:
    value = g.cash(player) + shares.value_of_holdings(g, player)
    income = PRIVATE_COMPANIES.get(g)
    if income is None or income.count_in_final_value(g):
        for sym in g.player(player).companies:
            value += g.state.companies[sym].value
    return value + g.hooks("value_adjustment", player)


def end_check(g: Context) -> str | None:
    """The timing of the first game-end trigger that holds (immediate before later timings)."""
    order = ["immediate", "current_round", "current_or", "full_or", "one_more_full_or_set"]
    found: list[tuple[int, int, str, str]] = []
    fired: list[str] = g.state.extra.get("end_fired") or []  # triggers in the order they first held
    for trig in g.book.end:
        reason = trig["type"]
        if _triggered(g, trig):
            if reason not in fired:
                fired.append(reason)
                g.state.extra["end_fired"] = fired
            after = trig.get("after", "full_or")
            found.append((order.index(after) if after in order else 99, fired.index(reason), after, reason))
    if not found:
        return None
    found.sort()  # the soonest timing; of equal timings, the trigger that fired first
    _, _, after, reason = found[0]
    if g.state.extra.get("end_reason") is None:
        g.state.extra["end_reason"] = reason
    if after == "one_more_full_or_set" and g.state.final_turn is None:
        g.state.final_turn = g.state.turn + 1
        _final_set_size(g, reason)
    g.state.extra["end_timing"] = after
    g.state.extra["end_reason_now"] = reason
    return after


def _final_set_size(g: Context, reason: str) -> None:
    """A trigger's ``final_set_ors`` ({triggered_in_or_<n>: ORs}) fixes how many ORs the final set has."""
    r = g.state.round
    for trig in g.book.end:
        sizes = (trig.get("params") or {}).get("final_set_ors")
        if trig["type"] == reason and sizes and r is not None and r.kind != "stock":
            n = sizes.get(f"triggered_in_or_{r.round_num}")
            if n is not None:
                g.state.extra["final_set_ors"] = int(n)


def _triggered(g: Context, trig: dict[str, Any]) -> bool:
    spec: dict[str, Any] = trig  # (declared so in the compiled build: engine/*.pxd)
    kind = spec["type"]
    params: dict[str, Any] = spec.get("params") or {}
    if kind == "bank":
        return g.state.bank_broken
    if kind == "bankrupt":
        live = 0
        p: Player
        for p in g.state.players:
            if not p.bankrupt:
                live += 1
        left = params.get("players_left")
        if left is not None:
            return live <= int(left) and live < len(g.state.players)
        return live < len(g.state.players)
    if kind == "all_closed":
        # every corporation closed (or removed) and no independent left operating
        corp: Corporation
        for corp in g.state.corporations.values():
            if not corp.closed and not corp.removed:
                return False
        minor: Minor
        for minor in g.state.minors.values():
            if minor.floated and not minor.closed:
                return False
        return True
    if kind == "stock_market":
        threshold = params.get("price")
        if threshold is not None:  # a share price at or above it ends the game
            for corp in g.state.corporations.values():
                if corp.price and not corp.closed and market.price_at(g, corp.price) >= int(threshold):
                    return True
            return False
        ending = g.book.cells_by_kind.get("end_game")
        if not ending:
            return False
        found = _markers_on(g, "end_game", ending)  # (without looking at every company)
        if g.audit:
            _memo.audit("a company on an end cell", _on_end_cell(g, ending), found)
        return found
    if kind in ("final_phase",):
        return g.state.phase == len(g.book.phases) - 1
    if kind == "final_train":
        name = params.get("train")
        if name is not None:  # the first train of that type bought or exported (an unlimited one never runs out)
            trains = g.state.trains
            train: Train
            for tid in _trains_of_type(g, str(name)):
                train = trains[tid]
                if train.owner != DEPOT:
                    return True
            return False
        return not depot.depot_trains(g)
    if kind == "turn_limit":
        return g.state.turn >= int(params.get("turn", 10**9))
    return False


def _on_end_cell(g: Context, ending: frozenset[tuple[int, int]]) -> bool:
    """Whether a company's price is on an end-game cell, by a look at every company (for the memo audit)."""
    corp: Corporation
    for corp in g.state.corporations.values():
        if corp.price and (corp.price[0], corp.price[1]) in ending:
            return True
    return False


def _trains_of_type(g: Context, sym: str) -> list[str]:
    """The trains of one type (kept while no train is added to the game)."""
    trains = g.state.trains
    table = g.table("trains_of_type")
    kept = table.get(sym)
    if kept is None or kept[0] != len(trains):
        kept = table[sym] = (len(trains), [tid for tid, t in trains.items() if t.sym == sym])
    return kept[1]  # type: ignore[no-any-return]


def end_now(g: Context, timing: str | None) -> bool:
    if timing is None:
        return False
    if timing in ("immediate", "current_round"):
        return True
    r = g.state.round
    if r is None:
        return False
    group_end = rounds.or_group_end(g)
    if group_end is not None and timing in ("full_or", "one_more_full_or_set"):
        # the ORs come with other rounds (e.g. merger rounds): the set ends with the group's last round
        if timing == "one_more_full_or_set":
            return group_end and g.state.turn == g.state.final_turn
        return group_end
    if r.kind != "operating":
        return False
    if timing == "current_or":
        return True
    final = r.round_num == g.state.operating_rounds
    if timing == "one_more_full_or_set":
        return final and g.state.turn == g.state.final_turn
    return final


def end_game(g: Context, reason: str | None, manual: bool) -> bool:
    if g.state.finished:
        return True
    g.state.finished = True
    g.state.manually_ended = manual
    g.state.game_end_reason = reason or g.state.extra.get("end_reason_now") or g.state.extra.get("end_reason")
    g.log(f"-- Context over: {g.state.game_end_reason} --")
    return True


def corporation_closed(g: Context, corp: str) -> None:
    update_cert_limit(g)


MECHANIC = Mechanic.of(
    DECLARATION,
    round_types={"stock": rounds.STOCK, "operating": rounds.OPERATING},
    hooks={
        "round_entities": round_entities,
        "operating_round_started": operating_round_started,
        "ability_removed": ability_removed,
        "ability_used_up": ability_used_up,
        "phase_reached": phase_reached,
        "action_processed": action_processed,
        "update_cert_limit": update_cert_limit,
        "corporation_closed": corporation_closed,
        "player_value": player_value,
        "end_check": end_check,
        "end_now": end_now,
        "end_game": end_game,
    },
)
