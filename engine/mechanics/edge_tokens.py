"""``edge_tokens``: tokens on red off-board areas that make the area count more for their owner.

Each listed company has one edge token besides the station tokens on its charter, which may only be placed
on its own off-board area, reached by any track connection of the company.  Placing it costs ``cost`` and
(``counts_as_token_placement``) is the company's one token placement of the operating round: step
``edge_token`` (listed after the track step, before the ``token`` step) offers it while the token step is
open.  A route of that company counting the area earns the area's value ``multiplier`` times (a route bonus of
:mod:`railbook.engine.bonuses`, so the route optimiser scores it the same way).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from railbook.params.edge_tokens import DECLARATION, EDGE_TOKEN_STEP, Params
from railbook.params.track import TOKEN_STEP, TRACK_AND_TOKEN_STEP

from .. import board, rounds
from ..access import params_of, state_of
from ..contract import Mechanic
from ..errors import illegal
from ..state import BANK, kind_of, sym_of
from ..steps.base import Step

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


@dataclass(slots=True)
class State:
    """Edge tokens placed: company symbol -> off-board hex."""

    placed: dict[str, str] = field(default_factory=dict)


PARAMS = params_of(DECLARATION, Params)
STATE = state_of(DECLARATION, State)


@cython.locals(g="Context")
def area_of(g: Context, corp: str) -> str | None:
    """The off-board hex where company ``corp`` (a symbol) may place its edge token (None: it has none)."""
    for hex_id, corps in PARAMS.of(g).areas.items():
        if corp in corps:
            return hex_id
    return None


def _token_step_open(g: Context) -> bool:
    return any(s.name in (TOKEN_STEP, TRACK_AND_TOKEN_STEP) and s.active() for s in rounds.steps(g))


def can_place(g: Context, corp_key: str) -> bool:
    """``corp_key`` may place its edge token now: it has one unplaced, the cash, its turn's token placement
    unused, and track to the area."""
    if kind_of(corp_key) != "C":
        return False
    corp = sym_of(corp_key)
    area = area_of(g, corp)
    if area is None or corp in STATE.of(g).placed or g.cash(corp_key) < PARAMS.of(g).cost:
        return False
    r = g.state.round
    if r is None or r.kind != "operating" or r.data.get("current_operator") != corp_key:
        return False
    if PARAMS.of(g).counts_as_token_placement and r.data.get("tokened"):
        return False
    if not _token_step_open(g):
        return False
    return any(h == area for h, _ in board.network(g, corp_key).nodes)


class EdgeToken(Step):
    """Place the operating company's edge token (with its token placement of the turn)."""

    name = EDGE_TOKEN_STEP
    description = "Place an Edge Token"

    @cython.locals(self="StepBase")
    def _token_step_idle(self) -> bool:
        """The token step is open but has nothing else to offer: this step then holds the turn."""
        for s in rounds.steps(self.g):
            if s.name in (TOKEN_STEP, TRACK_AND_TOKEN_STEP) and s.active():
                return not s.current_actions()
        return False

    def blocks(self) -> bool:
        return self._token_step_idle()

    @cython.locals(self="StepBase")
    def actions(self, entity: str) -> list[str]:
        if entity != self.current_entity() or not can_place(self.g, entity):
            return []
        return ["choose", "pass"] if self._token_step_idle() else ["choose"]

    @cython.locals(self="StepBase")
    def legal(self, entity: str) -> list[dict[str, Any]]:
        acts = self.actions(entity)
        out: list[dict[str, Any]] = []
        if "choose" in acts:
            out.append({"type": "choose", "choices": [{"choice": PARAMS.of(self.g).record_choice or "edge_token"}]})
        if "pass" in acts:
            out.append({"type": "pass"})
        return out

    @cython.locals(self="StepBase")
    def process_choose(self, action: dict[str, Any], entity: str) -> None:
        g = self.g
        p = PARAMS.of(g)
        choice = action.get("choice")
        if choice not in (p.record_choice, "edge_token"):
            raise illegal("edge_token.choice", f"{sym_of(entity)} cannot choose {choice!r} now")
        if not can_place(g, entity):
            raise illegal("edge_token.timing", f"{sym_of(entity)} cannot place an edge token now")
        corp = sym_of(entity)
        area = area_of(g, corp)
        assert area is not None
        g.spend(entity, BANK, p.cost)
        STATE.of(g).placed[corp] = area
        if p.counts_as_token_placement:
            self.rdata["tokened"] = True
            for s in rounds.steps(g):
                if s.name in (TOKEN_STEP, TRACK_AND_TOKEN_STEP) and s.active():
                    s.st.data["tokened"] = True
        g.epoch += 1
        g.log(f"{corp} places an edge token on {area} for {p.cost}")
        if not self.actions(entity):
            self.pass_()


def area_value(g: Context, hex_id: str) -> int:
    """The area's value now: the best of its stops' revenues in the current phase."""
    nodes = board.track(g, hex_id).nodes.values()
    return max((g.book.revenue_of(n.revenue, g.state.phase) for n in nodes if n.kind != "junction"), default=0)


@cython.locals(g="Context")
def extra_bonus_specs(g: Context, corp: str, out: list[dict[str, Any]]) -> None:
    """A company's placed edge token: its area earns ``multiplier - 1`` times its value more on its routes."""
    area = STATE.of(g).placed.get(corp)
    if area is None or PARAMS.of(g).multiplier <= 1:
        return
    out.append({"type": "hex_bonus", "hexes": {area: area_value(g, area) * (PARAMS.of(g).multiplier - 1)}})


MECHANIC = Mechanic.of(
    DECLARATION,
    steps={EDGE_TOKEN_STEP: EdgeToken},
    hooks={"extra_bonus_specs": extra_bonus_specs},
    state=State,
)
