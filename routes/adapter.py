"""Read the interpreter's game (``railbook.engine.game.Game``) into the optimiser's :class:`Problem`.

Only public, read-only facts of the game are used: ``g.book`` (hexes, neighbours, tile specs, trains,
mechanics, ``revenue_of``), ``g.state`` (hexes with tiles, rotations, tokens and assignments;
trains; companies; corporations) and ``g.entity_trains``. Nothing here changes the game.
"""

from __future__ import annotations

from typing import Any

from railbook.engine.bonuses import game_bonus_specs, hex_tags

from .model import Problem, TrainSpec
from .network import BoardState, HexState, build_problem
from .trains import train_spec


def context_of(game: Any) -> Any:
    """The engine context behind ``game``: a :class:`railbook.engine.game.Game` facade's, or ``game`` itself."""
    return getattr(game, "context", game)


def _sym(key: Any) -> str:
    s = str(key)
    return s[2:] if len(s) > 1 and s[1] == "|" else s


def board_from_game(g: Any) -> BoardState:
    """The map of ``g`` as a :class:`BoardState` (revenues resolved with the game's own rule; a stop's tags are
    those the interpreter's bonuses see, :func:`railbook.engine.bonuses.hex_tags`)."""
    g = context_of(g)
    book, state = g.book, g.state
    hexes: dict[str, HexState] = {}
    for hex_id in book.hexes:
        hs = state.hexes[hex_id]
        track = book.tile_spec(hs.tile, hex_id)
        tokens = {ci: [_sym(k) for k in slots if k] for ci, slots in enumerate(hs.tokens)}
        spaces = {ci: len(slots) for ci, slots in enumerate(hs.tokens)}  # extra spaces (destination markers) count
        neighbours = {int(e): n for e, n in (book.neighbours.get(hex_id) or {}).items()}
        hexes[hex_id] = HexState(
            hex_id, track, int(hs.rotation or 0), neighbours, frozenset(hex_tags(g, hex_id)), tokens, spaces
        )
    phase = book.phases[state.phase]
    colour = phase.get("offboard") or (phase.get("tiles") or ["yellow"])[-1]
    board = BoardState(hexes, phase=str(phase.get("name", "")), colour=colour)
    board.revenue_of = lambda value: book.revenue_of(value, state.phase)
    return board


def board_for(g: Any, corporation: str) -> BoardState:
    """The map of ``g`` as ``corporation`` may run on it: without the hexes a rule keeps it out of (e.g. a mine
    it holds no token for; hook ``route_forbidden_hexes``)."""
    g = context_of(g)
    board = board_from_game(g)
    forbidden: list[str] = []
    g.hooks("route_forbidden_hexes", corporation, forbidden)
    for hex_id in forbidden:
        board.hexes.pop(hex_id, None)
    return board


def trains_of(g: Any, corporation: str, operated_too: bool = False) -> list[TrainSpec]:
    """The corporation's trains that may still run this turn (with ``operated_too``, those that ran already too)."""
    g = context_of(g)
    key = f"C|{corporation}" if corporation in g.state.corporations else f"M|{corporation}"
    out = []
    for tid in g.entity_trains(key):
        t = g.state.trains[tid]
        if getattr(t, "rusted", False) or (getattr(t, "operated", False) and not operated_too):
            continue  # rusted, or may not run this turn (e.g. just taken over with an independent)
        out.append(train_spec(tid, t.name, g.book.trains.get(t.sym)))
    return out


def bonuses_of(g: Any, corporation: str) -> list[dict[str, Any]]:
    """Bonus specs in force for ``corporation``: the interpreter's own (:mod:`railbook.engine.bonuses`)."""
    g = context_of(g)
    return game_bonus_specs(g, corporation)


def operating_corporation(g: Any) -> str | None:
    """The corporation (or minor) operating now, if any."""
    g = context_of(g)
    key = g.current_operator() if hasattr(g, "current_operator") else None
    return _sym(key) if key else None


def required_of(g: Any, corporation: str) -> list[dict[str, Any]]:
    """The route the rules require of ``corporation``'s run now, as a bonus spec (a connection run: one train from
    home to the destination, named by the interpreter's legal ``run_routes`` as ``route_between``), or none."""
    from railbook.engine import rounds

    from . import required_route

    g = context_of(g)
    if g.state.finished or g.state.round is None:
        return []
    for desc in rounds.legal_actions(g):
        if desc.get("type") == "run_routes" and str(desc.get("entity")) == corporation and desc.get("route_between"):
            return [required_route(desc["route_between"])]
    return []


def problem_from_game(g: Any, corporation: str | None = None) -> Problem:
    """The optimisation problem for ``corporation`` (default: the one operating) in game ``g``, with the route
    the rules require of its run now (:func:`required_of`)."""
    g = context_of(g)
    corp = corporation or operating_corporation(g)
    if not corp:
        raise ValueError("no corporation is operating; name one")
    bonuses = [*bonuses_of(g, corp), *required_of(g, corp)]
    return build_problem(board_for(g, corp), corp, trains_of(g, corp), bonuses)
