# Compiled builds only (railbook.accel_build): StepBase as a native class whose ``g`` is known to be a Game, so the
# round machinery's questions (blocking, actions_of, has_actions, allowed, ...) read the step's and the game's
# fields directly.  Every attribute a step instance has must be listed here.
from railbook.engine.game cimport Game
from railbook.engine.state cimport StepState

cdef class StepBase:
    cdef public Game g
    cdef public dict _answers_now
    cdef public StepState st
    cdef public object opts, _answers_epoch
