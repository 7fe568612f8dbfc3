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
    from ..context import Context


_TRAITS: dict[type, tuple[bool, bool, bool, frozenset[str] | None, frozenset[str]]] = {}  # step class -> _traits


def _traits(cls: type) -> tuple[bool, bool, bool, frozenset[str] | None, frozenset[str]]:
    """What every step of class ``cls`` reads of its class (worked out once per class)."""
    return (
        cls.active is not StepBase.active,  # type: ignore[attr-defined]
        cls.blocks is not StepBase.blocks,  # type: ignore[attr-defined]
        cls.current_entity is not StepBase.current_entity,  # type: ignore[attr-defined]
        getattr(cls, "offers", None),
        frozenset(n[len("process_") :] for n in dir(cls) if n.startswith("process_")),
    )


#: each step class's handler of each action type (``process_<type>``, None where it has none), found once per class
_HANDLERS: dict[type, dict[str, Any]] = {}
_UNKNOWN = object()


class StepBase:
    """Everything of a :class:`Step` but its class attributes and the set-up of subclasses.  Compiled builds make it
    a native class (``base.pxd``), which cannot have ``__init_subclass__``: the round machinery calls these methods
    in its inner loops."""

    def __init__(self, g: Context, st: StepState, opts: dict[str, Any]):
        self.g = g
        self.st = st
        self.opts = opts
        # the round's data (a step object lives for one round, and a round keeps its data: see rounds.steps)
        self.rdata: dict[str, Any] = g.state.round.data
        # the memoised answers of the game's epoch _answers_epoch (see _answers_of): each entity's actions, whether
        # it has any (entity -> bool) and whether it may take a type of action (entity -> type -> bool), whether
        # the step blocks and the current entity's actions (None: not asked yet)
        self._answers_epoch = -1
        self._answers_now: dict[str, list[str]] = {}
        self._any_answers: dict[str, bool] | None = None
        self._allowed_answers: dict[str, dict[str, bool]] | None = None
        self._blocking_answer: bool | None = None
        self._current_answer: list[str] | None = None
        cls = type(self)
        traits = _TRAITS.get(cls)
        if traits is None:
            traits = _TRAITS[cls] = _traits(cls)
        # whether the class answers the round machinery's commonest questions itself (else they are read directly),
        # the action types it can ever offer (``Step.offers``) and those it has a ``process_<type>`` for
        self._own_active, self._own_blocks, self._own_current, self._offers, self._handles = traits

    # ------------------------------------------------------------------------------------- state

    @property
    def round(self) -> Any:
        return self.g.state.round

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
        """The first of :meth:`active_entities` (read straight from the round unless a subclass overrides that)."""
        r = self.g.state.round
        return r.entities[r.entity_index] if r.entities else None

    def _first_active(self) -> str | None:
        ents = self.active_entities()
        return ents[0] if ents else None

    # ---------------------------------------------------------------------------------- actions

    def actions(self, entity: str) -> list[str]:
        return []

    def blocks(self) -> bool:
        return True

    def current_actions(self) -> list[str]:
        """Actions of the current entity; memoised until the round machinery marks a change (epoch)."""
        return step_current_actions(self)

    def actions_of(self, entity: str) -> list[str]:
        """``actions(entity)``, memoised like :meth:`current_actions` (the round machinery asks it repeatedly)."""
        return step_actions_of(self, entity)

    def any_action(self, entity: str) -> bool:
        """Whether ``entity`` has any action here: ``bool(actions(entity))``, answered more cheaply by steps
        that override it."""
        return bool(self.actions_of(entity))

    def allows(self, entity: str, atype: str) -> bool:
        """Whether ``atype`` is among ``actions(entity)``, answered more cheaply by steps that override it."""
        return atype in self.actions_of(entity)

    def has_actions(self, entity: str) -> bool:
        """:meth:`any_action`, memoised like :meth:`actions_of` (read from the full list when that is known)."""
        return step_has_actions(self, entity)

    def allowed(self, entity: str, atype: str) -> bool:
        """:meth:`allows`, memoised like :meth:`actions_of` (read from the full list when that is known)."""
        return step_allowed(self, entity, atype)

    def blocking(self) -> bool:
        """Whether the step holds up the round: it blocks and its current entity has something to do here
        (memoised until the epoch changes, like the answers it reads)."""
        return step_blocking(self)

    def skip(self) -> None:
        self.pass_()

    def process(self, action: dict[str, Any], entity: str) -> None:
        atype: str = action["type"]
        handlers = _HANDLERS.get(type(self))
        if handlers is None:
            handlers = _HANDLERS[type(self)] = {}
        handler = handlers.get(atype, _UNKNOWN)
        if handler is _UNKNOWN:  # the step class's method for the type, looked up by name once per class
            handler = handlers[atype] = getattr(type(self), "process_" + atype, None)
        if handler is None:
            raise illegal("action.type", f"{self.name} cannot handle {atype}")
        handler(self, action, entity)

    def process_pass(self, action: dict[str, Any], entity: str) -> None:
        self.pass_()

    def legal(self, entity: str) -> list[dict[str, Any]]:
        """Descriptions of the actions ``entity`` may take here (see ``Context.legal_actions``)."""
        return [{"type": t} for t in self.actions(entity)]


# The memoised questions, as functions of the step: the round machinery asks them in its inner loops, and compiled
# builds call them directly (``base.pxd``) where a method would be looked up by name on every call.


def _answers_of(s: StepBase) -> dict[str, list[str]]:
    """The step's memoised answers, valid until the round machinery marks a change (the game's epoch): the actions of
    each entity asked about (the step's other answers are emptied with them)."""
    epoch = s.g.epoch
    if s._answers_epoch != epoch:
        s._answers_epoch = epoch
        s._answers_now = {}
        s._any_answers = None
        s._allowed_answers = None
        s._blocking_answer = None
        s._current_answer = None
    return s._answers_now


def step_current_actions(s: StepBase) -> list[str]:
    """:meth:`StepBase.current_actions`."""
    g = s.g
    if s._answers_epoch != g.epoch:
        _answers_of(s)
    found = s._current_answer
    if found is None:
        entity = step_current_entity(s)
        found = [] if not entity or g.is_closed(entity) else step_actions_of(s, entity)
        if s._answers_epoch == g.epoch:
            s._current_answer = found
    elif s.g.audit:
        entity = step_current_entity(s)
        _memo.audit(f"{s.name}.current_actions", found, [] if not entity or g.is_closed(entity) else s.actions(entity))
    return found


def step_actions_of(s: StepBase, entity: str) -> list[str]:
    """:meth:`StepBase.actions_of`."""
    answers = s._answers_now if s._answers_epoch == s.g.epoch else _answers_of(s)
    found = answers.get(entity)
    if found is None:
        found = answers[entity] = s.actions(entity)
    elif s.g.audit:
        _memo.audit(f"{s.name}.actions({entity})", found, s.actions(entity))
    return found


def step_has_actions(s: StepBase, entity: str) -> bool:
    """:meth:`StepBase.has_actions`."""
    answers = s._answers_now if s._answers_epoch == s.g.epoch else _answers_of(s)
    found = answers.get(entity)
    if found is not None:
        return bool(found)
    anys = s._any_answers
    if anys is None:
        anys = s._any_answers = {}
    answer = anys.get(entity)
    if answer is None:
        answer = anys[entity] = bool(s.any_action(entity))
    if s.g.audit:
        _memo.audit(f"{s.name}.any_action({entity})", answer, bool(s.actions(entity)))
    return answer


def step_allowed(s: StepBase, entity: str, atype: str) -> bool:
    """:meth:`StepBase.allowed`."""
    answers = s._answers_now if s._answers_epoch == s.g.epoch else _answers_of(s)
    found = answers.get(entity)
    if found is not None:
        return atype in found
    anys = s._any_answers
    if anys is not None and anys.get(entity) is False:
        return False
    allowed = s._allowed_answers
    if allowed is None:
        allowed = s._allowed_answers = {}
    types = allowed.get(entity)
    if types is None:
        types = allowed[entity] = {}
    answer = types.get(atype)
    if answer is None:
        offers = s._offers  # the types the step can ever offer (Step.offers): others are refused unasked
        answer = types[atype] = (offers is None or atype in offers) and bool(s.allows(entity, atype))
    if s.g.audit:
        _memo.audit(f"{s.name}.allows({entity}, {atype})", answer, atype in s.actions(entity))
    return answer


def step_blocking(s: StepBase) -> bool:
    """:meth:`StepBase.blocking`."""
    g = s.g
    epoch = g.epoch
    if s._answers_epoch != epoch:
        _answers_of(s)
    found = s._blocking_answer
    if found is not None:
        if s.g.audit:
            _memo.audit(f"{s.name}.blocking", found, _blocking_now(s))
        return found
    found = _blocking_now(s)
    if g.epoch == epoch:  # not stored when asking changed the state
        s._blocking_answer = found
    return found


def step_active(s: StepBase) -> bool:
    """:meth:`StepBase.active`."""
    return s.active() if s._own_active else not s.st.passed


def step_blocks(s: StepBase) -> bool:
    """:meth:`StepBase.blocks`."""
    return s.blocks() if s._own_blocks else True


def step_current_entity(s: StepBase) -> str | None:
    """:meth:`StepBase.current_entity`."""
    if s._own_current:
        return s.current_entity()
    r = s.g.state.round
    return r.entities[r.entity_index] if r.entities else None


def _blocking_now(s: StepBase) -> bool:
    if s._own_blocks and not s.blocks():
        return False
    entity = step_current_entity(s)
    return bool(entity) and not s.g.is_closed(entity) and step_has_actions(s, entity)  # type: ignore[arg-type]


class Step(StepBase):
    """Base class; subclasses set ``name`` and implement ``actions`` and ``process_<type>``.

    The round machinery mostly needs two cheap answers, not the whole list: :meth:`any_action` ("does the entity
    have anything to do here?", for blocking and skipping) and :meth:`allows` ("may it take this type of action
    now?", for choosing the step that processes an action).  Both default to reading :meth:`actions`; a step
    overrides them where the list is dear to build.  A subclass that overrides ``actions`` without them gets the
    defaults back (its parent's shortcuts answer for the parent's list), and ``RAILBOOK_MEMO_AUDIT=1`` checks
    every shortcut answer against the full list.
    """

    name: ClassVar[str] = "step"
    description: ClassVar[str] = ""
    #: every action type :meth:`actions` can ever list (None: not declared); the round machinery then refuses the
    #: others without asking (most steps inherit ``process_pass``, so every ``pass`` asks each step before the one
    #: that takes it).  ``RAILBOOK_MEMO_AUDIT=1`` checks each refusal against the full list.
    offers: ClassVar[frozenset[str] | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "actions" in cls.__dict__:
            for shortcut in ("any_action", "allows"):
                if shortcut not in cls.__dict__:
                    setattr(cls, shortcut, getattr(Step, shortcut))
        if cls.active_entities is not Step.active_entities and cls.current_entity is Step.current_entity:
            cls.current_entity = Step._first_active  # type: ignore[method-assign]
