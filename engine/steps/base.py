"""The step abstraction: a round is an ordered list of steps, each owning some kinds of actions.

A step is *active* until it passes; it *blocks* the round while it still has actions for its current
entity.  An action is handled by the first active step that blocks or accepts it (earlier non-blocking
steps — private abilities, buying privates — accept actions at any time).  Step objects are throwaway
views: all their state lives in :class:`railbook.engine.state.StepState` (``self.st``) or the round's data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from .. import memo as _memo
from ..errors import illegal
from ..state import StepState

if TYPE_CHECKING:
    from ..game import Game


class Step:
    """Base class; subclasses set ``name`` and implement ``actions`` and ``process_<type>``."""

    name: ClassVar[str] = "step"
    description: ClassVar[str] = ""

    def __init__(self, g: Game, st: StepState, opts: dict[str, Any]):
        self.g = g
        self.st = st
        self.opts = opts

    # ------------------------------------------------------------------------------------- state

    @property
    def round(self) -> Any:
        return self.g.state.round

    @property
    def rdata(self) -> dict[str, Any]:
        return self.g.state.round.data

    def active(self) -> bool:
        return not self.st.passed

    def pass_(self) -> None:
        self.st.passed = True
        self.g.epoch += 1

    def unpass(self) -> None:
        self.st.passed = False
        self.st.acted = False
        self.g.epoch += 1

    @staticmethod
    def round_state() -> dict[str, Any]:
        """Round-level data this step needs (merged into the round's data at creation)."""
        return {}

    def setup(self) -> None:
        """Called when the step (re)starts for an entity's turn."""

    # --------------------------------------------------------------------------------- entities

    def active_entities(self) -> list[str]:
        r = self.round
        if not r.entities:
            return []
        return [r.entities[r.entity_index]]

    def current_entity(self) -> str | None:
        ents = self.active_entities()
        return ents[0] if ents else None

    # ---------------------------------------------------------------------------------- actions

    def actions(self, entity: str) -> list[str]:
        return []

    def blocks(self) -> bool:
        return True

    def current_actions(self) -> list[str]:
        """Actions of the current entity; memoised until the round machinery marks a change (epoch)."""
        g = self.g
        memo = g.memo
        if memo[0] != g.epoch:
            memo[0] = g.epoch
            memo[1].clear()
        key = id(self.st)
        found = memo[1].get(key)
        if found is None:
            entity = self.current_entity()
            found = [] if not entity or g.is_closed(entity) else self.actions_of(entity)
            memo[1][key] = found
        elif _memo.AUDIT:
            entity = self.current_entity()
            _memo.audit(
                f"{self.name}.current_actions", found, [] if not entity or g.is_closed(entity) else self.actions(entity)
            )
        return found

    def actions_of(self, entity: str) -> list[str]:
        """``actions(entity)``, memoised like :meth:`current_actions` (the round machinery asks it repeatedly)."""
        g = self.g
        memo = g.memo
        if memo[0] != g.epoch:
            memo[0] = g.epoch
            memo[1].clear()
        key = (id(self.st), entity)
        found = memo[1].get(key)
        if found is None:
            found = memo[1][key] = self.actions(entity)
        elif _memo.AUDIT:
            _memo.audit(f"{self.name}.actions({entity})", found, self.actions(entity))
        return found

    def blocking(self) -> bool:
        return bool(self.blocks()) and bool(self.current_actions())

    def skip(self) -> None:
        self.pass_()

    def process(self, action: dict[str, Any], entity: str) -> None:
        handler = getattr(self, "process_" + action["type"], None)
        if handler is None:
            raise illegal("action.type", f"{self.name} cannot handle {action['type']}")
        handler(action, entity)

    def process_pass(self, action: dict[str, Any], entity: str) -> None:
        self.pass_()

    def legal(self, entity: str) -> list[dict[str, Any]]:
        """Descriptions of the actions ``entity`` may take here (see ``Game.legal_actions``)."""
        return [{"type": t} for t in self.actions(entity)]
