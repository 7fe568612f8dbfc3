"""``random_removal``: seeded random removal of privates and corporations by group at setup.

Parameters: ``groups: {name: {kind: privates|corporations, members: [...], remove: {players: n}}}``,
``order`` (list of group names, optionally with ``draft_deck`` where the draft deck is shuffled),
``rng`` (``{a, c, m}`` of the linear congruential generator; defaults are the 18xx.games values).
Each group draws one random number per member (in member order) and removes the members with the
smallest draws.  A removed corporation leaves a token on its home city; its reservations go.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import board
from ..rng import DEFAULT, Lcg
from ..state import ckey

if TYPE_CHECKING:
    from ..game import Game


def rng(g: Game) -> Lcg:
    params = (g.book.mech("random_removal") or {}).get("rng") or {}
    return Lcg(
        g.state.seed,
        a=int(params.get("a", DEFAULT["a"])),
        c=int(params.get("c", DEFAULT["c"])),
        m=int(params.get("m", DEFAULT["m"])),
    )


def shuffle(g: Game, items: list[Any]) -> list[Any]:
    """Shuffle with the game's generator, advancing its state."""
    r = rng(g) if g.book.mech("random_removal") is not None else Lcg(g.state.seed)
    out = r.shuffle(items)
    g.state.seed = r.seed
    return out


def setup(g: Game) -> None:
    from . import draft

    params = g.book.mech("random_removal") or {}
    groups: dict[str, dict[str, Any]] = params.get("groups") or {}
    order = params.get("order") or ["draft_deck", *groups]
    n = str(len(g.state.players))
    for name in order:
        if name == "draft_deck":
            if g.book.mech("draft") is not None:
                draft.prepare_deck(g)
            continue
        group = groups.get(name)
        if not group:
            continue
        members = list(group.get("members") or [])
        count = int((group.get("remove") or {}).get(n, (group.get("remove") or {}).get(int(n), 0)))
        drawn = shuffle(g, members)
        removed = drawn[:count]
        if not removed:
            continue
        g.log(f"Removing {', '.join(removed)}")
        if group.get("kind", "privates") == "corporations":
            for sym in removed:
                remove_corporation(g, sym)
        else:
            for sym in removed:
                remove_private(g, sym)


def remove_private(g: Game, sym: str) -> None:
    from . import core, draft

    if sym not in g.state.companies:
        return
    core.close_company(g, sym)
    g.state.companies[sym].removed = True
    draft.drop_from_deck(g, sym)


def remove_corporation(g: Game, sym: str) -> None:
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
