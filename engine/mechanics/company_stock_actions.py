"""``company_stock_actions``: a president acts for a company in the stock round.

On his stock turn a president may, instead of acting for himself, take one of ``actions`` for a company he
presides.  What each action does and its limits are the parameters of its own mechanic (``issue_redeem``
for redemption, ``reissue`` for reissue).  Played here: ``redeem`` (a ``buy_shares`` action of the company:
one share from the market first, else from a player other than a president who would lose the chair, at the
market price, paid to the bank or that player; once per stock round and only with the cash it had at the
round's start; the share is not for sale again until reissued) and ``reissue`` (a ``sell_shares`` action of
the company: its redeemed shares go back on sale at the par the ``Reissue`` interface gives).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from railbook.params.company_stock_actions import COMPANY_STOCK_STEP, COMPANY_TURN_STEP, DECLARATION, Params
from railbook.params.stock_round import STOCK_STEP

from .. import market, rounds, shares
from ..access import params_of
from ..contract import Mechanic
from ..errors import illegal
from ..interfaces import LOANS, REDEMPTION, REISSUE, RedemptionRules
from ..state import BANK, POOL, ckey, kind_of, sym_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


PARAMS = params_of(DECLARATION, Params)


def _zone_ok(g: Context, corp: str) -> bool:
    kinds = market.kinds_at(g, g.state.corporations[corp].price)
    return not any(z in kinds for z in PARAMS.of(g).forbidden_zones)


def own_pool_bundles(g: Context, corp: str, most: int | None = None) -> list[shares.Bundle]:
    """The bundles of one, two, ... (at most ``most``) of the company's shares in the market that its treasury
    can pay for (``buy_own_shares``)."""
    if "buy_own_shares" not in PARAMS.of(g).actions or not _zone_ok(g, corp):
        return []
    ids = [s for s in shares.shares_of(g, POOL, corp) if g.state.shares[s].percent > 0]
    out = []
    for n in range(1, min(len(ids), most or len(ids)) + 1):
        b = shares.make_bundle(g, ids[:n])
        if g.cash(ckey(corp)) < shares.bundle_price(g, b):
            break
        out.append(b)
    return out


def own_pool_bundle(g: Context, corp: str) -> shares.Bundle | None:
    """One of the company's shares in the market that its treasury can pay for."""
    found = own_pool_bundles(g, corp, most=1)
    return found[0] if found else None


def company_actions(g: Context, corp: str, last: str | None) -> list[str]:
    """The loan and share actions company ``corp`` (a symbol) may take now, after its action ``last``."""
    if not _zone_ok(g, corp) and not PARAMS.of(g).loans_in_forbidden_zones:
        return []
    acts = []
    order = PARAMS.of(g).actions
    loans = LOANS.get(g)
    if "take_loans" in order and last in (None, "take_loan") and loans is not None and loans.may_take(g, corp):
        acts.append("take_loan")
    if own_pool_bundle(g, corp) is not None:
        acts.append("buy_shares")
    return acts


def _presided(g: Context, player: str) -> list[str]:
    corps = g.state.corporations
    return [c for c in g.state.corp_order if corps[c].owner == player and corps[c].ipoed and not corps[c].closed]


class CompanyTurn(Step):
    """A president's stock turn taken for one company he presides (its loans, its own shares)."""

    name = COMPANY_TURN_STEP
    description = "Act for a Company"

    @staticmethod
    def round_state() -> dict[str, Any]:
        return {"company_turn": None}

    @cython.locals(self="StepBase")
    def setup(self) -> None:
        self.rdata["company_turn"] = None

    @cython.locals(self="StepBase")
    def blocks(self) -> bool:
        return self.rdata.get("company_turn") is not None

    def _player(self) -> str | None:
        r = self.round
        return r.entities[r.entity_index] if r.entities else None

    def active_entities(self) -> list[str]:
        player = self._player()
        return [player] if player else []

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        g = self.g
        player = self._player()
        turn = self.rdata.get("company_turn")
        if kind_of(entity) == "P":
            return ["pass"] if turn is not None and entity == player else []
        if kind_of(entity) != "C" or player is None or g.owner(entity) != player:
            return []
        if self.rdata.get("current_actions") or (turn is not None and turn["corp"] != entity):
            return []
        return company_actions(g, sym_of(entity), turn["last"] if turn else None)

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for atype in self.actions(entity):
            if atype == "buy_shares":
                bundles = own_pool_bundles(self.g, sym_of(entity))
                if bundles:
                    out.append({"type": "buy_shares", "choices": [{"shares": b.shares} for b in bundles]})
            else:
                out.append({"type": atype})
        return out

    @cython.locals(self="StepBase")
    def process_take_loan(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        if "take_loan" not in self.actions(entity):
            raise illegal("company_turn.loan", f"{sym_of(entity)} cannot take a loan now")
        LOANS.of(g).take(g, sym_of(entity))  # (offered only when a mechanic provides loans)
        self._acted(entity, "take_loan")

    @cython.locals(self="StepBase")
    def process_buy_shares(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        corp = sym_of(entity)
        b = shares.make_bundle(g, list(action.get("shares") or []))
        if "buy_shares" not in self.actions(entity) or b.corp != corp or b.owner != POOL:
            raise illegal("company_turn.buy", f"{corp} cannot buy {', '.join(b.shares)} now")
        shares.transfer(g, b, entity, spender=entity, receiver=BANK, allow_president_change=False)
        g.log(f"{corp} buys back {b.percent}% of its shares")
        self._acted(entity, "buy_shares")

    @cython.locals(self="StepBase")
    def _acted(self, entity: str, atype: str) -> None:
        self.rdata["company_turn"] = {"corp": entity, "last": atype}
        self.rdata["last_to_act"] = self._player()
        self.g.epoch += 1
        if not company_actions(self.g, sym_of(entity), atype):
            self.process_pass({}, entity)  # nothing more the company may do: the turn ends by itself

    @cython.locals(self="StepBase")
    def process_pass(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        self.rdata.setdefault("current_actions", []).append("company_turn")
        for s in rounds.steps(g):
            if s.active() and s.st.name.split("#")[0] == STOCK_STEP:
                s.pass_()
        self.pass_()


def stock_turn_options(g: Context, player: str) -> bool:
    if g.state.round.data.get("current_actions"):
        return False  # he has acted for himself this turn
    return any(company_actions(g, corp, None) for corp in _presided(g, player))


def _redeem_rules(g: Context) -> RedemptionRules | None:
    """The limits of redeeming shares (None: no mechanic provides redemption)."""
    redemption = REDEMPTION.get(g)
    return redemption.rules(g) if redemption is not None else None


class CompanyStockAction(Step):
    """A president's stock turn spent acting for one of his companies (before the stock step)."""

    name = COMPANY_STOCK_STEP
    description = "Act for a company"
    offers = frozenset({"buy_shares", "sell_shares"})

    @staticmethod
    def round_state() -> dict[str, Any]:
        return {"redeem_cash": {}, "redeemed": {}}

    @cython.locals(self="StepBase")
    def setup(self) -> None:
        """The cash each company has as the round starts is what it may redeem with in it (money a reissue
        brings in comes later)."""
        cash = self.rdata["redeem_cash"]
        if not cash:  # the round's first setup
            cash.update({corp: self.g.cash(ckey(corp)) for corp in self.g.state.corporations})

    def blocks(self) -> bool:
        return False

    def skip(self) -> None:
        """Stays live all round."""

    def _turn_player(self) -> str | None:
        r = self.round
        return r.entities[r.entity_index] if r.entities else None

    @cython.locals(self="StepBase")
    def _may_act(self, corp_key: str) -> bool:
        g = self.g
        if kind_of(corp_key) != "C":
            return False
        c = g.corp(corp_key)
        if c.closed or c.owner is None or c.owner != self._turn_player():
            return False
        if self.rdata.get("current_actions") and PARAMS.of(g).whole_turn:
            return False
        forbidden = set(PARAMS.of(g).forbidden_zones)
        return not (forbidden & set(market.kinds_at(g, c.price)))

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        if not self._may_act(entity):
            return []
        acts = []
        if "redeem" in PARAMS.of(self.g).actions and self.redeemable(entity):
            acts.append("buy_shares")
        if "reissue" in PARAMS.of(self.g).actions and self.reissuable(entity):
            acts.append("sell_shares")
        return acts

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        out = []
        acts = self.actions(entity)
        if "buy_shares" in acts:
            out.append({"type": "buy_shares", "choices": [{"shares": b.shares} for b in self.redeemable(entity)]})
        if "sell_shares" in acts:
            ids = shares.shares_of(self.g, entity, sym_of(entity))
            out.append({"type": "sell_shares", "choices": [{"shares": list(ids)}]})
        return out

    # ------------------------------------------------------------------------------------- redeem

    @cython.locals(self="StepBase")
    def redeemable(self, corp_key: str) -> list[shares.Bundle]:
        g = self.g
        rules = _redeem_rules(g)
        corp = sym_of(corp_key)
        c = g.corp(corp_key)
        if rules is None or c.price is None:
            return []
        if rules.redeem_not_before == "first_operation" and not c.operated:
            return []
        done = self.rdata["redeemed"].get(corp, 0)
        if done >= rules.redeem_per_stock_round:
            return []
        held = shares.num_shares_of(g, corp_key, corp)
        if held + 1 > rules.max_treasury_shares:
            return []
        if rules.min_shares_outside is not None:
            unit = shares.share_percent(g, corp)
            outside = shares.percent_of(g, POOL, corp) + sum(
                v for v in shares.player_holders(g, corp).values() if v > 0
            )
            if outside // unit - 1 < rules.min_shares_outside:
                return []
        cash = self.rdata["redeem_cash"].setdefault(corp, g.cash(corp_key))
        if shares.price_per_share(g, corp) > min(cash, g.cash(corp_key)):
            return []
        pool = [s for s in shares.shares_of(g, POOL, corp) if not g.state.shares[s].president]
        if pool:
            return [shares.make_bundle(g, [pool[0]])]
        if rules.redeem_from == "pool":
            return []
        holders = shares.player_holders(g, corp)
        others = [v for p, v in holders.items() if p != c.owner]
        top = max(others, default=0)
        out = []
        for p, v in holders.items():
            if v <= 0 or (p == c.owner and v == top):
                continue
            if rules.redeem_from == "pool_then_president" and p != c.owner:
                continue
            ids = [s for s in shares.shares_of(g, p, corp) if not g.state.shares[s].president]
            if ids:
                out.append(shares.make_bundle(g, [ids[0]]))
        return out

    def process_buy_shares(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        corp = sym_of(entity)
        if not self._may_act(entity) or "redeem" not in PARAMS.of(g).actions:
            raise illegal("company.redeem", f"{corp} cannot redeem a share now")
        b = shares.make_bundle(g, [str(s) for s in action.get("shares") or []])
        if b.corp != corp or not any(set(x.shares) == set(b.shares) for x in self.redeemable(entity)):
            raise illegal("company.redeem", f"{corp} cannot redeem {', '.join(b.shares)}")
        price = shares.bundle_price(g, b)
        receiver = BANK if b.owner == POOL else b.owner
        shares.transfer(g, b, entity, spender=entity, receiver=receiver, price=price, allow_president_change=False)
        for sid in b.shares:
            g.state.shares[sid].buyable = False
        self.rdata["redeemed"][corp] = self.rdata["redeemed"].get(corp, 0) + 1
        self.rdata["redeem_cash"][corp] = 0
        g.log(f"{corp} redeems {', '.join(b.shares)} for {price}")
        self._acted("buy_shares")

    # ------------------------------------------------------------------------------------ reissue

    @cython.locals(self="StepBase")
    def reissuable(self, corp_key: str) -> bool:
        g = self.g
        ids = shares.shares_of(g, corp_key, sym_of(corp_key))
        if not ids or any(g.state.shares[s].buyable for s in ids):
            return False
        reissue = REISSUE.get(g)
        return reissue is not None and reissue.par(g, sym_of(corp_key)) is not None

    @cython.locals(self="StepBase")
    def process_sell_shares(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        corp = sym_of(entity)
        if not self._may_act(entity) or "reissue" not in PARAMS.of(g).actions or not self.reissuable(entity):
            raise illegal("company.reissue", f"{corp} cannot reissue shares now")
        reissue = REISSUE.of(g)  # (reissuable: a mechanic provides it)
        par = reissue.par(g, corp)
        c = g.corp(entity)
        if par is not None and market.price_at(g, par) > market.price_at(g, c.par):
            c.par = list(par)
        for sid in shares.shares_of(g, entity, corp):
            g.state.shares[sid].buyable = True
        reissue.reissued(g, corp)
        g.log(f"{corp} reissues its shares at {market.price_at(g, c.par)}")
        self._acted("sell_shares")

    @cython.locals(self="StepBase")
    def _acted(self, kind: str) -> None:
        g = self.g
        player = self._turn_player()
        self.rdata.setdefault("current_actions", []).append(kind)
        self.rdata.setdefault("current_actions", []).append("company_action")
        if player and PARAMS.of(g).moves_priority:
            self.rdata["last_to_act"] = player
        g.epoch += 1


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={COMPANY_TURN_STEP: CompanyTurn, COMPANY_STOCK_STEP: CompanyStockAction},
    hooks={"stock_turn_options": stock_turn_options},
)
