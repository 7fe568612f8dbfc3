"""Replaying recorded games: 18xx.games exports and railbook action logs.

An 18xx.games export holds ``title``, ordered ``players``, ``settings`` (``seed``, ``optional_rules``),
the full ``actions`` list (undo/redo included, with embedded ``auto_actions``) and the expected
``result`` and ``game_end_reason``.  :func:`replay` filters undone actions, starts the game with the
recorded seed and options, checks every kept action, and compares the outcome.

railbook's own action log (``docs/ACTION_LOG.md``) has ``format: "railbook-log"`` and is replayed the
same way.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from railbook.records import kept_actions, read_record

from .action_shape import ALLOWED_FIELDS, unknown_fields
from .collector import settled_heap
from .errors import EngineError, IllegalAction, InternalError
from .game import Game
from .rng import seed_from

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from . import cython_shim as cython

if TYPE_CHECKING:
    from .context import Context

LOG_FORMAT = "railbook-log"
NON_MOVES = {"message", "log"}


class ReplayError(EngineError):
    """A replay stopped: ``index``/``action_id`` locate the action, ``rule`` names the rule broken."""

    def __init__(self, index: int, action_id: Any, rule: str, message: str):
        self.index, self.action_id, self.rule = index, action_id, rule
        super().__init__(f"action {index} (id {action_id}): {rule}: {message}")


class ReplayInternalError(InternalError):
    """The engine failed on an action (a bug, not a bad record): where in the record, and where in the engine."""

    def __init__(self, index: int, action_id: Any, exc: BaseException):
        self.index, self.action_id = index, action_id
        self.where = engine_frame(exc)
        detail = " ".join(str(exc).split())
        super().__init__(
            f"internal error at action {index} (id {action_id}): {type(exc).__name__}: {detail} "
            f"({self.where}); this is a railbook bug, not a bad record: please report it"
        )


def engine_frame(exc: BaseException) -> str:
    """``file:line in function`` of the innermost frame of ``exc``'s traceback inside the package."""
    where = "unknown place"
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        parts = Path(code.co_filename).parts
        if "railbook" in tb.tb_frame.f_globals.get("__name__", ""):
            where = f"{'/'.join(parts[-2:])}:{tb.tb_lineno} in {code.co_name}"
        tb = tb.tb_next
    return where


@dataclass
class ReplayResult:
    game: Game
    actions: int
    result: dict[str, int]
    game_end_reason: str | None
    expected_result: dict[str, int] | None = None
    expected_reason: str | None = None
    warnings: list[str] = field(default_factory=list)
    revenues_checked: int = 0

    @property
    def matches(self) -> bool:
        ok = True
        if self.expected_result is not None:
            ok = ok and {str(k): int(v) for k, v in self.expected_result.items()} == self.result
        if self.expected_reason is not None:
            ok = ok and self.expected_reason == self.game_end_reason
        return ok


# ------------------------------------------------------------------------------------------ filtering


def filter_actions(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions left once undo/redo are applied (as the 18xx.games site does)."""
    return kept_actions(actions)


# ------------------------------------------------------------------------------------------ rulebooks

# ------------------------------------------------------------------------------------------- replay


def load(path: str | Path) -> dict[str, Any]:
    """A record file, read within the input limits (:mod:`railbook.records`)."""
    return read_record(path)


def players_of(record: dict[str, Any]) -> list[dict[str, str]]:
    out = []
    for p in record.get("players") or []:
        if not isinstance(p, dict) or ("id" not in p and "name" not in p):
            raise EngineError("malformed players list")
        pid = p.get("id", p.get("name"))
        out.append({"id": str(pid), "name": str(p.get("name", pid))})
    return out


def record_options(record: dict[str, Any], rulebook: dict[str, Any]) -> list[str]:
    """The rulebook options a record plays: the default options (unless one it names excludes them), those it
    names, and those the site applied to games of its date."""
    known = rulebook.get("options") or {}
    named = [o for o in (record.get("settings") or {}).get("optional_rules") or [] if o in known]
    off = {x for o in named for x in known[o].get("excludes") or []}
    options = [o for o, spec in known.items() if spec.get("default") and o not in named and o not in off] + named
    created = record_date(record)
    for name, spec in known.items():
        before = spec.get("site_before")
        if before and created is not None and created < before and name not in options:
            options.append(name)
    return options


def record_date(record: dict[str, Any]) -> str | None:
    """The record's creation date as an ISO ``YYYY-MM-DD`` (epoch seconds or an ISO string), if it has one."""
    created = record.get("created_at")
    if isinstance(created, bool):
        return None
    if isinstance(created, int | float):
        return datetime.datetime.fromtimestamp(created, datetime.UTC).date().isoformat()
    if isinstance(created, str) and re.match(r"\d{4}-\d{2}-\d{2}", created):
        return created[:10]
    return None


def start_from_record(record: dict[str, Any], rulebook: dict[str, Any]) -> Game:
    """The game a record starts from (its players, seed and options), under ``rulebook``."""
    rb = rulebook
    if record.get("format") == LOG_FORMAT:
        return Game.start(rb, record["players"], seed=int(record.get("seed", 0)), options=record.get("options") or [])
    settings = record.get("settings") or {}
    seed = seed_from(settings, record.get("id"))
    return Game.start(rb, players_of(record), seed=seed, options=record_options(record, rb))


def replay(
    record: dict[str, Any],
    rulebook: dict[str, Any],
    *,
    strict: bool = False,
    atomic: bool = False,
) -> ReplayResult:
    """Replay a record with its title's rulebook; raises :class:`ReplayError` at the first illegal action."""
    game = start_from_record(record, rulebook)
    actions = filter_actions(record["actions"]) if record.get("format") != LOG_FORMAT else list(record["actions"])
    with settled_heap():
        count, checked, warnings = _replay_actions(game, actions, strict=strict, atomic=atomic)
    return ReplayResult(
        game=game,
        actions=count,
        result={str(k): v for k, v in game.result().items()},
        game_end_reason=game.state.game_end_reason,
        expected_result=record.get("result"),
        expected_reason=record.get("game_end_reason"),
        warnings=warnings,
        revenues_checked=checked,
    )


@cython.locals(ctx="Context")
def _replay_actions(
    g: Game, actions: list[dict[str, Any]], *, strict: bool, atomic: bool
) -> tuple[int, int, list[str]]:
    """Process the kept actions in game ``g``: (actions processed, revenues checked, warnings)."""
    ctx: Context = g.context  # (its state is read per action: a failed atomic action rebuilds it)
    warnings: list[str] = []
    count = 0
    checked = 0
    action: dict[str, Any]
    for index, action in enumerate(actions):
        atype = action.get("type")
        if atype in NON_MOVES:
            continue
        if ctx.state.finished:
            if atype == "end_game":
                continue
            raise ReplayError(index, action.get("id"), "game.finished", "action after the end of the game")
        autos = action.get("auto_actions") or []
        if type(autos) is not list:
            raise ReplayError(index, action.get("id"), "action.malformed", "auto_actions must be a list")
        step_actions = [action, *autos]
        for a in step_actions:
            clean = normalise(a)
            if clean is not a and len(clean) < len(a):
                for name in unknown_fields(a):
                    warnings.append(f"action {index} (id {action.get('id')}): field {name!r} ignored (not a rule's)")
            try:
                g.process(clean, atomic)  # (positional: no keyword dict per call)
            except IllegalAction as exc:
                raise ReplayError(index, action.get("id"), exc.rule, exc.message) from None
            except (RecursionError, MemoryError):
                raise
            except Exception as exc:  # not a rule's refusal: a fault of the engine, never blamed on the record
                raise ReplayInternalError(index, action.get("id"), exc) from exc
            checks = ctx.state.extra.pop("route_checks", None)
            if checks:
                checked += len(checks)
                for train, rec, ours in checks:
                    if rec == ours:
                        continue
                    msg = (
                        f"action {index} (id {action.get('id')}): train {train} recorded revenue {rec}, computed {ours}"
                    )
                    if strict:
                        raise ReplayError(index, action.get("id"), "route.revenue", msg)
                    warnings.append(msg)
        count += 1
    return count, checked, warnings


def normalise(action: dict[str, Any]) -> dict[str, Any]:
    """Player ids become strings (records use numbers or names), and fields the engine neither reads nor knows as
    bookkeeping are dropped (a record of a newer site may carry some; the replay's warnings name them): a copy of
    the action where one must, else the action itself (the engine reads actions and never changes them)."""
    if type(action) is not dict:
        return action  # (the engine refuses what is no JSON object)
    plain: dict[str, Any] = action  # (a dict in the compiled build: replay.pxd; so is ``allowed`` a frozenset)
    allowed: frozenset[str] = ALLOWED_FIELDS
    for name in plain:
        if name not in allowed:
            return normalise({k: v for k, v in plain.items() if k in allowed})
    if plain.get("entity_type") == "player":
        entity = plain.get("entity")
        if entity is not None and type(entity) is not str:
            out = dict(plain)
            out["entity"] = str(entity)
            return out
    return action


# ---------------------------------------------------------------------------------------- action log


def export_log(record: dict[str, Any], rulebook: dict[str, Any], game: Game | None = None) -> dict[str, Any]:
    """railbook's action log of a record: the kept actions, the seed and options, the outcome."""
    if record.get("format") == LOG_FORMAT:
        return record
    settings = record.get("settings") or {}
    title = str(record.get("title"))
    rb = rulebook
    options = record_options(record, rb)
    kept = []
    for a in filter_actions(record["actions"]):
        if a.get("type") in NON_MOVES:
            continue
        clean = {k: v for k, v in normalise(a).items() if k not in ("id", "original_id", "created_at", "user", "skip")}
        kept.append(clean)
    out = {
        "format": LOG_FORMAT,
        "version": 1,
        "title": title,
        "players": players_of(record),
        "seed": seed_from(settings, record.get("id")),
        "options": options,
        "actions": kept,
    }
    if game is not None:
        out["result"] = game.result()
        out["game_end_reason"] = game.state.game_end_reason
    elif record.get("result") is not None:
        out["result"] = {str(k): v for k, v in record["result"].items()}
        out["game_end_reason"] = record.get("game_end_reason")
    return out
