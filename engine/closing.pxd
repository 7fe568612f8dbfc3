# The compiled build's declarations for railbook.engine.closing (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
cimport cython
from railbook.engine.context cimport Context
from railbook.engine.state cimport kind_of, xkey
cimport railbook.engine.board as board
cimport railbook.engine.market as market
cimport railbook.engine.rounds as rounds

cpdef object close_company(Context g, sym)
@cython.locals(changed=set)
cpdef object close_operator(Context g, key)
