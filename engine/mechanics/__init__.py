"""Rule modules ("mechanics"), switched on by the rulebook's ``mechanics:`` mapping.

Each module owns the steps and hooks of one rule family and reads its parameters from
``rulebook["mechanics"][<name>]``.  This package is the dispatcher the round machinery calls: it asks
every switched-on module for its contribution, in a fixed order, and never looks at the title's name.

Module contract (all functions optional): ``STEPS`` (name -> step class), ``install(g)``,
``setup(g)``, ``program(g, kind, steps)`` (edit the step list of a round kind), and the hook functions
named below (``preprocess``, ``action_processed``, ``round_started``, ``payout_companies`` ...).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..errors import UnsupportedTitle
from ..state import ckey, kind_of, mkey, sym_of

if TYPE_CHECKING:
    from ..game import Game
    from ..state import Ability

# Modules in the order they contribute; ``core`` is always on.
ORDER = [
    "core",
    "random_removal",
    "draft",
    "independents",
    "stock_round",
    "capitalization",
    "private_companies",
    "issue_redeem",
    "track",
    "tokens",
    "routes",
    "dividends",
    "trains",
    "receivership",
    "bankruptcy",
    "operating_order",
    "certificate_limit",
    "game_end",
    "final_value",
]

_MODULES: dict[str, ModuleType] = {}
STEP_TYPES: dict[str, Any] = {}


def _module(name: str) -> ModuleType:
    mod = _MODULES.get(name)
    if mod is None:
        mod = importlib.import_module(f"{__name__}.{name}")
        _MODULES[name] = mod
        STEP_TYPES.update(getattr(mod, "STEPS", {}))
    return mod


def enabled(g: Game) -> list[ModuleType]:
    mods = g.cache.get("mechanics")
    if mods is None:
        names = ["core"] + [n for n in ORDER[1:] if n in g.book.mechanics]
        mods = [_module(n) for n in names]
        g.cache["mechanics"] = mods
    return mods


def _hooks(g: Game, hook: str) -> list[Any]:
    key = "hook:" + hook
    fns = g.cache.get(key)
    if fns is None:
        fns = [getattr(m, hook) for m in enabled(g) if hasattr(m, hook)]
        g.cache[key] = fns
    return fns


def _call_all(g: Game, hook: str, *args: Any) -> None:
    for fn in _hooks(g, hook):
        fn(g, *args)


def _first(g: Game, hook: str, *args: Any, default: Any = None) -> Any:
    for fn in reversed(_hooks(g, hook)):
        result = fn(g, *args)
        if result is not None:
            return result
    return default


for _n in ORDER:
    try:
        _module(_n)
    except ModuleNotFoundError as exc:  # pragma: no cover - every listed module exists
        if exc.name != f"{__name__}.{_n}":
            raise


# ----------------------------------------------------------------------------------------- install


def install(g: Game) -> None:
    unknown = [m for m in g.book.mechanics if m not in ORDER]
    if unknown:
        raise UnsupportedTitle(f"{g.book.title}: the engine has no module for mechanics {', '.join(unknown)}")
    g.route_bonuses = []
    _call_all(g, "install")


def setup(g: Game) -> None:
    _call_all(g, "setup")


def program(g: Game, kind: str) -> list[tuple[str, dict[str, Any]]]:
    """The steps of a round kind: each module's ``steps_for(g, kind)`` gives ``(rank, name, opts)``."""
    ranked: list[tuple[int, str, dict[str, Any]]] = []
    for fn in _hooks(g, "steps_for"):
        ranked.extend(fn(g, kind))
    ranked.sort(key=lambda r: r[0])
    return [(name, opts) for _, name, opts in ranked]


def first_round_kind(g: Game) -> str:
    return _first(g, "first_round_kind", default="stock")


def round_entities(g: Game, kind: str) -> list[str]:
    return _first(g, "round_entities", kind, default=[])


# ------------------------------------------------------------------------------------------- hooks


def round_started(g: Game, kind: str) -> None:
    _call_all(g, "round_started", kind)


def round_finished(g: Game, kind: str) -> None:
    _call_all(g, "round_finished", kind)


def finish_stock_round(g: Game) -> None:
    _call_all(g, "finish_stock_round")


def or_set_finished(g: Game) -> None:
    _call_all(g, "or_set_finished")


def payout_companies(g: Game) -> None:
    _call_all(g, "payout_companies")


def reset_per_or_abilities(g: Game) -> None:
    for c in g.state.companies.values():
        for a in c.abilities:
            a.count_this_or = a.corp_count_this_or = 0
    for corp in g.state.corporations.values():
        for a in corp.abilities:
            a.count_this_or = a.corp_count_this_or = 0


def block_or_start(g: Game) -> bool:
    return bool(_first(g, "block_or_start", default=False))


def operator_started(g: Game, entity: str) -> None:
    _call_all(g, "operator_started", entity)


def operating_after_action(g: Game, action: dict[str, Any]) -> None:
    _call_all(g, "operating_after_action", action)


def acts_for(g: Game, key: str) -> str | None:
    """The operator a private acts for (its owning corporation)."""
    if kind_of(key) == "X":
        return g.company(key).owner
    return key


def in_receivership(g: Game, entity: str) -> bool:
    return bool(_first(g, "in_receivership", entity, default=False))


def preprocess(g: Game, action: dict[str, Any], entity: str) -> None:
    _call_all(g, "preprocess", action, entity)


def action_processed(g: Game, action: dict[str, Any], entity: str) -> None:
    _call_all(g, "action_processed", action, entity)
    g.state.last_action_entity = entity
    g.state.last_action_type = action.get("type")


def corporation_floated(g: Game, corp: str) -> None:
    _call_all(g, "corporation_floated", corp)


def ability_removed(g: Game, owner: str, ability: Ability) -> None:
    _call_all(g, "ability_removed", owner, ability)


def end_check(g: Game) -> str | None:
    return _first(g, "end_check", default=None)


def end_now(g: Game, timing: str | None) -> bool:
    return bool(_first(g, "end_now", timing, default=False))


def end_game(g: Game, reason: str | None = None, manual: bool = False) -> None:
    _first(g, "end_game", reason, manual)


def player_value(g: Game, player: str) -> int:
    return _first(g, "player_value", player, default=0)


def update_cert_limit(g: Game) -> None:
    _call_all(g, "update_cert_limit")


def company_price_range(g: Game, company: Any) -> tuple[int, int]:
    return _first(g, "company_price_range", company, default=((company.value + 1) // 2, company.value * 2))


def unlimited_train_copies(g: Game, name: str) -> int:
    return _first(g, "unlimited_train_copies", name, default=20)


def entity_type(key: str) -> str:
    return {"P": "player", "C": "corporation", "M": "minor", "X": "company"}.get(kind_of(key), key)


__all__ = ["STEP_TYPES", "ckey", "mkey", "sym_of"]
