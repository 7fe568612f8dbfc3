"""The mechanics' declarations: per mechanic, its parameter model, phase events and the names of the steps and round
types it contributes (:class:`~railbook.params.base.Declaration`), one module per mechanic.

The compiler reads these alone (validating a title loads no engine module); the engine's rule module of each
mechanic (``railbook.engine.mechanics.<name>``) imports its declaration from here and supplies the code.
:data:`ORDER` is every mechanic's name in hook order.
"""

from __future__ import annotations

from importlib import import_module

from .base import Declaration

#: Every mechanic's name (the name of its module here and in ``railbook.engine.mechanics``), in hook order.
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
#: The mechanics every title has.
ALWAYS_ON: tuple[str, ...] = ("core",)


def declaration(name: str) -> Declaration:
    """The declaration of mechanic ``name``; KeyError for a name not in :data:`ORDER`."""
    if name not in ORDER:
        raise KeyError(name)
    declared: Declaration = import_module(f"{__name__}.{name}").DECLARATION
    if declared.name != name:  # pragma: no cover - a module declaring another name is a coding error
        raise TypeError(f"params.{name} declares mechanic {declared.name!r}")
    return declared


def declarations() -> dict[str, Declaration]:
    """Every mechanic's declaration, in hook order."""
    return {name: declaration(name) for name in ORDER}


def switchable() -> dict[str, Declaration]:
    """The declarations of the mechanics a title may switch on (all but the always-on ones)."""
    return {name: declaration(name) for name in ORDER if name not in ALWAYS_ON}
