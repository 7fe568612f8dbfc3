# The compiled build's declarations for railbook.engine.mechanics.random_removal (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.closing cimport close_company
from railbook.engine.context cimport Context
from railbook.engine.state cimport ckey
cimport railbook.engine.board as board

cpdef object _p(Context g)
cpdef object setup(Context g)
cpdef object remove_private(Context g, sym)
cpdef object remove_corporation(Context g, sym)
