"""What one route earns for one train: which visited stops count, plus route bonuses."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

from railbook.engine.bonuses import RouteBonus

from .model import Stop, TrainSpec


def kind_counts(stops: Sequence[Stop], no_towns: bool = False) -> tuple[int, int, int]:
    """(cities, towns, off-boards) among ``stops``; towns are ignored by trains that skip them."""
    c = t = o = 0
    for s in stops:
        if s.kind == "city":
            c += 1
        elif s.kind == "town":
            t += 1
        else:
            o += 1
    return c, (0 if no_towns else t), o


def best_counted(
    train: TrainSpec, visited: Sequence[int], stops: Sequence[Stop], bonuses: Sequence[RouteBonus]
) -> tuple[int, tuple[int, ...]]:
    """The route's revenue and the stops that count, for the best choice of counted stops.

    Every visited stop counts when the train's pay allows it. Otherwise (an N/M train) the counted set is
    the best of the largest sets the rows allow that include a token city: the sets a row capacity allows
    form a matroid, so every smaller set lies inside a largest one, and bonuses never fall when a stop is
    added.
    """
    eligible = [i for i in visited if not (train.no_towns and stops[i].kind == "town")]
    visited_stops = [stops[i] for i in visited]

    def value(chosen: Sequence[int]) -> int:
        counted = [stops[i] for i in chosen]
        base = sum(s.revenue for s in counted) * train.multiplier
        return base + sum(b.value(counted, visited_stops) for b in bonuses)

    def allowed(chosen: Sequence[int]) -> bool:
        if train.requires_token and not any(stops[i].token for i in chosen):
            return False
        return train.fits_pay(*kind_counts([stops[i] for i in chosen]))

    if allowed(eligible):
        return value(eligible), tuple(eligible)
    fast = _single_row_best(train, eligible, stops, bonuses, value)
    if fast is not None:
        return fast
    for size in range(min(len(eligible), train.pay_total), 0, -1):
        best: tuple[int, tuple[int, ...]] | None = None
        for chosen in combinations(eligible, size):
            if allowed(chosen):
                v = value(chosen)
                if best is None or v > best[0]:
                    best = (v, chosen)
        if best is not None:
            return best
    return 0, ()


MAX_TRIGGERS = 6


def _single_row_best(
    train: TrainSpec,
    eligible: Sequence[int],
    stops: Sequence[Stop],
    bonuses: Sequence[RouteBonus],
    value: Callable[[Sequence[int]], int],
) -> tuple[int, tuple[int, ...]] | None:
    """The exact best counted set of a one-row train (N/M), without trying every subset.

    Bonuses name the few stops (*triggers*) whose counting matters to them. For each set of triggers
    forced in, the rest is filled with the highest-paying stops, keeping a token city among them; the
    best set of all is one of these. None when this shortcut does not apply.
    """
    if len(train.rows) != 1:
        return None
    for b in bonuses:
        if not b.monotone:
            return None  # filling with the best-paying stops may cost such a bonus: every set is tried instead
    row = train.rows[0]
    if any(stops[i].kind not in row.kinds for i in eligible):
        return None  # the visit rule already failed; let the general path decide
    visited_stops = [stops[i] for i in eligible]
    trig: set[int] = set()
    for b in bonuses:
        t = b.triggers(visited_stops)
        if t is None:
            return None
        trig.update(t)
    if len(trig) > MAX_TRIGGERS:
        return None
    pay = min(row.pay, len(eligible))
    order = sorted(range(len(eligible)), key=lambda k: -stops[eligible[k]].revenue)
    token_positions = [k for k in order if stops[eligible[k]].token and stops[eligible[k]].kind == "city"]
    if train.requires_token and not token_positions:
        return None
    trig_list = sorted(trig)
    best: tuple[int, tuple[int, ...]] | None = None
    for size in range(min(len(trig_list), pay) + 1):
        for forced in combinations(trig_list, size):
            chosen = list(forced)
            if train.requires_token and not any(k in token_positions for k in chosen):
                tok = next(k for k in token_positions)
                if len(chosen) >= pay:
                    continue
                chosen.append(tok)
            for k in order:
                if len(chosen) >= pay:
                    break
                if k not in chosen:
                    chosen.append(k)
            picked = tuple(eligible[k] for k in sorted(chosen))  # in visit order: bonuses may read the ends
            v = value(picked)
            if best is None or v > best[0]:
                best = (v, picked)
    return best
