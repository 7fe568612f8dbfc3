"""``mergers``: a merger and acquisition round: conversions, mergers, liquidations, acquisitions, friendly sales.

Two round types.  ``merger``: in operating order (prices at the round's start) each company converts to its
next size, merges with a company of its size, or passes (step ``convert_merge``).  After a change the players,
from the president on, buy treasury shares (the president any number, the others one) or sell (step
``post_conversion``), then the company may take loans (``post_conversion_loans``) and buys the station markers
the conversion calls for (or goes to liquidation).  A survivor left with more placed station markers than
``max_markers_after_merge``, or two on one tile, has its president remove markers first (step ``reduce_tokens``,
action ``remove_token`` naming a city and slot, as on 18xx.games).  ``acquisition``: every floated company, in
reverse operating order, is liquidated (in the liquidation zone: the bank holds a $0 bid, cash and loans set
aside), auctioned (in the acquisition zone) or offered by its president (friendly sale); players bid for a
company they preside; the winner's company takes the assets and pays the bid, keeps or repays the loans, and
the money goes to the shareholders, share by share (step ``acquire``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from railbook.params.loans import CASH_CRISIS_STEP
from railbook.params.mergers import (
    ACQUIRE_STEP,
    CONVERT_MERGE_STEP,
    DECLARATION,
    POST_CONVERSION_LOANS_STEP,
    POST_CONVERSION_STEP,
    REDUCE_TOKENS_STEP,
    Merge,
    Params,
    Sale,
)

from .. import board, depot, market, rounds, shares, stations
from ..access import params_of, state_of
from ..closing import close_company, close_operator
from ..contract import First, Mechanic
from ..errors import illegal
from ..interfaces import CONVERSIONS, LIQUIDATION, LOANS
from ..state import BANK, Share, Token, ckey, kind_of, sym_of
from ..steps.base import Step, step_active, step_blocking

if TYPE_CHECKING:
    from ..context import Context
    from ..state import Corporation

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


@dataclass(slots=True)
class State:
    """Share prices at the merger round's start (the acquisition round skips companies that entered a zone since),
    the president of each company when it went to liquidation, and the survivor removing station markers."""

    prices_at_start: dict[str, list[int]] = field(default_factory=dict)
    owner_when_liquidated: dict[str, str] = field(default_factory=dict)
    reducing: str | None = None  # the survivor of a merger whose president is removing station markers (§7.3)


PARAMS = params_of(DECLARATION, Params)
STATE = state_of(DECLARATION, State)


# ------------------------------------------------------------------------------------------ helpers


def size_of(g: Context, corp: str) -> int:
    return 100 // shares.share_percent(g, corp)


def zone(g: Context, pos: list[int] | None) -> str | None:
    """``liquidation``, ``acquisition`` or None for a market cell."""
    kinds = market.kinds_at(g, pos)
    for z in ("liquidation", "acquisition"):
        if z in kinds:
            return z
    return None


def inactive(g: Context, corp: str) -> bool:
    kinds = market.kinds_at(g, g.state.corporations[corp].price)
    for k in PARAMS.of(g).inactive_zones:
        if k in kinds:
            return True
    return False


@cython.locals(g="Context")
def price(g: Context, corp: str) -> int:
    return market.price_at(g, g.state.corporations[corp].price)


def live_corps(g: Context) -> list[str]:
    corps = g.state.corporations
    out = []
    for sym in g.state.corp_order:
        if _live(corps[sym]):
            out.append(sym)
    return out


def _live(c: Corporation) -> bool:
    """A company of :func:`live_corps`: floated, open and priced."""
    return c.floated and not c.closed and bool(c.price)


def cell_at_most(g: Context, value: int) -> list[int]:
    """The market cell of the highest price not above ``value`` (outside the zones); a fact of the market alone,
    kept with the rulebook's derived tables."""
    key = ("mergers.cell_at_most", value)
    found = g.book.derived.get(key, _UNSET)
    if found is _UNSET:
        best: tuple[int, int, int] | None = None
        for r, row in enumerate(g.book.market_grid):
            for col, cell in enumerate(row):
                if not cell or zone(g, [r, col]) or not cell.get("price"):
                    continue
                if cell["price"] <= value and (best is None or cell["price"] > best[0]):
                    best = (cell["price"], r, col)
        found = g.book.derived[key] = None if best is None else (best[1], best[2])
    if found is None:
        raise illegal("mergers.price", f"no market value at or below {value}")
    return [found[0], found[1]]


_UNSET = object()


def move_to(g: Context, corp: str, pos: list[int]) -> None:
    """Put ``corp``'s marker on ``pos``, after the others there."""
    market.remove(g, corp)
    market.place(g, corp, pos)


def liquidate(g: Context, corp: str) -> None:
    """The company goes to the liquidation zone."""
    col = (g.book.market.get("movement") or {}).get("liquidation_col")
    if col is None:
        return
    c = g.state.corporations[corp]
    if c.owner and kind_of(c.owner) == "P":
        STATE.of(g).owner_when_liquidated[corp] = c.owner
    if zone(g, c.price) == "liquidation":
        return  # already there: it keeps its place (liquidations go in the order the companies arrived)
    move_to(g, corp, [c.price[0] if c.price else 0, int(col)])
    g.log(f"{corp} goes to liquidation")


def loans(g: Context, corp: str) -> int:
    return LOANS.of(g).outstanding(g, corp)


def cancel_short_pairs(g: Context, corp: str) -> None:
    """A holder with a share and a short of ``corp`` returns the pair."""
    for holder in list(g.state.holdings):
        shares.close_short_pairs(g, holder, corp)


def set_president(g: Context, corp: str) -> None:
    """The largest holder presides (the president keeps a tie; else the nearest to his left)."""
    c = g.state.corporations[corp]
    holders = shares.player_holders(g, corp)
    if not holders:
        return
    top = max(holders.values())
    previous = c.owner
    if previous in holders and holders[previous] == top:
        return
    pres_pct = shares.presidents_percent(g, corp)
    candidates = [h for h, pct in holders.items() if pct == top and pct >= pres_pct]
    if not candidates:
        return
    new = min(candidates, key=lambda h: shares._distance(g, previous, h))
    pres = f"{corp}_0"
    n = g.state.shares[pres].percent // shares.share_percent(g, corp)
    given = [s for s in shares.shares_of(g, new, corp) if g.state.shares[s].percent > 0][:n]
    old = g.state.shares[pres].owner
    for sid in given:
        shares.move_share(g, sid, old)
    shares.move_share(g, pres, new)
    c.owner = new
    g.log(f"{g.name(new)} becomes the president of {corp}")


def move_assets(g: Context, target: str, to: str) -> list[str]:
    """Cash, privates, loans and trains of ``target`` pass to ``to``; returns what it received, for the log."""
    tk, ck = ckey(target), ckey(to)
    got = []
    cash = g.cash(tk)
    if cash > 0:
        g.spend(tk, ck, cash)
        got.append(str(cash))
    t, c = g.state.corporations[target], g.state.corporations[to]
    for sym in list(t.companies):
        t.companies.remove(sym)
        c.companies.append(sym)
        g.state.companies[sym].owner = ck
        got.append(sym)
    LOANS.of(g).transfer(g, target, to)
    for tid in list(t.trains):
        depot.give_train(g, ck, tid, None, free=True)
        got.append(tid)
    return got


@cython.locals(g="Context")
def move_tokens(g: Context, target: str, to: str) -> None:
    """``target``'s station markers become ``to``'s; where both have one in a city, ``target``'s goes to the
    charter.  When ``to`` would then have more placed markers than the cap, or two markers on one tile, its
    president first removes markers (step ``reduce_tokens``); otherwise markers beyond the cap leave the
    charter (unplaced ones first)."""
    tk, ck = ckey(target), ckey(to)
    t, c = g.state.corporations[target], g.state.corporations[to]
    changed: set[str] = set()
    for hex_id, hs in g.state.hexes.items():
        for ci, slots in enumerate(hs.tokens):
            if tk not in slots:
                continue
            changed.add(hex_id)
            i = slots.index(tk)
            if ck in slots:
                slots[i] = None
                c.tokens.append(Token(price=0))
            else:
                slots[i] = ck
                c.tokens.append(Token(price=0, used=True, hex=hex_id, city=ci))
    placed = sum(1 for tok in t.tokens if tok.used)
    c.tokens.extend(Token(price=0) for _ in range(len(t.tokens) - placed))
    t.tokens = []
    board.invalidate(g, changed, ck)  # markers changed in these hexes only, ``to`` gaining some
    if must_reduce(g, to):
        STATE.of(g).reducing = to
        g.epoch += 1
        g.log(f"{to} is above its station marker limit and must choose which markers to remove")
        return
    trim_tokens(g, to)


def shared_tiles(g: Context, corp: str) -> set[str]:
    """Hexes where ``corp`` has more than one placed station marker."""
    seen: set[str] = set()
    out: set[str] = set()
    for tok in g.state.corporations[corp].tokens:
        if tok.used and tok.hex is not None:
            (out if tok.hex in seen else seen).add(tok.hex)
    return out


def must_reduce(g: Context, corp: str) -> bool:
    """Two markers on one tile, or more placed markers than ``max_markers_after_merge`` (§7.3)."""
    cap = PARAMS.of(g).max_markers_after_merge
    if shared_tiles(g, corp):
        return True
    return cap is not None and sum(1 for tok in g.state.corporations[corp].tokens if tok.used) > cap


def trim_tokens(g: Context, corp: str) -> None:
    """Markers beyond the cap leave the charter, unplaced ones first."""
    cap = PARAMS.of(g).max_markers_after_merge
    c = g.state.corporations[corp]
    if cap is not None and len(c.tokens) > cap:
        used = [tok for tok in c.tokens if tok.used]
        c.tokens = used + [tok for tok in c.tokens if not tok.used][: max(0, cap - len(used))]


def removable_tokens(g: Context, corp: str) -> list[tuple[str, int, int]]:
    """(hex, city, slot) of the markers the president may remove now: those on a tile holding two of them
    first, then any placed marker."""
    key = ckey(corp)
    shared = shared_tiles(g, corp)
    out = []
    for tok in g.state.corporations[corp].tokens:
        if not tok.used or tok.hex is None or (shared and tok.hex not in shared):
            continue
        ci = int(tok.city or 0)
        slots = g.state.hexes[tok.hex].tokens[ci]
        if key in slots:
            out.append((tok.hex, ci, slots.index(key)))
    return out


class ReduceTokens(Step):
    """After a merger or acquisition leaving the survivor above its marker limit (or with two markers on one
    tile), its president removes markers one at a time (§7.3); the removed ones go to its charter."""

    name = REDUCE_TOKENS_STEP
    description = "Choose Station Markers to Remove after a Merger"

    @cython.locals(self="StepBase")
    def active(self) -> bool:
        return bool(STATE.of(self.g).reducing)

    def skip(self) -> None:
        """Stays live: a merger or acquisition may call for it at any time in the round."""

    @cython.locals(self="StepBase")
    def active_entities(self) -> list[str]:
        corp = STATE.of(self.g).reducing
        return [ckey(corp)] if corp else []

    def actions(self, entity: str) -> list[str]:
        return ["remove_token"] if entity == self.current_entity() else []

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        if not self.actions(entity):
            return []
        g, corp = self.g, str(STATE.of(self.g).reducing)
        choices = [{"city": stations.city_id(g, h, ci), "slot": slot} for h, ci, slot in removable_tokens(g, corp)]
        return [{"type": "remove_token", "choices": choices}]

    @cython.locals(self="StepBase")
    def process_remove_token(self, action: dict[str, Any], entity: str) -> None:
        g, corp = self.g, str(STATE.of(self.g).reducing)
        hex_id, ci = stations.parse_city(g, action.get("city"))
        allowed = {(h, c) for h, c, _ in removable_tokens(g, corp)}
        if (hex_id, ci) not in allowed:
            rule = "one of its two markers on a tile" if shared_tiles(g, corp) else "one of its placed markers"
            raise illegal(
                "mergers.markers",
                f"{corp} must remove {rule} (§7.3 acquired station markers), not a marker in {hex_id} city {ci}",
            )
        slots = g.state.hexes[hex_id].tokens[ci]
        slots[slots.index(ckey(corp))] = None
        for tok in g.state.corporations[corp].tokens:
            if tok.used and tok.hex == hex_id and int(tok.city or 0) == ci:
                tok.used, tok.hex, tok.city = False, None, None
                break
        board.invalidate(g)
        g.epoch += 1
        g.log(f"{corp} removes its station marker from {hex_id}")
        if not must_reduce(g, corp):
            STATE.of(g).reducing = None
            trim_tokens(g, corp)


def reset(g: Context, corp: str) -> None:
    """The company leaves play and may be started again: trains leave the game, privates close, markers come off
    the map, its certificates return to the charter."""
    key = ckey(corp)
    c = g.state.corporations[corp]
    for tid in list(c.trains):
        depot.rust(g, tid)
    for sym in list(c.companies):
        close_company(g, sym)
    LOANS.of(g).transfer(g, corp, None)
    close_operator(g, key)
    spec = g.book.corporations[corp]
    for sid in [s for s, sh in g.state.shares.items() if sh.corp == corp]:
        del g.state.shares[sid]
    for holdings in g.state.holdings.values():
        holdings.pop(corp, None)
    ids = []
    for i, pct in enumerate(spec.get("shares") or [100]):
        sid = f"{corp}_{i}"
        g.state.shares[sid] = Share(sid, corp, i, int(pct), i == 0, key)
        ids.append(sid)
    g.state.holdings.setdefault(key, {})[corp] = ids
    shares.holdings_changed(g)
    c.tokens = [Token(price=int(p)) for p in spec.get("tokens") or []]
    c.closed = False
    c.par = None
    c.price = None
    c.operated = 0
    STATE.of(g).owner_when_liquidated.pop(corp, None)
    g.epoch += 1
    g.hooks("update_cert_limit")


# ------------------------------------------------------------------------------------- merger round


def merge_spec(g: Context, corp: str) -> Merge | None:
    size = size_of(g, corp)
    return next((m for m in PARAMS.of(g).merges if m.size == size), None)


def merged_price(g: Context, corp: str, target: str, spec: Merge) -> list[int]:
    a, b = price(g, corp), price(g, target)
    return cell_at_most(g, a + b if spec.price == "sum" else (a + b) // 2)


def mergeable(g: Context, corp: str) -> list[str]:
    """Companies ``corp`` may merge with now."""
    spec = merge_spec(g, corp)
    c = g.state.corporations[corp]
    if spec is None or not c.floated or inactive(g, corp):
        return []
    done = g.state.round.data.get("changes", {})
    out = []
    for t in live_corps(g):
        if t == corp or done.get(t, 0) or inactive(g, t) or size_of(g, t) != spec.size:
            continue
        if spec.president == "most_shares_tie_initiator":
            both: dict[str, int] = {}
            for src in (corp, t):
                for h, pct in shares.player_holders(g, src).items():
                    both[h] = both.get(h, 0) + pct // shares.share_percent(g, src)
            if max(both.values(), default=0) * spec.old_shares_per_new < 2 * spec.old_shares_per_new:
                continue
        if spec.president == "initiator_buys_a_share":
            owner, t_owner = c.owner, g.state.corporations[t].owner
            if owner != t_owner and owner and g.cash(owner) < market.price_at(g, merged_price(g, corp, t, spec)):
                continue
        out.append(t)
    return out


def merge(g: Context, corp: str, target: str) -> None:
    spec = merge_spec(g, corp)
    assert spec is not None
    c, t = g.state.corporations[corp], g.state.corporations[target]
    pos = merged_price(g, corp, target, spec)
    move_tokens(g, target, corp)
    got = move_assets(g, target, corp)
    move_to(g, corp, pos)
    g.log(f"{corp} merges with {target} at {market.price_at(g, pos)} receiving {', '.join(got) or 'nothing'}")
    owner, t_owner = c.owner, t.owner
    if spec.president == "initiator_buys_a_share":
        CONVERSIONS.of(g).convert(g, corp)
        if owner != t_owner and owner and t_owner:
            value = market.price_at(g, pos)
            g.spend(owner, ckey(corp), value)
            sid = next(s for s in shares.shares_of(g, ckey(corp), corp) if g.state.shares[s].percent > 0)
            shares.move_share(g, sid, t_owner)
            g.log(f"{g.name(owner)} pays {value} for the president's certificate; {g.name(t_owner)} gets a share")
    else:
        migrate_shares(g, corp, target, spec)
    reset(g, target)


def migrate_shares(g: Context, corp: str, target: str, spec: Merge) -> None:
    """Each ``old_shares_per_new`` shares (or shorts) of ``target`` become one of ``corp``'s after it converts."""
    ck, tk = ckey(corp), ckey(target)
    before = set(shares.shares_of(g, ck, corp))
    CONVERSIONS.of(g).convert(g, corp)
    unit_t = shares.share_percent(g, target)
    unit = shares.share_percent(g, corp)
    # only the certificates the conversion created serve the old company's holders (then new ones)
    fresh = [s for s in shares.shares_of(g, ck, corp) if g.state.shares[s].percent > 0 and s not in before]
    # the printed certificates by number, then those created later in the order they were made (a short sale's
    # short before its share: differential run 8 seed 100019, the site's numbers of Bess's short and share in ME)
    own = [s for s in g.state.shares.values() if s.corp == target]
    old = sorted((s for s in own if s.index <= 9), key=lambda s: s.index)  # (shares.new_share numbers past 9)
    old += [s for s in own if s.index > 9]
    fresh = sorted(fresh, key=lambda s: g.state.shares[s].index)
    for sh in old:
        holder = ck if sh.owner == tk else sh.owner
        n = abs(sh.percent) // (unit_t * spec.old_shares_per_new)
        for _ in range(n):
            if sh.percent > 0 and fresh:
                shares.move_share(g, fresh.pop(0), holder)
            else:
                shares.new_share(g, corp, holder, unit if sh.percent > 0 else -unit)
    set_president(g, corp)
    cancel_short_pairs(g, corp)


class ConvertMerge(Step):
    """A company's turn in the merger round: convert, merge or pass."""

    name = CONVERT_MERGE_STEP
    description = "Convert or Merge"

    @cython.locals(self="StepBase")
    def active_entities(self) -> list[str]:
        if self.rdata.get("converted"):
            return []
        return super().active_entities()

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        if kind_of(entity) != "C" or entity != self.current_entity():
            return []
        corp = sym_of(entity)
        g = self.g
        if self.rdata.get("changes", {}).get(corp, 0) >= PARAMS.of(g).changes_per_company_per_round:
            return []
        acts = []
        if CONVERSIONS.of(g).target(g, corp) is not None:
            acts.append("convert")
        if mergeable(g, corp):
            acts.append("merge")
        return [*acts, "pass"] if acts else []

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for a in self.actions(entity):
            if a == "merge":
                out.append(
                    {"type": "merge", "choices": [{"corporation": t} for t in mergeable(self.g, sym_of(entity))]}
                )
            else:
                out.append({"type": a})
        return out

    @cython.locals(self="StepBase")
    def _changed(self, corp: str) -> None:
        changes = self.rdata.setdefault("changes", {})
        changes[corp] = changes.get(corp, 0) + 1
        self.rdata["converted"] = corp
        self.rdata["converted_price"] = list(self.g.state.corporations[corp].price or [])
        self.rdata["pc_passed"] = []

    @cython.locals(self="StepBase")
    def process_convert(self, action: dict[str, Any], entity: str) -> None:
        corp = sym_of(entity)
        res = CONVERSIONS.of(self.g).convert(self.g, corp)
        if res is None:
            raise illegal("mergers.convert", f"{corp} cannot convert")
        self.g.hooks("company_converted", corp)
        self.rdata["markers"] = list(res)
        self._changed(corp)

    @cython.locals(self="StepBase")
    def process_merge(self, action: dict[str, Any], entity: str) -> None:
        corp, target = sym_of(entity), action.get("corporation")
        if target not in mergeable(self.g, corp):
            raise illegal("mergers.merge", f"{corp} cannot merge with {target!r}")
        merge(self.g, corp, str(target))
        r = self.round
        tk = ckey(str(target))
        if tk in r.entities:
            i = r.entities.index(tk)
            r.entities.remove(tk)
            if i < r.entity_index:
                r.entity_index -= 1
        self.rdata["markers"] = [0, 0]
        self._changed(corp)


class PostConversion(Step):
    """After a change, from the president on: buy treasury shares (the president any number, others one) or sell."""

    name = POST_CONVERSION_STEP
    description = "Buy or Sell Shares after a Conversion"

    @cython.locals(self="StepBase")
    def active(self) -> bool:
        return bool(self.rdata.get("converted"))

    @property
    @cython.locals(self="StepBase")
    def corp(self) -> str:
        return str(self.rdata["converted"])

    def treasury_share(self) -> str | None:
        corp = self.corp
        ids = shares.shares_of(self.g, ckey(corp), corp)
        return next(
            (s for s in ids if self.g.state.shares[s].percent > 0 and not self.g.state.shares[s].president), None
        )

    @cython.locals(self="StepBase")
    def can_buy(self, player: str) -> bool:
        g, corp = self.g, self.corp
        sid = self.treasury_share()
        if sid is None or g.cash(player) < price(g, corp):
            return False
        if shares.num_certs(g, player) >= g.state.cert_limit:
            return False
        return shares.holding_ok(g, player, corp, g.state.shares[sid].percent)

    @cython.locals(self="StepBase")
    def can_sell(self, player: str) -> bool:
        g, corp = self.g, self.corp
        if g.state.corporations[corp].owner == player:
            return False
        return any(g.state.shares[s].percent > 0 for s in shares.shares_of(g, player, corp))

    @cython.locals(self="StepBase")
    def active_entities(self) -> list[str]:
        if not self.active():
            return []
        g, corp = self.g, self.corp
        c = g.state.corporations[corp]
        if c.price != self.rdata.get("converted_price"):
            return []
        players = g.player_keys()
        owner = c.owner if c.owner in players else players[0]
        i = players.index(owner)
        passed = self.rdata.get("pc_passed", [])
        for p in players[i:] + players[:i]:
            if p not in passed and (self.can_buy(p) or self.can_sell(p)):
                return [p]
        return []

    def actions(self, entity: str) -> list[str]:
        if kind_of(entity) != "P" or entity != self.current_entity():
            return []
        acts = []
        if self.can_buy(entity):
            acts.append("buy_shares")
        if self.can_sell(entity):
            acts.append("sell_shares")
        return [*acts, "pass"] if acts else []

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for a in self.actions(entity):
            if a == "buy_shares":
                out.append({"type": a, "shares": [self.treasury_share()]})
            elif a == "sell_shares":
                ids = [s for s in shares.shares_of(self.g, entity, self.corp) if self.g.state.shares[s].percent > 0]
                out.append({"type": a, "choices": [{"shares": [s]} for s in ids]})
            else:
                out.append({"type": a})
        return out

    @cython.locals(self="StepBase")
    def _done(self, player: str) -> None:
        self.rdata.setdefault("pc_passed", []).append(player)

    @cython.locals(self="StepBase")
    def process_buy_shares(self, action: dict[str, Any], entity: str) -> None:
        g, corp = self.g, self.corp
        ids = [str(s) for s in action.get("shares") or []]
        b = shares.make_bundle(g, ids)
        if b.corp != corp or b.owner != ckey(corp) or len(ids) != 1 or not self.can_buy(entity):
            raise illegal("mergers.buy", f"{g.name(entity)} cannot buy {ids} now")
        shares.buy(g, entity, b)
        g.log(f"{g.name(entity)} buys {ids[0]}")
        if g.state.corporations[corp].owner != entity or not self.can_buy(entity):
            self._done(entity)

    @cython.locals(self="StepBase")
    def process_sell_shares(self, action: dict[str, Any], entity: str) -> None:
        g, corp = self.g, self.corp
        ids = [str(s) for s in action.get("shares") or []]
        b = shares.make_bundle(g, ids)
        if b.corp != corp or b.owner != entity or not self.can_sell(entity):
            raise illegal("mergers.sell", f"{g.name(entity)} cannot sell {ids} now")
        shares.sell_and_move(g, b)
        g.log(f"{g.name(entity)} sells {', '.join(ids)}")
        self._done(entity)

    def process_pass(self, action: dict[str, Any], entity: str) -> None:
        self._done(entity)


class PostConversionLoans(Step):
    """After a change the company may take loans."""

    name = POST_CONVERSION_LOANS_STEP
    description = "Take Loans after a Conversion"

    @cython.locals(self="StepBase")
    def active(self) -> bool:
        return bool(self.rdata.get("converted")) and PARAMS.of(self.g).loans_after_change and not self.st.passed

    @cython.locals(self="StepBase")
    def active_entities(self) -> list[str]:
        corp = self.rdata.get("converted")
        if not self.active() or not LOANS.of(self.g).may_take(self.g, corp):
            return []
        return [ckey(corp)]

    def actions(self, entity: str) -> list[str]:
        return ["take_loan", "pass"] if entity == self.current_entity() else []

    @cython.locals(self="StepBase")
    def process_take_loan(self, action: dict[str, Any], entity: str) -> None:
        LOANS.of(self.g).take(self.g, sym_of(entity))


@cython.locals(g="Context")
def settle_change(g: Context) -> None:
    """The converted company buys its markers (or goes to liquidation when it cannot pay)."""
    r = g.state.round
    corp = r.data.get("converted")
    if not corp:
        return
    count, each = r.data.get("markers") or [0, 0]
    cost = max(0, count * each - g.hooks("conversion_marker_discount", corp)) if count else 0
    if count and each:
        key = ckey(corp)
        if cost > g.cash(key):
            g.log(f"{corp} cannot pay {cost} for {count} station marker(s)")
            liquidate(g, corp)
        else:
            if cost:
                g.spend(key, BANK, cost)
            g.state.corporations[corp].tokens.extend(Token(price=0) for _ in range(count))
            g.log(f"{corp} pays {cost} for {count} station marker(s)")
    r.data["converted"] = None
    r.data["markers"] = [0, 0]
    r.data["pc_passed"] = []
    rounds.bump(g)


def merger_setup(g: Context) -> None:
    st = STATE.of(g)
    st.prices_at_start = {c: list(g.state.corporations[c].price or []) for c in live_corps(g)}
    r = g.state.round
    r.data.update({"converted": None, "markers": [0, 0], "changes": {}, "pc_passed": [], "done": False})
    r.entity_index = -1
    merger_next(g)


def merger_next(g: Context) -> None:
    r = g.state.round
    while True:
        r.entity_index += 1
        rounds.bump(g)
        if r.entity_index >= len(r.entities):
            r.entity_index = 0
            if not r.entities:
                # a round no company acts in still waits for what must be done at once (a company over its train
                # limit after the operating round's export discards here, §7: "at any time")
                rounds.skip_steps(g)
                if rounds.active_step(g) is not None:
                    return
            r.data["done"] = True
            return
        for s in rounds.steps(g):
            s.unpass()
            s.setup()
        rounds.bump(g)
        rounds.skip_steps(g)
        if rounds.active_step(g) is not None:
            return


def merger_after(g: Context, action: dict[str, Any]) -> None:
    if rounds.active_step(g) is not None:
        return
    settle_change(g)
    merger_next(g)


def merger_finished(g: Context) -> bool:
    return bool(g.state.round.data.get("done"))


MERGER_ROUND = rounds.RoundType("merger", merger_setup, merger_after, merger_finished)


# -------------------------------------------------------------------------------- acquisition round


def loan_value(g: Context) -> int:
    return LOANS.of(g).repay_price(g)


def sale_spec(g: Context, mode: str) -> Sale:
    return PARAMS.of(g).sales.get(mode) or Sale()  # type: ignore[arg-type]


def can_acquire(g: Context, corp: str, buyer: str) -> bool:
    c = g.state.corporations[buyer]
    return buyer != corp and c.floated and not c.closed and not inactive(g, buyer)


def compensation(g: Context, corp: str) -> int:
    """What the sold company gets for its treasury shares."""
    data = g.state.round.data
    if PARAMS.of(g).treasury_share_compensation == "none" or data.get("mode") != "friendly" or inactive(g, corp):
        return 0
    return shares.num_shares_of(g, ckey(corp), corp) * price(g, corp)


def max_bid_for(g: Context, buyer: str, corp: str) -> int:
    """Most ``buyer`` could pay for ``corp``: its cash and the loans it could take (``corp``'s loans notionally
    repaid first), plus ``corp``'s cash and treasury compensation, less ``corp``'s loans."""
    n = loans(g, corp)
    room = max(0, LOANS.of(g).room(g, buyer, n))
    value = loan_value(g)
    power = g.cash(ckey(buyer)) + (room * value if PARAMS.of(g).buyer_must_afford_with_loans else 0)
    return power + g.cash(ckey(corp)) + compensation(g, corp) - n * value


def starting_bid(g: Context, corp: str) -> int:
    mode = g.state.round.data.get("mode") or "acquisition"
    spec = sale_spec(g, mode)
    step = PARAMS.of(g).bid_step
    if spec.min_bid_is_market_value:
        value = size_of(g, corp) * price(g, corp)
        return (2 * value + step) // (2 * step) * step
    if spec.bank_bids_min:
        return spec.min_bid + step
    return spec.min_bid


@cython.locals(g="Context")
def min_bid(g: Context, corp: str) -> int:
    a = g.state.round.data.get("auction")
    if a and a["bids"]:
        return max(a["bids"].values()) + PARAMS.of(g).bid_step
    return starting_bid(g, corp)


def presidencies(g: Context, player: str) -> list[str]:
    """The live companies (:func:`live_corps`) ``player`` presides, in company order."""
    corps = g.state.corporations
    out = []
    c: Corporation
    for sym in g.state.corp_order:
        c = corps[sym]
        if c.owner == player and _live(c):
            out.append(sym)
    return out


def max_bid(g: Context, player: str, corp: str) -> int:
    best: int | None = None  # (a loop, not a generator expression: asked for every player in an auction)
    for c in presidencies(g, player):
        if can_acquire(g, corp, c):
            value = max_bid_for(g, c, corp)
            if best is None or value > best:
                best = value
    bid = 0 if best is None else best
    seller = g.state.corporations[corp].owner
    if seller == player and PARAMS.of(g).seller_president_max_raise is not None:
        bid = min(bid, min_bid(g, corp))
    return bid


def buyers_for(g: Context, player: str, corp: str, bid: int) -> list[str]:
    return [c for c in presidencies(g, player) if can_acquire(g, corp, c) and max_bid_for(g, c, corp) >= bid]


def _seller(g: Context, corp: str) -> str | None:
    owner = g.state.corporations[corp].owner
    if owner is None or kind_of(owner) != "P":
        return STATE.of(g).owner_when_liquidated.get(corp)
    return owner


def setup_auction(g: Context) -> None:
    """The next company of the round's list: liquidated, auctioned, offered or skipped."""
    data = g.state.round.data
    data.update({"auction": None, "offer": None, "winner": None, "buyer": None, "mode": None})
    while True:
        offering = data["offering"]
        if not offering:
            data["done"] = True
            return
        corp = offering[0]
        c = g.state.corporations[corp]
        now = zone(g, c.price)
        before = zone(g, STATE.of(g).prices_at_start.get(corp))
        data["liq_cash"], data["liq_loans"] = 0, 0
        if now and now != before and not PARAMS.of(g).entered_acquisition_this_round_offered:
            g.log(f"{corp} moved into {now} during the merger round and is skipped")
            offering.pop(0)
            continue
        if now == "liquidation":
            key = ckey(corp)
            data["liq_cash"], data["liq_loans"] = g.cash(key), loans(g, corp)
            if sale_spec(g, "liquidation").cash_and_loans_set_aside:
                if g.cash(key) > 0:
                    g.spend(key, BANK, g.cash(key))
                LOANS.of(g).transfer(g, corp, None)
            g.log(f"{corp} is being liquidated: it had {data['liq_cash']} and {data['liq_loans']} loans")
            data["mode"] = "liquidation"
            start_auction(g, corp)
            return
        if now == "acquisition":
            g.log(f"{corp} is offered for acquisition")
            data["mode"] = "acquisition"
            start_auction(g, corp)
            return
        data["mode"] = "friendly"
        lo = starting_bid(g, corp)
        if not c.owner or kind_of(c.owner) != "P":
            g.log(f"{corp} has no president to offer it, skipping")  # its president's certificate is not with a player
            offering.pop(0)
            continue
        if any(max_bid(g, p, corp) >= lo for p in data["bidders"]):
            data["offer"] = corp
            return
        g.log(f"{corp} cannot be bought at {lo}, skipping")
        offering.pop(0)


def drop_bankrupt_bidders(g: Context, action: dict[str, Any], entity: str) -> None:
    """A bankrupt player leaves the round's auctions (as if he passed)."""
    r = g.state.round
    if r is None or r.kind != "acquisition":
        return
    data = r.data
    offer = data.get("offer")
    if offer:
        owner = g.state.corporations[offer].owner
        if not owner or kind_of(owner) != "P" or g.player(owner).bankrupt:
            # the president who was to offer it went bankrupt meanwhile: no friendly sale; the round goes on
            g.log(f"{offer} has no president to offer it, skipping")
            data["offer"] = None
            if data.get("offering") and data["offering"][0] == offer:
                data["offering"].pop(0)
            setup_auction(g)
    out = {p for p in data.get("bidders") or [] if g.player(p).bankrupt}
    a = data.get("auction")
    if a:
        out |= {p for p in a["active"] if g.player(p).bankrupt}
    if out:
        data["bidders"] = [p for p in data.get("bidders") or [] if p not in out]
        if a:
            a["active"] = [p for p in a["active"] if p not in out]
            resolve(g)
    _skip_moved_company(g)


def _skip_moved_company(g: Context) -> None:
    """A company whose auction (or friendly offer) is under way, unsold, and which a bankruptcy has moved into
    another zone than it had when the merger round began, is skipped like one that had moved before its turn
    (``entered_acquisition_this_round_offered`` off), once no cash crisis is pending (differential run 8 seed
    100018: PW, offered for acquisition, went to liquidation with its president's bankruptcy)."""
    if PARAMS.of(g).entered_acquisition_this_round_offered:
        return
    data = g.state.round.data
    a = data.get("auction")
    corp = a["corp"] if a else data.get("offer")
    if not corp or data.get("winner") or data.get("buyer") or corp not in g.state.corporations:
        return
    for s in rounds.steps_named(g, CASH_CRISIS_STEP):
        if step_active(s) and step_blocking(s):
            return
    now = zone(g, g.state.corporations[corp].price)
    if not now or now == zone(g, STATE.of(g).prices_at_start.get(corp)):
        return
    g.log(f"{corp} moved into {now} during the merger round and is no longer auctioned")
    if corp in data.get("offering") or []:
        data["offering"].remove(corp)
    setup_auction(g)


def start_auction(g: Context, corp: str) -> None:
    data = g.state.round.data
    data["auction"] = {"corp": corp, "bids": {}, "active": []}
    lo = min_bid(g, corp)
    data["auction"]["active"] = [p for p in data["bidders"] if max_bid(g, p, corp) >= lo]
    resolve(g)


@cython.locals(g="Context")
def resolve(g: Context) -> None:
    data = g.state.round.data
    a = data["auction"]
    if a is None:
        return
    corp = a["corp"]
    if not a["active"]:
        winner = None
    elif len(a["active"]) == 1 and a["bids"]:
        winner = max(a["bids"], key=lambda p: a["bids"][p])
    else:
        return
    data["auction"] = None
    if winner is None:
        no_sale(g, corp)
        return
    bid = a["bids"][winner]
    g.log(f"{g.name(winner)} wins the auction of {corp} for {bid}")
    data["winner"] = {"player": winner, "corp": corp, "price": bid}
    options = buyers_for(g, winner, corp, bid)
    if len(options) == 1:
        acquire(g, options[0])


def no_sale(g: Context, corp: str) -> None:
    data = g.state.round.data
    mode = data["mode"]
    g.log(f"All players pass on {corp}")
    data["offering"].remove(corp)
    if mode == "liquidation" and sale_spec(g, mode).unsold == "assets_leave_game":
        g.log(f"The bank liquidates {corp} for 0")
        g.hooks("assets_leaving", corp, None)
        settle_president(g, corp)
        return
    setup_auction(g)


def acquire(g: Context, buyer: str) -> None:
    data = g.state.round.data
    w = data["winner"]
    corp, bid = w["corp"], w["price"]
    if buyer not in buyers_for(g, w["player"], corp, bid):
        raise illegal("mergers.acquire", f"{buyer} cannot acquire {corp} for {bid}")
    data["buyer"] = buyer
    comp = compensation(g, corp)
    if comp > 0:
        g.spend(BANK, ckey(corp), comp)
    if zone(g, g.state.corporations[corp].price) == "liquidation":
        data["liq_cash"] += bid
    data["shareholder_cash"] = bid
    g.hooks("assets_leaving", corp, buyer)
    before = loans(g, buyer)
    move_tokens(g, corp, buyer)
    got = move_assets(g, corp, buyer)
    data["unpaid"] = loans(g, buyer) - before
    g.log(f"{buyer} acquires {corp} receiving {', '.join(got) or 'nothing'}")
    key = ckey(buyer)
    while g.cash(key) < bid and LOANS.of(g).may_take(g, buyer):
        LOANS.of(g).take(g, buyer)
    g.spend(key, BANK, bid)
    data["passed_take"], data["passed_payoff"] = False, False
    after_loans(g)


def can_take(g: Context, buyer: str) -> bool:
    data = g.state.round.data
    return data.get("buyer") == buyer and not data.get("passed_take") and bool(LOANS.of(g).may_take(g, buyer))


def can_payoff(g: Context, buyer: str) -> bool:
    data = g.state.round.data
    return (
        data.get("buyer") == buyer
        and data.get("unpaid", 0) > 0
        and g.cash(ckey(buyer)) >= loan_value(g)
        and not data.get("passed_payoff")
    )


def pay_one_loan(g: Context, buyer: str) -> None:
    g.spend(ckey(buyer), BANK, loan_value(g))
    LOANS.of(g).repaid(g, buyer, 1)
    g.state.round.data["unpaid"] -= 1


def after_loans(g: Context) -> None:
    data = g.state.round.data
    buyer = data["buyer"]
    if can_take(g, buyer):
        return
    while LOANS.of(g).room(g, buyer, 0) < 0 and data["unpaid"] > 0:
        pay_one_loan(g, buyer)
        g.log(f"{buyer} repays an acquired loan over its cap")
    if can_payoff(g, buyer):
        return
    steps_ = data["unpaid"] * PARAMS.of(g).kept_loan_price_steps
    if steps_:
        market.move(g, buyer, "left" if steps_ < 0 else "right", abs(steps_))
        if zone(g, g.state.corporations[buyer].price) == "acquisition" and buyer in data["offering"]:
            data["offering"].remove(buyer)
    settle_president(g, data["winner"]["corp"])


def settle_president(g: Context, corp: str) -> None:
    data = g.state.round.data
    if data.get("mode") == "liquidation":
        owed = data["liq_loans"] * loan_value(g)
        debt = max(0, owed - data["liq_cash"])
        if debt > 0:
            owner = g.state.corporations[corp].owner
            president = _seller(g, corp) if owner is not None and kind_of(owner) == "P" else None  # none: bank
            if president is not None and PARAMS.of(g).liquidation_deficit == "president_pays":
                g.log(f"{g.name(president)} settles {corp}'s debts for {debt}")
                _charge(g, president, debt, corp)
            data["shareholder_cash"] = 0
        else:
            surplus = data["liq_cash"] - owed
            data["shareholder_cash"] = surplus if PARAMS.of(g).liquidation_surplus == "shareholders" else 0
    pay_shareholders(g, corp)


def _charge(g: Context, player: str, amount: int, corp: str) -> None:
    """``player`` pays the bank ``amount``; what his cash does not cover he owes (a cash crisis)."""
    pay = min(amount, max(0, g.cash(player)))
    if pay > 0:
        g.spend(player, BANK, pay)
    if amount > pay:
        LOANS.of(g).owes(g, player, amount - pay, corp)


def pay_shareholders(g: Context, corp: str) -> None:
    data = g.state.round.data
    amount = data.get("shareholder_cash", 0)
    if amount > 0:
        per = amount // size_of(g, corp)
        unit = shares.share_percent(g, corp)
        for p in g.player_keys():
            n = sum(g.state.shares[s].percent for s in shares.shares_of(g, p, corp)) // unit
            if per <= 0:
                continue  # less than $1 a share: nothing to pay or charge
            if n > 0:
                g.spend(BANK, p, n * per)
            elif n < 0:
                _charge(g, p, -n * per, corp)
        g.log(f"{corp} pays {per} per share to its shareholders")
        LOANS.of(g).pay_debts(g)  # (a holder who owed money before pays it from this)
    LOANS.of(g).crisis_from(g, _seller(g, corp))
    reset(g, corp)
    data["shareholder_cash"] = 0
    if data.get("winner"):
        if corp in data["offering"]:
            data["offering"].remove(corp)
        data.setdefault("acquired", []).append(corp)
    setup_auction(g)


class Acquire(Step):
    """Liquidations, acquisitions and friendly sales, with their auctions."""

    name = ACQUIRE_STEP
    description = "Acquire Companies"

    @cython.locals(self="StepBase")
    def blocks(self) -> bool:
        return not self.rdata.get("done")

    @cython.locals(self="StepBase")
    def active_entities(self) -> list[str]:
        g, data = self.g, self.rdata
        if data.get("done"):
            return []
        if data.get("offer"):
            owner = g.state.corporations[data["offer"]].owner
            return [owner] if owner else []
        a = data.get("auction")
        if a:
            active = a["active"]
            if a["bids"]:
                high = max(a["bids"], key=lambda p: a["bids"][p])
                if high in active:
                    return [active[(active.index(high) + 1) % len(active)]]
            seller = _seller(g, a["corp"])
            players = g.player_keys(include_bankrupt=True)  # the seat of a bankrupt seller still counts
            i = players.index(seller) + 1 if seller in players else 0
            for p in players[i:] + players[:i]:
                if p in active:
                    return [p]
            return []
        if data.get("buyer"):
            return [ckey(data["buyer"])]
        if data.get("winner"):
            return [data["winner"]["player"]]
        return []

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        g, data = self.g, self.rdata
        if entity != self.current_entity():
            return []
        if data.get("offer"):
            return ["assign", "pass"]
        if data.get("auction"):
            return ["bid", "pass"]
        buyer = data.get("buyer")
        if buyer:
            if can_take(g, buyer):
                return ["take_loan", "pass"]
            if can_payoff(g, buyer):
                return ["payoff_loan", "pass"]
            return []
        if data.get("winner"):
            return ["merge"]
        return []

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        g, data = self.g, self.rdata
        out: list[dict[str, Any]] = []
        for t in self.actions(entity):
            if t == "assign":  # (named a corporation: a private may carry the same name)
                out.append({"type": t, "target": data["offer"], "target_type": "corporation"})
            elif t == "bid":
                corp = data["auction"]["corp"]
                lo, hi = min_bid(g, corp), max_bid(g, entity, corp)
                out.append({"type": t, "corporation": corp, "min": lo, "max": hi, "step": PARAMS.of(g).bid_step})
            elif t == "merge":
                w = data["winner"]
                out.append(
                    {
                        "type": t,
                        "choices": [{"corporation": c} for c in buyers_for(g, w["player"], w["corp"], w["price"])],
                    }
                )
            else:
                out.append({"type": t})
        return out

    @cython.locals(self="StepBase")
    def process_assign(self, action: dict[str, Any], entity: str) -> None:
        corp = self.rdata["offer"]
        if action.get("target") not in (None, corp):
            raise illegal("mergers.offer", f"only {corp} may be offered now")
        self.g.log(f"{corp} is offered for sale")
        self.rdata["offer"] = None
        start_auction(self.g, corp)

    @cython.locals(self="StepBase")
    def process_bid(self, action: dict[str, Any], entity: str) -> None:
        g, a = self.g, self.rdata["auction"]
        corp = a["corp"]
        bid = action.get("price")
        if not isinstance(bid, int) or isinstance(bid, bool) or bid % PARAMS.of(g).bid_step:
            raise illegal("mergers.bid", f"a bid is a multiple of {PARAMS.of(g).bid_step}, not {bid!r}")
        if action.get("corporation") != corp:
            raise illegal("mergers.bid", f"{corp} is up for auction")
        lo, hi = min_bid(g, corp), max_bid(g, entity, corp)
        if not lo <= bid <= hi:
            raise illegal("mergers.bid", f"{g.name(entity)} may bid {lo}-{hi} for {corp}, not {bid}")
        a["bids"] = {entity: bid}
        g.log(f"{g.name(entity)} bids {bid} for {corp}")
        lo = min_bid(g, corp)
        a["active"] = [p for p in a["active"] if p == entity or max_bid(g, p, corp) >= lo]
        resolve(g)
        self._maybe_done()

    @cython.locals(self="StepBase")
    def process_merge(self, action: dict[str, Any], entity: str) -> None:
        acquire(self.g, str(action.get("corporation")))
        self._maybe_done()

    @cython.locals(self="StepBase")
    def process_take_loan(self, action: dict[str, Any], entity: str) -> None:
        g, buyer = self.g, sym_of(entity)
        LOANS.of(g).take(g, buyer)
        if not can_take(g, buyer):
            after_loans(g)
        self._maybe_done()

    @cython.locals(self="StepBase")
    def process_payoff_loan(self, action: dict[str, Any], entity: str) -> None:
        g, buyer = self.g, sym_of(entity)
        pay_one_loan(g, buyer)
        self.rdata["passed_take"] = True
        if not can_payoff(g, buyer):
            after_loans(g)
        self._maybe_done()

    @cython.locals(self="StepBase")
    def process_pass(self, action: dict[str, Any], entity: str) -> None:
        g, data = self.g, self.rdata
        if data.get("offer"):
            corp = data["offer"]
            g.log(f"{g.name(entity)} declines to offer {corp} for sale")
            data["offering"].remove(corp)
            setup_auction(g)
        elif data.get("buyer") and can_take(g, data["buyer"]):
            data["passed_take"] = True
            after_loans(g)
        elif data.get("buyer"):
            data["passed_payoff"] = True
            after_loans(g)
        else:
            a = data["auction"]
            if entity in a["active"]:
                a["active"].remove(entity)
            g.log(f"{g.name(entity)} passes on {a['corp']}")
            resolve(g)
        self._maybe_done()

    @cython.locals(self="StepBase")
    def _maybe_done(self) -> None:
        if self.rdata.get("done"):
            self.pass_()

    def skip(self) -> None:
        """Passed only once the round's list is done: a moment with no one to act here (a bidder's bankruptcy
        before the round drops him from the auction) is not the end of the step."""
        self._maybe_done()


def acquisition_setup(g: Context) -> None:
    r = g.state.round
    bidders = [p for p in g.player_keys() if presidencies(g, p)]
    offering = sorted(live_corps(g), key=lambda c: market.sort_key(g, c), reverse=True)
    r.entities = bidders
    r.data.update({"offering": offering, "bidders": bidders, "done": False, "acquired": []})
    setup_auction(g)
    if r.data["done"]:
        for s in rounds.steps(g):
            if s.name == ACQUIRE_STEP:
                s.pass_()
    rounds.skip_steps(g)


def acquisition_finished(g: Context) -> bool:
    return bool(g.state.round.data.get("done")) and rounds.active_step(g) is None


ACQUISITION_ROUND = rounds.RoundType("acquisition", acquisition_setup, lambda g, action: None, acquisition_finished)


def round_entities(g: Context, kind: str) -> list[str] | None:
    if kind == "merger":
        corps = [c for c in live_corps(g) if not inactive(g, c)]
        corps.sort(key=lambda c: market.sort_key(g, c))
        return [ckey(c) for c in corps]
    if kind == "acquisition":
        return []
    return None


class _Liquidation:
    """The :class:`~railbook.engine.interfaces.Liquidation` this mechanic provides."""

    liquidate = staticmethod(liquidate)

    @staticmethod
    @cython.locals(g="Context")
    def in_liquidation(g: Context, corp: str) -> bool:
        return "liquidation" in market.kinds_at(g, g.state.corporations[corp].price)


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={
        REDUCE_TOKENS_STEP: ReduceTokens,
        CONVERT_MERGE_STEP: ConvertMerge,
        POST_CONVERSION_STEP: PostConversion,
        POST_CONVERSION_LOANS_STEP: PostConversionLoans,
        ACQUIRE_STEP: Acquire,
    },
    round_types={"merger": MERGER_ROUND, "acquisition": ACQUISITION_ROUND},
    hooks={
        # answers only its round kinds (merger, acquisition)
        "round_entities": First(round_entities, 23),
        "action_processed": drop_bankrupt_bidders,
    },
    state=State,
    provides=[LIQUIDATION.provided_by(_Liquidation())],
)
