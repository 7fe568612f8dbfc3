# The compiled build's declarations for railbook.engine.memo (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
cimport cython
from railbook.engine.context cimport Context

cpdef object audit(what, cached, fresh)
@cython.locals(answers=dict)
cpdef object _answers_now(Context g)
