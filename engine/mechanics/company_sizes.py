"""``company_sizes``: companies of several sizes (e.g. 2, 5 or 10 shares), chosen at the IPO and converted later.

A company's size decides its certificates, its station markers, the shares one player may hold of it and the
percent of one share.  With ``ipo_auction`` a company starts in the stock round by an auction of its president's
certificate (step ``ipo_auction``): the starter places the home station and opens the bidding; bids go round
the other players; the winner chooses a size the phase allows, pays with cash and privates at face value, and
the whole bid goes to the treasury, the start price being half the bid rounded down to a market value.  The
markers a size adds are bought at once at ``marker_price`` when the treasury can pay.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any

from railbook.params.company_sizes import DECLARATION, IPO_AUCTION_STEP, IpoAuction, Params
from railbook.params.stock_round import STOCK_STEP

from .. import market, rounds, shares, stations
from ..access import params_of, state_of
from ..closing import close_company
from ..contract import First, Mechanic
from ..errors import illegal
from ..interfaces import CONVERSIONS, LIQUIDATION
from ..state import BANK, Share, Token, ckey, sym_of, xkey
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


@dataclass(slots=True)
class State:
    """Each started company's size (shares), by symbol; the new companies that still owe markers for it."""

    sizes: dict[str, int] = field(default_factory=dict)
    unpaid: list[str] = field(default_factory=list)


PARAMS = params_of(DECLARATION, Params)
STATE = state_of(DECLARATION, State)


def size_of(g: Context, corp: str) -> int:
    """A company's size: as chosen, else its charter's (the president's certificate counting its shares)."""
    sizes: dict[str, int] = STATE.of(g).sizes  # (declared so in the compiled build: engine/*.pxd)
    size = sizes.get(corp)
    if size is not None:
        return size
    spec = g.book.corporations[corp]["shares"]
    return len(spec) - 1 + PARAMS.of(g).president_certificate_shares


def share_unit(g: Context, corp: str) -> int:
    return 100 // size_of(g, corp)


def holding_limit(g: Context, corp: str) -> int | None:
    spec = PARAMS.of(g).sizes.get(size_of(g, corp))
    if spec is None or spec.player_share_cap is None:
        return None
    return spec.player_share_cap * share_unit(g, corp)


@cython.locals(g="Context")
def resize(g: Context, corp: str, size: int, new_count: int | None = None) -> list[str]:
    """Give ``corp`` the certificates of ``size``: the president's certificate takes its new percent, the others
    become one share each, and the new certificates (``new_count``, else as many as the size lacks) go to the
    treasury, numbered after the old size's printed certificates.  Returns the new share ids."""
    certs = PARAMS.of(g).sizes[size].certificates
    st = g.state
    ids = sorted((sid for sid, sh in st.shares.items() if sh.corp == corp), key=lambda sid: st.shares[sid].index)
    unit = 100 // size
    for sid in ids:
        sh = st.shares[sid]
        sh.percent = certs[0] if sh.president else (unit if sh.percent > 0 else -unit)
    held = sum(1 for sid in ids if st.shares[sid].percent > 0)
    printed = len(PARAMS.of(g).sizes[size_of(g, corp)].certificates)  # shorts add certificates past these
    top = max(st.shares[sid].index for sid in ids)
    new = []
    key = ckey(corp)
    for i in range(len(certs) - held if new_count is None else new_count):
        idx = printed + i if f"{corp}_{printed + i}" not in st.shares else top + 1 + i
        sid = f"{corp}_{idx}"
        st.shares[sid] = Share(sid, corp, idx, unit, False, key)
        st.holdings.setdefault(key, {}).setdefault(corp, []).append(sid)
        new.append(sid)
    shares.holdings_changed(g)
    STATE.of(g).sizes[corp] = size
    g.epoch += 1
    g.hooks("update_cert_limit")
    return new


def markers_needed(g: Context, corp: str) -> int:
    """Station markers the company must still buy for its size (markers gained from privates are extra)."""
    spec = PARAMS.of(g).sizes.get(size_of(g, corp))
    if spec is None:
        return 0
    own = sum(1 for t in g.state.corporations[corp].tokens if not t.extra)
    want = spec.base_markers
    if PARAMS.of(g).max_markers is not None:
        want = min(want, PARAMS.of(g).max_markers)
    return max(0, want - own)


@cython.locals(g="Context")
def buy_markers(g: Context, corp: str) -> None:
    """Buy the markers the company's size calls for, when its treasury can pay for all of them."""
    need = markers_needed(g, corp)
    if need <= 0:
        return
    cost = need * PARAMS.of(g).marker_price
    key = ckey(corp)
    if cost > g.cash(key):
        g.log(f"{corp} cannot afford {need} station marker(s) for {cost}")
        unpaid = STATE.of(g).unpaid
        if PARAMS.of(g).unpaid_markers == "due_by_end_of_stock_round" and corp not in unpaid:
            unpaid.append(corp)  # (bought later in the round, or the company goes to liquidation)
        return
    if corp in STATE.of(g).unpaid:
        STATE.of(g).unpaid.remove(corp)
    if cost:
        g.spend(key, BANK, cost)
    g.state.corporations[corp].tokens.extend(Token(price=0) for _ in range(need))
    g.log(f"{corp} buys {need} station marker(s) for {cost}")


def markers_paid(g: Context, action: dict[str, Any], entity: str) -> None:
    """(``unpaid_markers: due_by_end_of_stock_round``) after each action of a stock round, a new company that still
    owes markers for its size buys them once its treasury covers them (a loan, a share sold from its treasury)."""
    unpaid = STATE.of(g).unpaid
    if not unpaid or g.state.round.kind != "stock" or g.state.round.data.get("ipo") is not None:
        return  # (a company being started buys its markers once its bid is paid)
    for corp in list(unpaid):
        c = g.state.corporations[corp]
        if not c.floated or c.closed or c.operated or markers_needed(g, corp) <= 0:
            unpaid.remove(corp)
        elif markers_needed(g, corp) * PARAMS.of(g).marker_price <= g.cash(ckey(corp)):
            buy_markers(g, corp)


def markers_unpaid(g: Context) -> None:
    """(``unpaid_markers: due_by_end_of_stock_round``) at the end of the stock round a company that has not
    operated and still owes markers for its size goes to the liquidation zone."""
    unpaid = STATE.of(g).unpaid
    if not unpaid:
        return
    zone = LIQUIDATION.get(g)
    for corp in list(unpaid):
        unpaid.remove(corp)
        c = g.state.corporations[corp]
        if not c.floated or c.closed or c.operated or markers_needed(g, corp) <= 0:
            continue
        g.log(f"{corp} did not buy its station markers and goes to liquidation")
        if zone is not None:
            zone.liquidate(g, corp)


@cython.locals(g="Context")
def company_sold(g: Context, sym: str, corp: str) -> None:
    """A private with an extra-marker ability gives its new company one more station marker; one with
    ``cash_on_assign`` brings that much from the bank the first time it joins a company."""
    c = g.state.companies[sym]
    for a in list(c.abilities):
        cash = (a.spec.get("params") or {}).get("cash_on_assign")
        if cash and not a.used:
            a.used = True
            g.spend(BANK, corp, int(cash))
            g.log(f"{sym_of(corp)} collects {cash} from {sym}")
        if a.type == "extra_token":
            n = a.count or 1
            g.state.corporations[sym_of(corp)].tokens.extend(Token(price=0, extra=True) for _ in range(n))
            g.log(f"{sym_of(corp)} gains {n} station marker(s) from {sym}")
            g.remove_ability(xkey(sym), a)


# ------------------------------------------------------------------------------------ IPO auction


def _ipo(g: Context) -> IpoAuction:
    spec = PARAMS.of(g).ipo_auction
    assert spec is not None
    return spec


def private_sums(g: Context, player: str) -> list[int]:
    """Every total of a subset of the player's privates at face value (the empty subset included)."""
    values = [g.state.companies[c].value for c in g.player(player).companies]
    return sorted({sum(combo) for n in range(len(values) + 1) for combo in combinations(values, n)})


def bidding_power(g: Context, player: str) -> int:
    cash = g.cash(player)
    if _ipo(g).bidding_power == "cash_plus_own_privates_at_face":
        cash += sum(g.state.companies[c].value for c in g.player(player).companies)
    return cash


@cython.locals(g="Context")
def max_bid(g: Context, player: str) -> int:
    if shares.num_certs(g, player) >= g.state.cert_limit:
        return 0
    return min(_ipo(g).max_bid, bidding_power(g, player))


def payable_spans(g: Context, player: str, lo: int, hi: int, step: int) -> list[tuple[int, int]]:
    """The bids from ``lo`` to ``hi`` (multiples of ``step``) the player can pay, as merged (min, max) spans: with
    privates as payment, cash plus privates at face value must make the bid exactly."""
    if not _ipo(g).privates_as_payment:
        spans = [(lo, hi)]
    else:
        cash = g.cash(player)
        spans = []
        for s in private_sums(g, player):
            a, b = max(lo, s), min(hi, s + cash)
            if spans and a <= spans[-1][1] + 1:
                spans[-1] = (spans[-1][0], max(spans[-1][1], b))
            elif a <= b:
                spans.append((a, b))
    out = []
    for a, b in spans:
        a, b = -(-a // step) * step, b // step * step
        if a <= b:
            out.append((a, b))
    return out


def phase_sizes(g: Context) -> list[int]:
    sizes = PARAMS.of(g).ipo_sizes_by_phase
    return sizes.get(g.phase_name()) or sorted(PARAMS.of(g).sizes)[:1]


@cython.locals(g="Context")
def start_price(g: Context, bid: int) -> list[int]:
    """The market cell of a new company: the highest starting price not above the bid times the fraction."""
    limit = bid * _ipo(g).par_fraction_of_bid
    cells = [p for p in g.book.market["par"] if p["price"] <= limit]
    if not cells:
        raise illegal("ipo.price", f"no starting price for a bid of {bid}")
    best = max(cells, key=lambda p: (p["price"], p["col"]))
    return [best["row"], best["col"]]


def home_cities(g: Context, corp: str) -> list[tuple[str, int]]:
    """Open city spaces a new company may take as its home."""
    key = ckey(corp)
    forbidden = set(_ipo(g).forbidden_home_hexes)
    out = []
    for hex_id, hs in g.state.hexes.items():
        if hex_id in forbidden or not hs.tokens:
            continue
        for ci in range(len(hs.tokens)):
            if stations.tokenable(g, key, hex_id, ci):
                out.append((hex_id, ci))
    return out


class IpoAuctionStep(Step):
    """Starting a company in the stock round: home station, auction, size, payment in privates."""

    name = IPO_AUCTION_STEP
    description = "Start a Company"

    @staticmethod
    def round_state() -> dict[str, Any]:
        return {"ipo": None}

    @property
    @cython.locals(self="StepBase")
    def ipo(self) -> dict[str, Any] | None:
        return self.rdata.get("ipo")  # type: ignore[no-any-return]

    def blocks(self) -> bool:
        return self.ipo is not None

    def allows(self, entity: str, atype: str) -> bool:
        """``atype in actions(entity)``; ``pass`` is offered only during an auction."""
        if atype == "pass" and self.ipo is None:
            return False
        return atype in self.actions_of(entity)

    def active_entities(self) -> list[str]:
        a = self.ipo
        if a is None:
            return super().active_entities()
        if a["home"]:
            return [ckey(a["corp"])]
        if a["winner"]:
            return [a["winner"]]
        active, bids = a["active"], a["bids"]
        high = max(bids, key=lambda p: bids[p])
        return [active[(active.index(high) + 1) % len(active)]]

    @cython.locals(self="StepBase")
    def min_bid(self) -> int:
        a = self.ipo
        if a is None:
            return _ipo(self.g).min_bid
        return max(a["bids"].values()) + _ipo(self.g).bid_step

    @cython.locals(self="StepBase")
    def startable(self) -> list[str]:
        corps = self.g.state.corporations
        return [c for c in self.g.state.corp_order if not corps[c].ipoed and not corps[c].closed]

    def _turn_free(self) -> bool:
        """No purchase yet this turn, and the player has not acted for one of his companies instead (a turn is the
        player's own or a company's, not both)."""
        if self.rdata.get("company_turn") is not None:
            return False  # (mechanics.company_stock_actions: a company's turn under way)
        return not any(
            a in ("buy_shares", "par", "company_action", "company_turn") for a in self.rdata.get("current_actions", [])
        )

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        a = self.ipo
        if a is None:
            if entity != self.current_entity() or not self._turn_free() or not self.startable():
                return []
            return ["bid"] if max_bid(self.g, entity) >= self.min_bid() else []
        if entity != self.current_entity():
            return []
        if a["home"]:
            return ["place_token"]
        if a["winner"]:
            if a["size"] is None:
                return ["choose"]
            return ["assign", "pass"] if self.g.cash(entity) >= a.get("owed", 0) else ["assign"]
        return ["bid", "pass"]

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        g, a = self.g, self.ipo
        out: list[dict[str, Any]] = []
        acts = self.actions(entity)
        if "bid" in acts:
            step = _ipo(g).bid_step
            spans = payable_spans(g, entity, self.min_bid(), max_bid(g, entity), step)
            corps = self.startable() if a is None else [a["corp"]]
            choices = [{"corporation": c, "min": lo, "max": hi} for c in corps for lo, hi in spans]
            if choices:
                out.append({"type": "bid", "choices": choices, "step": step})
        if "place_token" in acts:
            out.append(
                {
                    "type": "place_token",
                    "choices": [{"city": stations.city_id(g, h, ci)} for h, ci in home_cities(g, a["corp"])],
                }
            )  # type: ignore[index]
        if "choose" in acts:
            out.append({"type": "choose", "choices": [{"choice": s} for s in phase_sizes(g)]})
        if "assign" in acts:
            out.append({"type": "assign", "choices": [{"target": c} for c in self.usable_privates(entity)]})
        if "pass" in acts:
            out.append({"type": "pass"})
        return out

    # ------------------------------------------------------------------------------- processing

    @cython.locals(self="StepBase")
    def process_bid(self, action: dict[str, Any], entity: str) -> None:
        g, a, spec = self.g, self.ipo, _ipo(self.g)
        price = action.get("price")
        if not isinstance(price, int) or isinstance(price, bool):
            raise illegal("ipo.price", f"bid price {price!r} is not a whole number")
        if price % spec.bid_step:
            raise illegal("ipo.step", f"bids are multiples of {spec.bid_step}, not {price}")
        if price < self.min_bid() or price > max_bid(g, entity):
            raise illegal("ipo.bid", f"{g.name(entity)} may bid {self.min_bid()}-{max_bid(g, entity)}, not {price}")
        if spec.privates_as_payment and not any(s <= price <= s + g.cash(entity) for s in private_sums(g, entity)):
            raise illegal("ipo.payment", f"{g.name(entity)} cannot pay {price} in cash and privates at face value")
        if a is None:
            corp = action.get("corporation")
            if corp not in self.startable():
                raise illegal("ipo.corporation", f"{corp!r} cannot be started")
            g.log(f"{g.name(entity)} starts an auction for {corp} at {price}")
            a = {
                "corp": corp,
                "bids": {entity: price},
                "starter": entity,
                "active": [],
                "home": spec.home_anywhere,
                "winner": None,
                "size": None,
            }
            self.rdata["ipo"] = a
            self.rdata["last_to_act"] = entity
            lo = self.min_bid()
            a["active"] = [p for p in self.round.entities if p == entity or max_bid(g, p) >= lo]
        else:
            if action.get("corporation") != a["corp"]:
                raise illegal("ipo.corporation", f"{a['corp']} is up for auction")
            a["bids"][entity] = price
            g.log(f"{g.name(entity)} bids {price} for {a['corp']}")
            lo = self.min_bid()
            a["active"] = [p for p in a["active"] if p == entity or max_bid(g, p) >= lo]
        self._resolve()

    @cython.locals(self="StepBase")
    def process_place_token(self, action: dict[str, Any], entity: str) -> None:
        g, a = self.g, self.ipo
        if a is None or not a["home"] or entity != ckey(a["corp"]):
            raise illegal("ipo.home", f"{g.name(entity)} has no home station to place")
        hex_id, ci = stations.parse_city(g, action.get("city"))
        if hex_id in _ipo(g).forbidden_home_hexes or not stations.tokenable(g, entity, hex_id, ci):
            raise illegal("ipo.home", f"{a['corp']} cannot start in {hex_id}")
        stations.place(g, entity, hex_id, ci, connected=False)
        a["home"] = False
        self._resolve()

    @cython.locals(self="StepBase")
    def process_pass(self, action: dict[str, Any], entity: str) -> None:
        a = self.ipo
        assert a is not None
        if a["winner"]:
            if self.g.cash(entity) < a.get("owed", 0):
                raise illegal("ipo.payment", f"{self.g.name(entity)} must still pay for {a['corp']}")
            self._finish()
            return
        if entity in a["active"]:
            a["active"].remove(entity)
        self.g.log(f"{self.g.name(entity)} passes on {a['corp']}")
        self._resolve()

    @cython.locals(self="StepBase")
    def process_choose(self, action: dict[str, Any], entity: str) -> None:
        a = self.ipo
        assert a is not None
        size = action.get("choice")
        try:
            size = int(size)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise illegal("ipo.size", f"bad size {size!r}") from None
        if size not in phase_sizes(self.g):
            raise illegal("ipo.size", f"a company started now may have {phase_sizes(self.g)} shares, not {size}")
        self._size(size)
        self._maybe_finish()

    @cython.locals(self="StepBase")
    def usable_privates(self, player: str) -> list[str]:
        """Privates the winner may still put in: part of a total that pays what is owed without exceeding the
        treasury."""
        g, a = self.g, self.ipo
        if a is None or a["winner"] != player:
            return []
        owed = a.get("owed", 0)
        top = g.cash(ckey(a["corp"])) + owed
        low = max(0, owed - g.cash(player))
        syms = g.player(player).companies
        values = {s: g.state.companies[s].value for s in syms}
        ok = set()
        for n in range(1, len(syms) + 1):
            for combo in combinations(syms, n):
                total = sum(values[s] for s in combo)
                if low <= total <= top:
                    ok.update(combo)
        return [s for s in syms if s in ok]

    @cython.locals(self="StepBase")
    def process_assign(self, action: dict[str, Any], entity: str) -> None:
        g, a = self.g, self.ipo
        sym = action.get("target")
        if a is None or sym not in self.usable_privates(entity):
            raise illegal("ipo.private", f"{sym!r} cannot pay for this company")
        corp = a["corp"]
        c = g.state.companies[sym]
        g.player(entity).companies.remove(sym)
        c.owner = ckey(corp)
        g.state.corporations[corp].companies.append(sym)
        covered = min(c.value, a.get("owed", 0))  # the private pays what the cash did not ...
        a["owed"] = a.get("owed", 0) - covered
        g.state.cash[ckey(corp)] -= c.value - covered  # ... and the treasury pays the player back the rest
        g.state.cash[entity] += c.value - covered
        g.epoch += 1
        g.log(f"{sym} goes into {corp} for {c.value}")
        g.hooks("company_sold", sym, ckey(corp))
        self._maybe_finish()

    # --------------------------------------------------------------------------------- helpers

    @cython.locals(self="StepBase")
    def _resolve(self) -> None:
        a = self.ipo
        if a is None or a["home"] or a["winner"] or len(a["active"]) > 1:
            return
        g = self.g
        winner = a["active"][0]
        price = a["bids"][winner]
        corp = a["corp"]
        c = g.state.corporations[corp]
        g.log(f"{g.name(winner)} wins {corp} for {price}")
        pos = start_price(g, price)
        market.place(g, corp, pos)
        c.par = list(pos)
        c.ipoed = True
        shares.move_share(g, f"{corp}_0", winner)
        c.owner = winner
        # the bid goes to the treasury: what the winner's cash covers now, the rest owed until privates pay it
        paid = min(price, max(0, g.cash(winner)))
        g.state.cash[winner] -= paid
        g.state.cash[ckey(corp)] += paid
        a["owed"] = price - paid
        g.epoch += 1
        was = c.floated
        c.floated = True
        if not was:
            g.hooks("corporation_floated", corp)
        a["winner"] = winner
        sizes = phase_sizes(g)
        if len(sizes) == 1:
            self._size(sizes[0])
        self._maybe_finish()

    @cython.locals(self="StepBase")
    def _size(self, size: int) -> None:
        a = self.ipo
        assert a is not None
        a["size"] = size
        if size != size_of(self.g, a["corp"]):
            resize(self.g, a["corp"], size)

    def _maybe_finish(self) -> None:
        a = self.ipo
        if a is None or a["size"] is None or self.usable_privates(a["winner"]):
            return
        self._finish()

    @cython.locals(self="StepBase")
    def _finish(self) -> None:
        g, a = self.g, self.ipo
        assert a is not None
        corp = a["corp"]
        owed = a.get("owed", 0)
        if owed:
            g.state.cash[a["winner"]] -= owed
            g.state.cash[ckey(corp)] += owed
            a["owed"] = 0
            g.epoch += 1
        g.log(f"{corp} starts with {g.cash(ckey(corp))} and {a['size']} shares")
        buy_markers(g, corp)
        for sym in list(g.state.corporations[corp].companies):
            abilities_ = g.state.companies[sym].abilities
            if any((ab.spec.get("params") or {}).get("closes_on_ipo_payment") for ab in abilities_):
                g.log(f"{sym} closes")
                close_company(g, sym)
        g.hooks("corporation_launched", corp)
        self.rdata["ipo"] = None
        self.rdata["last_to_act"] = a["starter"]
        self.rdata.setdefault("current_actions", []).append("par")
        # the start is the starter's whole turn
        for s in rounds.steps(g):
            if s is not self and s.active() and s.st.name.split("#")[0] == STOCK_STEP:
                s.pass_()
        g.epoch += 1


def conversion_target(g: Context, corp: str) -> int | None:
    conv = PARAMS.of(g).conversions.get(size_of(g, corp))
    if conv is None:
        return None
    if PARAMS.of(g).conversion_needs_phase_size and conv.to not in phase_sizes(g):
        return None
    return conv.to


def convert_company(g: Context, corp: str) -> tuple[int, int] | None:
    """Convert ``corp`` to its next size: new treasury certificates; the markers it must now buy (at most up to
    ``max_markers``, every marker it has counting) and their price each."""
    conv = PARAMS.of(g).conversions.get(size_of(g, corp))
    if conv is None:
        return None
    before = size_of(g, corp)
    resize(g, corp, conv.to, conv.new_treasury_shares)
    g.log(f"{corp} converts from {before} to {conv.to} shares")
    need = conv.markers_bought
    cap = PARAMS.of(g).max_markers
    if cap is not None:
        need = max(0, min(need, cap - len(g.state.corporations[corp].tokens)))
    return need, PARAMS.of(g).marker_price


def corporation_closed(g: Context, corp: str) -> None:
    STATE.of(g).sizes.pop(corp, None)


def ipo_by_auction(g: Context) -> bool:
    return PARAMS.of(g).ipo_auction is not None


def stock_turn_options(g: Context, player: str) -> bool:
    if PARAMS.of(g).ipo_auction is None:
        return False
    if any(a in ("buy_shares", "par") for a in g.state.round.data.get("current_actions") or []):
        return False  # the turn's buy (or start) is done
    corps = g.state.corporations
    if not any(not corps[c].ipoed and not corps[c].closed for c in g.state.corp_order):
        return False
    return max_bid(g, player) >= _ipo(g).min_bid


class _Conversions:
    """The :class:`~railbook.engine.interfaces.Conversions` this mechanic provides."""

    target = staticmethod(conversion_target)
    convert = staticmethod(convert_company)


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={IPO_AUCTION_STEP: IpoAuctionStep},
    hooks={
        "share_unit": share_unit,
        # a size's share cap overrides stock_round's limit (priority 0)
        "holding_limit": First(holding_limit, 10),
        "company_sold": company_sold,
        "ipo_by_auction": ipo_by_auction,
        "stock_turn_options": stock_turn_options,
        "corporation_closed": corporation_closed,
        "action_processed": markers_paid,
        "stock_round_finished": markers_unpaid,
    },
    state=State,
    provides=[CONVERSIONS.provided_by(_Conversions())],
)
