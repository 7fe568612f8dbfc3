"""Facts about phases read from the rulebook: when a company exists, what each phase changes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

FORMATION_EVENT = "national_railway_formation"
"""The phase (or train) event that forms ``mechanics.national_railway.national``."""


def _has_event(events: list[dict[str, Any]] | None, kind: str) -> bool:
    return any(ev.get("type") == kind for ev in events or [])


def formation_phase(book: dict[str, Any]) -> int | None:
    """Index of the phase in which the national railway forms: a phase with the formation event, or the phase
    started by a train that carries it; None when nothing forms it."""
    phases = book.get("phases", [])
    for i, ph in enumerate(phases):
        if _has_event(ph.get("events"), FORMATION_EVENT):
            return i
        train = book.get("trains", {}).get(ph.get("on") or "")
        if train and _has_event(train.get("events"), FORMATION_EVENT):
            return i
    return None


def company_phases(book: dict[str, Any], sym: str) -> list[dict[str, Any]]:
    """The phases in which a company can run: a national railway only from the phase that forms it."""
    phases: list[dict[str, Any]] = book.get("phases", [])
    national = (book.get("mechanics", {}).get("national_railway") or {}).get("national")
    if sym != national:
        return phases
    start = formation_phase(book)
    return phases[start:] if start is not None else phases


@dataclass
class PhaseRow:
    """One line of the player aid's phase chart."""

    name: str
    on: str
    tiles: list[str]
    limits: str
    rounds: str
    rusts: list[str] = field(default_factory=list)
    obsolete: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _limit_text(limit: Any) -> str:
    if isinstance(limit, dict):
        return ", ".join(f"{v} {k}" for k, v in limit.items())
    return str(limit)


def _words(value: str) -> str:
    return str(value).replace("_", " ")


def _names(value: Any) -> str:
    items = [str(v) for v in value] if isinstance(value, list) else [str(value)]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


STATUS = {
    "can_buy_companies": "corporations may buy private companies",
    "can_buy_companies_from_other_players": "corporations may buy private companies from any player",
    "privates_buyable": "corporations may buy private companies",
    "low_offboard_values": "off-boards pay their lower values",
    "no_loans": "no new loans",
    "no_new_shorts": "no new short sales",
    "upgradable_towns": "towns may be upgraded",
}
"""Phase status flags in words (an unknown flag is printed with spaces for its underscores)."""


def status_text(flag: str) -> str:
    """A phase status flag as players read it."""
    if flag in STATUS:
        return STATUS[flag]
    if flag.startswith("ipo_sizes_") and flag[10:].replace("_", "").isdigit():
        return f"new companies start with {_names(flag[10:].split('_')).replace(' and ', ' or ')} shares"
    return _words(flag)


def event_text(event: dict[str, Any], book: dict[str, Any]) -> str:
    """A phase or train event as players read it."""
    kind = str(event.get("type", ""))
    params = event.get("params") or {}
    if kind == "close_companies":
        but = [f"except {_names(params['except'])}"] if params.get("except") else []
        but += [f"{_names(params['except_while_unused'])} while unused"] if params.get("except_while_unused") else []
        return "private companies close" + (f" ({'; '.join(but)})" if but else "")
    if kind == FORMATION_EVENT:
        national = (book.get("mechanics", {}).get("national_railway") or {}).get("national")
        return f"{national or 'the national railway'} forms"
    if kind == "remove_markers":
        return f"markers of {_names(params['privates'])} removed" if params.get("privates") else "markers removed"
    if kind == "remove_reservations":
        who = f" of {_names(params['corporations'])}" if params.get("corporations") else ""
        return f"reserved spots{who} freed"
    if kind == "signal_end_game":
        return "the end of the game is triggered"
    return _words(kind)


def phase_rows(book: dict[str, Any]) -> list[PhaseRow]:
    """Each phase: the train that starts it, tile colours, train limits, ORs per set, what rusts or goes
    obsolete, and its events and status changes."""
    trains = book.get("trains", {})
    rows: list[PhaseRow] = []
    for ph in book.get("phases", []):
        on = str(ph.get("on") or "")
        rusts = [n for n, t in trains.items() if on and t.get("rusts_on") == on]
        obsolete = [n for n, t in trains.items() if on and t.get("obsolete_on") == on]
        notes = [event_text(ev, book) for ev in ph.get("events", []) or []]
        notes += [status_text(s) for s in ph.get("status", []) or []]
        for t in (trains.get(on) or {}).get("events", []) or []:
            notes.append(event_text(t, book))
        notes = [n for n in dict.fromkeys(notes) if not any(o != n and o.startswith(n) for o in notes)]
        rows.append(
            PhaseRow(
                name=str(ph.get("name", "")),
                on=on,
                tiles=list(ph.get("tiles", [])),
                limits=_limit_text(ph.get("train_limit", "")),
                rounds=str(ph.get("operating_rounds", "")),
                rusts=rusts,
                obsolete=obsolete,
                notes=notes,
            )
        )
    return rows
