"""Read the interpreter's game (``railbook.engine.game.Game``) into the optimiser's :class:`Problem`.

Only public, read-only facts of the game are used: ``g.book`` (hexes, neighbours, tile specs, trains,
mechanics, ``revenue_of``), ``g.state`` (hexes with tiles, rotations, tokens and assignments;
trains; companies; corporations) and ``g.entity_trains``. Nothing here changes the game.
"""

from __future__ import annotations

from typing import Any

from .model import Problem, TrainSpec
from .network import BoardState, HexState, build_problem
from .record import bonus_specs, route_params
from .trains import train_spec


def _sym(key: Any) -> str:
    s = str(key)
    return s[2:] if len(s) > 1 and s[1] == "|" else s


def board_from_game(g: Any) -> BoardState:
    """The map of ``g`` as a :class:`BoardState` (revenues resolved with the game's own rule)."""
    book, state = g.book, g.state
    hexes: dict[str, HexState] = {}
    through = set(route_params(book_dict(g)).get("pass_through_offboards") or [])
    for hex_id, spec in book.hexes.items():
        hs = state.hexes[hex_id]
        track = book.tile_spec(hs.tile, hex_id)
        tags: set[str] = set(spec.get("tags") or [])
        if hex_id in through:
            tags.add("pass_through")
        for name in list(getattr(hs, "icons", []) or []):
            tags.add(f"icon:{name}")
        for label in (track.get("label"), spec.get("label")):
            if label:
                tags.add(str(label))
        tokens = {ci: [_sym(k) for k in slots if k] for ci, slots in enumerate(hs.tokens)}
        neighbours = {int(e): n for e, n in (book.neighbours.get(hex_id) or {}).items()}
        hexes[hex_id] = HexState(hex_id, track, int(hs.rotation or 0), neighbours, frozenset(tags), tokens)
    phase = book.phases[state.phase]
    colour = phase.get("offboard") or (phase.get("tiles") or ["yellow"])[-1]
    board = BoardState(hexes, phase=str(phase.get("name", "")), colour=colour)
    board.revenue_of = lambda value: book.revenue_of(value, state.phase)
    return board


def trains_of(g: Any, corporation: str) -> list[TrainSpec]:
    """The corporation's trains that may still run this turn."""
    key = f"C|{corporation}" if corporation in g.state.corporations else f"M|{corporation}"
    out = []
    for tid in g.entity_trains(key):
        t = g.state.trains[tid]
        if getattr(t, "rusted", False) or getattr(t, "operated", False):
            continue  # rusted, or may not run this turn (e.g. just taken over with an independent)
        out.append(train_spec(tid, t.name, g.book.trains.get(t.sym)))
    return out


def bonuses_of(g: Any, corporation: str) -> list[dict[str, Any]]:
    """Bonus specs in force for ``corporation`` from the rulebook's ``mechanics.routes``."""
    state = g.state
    owner: dict[str, str] = {}
    for sym, company in state.companies.items():
        if company.owner and not getattr(company, "removed", False):
            owner[sym] = _sym(company.owner)
    hex_assign: dict[str, str] = {}
    for hex_id, hs in state.hexes.items():
        for a in getattr(hs, "assigned", []) or []:
            hex_assign[_sym(a)] = hex_id
    corp_assign: dict[str, str] = {}
    for sym, corp in state.corporations.items():
        for a in getattr(corp, "assigned", []) or []:
            corp_assign[_sym(a)] = sym
    for sym, minor in getattr(state, "minors", {}).items():
        for a in getattr(minor, "assigned", []) or []:
            corp_assign[_sym(a)] = sym

    def icons(hex_id: str) -> list[str]:
        return list(getattr(state.hexes[hex_id], "icons", []) or [])

    return bonus_specs(book_dict(g), corporation, owner, hex_assign, corp_assign, icons)


def book_dict(g: Any) -> dict[str, Any]:
    raw = getattr(g.book, "raw", None)
    if isinstance(raw, dict):
        return raw
    return {"mechanics": getattr(g.book, "mechanics", {})}


def operating_corporation(g: Any) -> str | None:
    """The corporation (or minor) operating now, if any."""
    key = g.current_operator() if hasattr(g, "current_operator") else None
    return _sym(key) if key else None


def problem_from_game(g: Any, corporation: str | None = None) -> Problem:
    """The optimisation problem for ``corporation`` (default: the one operating) in game ``g``."""
    corp = corporation or operating_corporation(g)
    if not corp:
        raise ValueError("no corporation is operating; name one")
    return build_problem(board_from_game(g), corp, trains_of(g, corp), bonuses_of(g, corp))
