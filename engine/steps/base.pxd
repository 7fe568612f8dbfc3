# Compiled builds only (railbook.accel_build): StepBase as a native class whose ``g`` is known to be a Context, so the
# round machinery's questions (blocking, actions_of, has_actions, allowed, ...) read the step's and the game's
# fields directly.  Every attribute a step instance has must be listed here.
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

# The memoised questions as C functions (the round machinery imports them by name and calls them directly).
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
