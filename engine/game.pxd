# Compiled builds only (railbook.accel_build): Game as a native class, so code that knows it holds a Game (every
# argument ``g: Game``: railbook.accel_declare; Step's methods: steps/base.pxd) reads its fields directly instead of
# looking them up by name, and calls the dict and list methods of those typed here directly.  Every attribute a Game
# has must be listed here; the Python source is unchanged and runs as before without a build.
from railbook.engine.book cimport Book
from railbook.engine.install cimport Installed
from railbook.engine.state cimport GameState

cdef class Game:
    cdef public dict cache, params
    cdef public list memo
    cdef public GameState state
    cdef public Book book
    cdef public Installed rules
    cdef public object _checkpoint, _since, hooks
    cdef public object board_version, epoch
