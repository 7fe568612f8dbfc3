"""``short_handed``: a title's share rules for small player counts (e.g. a two-player variant).

At the player counts listed in ``players``, when the game is set up, every corporation's president's certificate
becomes ``president_percent`` and its last ``shares_out_of_play`` certificates go to the bank, out of the game (the
certificates left add up to 100%); a corporation whose president's certificate comes with a private
company (a ``shares`` ability) keeps its certificates when ``except_private_certificate``.  With
``unsold_to_market_at_float`` the certificates still in a corporation's initial offering go to the open market
when it floats (players then buy them at the market price).  With ``market_share_leaves_on_purchase``, a player
who is not a corporation's president and buys one of its certificates while the market holds one takes the
market's last certificate out of the game first (if that was the one he asked for, that is all his purchase does).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from railbook.params.short_handed import DECLARATION, Params

from .. import shares
from ..access import params_of
from ..contract import Mechanic
from ..state import BANK, POOL, ckey

if TYPE_CHECKING:
    from ..context import Context


PARAMS = params_of(DECLARATION, Params)


def _applies(g: Context) -> bool:
    return len(g.state.players) in PARAMS.of(g).players


def _private_presidencies(g: Context) -> set[str]:
    out = set()
    for c in g.state.companies.values():
        for a in c.abilities:
            if a.type == "shares":
                for sid in a.spec.get("shares") or []:
                    s = g.state.shares.get(str(sid))
                    if s is not None and s.president:
                        out.add(s.corp)
    return out


def setup(g: Context) -> None:
    if not _applies(g):
        return
    p = PARAMS.of(g)
    skip = _private_presidencies(g) if p.except_private_certificate else set()
    for corp in g.state.corporations:
        if corp in skip:
            continue
        ids = list(shares.shares_of(g, ckey(corp), corp))
        if p.president_percent is not None:
            for sid in ids:
                if g.state.shares[sid].president:
                    g.state.shares[sid].percent = p.president_percent
        ordinary = [sid for sid in ids if not g.state.shares[sid].president]
        for sid in ordinary[len(ordinary) - p.shares_out_of_play :] if p.shares_out_of_play else []:
            shares.remove_share(g, sid)  # (the bank keeps it: out of play, the rest adds up to 100%)


def corporation_floated(g: Context, corp: str) -> None:
    if not _applies(g) or not PARAMS.of(g).unsold_to_market_at_float:
        return
    for sid in list(shares.shares_of(g, ckey(corp), corp)):
        shares.move_share(g, sid, POOL)
    g.log(f"{corp}'s remaining shares go to the market")


def stock_purchase(g: Context, player: str, corp: str, bought: list[str], price: int) -> bool:
    """``market_share_leaves_on_purchase``: the market's last certificate of ``corp`` leaves the game when a player
    other than its president buys one; true when it was the one asked for (the purchase is then void)."""
    if not _applies(g) or not PARAMS.of(g).market_share_leaves_on_purchase:
        return False
    if g.state.corporations[corp].owner == player:
        return False
    market = shares.shares_of(g, POOL, corp)
    if not market:
        return False
    last = market[-1]
    shares.move_share(g, last, BANK)  # out of play: the bank keeps it, never for sale
    g.state.shares[last].buyable = False
    g.log(f"{g.name(player)} takes a {corp} share out of the game")
    return bool(bought) and bought[0] == last


MECHANIC = Mechanic.of(
    DECLARATION,
    hooks={"setup": setup, "corporation_floated": corporation_floated, "stock_purchase": stock_purchase},
)
