"""``draft``: the private draft with blank cards.

The deck is the privates in play plus ``blanks`` blank cards, shuffled with the game's generator.  In reverse
seating order each player is shown the top (players + ``hand_size_over_players``) cards, keeps one (a ``bid``
action naming it) and the rest go back, shuffled, under the deck.  The draft ends when a hand is all blanks or
when only one private is left; that last one is offered in turn, its price dropping by
``last_private_price_drop`` per ``pass`` until it is free, when the next player must take it.  Choices are paid
at the end: face value + what other mechanics add (``acquisition_extra_cost``: an independent's debt) - drops.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from railbook.params.draft import DECLARATION, DRAFT_STEP, Params

from .. import rounds
from ..access import params_of, state_of
from ..contract import First, Mechanic
from ..errors import illegal
from ..rng import shuffle_game
from ..state import BANK, Company
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


@dataclass(slots=True)
class State:
    """The draft deck, top first (private ids and blank card ids)."""

    deck: list[str] = field(default_factory=list)
    prepared: bool = False


PARAMS = params_of(DECLARATION, Params)
STATE = state_of(DECLARATION, State)


@cython.locals(g="Context")
def blanks(g: Context) -> int:
    n = len(g.state.players)
    return PARAMS.of(g).blanks.get(n, n)


@cython.locals(g="Context")
def hand_size(g: Context) -> int:
    return len(g.state.players) + PARAMS.of(g).hand_size_over_players


@cython.locals(g="Context")
def prepare_deck(g: Context) -> None:
    st = STATE.of(g)
    if st.prepared:
        return
    deck = [sym for sym, c in g.state.companies.items() if not c.closed and not c.removed]
    for i in range(blanks(g)):
        sym = f"Pass ({i + 1})"
        g.state.companies[sym] = Company(sym=sym, blank=True)
        deck.append(sym)
    st.deck = shuffle_game(g.state, deck)
    st.prepared = True


@cython.locals(g="Context")
def seeded_setup(g: Context, part: str) -> None:
    if part == "draft_deck":
        prepare_deck(g)


@cython.locals(g="Context")
def company_removed(g: Context, sym: str) -> None:
    deck = STATE.of(g).deck
    if sym in deck:
        deck.remove(sym)


@cython.locals(g="Context")
def round_entities(g: Context, kind: str) -> list[str] | None:
    if kind == "draft":
        return list(reversed(g.player_keys()))
    return None


@cython.locals(g="Context", c="Company")
def price(g: Context, c: Company) -> int:
    """What the chooser pays: face value + what other rules add (an independent's debt) - the price drops."""
    return c.value + g.hooks("acquisition_extra_cost", c.sym) - c.discount


class DraftStep(Step):
    name = DRAFT_STEP
    description = "Draft Companies"

    @staticmethod
    def round_state() -> dict[str, Any]:
        return {"choices": {}}

    @property
    @cython.locals(self="StepBase")
    def deck(self) -> list[str]:
        return STATE.of(self.g).deck

    @cython.locals(self="StepBase")
    def available(self) -> list[str]:
        return self.deck[: hand_size(self.g)]

    @cython.locals(self="StepBase")
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

    @cython.locals(self="StepBase")
    def process_bid(self, action: dict[str, Any], entity: str) -> None:
        sym = action.get("company")
        if sym not in self.g.state.companies:
            raise illegal("draft.company", f"no company {sym!r}")
        self.choose(entity, str(sym))
        self._next()
        self.finalize()

    @cython.locals(self="StepBase")
    def process_pass(self, action: dict[str, Any], entity: str) -> None:
        if not self.only_one():
            raise illegal("draft.pass", "a player may pass only when one private is left")
        c = self.g.state.companies[self.deck[0]]
        c.discount += PARAMS.of(self.g).last_private_price_drop
        self.g.log(f"{c.sym} price decreases to {price(self.g, c)}")
        self._next()
        if c.value - c.discount <= 0:
            self.choose(self.current_entity(), c.sym)
            self.finalize()

    def _next(self) -> None:
        r = self.round
        r.entity_index = (r.entity_index + 1) % len(r.entities)

    @cython.locals(self="StepBase")
    def choose(self, player: str, sym: str) -> None:
        avail = self.available()
        if sym not in avail:
            raise illegal("draft.choice", f"{sym} is not among the cards offered")
        choices = self.rdata["choices"]
        choices.setdefault(player, []).append(sym)
        if self.only_one():
            self.deck.clear()
        else:
            for c in avail:
                self.deck.remove(c)
            rest = shuffle_game(self.g.state, avail)
            rest.remove(sym)
            self.deck.extend(rest)
        self.g.state.companies[sym].owner = player
        self.g.log(f"{self.g.name(player)} chooses a company")

    @cython.locals(self="StepBase")
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
                g.hooks("company_acquired", sym, player)


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={DRAFT_STEP: DraftStep},
    round_types={"draft": rounds.step_round("draft")},
    hooks={
        "setup": lambda g: prepare_deck(g),
        "seeded_setup": seeded_setup,
        "company_removed": company_removed,
        # answers only its round kind (draft); any priority no other answerer of that kind has
        "round_entities": First(round_entities, 20),
    },
    state=State,
)
