"""``company_stock_actions``: a president acts for a company in the stock round (not yet played by the engine).

On his stock turn a president may, instead of acting for himself, take one of ``actions`` for a company he
presides.  What each action does and its limits are the parameters of its own mechanic (``issue_redeem``
for redemption, ``reissue`` for reissue).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from .. import market, rounds, shares
from ..contract import Mechanic
from ..contract import Params as BaseParams
from ..errors import illegal
from ..state import BANK, POOL, ckey, kind_of, sym_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..game import Game


class Params(BaseParams):
    """Which company actions a president may take on his stock turn, and what they cost him."""

    actions: list[Literal["redeem", "reissue", "take_loans", "buy_own_shares"]] = Field(
        min_length=1,
        description="the company actions allowed: `redeem` (the company buys one of its shares, see "
        "issue_redeem), `reissue` (its redeemed shares go back on sale, see reissue), `take_loans` (one or "
        "more, up to its cap, see loans) or `buy_own_shares` (one or more from the market at the current "
        "price, paid to the bank)",
    )
    several_in_order: bool = Field(
        False, description="the company may take several of `actions` in one turn, in the order listed"
    )
    forbidden_zones: list[str] = Field(
        [], description="market cell kinds (market legend) in which the company may not act"
    )
    whole_turn: bool = Field(
        True, description="a company action is the president's whole stock turn (no buying or selling for himself)"
    )
    moves_priority: bool = Field(True, description="a company action counts as an action for passing the priority deal")


def _p(g: Game) -> Params:
    return g.params["company_stock_actions"]  # type: ignore[return-value]


def _zone_ok(g: Game, corp: str) -> bool:
    kinds = market.kinds_at(g, g.state.corporations[corp].price)
    return not any(z in kinds for z in _p(g).forbidden_zones)


def own_pool_bundle(g: Game, corp: str) -> shares.Bundle | None:
    """One of the company's shares in the market that its treasury can pay for (``buy_own_shares``)."""
    if "buy_own_shares" not in _p(g).actions or not _zone_ok(g, corp):
        return None
    ids = [s for s in shares.shares_of(g, POOL, corp) if g.state.shares[s].percent > 0]
    if not ids:
        return None
    b = shares.make_bundle(g, ids[:1])
    return b if g.cash(ckey(corp)) >= shares.bundle_price(g, b) else None


def company_actions(g: Game, corp: str, last: str | None) -> list[str]:
    """The loan and share actions company ``corp`` (a symbol) may take now, after its action ``last``."""
    if not _zone_ok(g, corp):
        return []
    acts = []
    order = _p(g).actions
    if "take_loans" in order and last in (None, "take_loan") and g.hooks("may_take_loan", corp):
        acts.append("take_loan")
    if own_pool_bundle(g, corp) is not None:
        acts.append("buy_shares")
    return acts


def _presided(g: Game, player: str) -> list[str]:
    corps = g.state.corporations
    return [c for c in g.state.corp_order if corps[c].owner == player and corps[c].ipoed and not corps[c].closed]


class CompanyTurn(Step):
    """A president's stock turn taken for one company he presides (its loans, its own shares)."""

    name = "company_turn"
    description = "Act for a Company"

    @staticmethod
    def round_state() -> dict[str, Any]:
        return {"company_turn": None}

    def setup(self) -> None:
        self.rdata["company_turn"] = None

    def blocks(self) -> bool:
        return self.rdata.get("company_turn") is not None

    def _player(self) -> str | None:
        r = self.round
        return r.entities[r.entity_index] if r.entities else None

    def active_entities(self) -> list[str]:
        player = self._player()
        return [player] if player else []

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

    def process_take_loan(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        if "take_loan" not in self.actions(entity):
            raise illegal("company_turn.loan", f"{sym_of(entity)} cannot take a loan now")
        g.hooks("take_loan", sym_of(entity))
        self._acted(entity, "take_loan")

    def process_buy_shares(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        corp = sym_of(entity)
        b = shares.make_bundle(g, list(action.get("shares") or []))
        if "buy_shares" not in self.actions(entity) or b.corp != corp or b.owner != POOL:
            raise illegal("company_turn.buy", f"{corp} cannot buy {', '.join(b.shares)} now")
        shares.transfer(g, b, entity, spender=entity, receiver=BANK, allow_president_change=False)
        g.log(f"{corp} buys back {b.percent}% of its shares")
        self._acted(entity, "buy_shares")

    def _acted(self, entity: str, atype: str) -> None:
        self.rdata["company_turn"] = {"corp": entity, "last": atype}
        self.rdata["last_to_act"] = self._player()
        self.g.epoch += 1

    def process_pass(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        self.rdata.setdefault("current_actions", []).append("company_turn")
        for s in rounds.steps(g):
            if s.active() and s.st.name.split("#")[0] == "stock":
                s.pass_()
        self.pass_()


def stock_turn_options(g: Game, player: str) -> bool:
    return any(company_actions(g, corp, None) for corp in _presided(g, player))


MECHANIC = Mechanic(
    name="company_stock_actions",
    description="corporations act in the stock round",
    params=Params,
    steps={"company_turn": CompanyTurn},
    hooks={"stock_turn_options": stock_turn_options},
)
