"""The one registry of mechanics, shared by the compiler (parameter models) and the engine (rule modules).

Every mechanic module of :mod:`railbook.engine.mechanics` declares a ``MECHANIC``
(:class:`railbook.engine.contract.Mechanic`) under its own module name; :data:`ORDER` lists them in a fixed
order, which is the order their hook handlers run in.  Modules are imported when first asked for, so a game
loads only the mechanics its rulebook switches on; :data:`REGISTRY` and :data:`MODULES` (all of them) import
every module on first use.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import Any

from .contract import Mechanic, check_unique

#: Every mechanic's name (its module's name), in hook order.
ORDER: tuple[str, ...] = (
    "core",
    "random_removal",
    "draft",
    "bid_box_auction",
    "nomination_auction",
    "independents",
    "stock_round",
    "company_stock_actions",
    "price_protection",
    "short_selling",
    "capitalization",
    "escrow",
    "company_sizes",
    "private_companies",
    "private_payouts",
    "exchange",
    "private_abilities",
    "short_handed",
    "issue_redeem",
    "reissue",
    "loans",
    "track",
    "tokens",
    "teleport",
    "destinations",
    "edge_tokens",
    "mines",
    "river_companies",
    "routes",
    "train_stop_values",
    "dividends",
    "trains",
    "train_export",
    "receivership",
    "mergers",
    "national_railway",
    "bankruptcy",
    "operating_order",
    "certificate_limit",
    "game_end",
    "final_value",
)
ALWAYS_ON = ("core",)


def module_of(name: str) -> ModuleType:
    """The rule module of mechanic ``name`` (imported on first use); KeyError for a name not in :data:`ORDER`."""
    if name not in ORDER:
        raise KeyError(name)
    module = import_module(f"{__package__}.mechanics.{name}")
    if module.MECHANIC.name != name:  # pragma: no cover - a module declaring another name is a coding error
        raise TypeError(f"mechanics.{name} declares mechanic {module.MECHANIC.name!r}")
    return module


def mechanic(name: str) -> Mechanic:
    """The declaration of mechanic ``name``; KeyError for an unknown name."""
    declared: Mechanic = module_of(name).MECHANIC
    return declared


def in_order(names: set[str] | dict[str, Any]) -> list[Mechanic]:
    """The always-on mechanics and those named, in hook order (checked for clashing contributions)."""
    chosen = [mechanic(n) for n in ORDER if n in ALWAYS_ON or n in names]
    check_unique(chosen)
    return chosen


def _all() -> tuple[tuple[ModuleType, ...], dict[str, Mechanic]]:
    modules = tuple(module_of(n) for n in ORDER)
    registry = {m.MECHANIC.name: m.MECHANIC for m in modules}
    check_unique(registry.values())
    return modules, registry


def __getattr__(attr: str) -> Any:
    """``MODULES`` and ``REGISTRY`` (name -> declaration, in hook order): every mechanic, imported on first use."""
    if attr in ("MODULES", "REGISTRY"):
        modules, registry = _all()
        globals().update(MODULES=modules, REGISTRY=registry)
        return globals()[attr]
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


def switchable() -> dict[str, Mechanic]:
    """The mechanics a title may switch on (all but the always-on core)."""
    return {n: mechanic(n) for n in ORDER if n not in ALWAYS_ON}
