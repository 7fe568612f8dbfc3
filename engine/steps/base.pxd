# The compiled build's declarations for railbook.engine.steps.base (setup.py; README.md, "The compiled build"); the .py source is
# compiled unchanged. StepBase as a native class whose ``g`` is a Context: the round machinery's questions
# (blocking, actions_of, has_actions, allowed, ...) read the step's and the context's fields directly.
# A class declared here lists every field its instances have; a cpdef function keeps the signature written
# here (arguments by position, ``=*`` for a default).
from railbook.engine.context cimport Context
from railbook.engine.state cimport StepState

cdef class StepBase:
    cdef public Context g
    cdef public dict _answers_now, _any_answers, _allowed_answers
    cdef public object _blocking_answer, _current_answer
    cdef public StepState st
    cdef public dict opts, rdata
    cdef public long _answers_epoch
    cdef public object _offers, _handles
    cdef public bint _own_active, _own_blocks, _own_current

cdef dict _answers_of(StepBase s)
cpdef object step_current_actions(StepBase s)
cpdef object step_actions_of(StepBase s, entity)
cpdef bint step_has_actions(StepBase s, entity) except -1
cpdef bint step_allowed(StepBase s, entity, atype) except -1
cpdef bint step_blocking(StepBase s) except -1
cdef bint _blocking_now(StepBase s) except -1
cpdef bint step_active(StepBase s) except -1
cpdef bint step_blocks(StepBase s) except -1
cpdef object step_current_entity(StepBase s)
