"""The one registry of mechanics, shared by the compiler (parameter models) and the engine (rule modules).

Every mechanic module of :mod:`railbook.engine.mechanics` declares a ``MECHANIC``
(:class:`railbook.engine.contract.Mechanic`); this module collects them in a fixed order, which is the order
their hook handlers run in.
"""

from __future__ import annotations

from .contract import Mechanic, check_unique
from .mechanics import (
    bankruptcy,
    bid_box_auction,
    capitalization,
    certificate_limit,
    company_sizes,
    company_stock_actions,
    core,
    destinations,
    dividends,
    draft,
    edge_tokens,
    escrow,
    final_value,
    game_end,
    independents,
    issue_redeem,
    loans,
    mergers,
    mines,
    national_railway,
    nomination_auction,
    operating_order,
    price_protection,
    private_companies,
    private_payouts,
    random_removal,
    receivership,
    reissue,
    river_companies,
    routes,
    short_selling,
    stock_round,
    tokens,
    track,
    trains,
)

MODULES = (
    core,
    random_removal,
    draft,
    bid_box_auction,
    nomination_auction,
    independents,
    stock_round,
    company_stock_actions,
    price_protection,
    short_selling,
    capitalization,
    escrow,
    company_sizes,
    private_companies,
    private_payouts,
    issue_redeem,
    reissue,
    loans,
    track,
    tokens,
    destinations,
    edge_tokens,
    mines,
    river_companies,
    routes,
    dividends,
    trains,
    receivership,
    mergers,
    national_railway,
    bankruptcy,
    operating_order,
    certificate_limit,
    game_end,
    final_value,
)

#: name -> declaration, in hook order.  ``core`` is always on; the rest are switched on by the rulebook.
REGISTRY: dict[str, Mechanic] = {m.MECHANIC.name: m.MECHANIC for m in MODULES}
ALWAYS_ON = ("core",)
check_unique(REGISTRY.values())


def switchable() -> dict[str, Mechanic]:
    """The mechanics a title may switch on (all but the always-on core)."""
    return {name: m for name, m in REGISTRY.items() if name not in ALWAYS_ON}
