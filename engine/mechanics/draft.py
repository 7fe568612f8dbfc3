"""``draft``: the private draft with blank cards (1846 "distribution").

The deck is the privates in play plus ``deck.blanks[players]`` blank cards, shuffled.  In reverse seating
order each player is shown the top ``players + 2`` cards (``hand_size``), keeps one (``bid`` action naming
it) and the rest go back, shuffled, under the deck.  The draft ends when a hand is all blanks or when only
one private is left; that last one is offered in turn, its price dropping by ``last_private.
price_drop_per_pass`` per ``pass`` until it is free, when the next player must take it.  Choices are paid
at the end: price = face value + the independent's debt (``mechanics.independents``) - drops.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import illegal
from ..state import BANK, Company, pkey, sym_of, xkey
from ..steps.base import Step

if TYPE_CHECKING:
    from ..game import Game


def _params(g: Game) -> dict[str, Any]:
    return g.book.mech("draft") or {}


def blanks(g: Game) -> int:
    spec = (_params(g).get("deck") or {}).get("blanks", len(g.state.players))
    if isinstance(spec, dict):
        n = len(g.state.players)
        return int(spec.get(str(n), spec.get(n, n)))
    return int(spec)


def hand_size(g: Game) -> int:
    spec = _params(g).get("hand_size", "players_plus_2")
    n = len(g.state.players)
    if isinstance(spec, int):
        return spec
    if isinstance(spec, str) and spec.startswith("players_plus_"):
        return n + int(spec.rsplit("_", 1)[1])
    return n + 2


def prepare_deck(g: Game) -> None:
    from .random_removal import shuffle

    if "draft_deck" in g.state.extra:
        return
    deck = [sym for sym, c in g.state.companies.items() if not c.closed and not c.removed]
    for i in range(blanks(g)):
        sym = f"Pass ({i + 1})"
        g.state.companies[sym] = Company(sym=sym, blank=True)
        deck.append(sym)
    g.state.extra["draft_deck"] = shuffle(g, deck)


def drop_from_deck(g: Game, sym: str) -> None:
    deck = g.state.extra.get("draft_deck")
    if deck and sym in deck:
        deck.remove(sym)


def setup(g: Game) -> None:
    prepare_deck(g)


def first_round_kind(g: Game) -> str:
    return "draft"


def round_entities(g: Game, kind: str) -> list[str] | None:
    if kind == "draft":
        return list(reversed(g.player_keys()))
    return None


def steps_for(g: Game, kind: str) -> list[tuple[int, str, dict[str, Any]]]:
    return [(10, "draft", {})] if kind == "draft" else []


def debt(g: Game, sym: str) -> int:
    indep = g.book.mech("independents") or {}
    for spec in (indep.get("companies") or {}).values():
        if spec.get("private") == sym:
            return int(spec.get("debt") or 0)
    return 0


def price(g: Game, c: Company) -> int:
    """What the chooser pays: face value + debt - the drops of an unwanted last private."""
    return c.value + debt(g, c.sym) - c.discount


class DraftStep(Step):
    name = "draft"
    description = "Draft Companies"

    @staticmethod
    def round_state() -> dict[str, Any]:
        return {"choices": {}}

    @property
    def deck(self) -> list[str]:
        return self.g.state.extra["draft_deck"]

    def available(self) -> list[str]:
        return self.deck[: hand_size(self.g)]

    def blank(self, sym: str) -> bool:
        return self.g.state.companies[sym].blank

    def all_blank(self) -> bool:
        return len(self.deck) < hand_size(self.g) and all(self.blank(c) for c in self.available())

    def only_one(self) -> bool:
        return len(self.deck) == 1 and not self.blank(self.deck[0])

    def finished(self) -> bool:
        return self.all_blank() or not self.deck

    def actions(self, entity: str) -> list[str]:
        if self.finished() or entity != self.current_entity():
            return []
        return ["bid", "pass"] if self.only_one() else ["bid"]

    def legal(self, entity: str) -> list[dict[str, Any]]:
        acts = self.actions(entity)
        out = []
        if "bid" in acts:
            out.append({"type": "bid", "choices": [{"company": c} for c in self.available()]})
        if "pass" in acts:
            out.append({"type": "pass"})
        return out

    def process_bid(self, action: dict[str, Any], entity: str) -> None:
        sym = action.get("company")
        if sym not in self.g.state.companies:
            raise illegal("draft.company", f"no company {sym!r}")
        self.choose(entity, str(sym))
        self._next()
        self.finalize()

    def process_pass(self, action: dict[str, Any], entity: str) -> None:
        if not self.only_one():
            raise illegal("draft.pass", "a player may pass only when one private is left")
        c = self.g.state.companies[self.deck[0]]
        drop = int((_params(self.g).get("last_private") or {}).get("price_drop_per_pass", 10))
        c.discount += drop
        self.g.log(f"{c.sym} price decreases to {price(self.g, c)}")
        self._next()
        if c.value - c.discount <= 0:
            self.choose(self.current_entity(), c.sym)
            self.finalize()

    def _next(self) -> None:
        r = self.round
        r.entity_index = (r.entity_index + 1) % len(r.entities)

    def choose(self, player: str, sym: str) -> None:
        avail = self.available()
        if sym not in avail:
            raise illegal("draft.choice", f"{sym} is not among the cards offered")
        choices = self.rdata["choices"]
        choices.setdefault(player, []).append(sym)
        if self.only_one():
            self.deck.clear()
        else:
            from .random_removal import shuffle

            for c in avail:
                self.deck.remove(c)
            rest = shuffle(self.g, avail)
            rest.remove(sym)
            self.deck.extend(rest)
        self.g.state.companies[sym].owner = player
        self.g.log(f"{self.g.name(player)} chooses a company")

    def finalize(self) -> None:
        if not self.finished():
            return
        g = self.g
        self.round.entity_index = 0
        for player, chosen in self.rdata["choices"].items():
            for sym in chosen:
                c = g.state.companies[sym]
                if c.blank:
                    c.owner = None
                    continue
                c.owner = player
                g.player(player).companies.append(sym)
                cost = price(g, c)
                if cost > 0:
                    g.spend(player, BANK, cost)
                g.log(f"{g.name(player)} buys {sym} for {cost}")
                from . import independents

                independents.float_minor(g, sym, player)


STEPS = {"draft": DraftStep}

__all__ = ["pkey", "sym_of", "xkey"]
