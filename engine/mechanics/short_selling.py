"""``short_selling``: players sell shares they do not own and owe the dividends on them.

A short sale creates two certificates of the company: an ordinary share sold to the open market (the bank pays
the player the current price) and a short (negative percent) the player keeps.  A holder of a share and a short
of one company returns the pair at once; the bank closes the market's shorts from the treasury at the start of
each stock round; short holders pay the per-share dividend; a short lowers its holder's value by the price.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from railbook.params.short_selling import DECLARATION, SHORT_STEP, Params

from .. import market, shares
from .. import memo as _memo
from ..access import params_of
from ..contract import Mechanic
from ..errors import illegal
from ..interfaces import LOANS
from ..state import BANK, POOL, Corporation, Share, ckey, kind_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


PARAMS = params_of(DECLARATION, Params)


def _shorts(g: Context, corp: str, holder: str | None = None) -> list[str]:
    """Short certificates (negative percent) of ``corp``, of one holder or of everyone."""
    st = g.state.shares
    share: Share
    out = []
    if holder is not None:
        for sid in shares.shares_of(g, holder, corp):
            share = st[sid]
            if share.percent < 0:
                out.append(sid)
        return out
    for sid in shares.shorts(g):
        share = st[sid]
        if share.corp == corp:
            out.append(sid)
    return out


def _short_counts(g: Context) -> dict[str, int]:
    """Company -> how many of its shorts are out."""
    st = g.state.shares
    share: Share
    counts: dict[str, int] = {}
    for sid in shares.shorts(g):
        share = st[sid]
        counts[share.corp] = counts.get(share.corp, 0) + 1
    return counts


@cython.locals(c="Corporation")
def can_short(g: Context, player: str, corp: str, counts: dict[str, int] | None = None) -> bool:
    """The rules allow ``player`` to sell ``corp`` short now (turn limits aside); ``counts``: the shorts out of
    each company (:func:`_short_counts`), when the caller asks about several."""
    p = PARAMS.of(g)
    c: Corporation = g.state.corporations[corp]
    if not c.ipoed or c.closed or c.removed or c.price is None:
        return False
    cap = p.max_shorts_by_size.get(100 // shares.share_percent(g, corp))
    if cap is None or (counts.get(corp, 0) if counts is not None else len(_shorts(g, corp))) >= cap:
        return False
    if p.not_in_ipo_round and not c.operated:
        return False  # (18xx.games: the company has operated since its launch)
    if p.not_while_holding_shares and any(g.state.shares[s].percent > 0 for s in shares.shares_of(g, player, corp)):
        return False
    if set(p.forbidden_zones) & set(market.kinds_at(g, c.price)):
        return False
    if g.phase_name() in p.forbidden_phases:
        return False
    return p.max_per_player is None or len(_shorts(g, corp, player)) < p.max_per_player


@cython.locals(g="Context")
def _turn_open(g: Context, player: str) -> bool:
    """``player`` is in his own stock turn and has not yet bought, launched, acted for a company or shorted
    his allowance."""
    data = g.state.round.data
    acts = data.get("current_actions") or []
    if data.get("ipo") or any(a in ("buy_shares", "par", "buy_company", "company_action") for a in acts):
        return False
    return sum(1 for a in acts if a == "short") < PARAMS.of(g).per_turn


def shortable(g: Context, player: str) -> list[str]:
    corps = g.state.corporations
    counts = _short_counts(g)
    return [c for c in g.state.corp_order if corps[c].ipoed and can_short(g, player, c, counts)]


def any_shortable(g: Context, player: str) -> bool:
    """``bool(shortable(g, player))``, stopping at the first company."""
    corps = g.state.corporations
    counts = _short_counts(g)
    return any(corps[c].ipoed and can_short(g, player, c, counts) for c in g.state.corp_order)


class ShortStep(Step):
    """A short sale in a player's stock turn (after his sales, before his purchase)."""

    name = SHORT_STEP
    description = "Sell Short"
    offers = frozenset({"short"})

    def blocks(self) -> bool:
        return False

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        g = self.g
        if kind_of(entity) != "P" or entity != self.current_entity() or not _turn_open(g, entity):
            return []
        return ["short"] if any_shortable(g, entity) else []

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        if not self.actions(entity):
            return []
        return [{"type": "short", "choices": [{"corporation": c} for c in shortable(self.g, entity)]}]

    @cython.locals(self="StepBase")
    def process_short(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        corp = str(action.get("corporation"))
        if corp not in g.state.corporations or not _turn_open(g, entity) or not can_short(g, entity, corp):
            raise illegal("short_selling.short", f"{g.name(entity)} cannot short {corp} now")
        p = PARAMS.of(g)
        unit = shares.share_percent(g, corp)
        price = shares.price_per_share(g, corp)
        sold = shares.new_share(g, corp, POOL, unit)
        shares.new_share(g, corp, entity, -unit)
        # the short is filed before the share sold with it (the certificates' order of creation, which a merger
        # follows: as 18xx.games files them)
        g.state.shares[sold] = g.state.shares.pop(sold)
        g.spend(BANK, entity, price)
        if p.moves_price:
            market.move(g, corp, "left" if g.book.market_1d else "down", 1)
        if p.counts_as_sale:
            self.rdata.setdefault("players_sold", {}).setdefault(entity, {})[corp] = "now"
        self.rdata["last_to_act"] = entity
        self.rdata.setdefault("current_actions", []).append("short")
        g.log(f"{g.name(entity)} shorts a {unit}% share of {corp} for {price}")


def stock_turn_options(g: Context, player: str) -> bool:
    return _turn_open(g, player) and any_shortable(g, player)


def cert_exempt(g: Context, player: str, corp: str) -> bool:
    """A player holding a short may buy a share to close it even at the certificate limit (shorts never count)."""
    if not PARAMS.of(g).buy_to_close_ignores_cert_limit and PARAMS.of(g).counts_for_cert_limit:
        return False
    return bool(_shorts(g, corp, player))


def action_processed(g: Context, action: dict[str, Any], entity: str) -> None:
    """Pairs of a share and a short held together go back to the open short interest.  Only a change of holdings
    (:func:`shares.holdings_changed`) can make a pair, so the holdings are looked at again only after one."""
    p = PARAMS.of(g)
    st = g.state.shares
    version = g.cache.get("holdings_version", 0)
    if g.cache.get("short_pairs_checked") == version:
        if g.audit:
            _memo.audit("short_selling: a share and a short held together", False, _pair_held(g, p, st))
        return
    g.cache["short_pairs_checked"] = version
    if _pair_held(g, p, st):
        _close_pairs(g, p, st)


def _pair_held(g: Context, p: Params, st: dict[str, Share]) -> bool:
    """Someone who may close a pair holds an ordinary share and a short of one company (mostly nobody does)."""
    holdings = g.state.holdings
    short: Share
    looked: set[tuple[str, str]] = set()  # (holder, company) pairs looked at (a holder may have several shorts of one)
    for sid in shares.shorts(g):
        short = st[sid]
        holder = short.owner
        pair = (holder, short.corp)
        if pair in looked:
            continue
        looked.add(pair)
        if not _may_close(p, holder):
            continue
        held_by = holdings.get(holder)
        if held_by is not None and _holds_plain(g, st, held_by.get(short.corp) or [], short.corp):
            return True
    return False


def _close_pairs(g: Context, p: Params, st: dict[str, Share]) -> None:
    """Close the pairs of a share and a short, holder by holder in order."""
    short: Share
    held = set()
    for sid in shares.shorts(g):
        short = st[sid]
        held.add((short.owner, short.corp))
    for holder, corp in sorted(held):
        if not _may_close(p, holder):
            continue
        if not _holds_plain(g, st, shares.shares_of(g, holder, corp), corp):
            continue  # nothing to pair the short with (the usual case)
        n = shares.close_short_pairs(g, holder, corp)
        if n:
            g.log(f"{g.name(holder)} closes {n} short{'s' if n > 1 else ''} of {corp}")


def _may_close(p: Params, holder: str) -> bool:
    """Pairs of ``holder``'s close: the market's (``market_pairs_close``) or a player's (``pair_closes_at_once``)."""
    return p.market_pairs_close if holder == POOL else p.pair_closes_at_once


def _holds_plain(g: Context, st: dict[str, Share], ids: list[str], corp: str) -> bool:
    """``ids`` hold an ordinary one-share certificate of ``corp``: what a short pairs with (see
    :func:`shares.close_short_pairs`; a president's certificate does not)."""
    share: Share
    unit = 0
    for sid in ids:
        share = st[sid]
        if share.percent > 0 and not share.president:
            if not unit:
                unit = shares.share_percent(g, corp)
            if share.percent == unit:
                return True
    return False


def round_started(g: Context, kind: str) -> None:
    """At the start of a stock round the bank closes the market's shorts with shares bought from the treasury
    at the current price."""
    if kind != "stock" or not PARAMS.of(g).bank_closes_market_shorts_at_stock_round_start:
        return
    forbidden = set(PARAMS.of(g).forbidden_zones)
    for corp in g.state.corp_order:
        c = g.state.corporations[corp]
        if c.closed or c.price is None or forbidden & set(market.kinds_at(g, c.price)):
            continue
        st = g.state.shares
        n = 0
        while _shorts(g, corp, POOL):
            treasury = [s for s in shares.shares_of(g, ckey(corp), corp) if st[s].percent > 0 and not st[s].president]
            if not treasury:
                break
            g.spend(BANK, ckey(corp), shares.price_per_share(g, corp))
            shares.move_share(g, treasury[0], POOL)
            n += shares.close_short_pairs(g, POOL, corp)
        if n:
            g.log(f"The market closes {n} short{'s' if n > 1 else ''} of {corp}")


def dividend_paid(g: Context, corp: str, per_share: int) -> None:
    """Each short holder pays the bank the dividend of one share per short he holds."""
    if not PARAMS.of(g).pays_dividends or per_share <= 0:
        return
    owing: dict[str, int] = {}
    for s in g.state.shares.values():
        if s.corp == corp and s.percent < 0 and kind_of(s.owner) == "P":
            owing[s.owner] = owing.get(s.owner, 0) + per_share
    for player, amount in owing.items():
        pay = min(amount, max(g.cash(player), 0))
        if pay > 0:
            g.spend(player, BANK, pay)
        g.log(f"{g.name(player)} pays {amount} for his shorts of {corp}")
        loans = LOANS.get(g)
        if amount > pay and loans is not None:
            loans.owes(g, player, amount - pay, corp)


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={SHORT_STEP: ShortStep},
    hooks={
        "stock_turn_options": stock_turn_options,
        "cert_exempt": cert_exempt,
        "action_processed": action_processed,
        "round_started": round_started,
        "dividend_paid": dividend_paid,
    },
)
