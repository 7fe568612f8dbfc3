# Compiled builds only (railbook.accel_build): Game as a native class, so code that knows it holds a Game (Step's
# methods: see steps/base.pxd) reads its fields directly instead of looking them up by name.  Every attribute a
# Game has must be listed here; the Python source is unchanged and runs as before without a build.
cdef class Game:
    cdef public object book, state, cache, memo, _checkpoint, _since, rules, params, hooks
    cdef public object board_version, epoch
