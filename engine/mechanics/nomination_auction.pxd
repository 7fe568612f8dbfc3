# The compiled build's declarations for railbook.engine.mechanics.nomination_auction (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.steps.base cimport StepBase
from railbook.engine.closing cimport close_company
from railbook.engine.context cimport Context
cimport railbook.engine.rounds as rounds
from railbook.engine.access cimport ParamsReader, StateReader

cdef ParamsReader PARAMS
cdef StateReader STATE

cpdef object setup(Context g)
cpdef object _for_sale(Context g, sym)
cpdef object _remove(Context g, sym)
cpdef object nominable(Context g)
cpdef object company_removed(Context g, sym)
cpdef object round_entities(Context g, kind)
cpdef object opening_bid(Context g, sym)
