"""Trains and phases: the depot, buying a train, phase changes, obsolescence and rusting."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import memo as _memo
from .errors import illegal
from .state import DEPOT, Train, kind_of

if TYPE_CHECKING:
    from .context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from . import cython_shim as cython


def variants(g: Context, t: Train) -> dict[str, dict[str, Any]]:
    """Faces of a train card: name -> {price, distance}; the base face first."""
    spec = g.book.trains[t.sym]
    out = {t.sym: {"name": t.sym, "price": spec["price"], "distance": spec["distance"]}}
    for v in spec.get("variants") or []:
        out[v["name"]] = {"name": v["name"], "price": v["price"], "distance": v["distance"]}
    return out


def face_price(g: Context, t: Train) -> int:
    return variants(g, t)[t.name]["price"]


def depot_trains(g: Context) -> list[str]:
    """Trains the bank sells now: the next new train and one of each discarded type.  Kept while the phase, the
    depot and the discarded trains are as they were (what else it reads -- each train's type and face, the
    types' specs -- never changes)."""
    st = g.state
    cache = g.cache.get("depot_trains")
    if (
        cache is not None
        and cache[0] == st.phase
        and cache[1] == st.depot  # (lists compared item by item: no key tuple is built per question)
        and cache[2] == st.discarded
    ):
        if g.audit:
            _memo.audit("depot_trains", cache[3], _depot_trains(g))
        return cache[3]  # type: ignore[no-any-return]
    out = _depot_trains(g)
    g.cache["depot_trains"] = (st.phase, list(st.depot), list(st.discarded), out)
    return out


def _depot_trains(g: Context) -> list[str]:
    out: list[str] = []
    names: set[str] = set()
    upcoming = g.state.depot
    train: Train
    trains, specs = g.state.trains, g.book.trains
    if upcoming:
        out.append(upcoming[0])
        train = trains[upcoming[0]]
        names.add(train.sym)
    for tid in upcoming[1:]:
        train = trains[tid]
        sym = train.sym
        if sym in names:
            continue  # one of a type at most, each type judged once
        names.add(sym)
        avail = specs[sym].get("available_on")
        if avail and g.phase_at_least(avail):
            out.append(tid)
    disc_names: set[str] = set()
    for tid in g.state.discarded:
        train = trains[tid]
        if train.name not in disc_names:
            out.append(tid)
            disc_names.add(train.name)
    return out


def min_depot_train(g: Context) -> str | None:
    trains = depot_trains(g)
    if not trains:
        return None
    return min(trains, key=lambda tid: face_price(g, g.state.trains[tid]))


def min_depot_price(g: Context) -> int:
    tid = min_depot_train(g)
    if tid is None:
        return 0
    t = g.state.trains[tid]
    return min(v["price"] for v in _buyable_faces(g, t).values())


def max_depot_price(g: Context) -> int:
    trains = depot_trains(g)
    if not trains:
        return 0
    tid = max(trains, key=lambda x: face_price(g, g.state.trains[x]))
    return max(v["price"] for v in _buyable_faces(g, g.state.trains[tid]).values())


def _buyable_faces(g: Context, t: Train) -> dict[str, dict[str, Any]]:
    """A new train offers every face; a returned (discarded) one too (its face is chosen anew)."""
    return variants(g, t)


def train_limit(g: Context, entity: str) -> int:
    limit = g.phase_spec()["train_limit"]
    if isinstance(limit, dict):
        spec = g.book.corporations.get(entity[2:]) if kind_of(entity) == "C" else None
        return int(limit.get((spec or {}).get("type") or "", limit.get("default", 0)))
    return int(limit)


def counted_trains(g: Context, entity: str) -> int:
    obsolete_count = g.hooks("obsolete_count_for_limit")
    count = 0
    t: Train
    for tid in g.entity_trains(entity):
        t = g.state.trains[tid]
        if obsolete_count is True or not t.obsolete:
            count += 1
    return count


def room(g: Context, entity: str) -> bool:
    return counted_trains(g, entity) < train_limit(g, entity)


def remove_train(g: Context, tid: str) -> None:
    t = g.state.trains[tid]
    if t.owner == DEPOT:
        if tid in g.state.depot:
            g.state.depot.remove(tid)
        if tid in g.state.discarded:
            g.state.discarded.remove(tid)
        _refill_unlimited(g, t)
    elif t.owner:
        lst = g.entity_trains(t.owner)
        if tid in lst:
            lst.remove(tid)


def _refill_unlimited(g: Context, t: Train) -> None:
    """An unlimited train type never runs out: add a copy when the last new one is taken."""
    if g.book.trains[t.sym]["count"] != "unlimited":
        return
    if any(g.state.trains[x].sym == t.sym for x in g.state.depot):
        return
    idx = 1 + max(x.index for x in g.state.trains.values() if x.sym == t.sym)
    new = Train(id=f"{t.sym}-{idx}", sym=t.sym, name=t.sym, index=idx)
    g.state.trains[new.id] = new
    g.state.depot.append(new.id)


@cython.locals(g="Context")
def give_train(g: Context, buyer: str, tid: str, price: int | None, *, free: bool = False) -> None:
    """Transfer a train to ``buyer`` (paying ``price`` to its owner or the bank)."""
    t = g.state.trains[tid]
    source = t.owner
    if not free and price:
        payee = "bank" if source == DEPOT else source
        g.spend(buyer, payee, price)
    remove_train(g, tid)
    t.owner = buyer
    g.entity_trains(buyer).append(tid)


def buy_train(g: Context, buyer: str, tid: str, price: int, variant: str | None) -> None:
    """Buy a train (from the bank or another corporation) and trigger phases, rusting and events."""
    t = g.state.trains[tid]
    source = t.owner
    if source == DEPOT and variant:
        faces = variants(g, t)
        if variant not in faces:
            raise illegal("trains.variant", f"train {tid} has no face {variant}")
        t.name = variant
    g.log(f"{g.name(buyer)} buys a {t.name} train for {price} from {g.name(source) if source != DEPOT else 'the bank'}")
    give_train(g, buyer, tid, price)
    if source == DEPOT:
        _after_bank_purchase(g, t)
    g.hooks("train_bought", buyer, tid, source)


@cython.locals(g="Context")
def export_train(g: Context, *, whole_type: bool = False) -> None:
    """The bank removes its next new train as if it were bought (phase changes, rusting, events); with
    ``whole_type`` every unsold new train of that type goes too (an unlimited type is not refilled)."""
    if not g.state.depot:
        return
    t = g.state.trains[g.state.depot[0]]
    gone = [x for x in g.state.depot if g.state.trains[x].sym == t.sym] if whole_type else [t.id]
    for tid in gone:
        g.state.depot.remove(tid)
        g.state.trains[tid].owner = ""  # out of the game
    if not whole_type:
        _refill_unlimited(g, t)
    g.log(f"-- The bank exports {'every ' if whole_type else 'a '}{t.name} train --")
    _after_bank_purchase(g, t)


def _after_bank_purchase(g: Context, t: Train) -> None:
    g.hooks("train_left_depot", t.id)
    new_phases = []
    while g.state.phase + 1 < len(g.book.phases) and g.book.phases[g.state.phase + 1].get("on") == t.sym:
        g.state.phase += 1
        new_phases.append(g.state.phase)
        phase_started(g)
    rust_trains(g, t)
    g.cache.pop("depot_trains", None)
    for idx in new_phases:
        for ei, event in enumerate(g.book.phases[idx].get("events") or []):
            g.rules.events[event["type"]][1](g, g.rules.event_params[(idx, ei)])
    _train_events(g, t)


@cython.locals(g="Context", t="Train")
def _train_events(g: Context, t: Train) -> None:
    """The events of a train type (``trains.<name>.events``) happen when the first train of the type leaves the bank
    (bought or exported), after the phase it starts."""
    events = g.book.trains[t.sym].get("events")
    if not events:
        return
    for other in g.state.trains.values():
        if other.sym == t.sym and other.id != t.id and (other.owner != DEPOT or other.id in g.state.discarded):
            return  # not the first of its type
    ti = g.book.train_order.index(t.sym)
    for ei, event in enumerate(events):  # keyed as install.train_event_key
        g.rules.events[event["type"]][1](g, g.rules.event_params[(-1 - ti, ei)])


def phase_started(g: Context) -> None:
    """Closures and ability removals tied to reaching a phase."""
    name = g.phase_name()
    g.log(f"-- Phase {name} --")
    g.hooks("phase_reached", name)


def rust_trains(g: Context, purchased: Train) -> None:
    triggers = g.book.derived.get(_RUST_TRIGGERS)
    if triggers is None:
        specs = g.book.trains.values()
        triggers = g.book.derived[_RUST_TRIGGERS] = {s.get(k) for s in specs for k in ("rusts_on", "obsolete_on")}
    if purchased.sym not in triggers:
        return  # no type rusts or goes obsolete on this one
    obsolete = []
    t: Train
    for t in g.state.trains.values():
        spec = g.book.trains[t.sym]
        if not t.obsolete and spec.get("obsolete_on") == purchased.sym and not t.rusted:
            t.obsolete = True
            obsolete.append(t.id)
    rusted = []
    for t in list(g.state.trains.values()):
        if t.rusted:
            continue
        spec = g.book.trains[t.sym]
        if spec.get("rusts_on") == purchased.sym or (
            spec.get("obsolete_on") == purchased.sym and t.id in g.state.discarded
        ):
            rust(g, t.id)
            rusted.append(t.id)
            g.hooks("rusted_by_purchase", t.id)
    if obsolete:
        g.log(f"-- Event: {', '.join(sorted({g.state.trains[x].sym for x in obsolete}))} trains are obsolete --")
    if rusted:
        g.log(f"-- Event: {', '.join(sorted({g.state.trains[x].sym for x in rusted}))} trains rust --")


_RUST_TRIGGERS = ("depot.rust_triggers",)  # key in Book.derived: the train types some type rusts or goes obsolete on


def rust(g: Context, tid: str) -> None:
    t = g.state.trains[tid]
    owner = t.owner
    t.rusted = True
    remove_train(g, tid)
    t.owner = ""  # out of the game
    if owner and owner != DEPOT:
        g.hooks("train_rusted", tid, owner)


def discard_to_depot(g: Context, tid: str) -> None:
    """A train returns to the bank (over the limit): it can be bought again, either face."""
    t = g.state.trains[tid]
    remove_train(g, tid)
    t.owner = DEPOT
    if not t.obsolete:
        g.state.discarded.append(tid)
    g.cache.pop("depot_trains", None)
