"""``private_abilities``: the abilities of private companies that an event sets off.

Each is an ability of the private (companies.yaml), timed by an event word in ``when``:

* ``{type: close, when: bought_train, corporation: X}``: the private closes when ``X`` buys a train (its first:
  the private is gone after it); without ``corporation``, when the corporation whose certificate comes with the
  private (its ``shares`` ability) buys one, or else when the corporation owning the private does;
* ``{type: close, when: sold}``: the private closes when a corporation buys it;
* ``{type: tile_lay, when: sold, hexes: [...], tiles: [...]}``: when a corporation buys the private, a tile is laid
  with it at once (the selling player's lay, for the buying corporation, besides its turn's lays; as the ability's
  ``free`` says); step ``sold_track`` (put it first in the operating round) holds the round until the private lays
  or passes;
* ``{type: train, when: sold, params: {train: "2"}}``: a corporation buying the private gets the next bank train
  of that name with it, free (the phase and rusting consequences of a purchase follow).

* ``{type: shares, params: {random: president}}``: the private comes with the president's certificate of a
  corporation drawn when the game is set up, with the site's seeded generator (one draw, modulo the number of
  corporations, in the order of companies.yaml).

*Parameters*: none beyond the abilities' own fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from railbook.params.private_abilities import DECLARATION, SOLD_TRACK_STEP

from .. import depot
from ..closing import close_company
from ..contract import Mechanic
from ..errors import illegal
from ..interfaces import TILE_LAYS
from ..rng import Lcg
from ..state import ckey, kind_of, sym_of, xkey
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context
    from ..state import Ability, Company


def setup(g: Context) -> None:
    """Draw the certificates of ``shares`` abilities with ``params.random``."""
    corps = list(g.book.corporations)
    for c in g.state.companies.values():
        for a in c.abilities:
            if a.type != "shares" or (a.spec.get("params") or {}).get("random") != "president" or not corps:
                continue
            r = Lcg(g.state.seed)
            sym = corps[r.draw() % len(corps)]
            g.state.seed = r.seed
            a.spec["shares"] = [f"{sym}_0"]


def _closing_corporation(c: Company, a: Ability) -> str | None:
    target = a.spec.get("corporation")
    if target:
        return ckey(str(target))
    for other in c.abilities:
        if other.type == "shares" and other.spec.get("shares"):
            return ckey(str(other.spec["shares"][0]).rsplit("_", 1)[0])
    return c.owner


def train_bought(g: Context, buyer: str, tid: str, source: str) -> None:
    """Privates whose ``close`` ability waits for a corporation's train purchase close."""
    if kind_of(buyer) != "C":
        return
    for sym, c in g.state.companies.items():
        if c.closed:
            continue
        for a in c.abilities:
            if a.type != "close" or a.spec.get("when") != "bought_train":
                continue
            if buyer == _closing_corporation(c, a):
                g.log(f"{sym} closes: {sym_of(buyer)} bought a train")
                close_company(g, sym)
                break


def company_sold(g: Context, sym: str, corp: str) -> None:
    """A corporation bought private ``sym``: abilities timed ``sold`` act now."""
    c = g.state.companies[sym]
    for a in list(c.abilities):
        if a.spec.get("when") != "sold":
            continue
        if a.type == "train":
            name = str((a.spec.get("params") or {}).get("train") or "")
            tid = next((t for t in g.state.depot if g.state.trains[t].sym == name), None)
            if tid is not None:
                g.log(f"{sym_of(corp)} receives a {name} train with {sym}")
                depot.buy_train(g, corp, tid, 0, None)
            g.remove_ability(xkey(sym), a)
        elif a.type == "tile_lay":
            g.state.round.data["sold_lay"] = xkey(sym)
        elif a.type == "close":
            close_company(g, sym)
            return


def _sold_lay(g: Context, company: str) -> Ability | None:
    for a in g.state.companies[sym_of(company)].abilities:
        if a.type == "tile_lay" and a.spec.get("when") == "sold":
            return a
    return None


class SoldTrack(Step):
    """The tile a private lays when a corporation buys it (ability ``tile_lay`` with ``when: sold``)."""

    name = SOLD_TRACK_STEP
    description = "Lay the tile of a private just sold"
    offers = frozenset({"lay_tile", "pass"})

    def _pending(self) -> str | None:
        found = self.rdata.get("sold_lay")
        return str(found) if found else None

    def blocks(self) -> bool:
        return self._pending() is not None

    def active_entities(self) -> list[str]:
        pending = self._pending()
        return [pending] if pending else super().active_entities()

    def actions(self, entity: str) -> list[str]:
        return ["lay_tile", "pass"] if entity == self._pending() else []

    def legal(self, entity: str) -> list[dict[str, Any]]:
        return [{"type": "pass"}] if self.actions(entity) else []  # (the lay: the ability's tiles on its hexes)

    def process_lay_tile(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        a = _sold_lay(g, entity) if entity == self._pending() else None
        if a is None:
            raise illegal("sold_track.ability", f"{sym_of(entity)} has no tile to lay now")
        corp = g.company(entity).owner
        assert corp is not None
        TILE_LAYS.of(g).ability_lay(g, entity, corp, action, entity, a)
        g.use_ability(entity, a)
        self.rdata["sold_lay"] = None

    def process_pass(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        if entity != self._pending():
            raise illegal("sold_track.pass", f"{sym_of(entity)} has nothing to pass")
        a = _sold_lay(g, entity)
        if a is not None:
            g.remove_ability(entity, a)
        self.rdata["sold_lay"] = None

    @staticmethod
    def round_state() -> dict[str, Any]:
        return {"sold_lay": None}


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={SOLD_TRACK_STEP: SoldTrack},
    hooks={"setup": setup, "train_bought": train_bought, "company_sold": company_sold},
)
