"""``issue_redeem``: a corporation issues treasury shares to the pool or redeems pool shares.

Neither moves the price; the issue limit is (player-held shares - pool shares).  The step is open from the
start of the corporation's turn until its dividend step is done; one issue or one redeem per turn.  With
``emergency_issue``, a corporation that must buy a train and cannot may issue shares first, each share moving
the price one step left first and selling one value below the new price (shares that would raise nothing are
not allowed; no more than needed for the dearer face of the cheapest bank train).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from railbook.params.issue_redeem import DECLARATION, ISSUE_SHARES_STEP, Params

from .. import depot, market, rounds, shares
from ..access import params_of
from ..contract import Mechanic
from ..errors import illegal
from ..interfaces import EMERGENCY_ISSUE, REDEMPTION
from ..memo import memo
from ..shares import Bundle
from ..state import POOL, kind_of, sym_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


PARAMS = params_of(DECLARATION, Params)


@memo
@cython.locals(g="Context")
def step_open(g: Context) -> bool:
    r = g.state.round
    if r is None or r.kind != "operating":
        return False
    found = rounds.steps_named(g, ISSUE_SHARES_STEP)
    return found[0].active() if found else False


@memo
@cython.locals(g="Context")
def issue_limit(g: Context, corp: str) -> int:
    player_pct = sum(shares.player_holders(g, corp).values())
    sp = shares.share_percent(g, corp)
    return player_pct // sp - shares.percent_of(g, POOL, corp) // sp


@memo
@cython.locals(g="Context")
def issuable(g: Context, corp_key: str) -> list[Bundle]:
    if kind_of(corp_key) != "C" or not step_open(g):
        return []
    corp = sym_of(corp_key)
    c = g.state.corporations[corp]
    if c.price is None:
        return []
    price = market.price_at(g, market.relative(g, c.price, list(PARAMS.of(g).issue_price_move)))
    limit = issue_limit(g, corp)
    out = []
    for held in shares.bundles_for(g, corp_key, corp):
        b = held.priced(price)
        if shares.num_shares(g, b) <= limit:
            out.append(b)
    return out


def issuable_cash(g: Context, corp_key: str) -> int:
    bundles = issuable(g, corp_key)
    return max((shares.bundle_price(g, b) for b in bundles), default=0)


@memo
@cython.locals(g="Context")
def redeemable(g: Context, corp_key: str) -> list[Bundle]:
    if kind_of(corp_key) != "C" or not step_open(g):
        return []
    corp = sym_of(corp_key)
    c = g.state.corporations[corp]
    price = market.price_at(g, market.relative(g, c.price, list(PARAMS.of(g).redeem_price_move)))
    floor = PARAMS.of(g).min_shares_outside
    outside = shares.percent_of(g, POOL, corp) + sum(v for v in shares.player_holders(g, corp).values() if v > 0)
    out = []
    for held in shares.bundles_for(g, POOL, corp):
        b = held.priced(price)
        if floor is not None and (outside - b.percent) // shares.share_percent(g, corp) < floor:
            continue
        if g.cash(corp_key) >= shares.bundle_price(g, b):
            out.append(b)
    return out


def _check_price(action: dict[str, Any], match: Bundle, verb: str) -> None:
    """A ``share_price`` the action names (as its legal choice does) must be the one the rules set."""
    given = action.get("share_price")
    if given is None:
        return
    if not isinstance(given, int) or isinstance(given, bool) or given != match.share_price:
        raise illegal("issue.price", f"{match.corp} {verb} at {match.share_price} a share, not {given!r}")


def _same(a: Bundle, b: Bundle) -> bool:
    return a.corp == b.corp and sorted(a.shares) == sorted(b.shares) and a.percent == b.percent


class IssueShares(Step):
    name = ISSUE_SHARES_STEP
    description = "Issue or Redeem Shares"
    offers = frozenset({"buy_shares", "sell_shares"})

    def blocks(self) -> bool:
        return False

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        if kind_of(entity) != "C" or entity != self.current_entity():
            return []
        if self.g.hooks("in_receivership", entity):
            return []
        acts = []
        if redeemable(self.g, entity):
            acts.append("buy_shares")
        if issuable(self.g, entity):
            acts.append("sell_shares")
        return acts

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        if not self.actions(entity):
            return out
        iss = issuable(self.g, entity)
        # (each choice names its price per share, as an 18xx.games record does: one value off the market's)
        if iss:
            out.append(
                {
                    "type": "sell_shares",
                    "choices": [{"shares": b.shares, "percent": b.percent, "share_price": b.share_price} for b in iss],
                }
            )
        red = redeemable(self.g, entity)
        if red:
            out.append(
                {"type": "buy_shares", "choices": [{"shares": b.shares, "share_price": b.share_price} for b in red]}
            )
        return out

    @cython.locals(self="StepBase")
    def process_sell_shares(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        b = shares.make_bundle(g, list(action.get("shares") or []), action.get("percent"))
        options = issuable(g, entity)
        match = next((o for o in options if _same(o, b)), None)
        if match is None:
            raise illegal("issue.bundle", f"{sym_of(entity)} cannot issue {', '.join(b.shares)}")
        _check_price(action, match, "issues")
        price = shares.sell(g, match, price=shares.bundle_price(g, match))
        g.log(f"{sym_of(entity)} issues {', '.join(match.shares)} for {price}")
        self.pass_()

    @cython.locals(self="StepBase")
    def process_buy_shares(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        b = shares.make_bundle(g, list(action.get("shares") or []))
        options = redeemable(g, entity)
        match = next((o for o in options if _same(o, b)), None)
        if match is None:
            raise illegal("issue.redeem", f"{sym_of(entity)} cannot redeem {', '.join(b.shares)}")
        _check_price(action, match, "redeems")
        price = shares.bundle_price(g, match)
        shares.transfer(g, match, entity, spender=entity, receiver="bank", price=price)
        g.log(f"{sym_of(entity)} redeems {', '.join(match.shares)} for {price}")
        self.pass_()


@memo
def emergency_bundles(g: Context, corp_key: str) -> list[Bundle]:
    """Shares a trainless corporation may issue to buy a train (18xx.games / BGG errata rules)."""
    if not PARAMS.of(g).emergency_issue or kind_of(corp_key) != "C":
        return []
    if g.entity_trains(corp_key):
        return []
    if g.state.round.data.get("emergency_issued"):
        return []
    tid = depot.min_depot_train(g)
    if tid is None:
        return []
    prices = [v["price"] for v in depot.variants(g, g.state.trains[tid]).values()]
    lo, hi = min(prices), max(prices)
    cash = g.cash(corp_key)
    if cash >= hi:
        return []
    corp = sym_of(corp_key)
    c = g.state.corporations[corp]
    limit = issue_limit(g, corp)
    bundles = []
    for held in shares.bundles_for(g, corp_key, corp):
        n = shares.num_shares(g, held)
        if n <= limit:
            price = market.price_at(g, market.relative(g, c.price, ["left"] * (1 + n)))
            bundles.append(held.priced(price))
    bundles = [b for b in bundles if shares.bundle_price(g, b) > 0]
    bundles.sort(key=lambda b: shares.bundle_price(g, b))
    enough = [b for b in bundles if cash + shares.bundle_price(g, b) >= lo]
    if enough:
        for i, b in enumerate(enough):
            if cash + shares.bundle_price(g, b) >= hi:
                return enough[: i + 1]
        return enough
    if bundles:
        return [max(bundles, key=lambda b: shares.num_shares(g, b))]
    return []


@cython.locals(g="Context", b="Bundle")
def emergency_issue(g: Context, corp_key: str, b: Bundle) -> int:
    """Issue a bundle in an emergency: sell it, then move the price left once per share."""
    corp = sym_of(corp_key)
    price = shares.sell(g, b, price=shares.bundle_price(g, b))
    market.move(g, corp, "left", shares.num_shares(g, b))
    g.state.round.data["emergency_issued"] = True
    return price


def round_started(g: Context, kind: str) -> None:
    if kind == "operating":
        g.state.round.data["emergency_issued"] = False


def operator_started(g: Context, entity: str) -> None:
    g.state.round.data["emergency_issued"] = False


@cython.locals(g="Context")
def may_buy_company(g: Context, private: str, corp_key: str) -> bool:
    """Shares issued for a train the corporation must buy pay for that train: no private is bought meanwhile
    (1846 §6.5 "Mandatory Train Purchase": all of the treasury, then the issued shares' money, go to the train)."""
    r = g.state.round
    if r is None or not r.data.get("emergency_issued") or g.current_operator() != corp_key:
        return True
    return bool(g.entity_trains(corp_key))  # (the train bought, the turn's last purchases are free again)


class _EmergencyIssue:
    """The :class:`~railbook.engine.interfaces.EmergencyIssue` this mechanic provides."""

    bundles = staticmethod(emergency_bundles)
    issue = staticmethod(emergency_issue)


class _Redemption:
    """The :class:`~railbook.engine.interfaces.Redemption` this mechanic provides."""

    rules = staticmethod(PARAMS.of)


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={ISSUE_SHARES_STEP: IssueShares},
    hooks={
        "round_started": round_started,
        "operator_started": operator_started,
        "issuable_cash": issuable_cash,
        "may_buy_company": may_buy_company,
    },
    provides=[EMERGENCY_ISSUE.provided_by(_EmergencyIssue()), REDEMPTION.provided_by(_Redemption())],
)
