"""``random_removal``: seeded random removal of privates and corporations by group at setup.

Each group draws one random number per member (in member order) with the game's generator and removes the
members with the smallest draws.  A removed corporation leaves a token on its home city; its reservations go.
``order`` may name parts of other mechanics' seeded setup (``draft_deck``) to fix when they draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from railbook.params.random_removal import DECLARATION, Params

from .. import board
from ..access import params_of
from ..closing import close_company
from ..contract import Mechanic
from ..rng import shuffle_game
from ..state import ckey

if TYPE_CHECKING:
    from ..context import Context


PARAMS = params_of(DECLARATION, Params)


def setup(g: Context) -> None:
    params = PARAMS.of(g)
    n = len(g.state.players)
    for name in params.order or list(params.groups):
        group = params.groups.get(name)
        if group is None:
            g.hooks("seeded_setup", name)
            continue
        count = group.remove.get(n, 0)
        removed = shuffle_game(g.state, list(group.members))[:count]
        if not removed:
            continue
        g.log(f"Removing {', '.join(removed)}")
        for sym in removed:
            if group.kind == "corporations":
                remove_corporation(g, sym)
            else:
                remove_private(g, sym)


def remove_private(g: Context, sym: str) -> None:
    if sym not in g.state.companies:
        return
    close_company(g, sym)
    g.state.companies[sym].removed = True
    g.hooks("company_removed", sym)


def remove_corporation(g: Context, sym: str) -> None:
    corp = g.state.corporations.get(sym)
    if corp is None:
        return
    corp.removed = True
    spec = g.book.corporations[sym]
    home = spec.get("home")
    homes = home if isinstance(home, list) else [home] if home else []
    key = ckey(sym)
    for h in homes:
        hs = g.state.hexes[h["hex"]]
        ci = int(h.get("city", 0))
        slot = board.free_slot(g, h["hex"], ci, key)
        if slot is not None:
            hs.tokens[ci][slot] = key
            if corp.tokens:
                corp.tokens[0].used = True
                corp.tokens[0].hex, corp.tokens[0].city = h["hex"], ci
        for res in hs.reservations:
            for i, r in enumerate(res):
                if r == key:
                    res[i] = None
    for a in list(corp.abilities):
        if a.type == "reservation":
            corp.abilities.remove(a)
            board.unreserve(g, key, a.spec.get("hexes") or None)
    board.invalidate(g)


MECHANIC = Mechanic.of(
    DECLARATION,
    hooks={"setup": setup},
)
