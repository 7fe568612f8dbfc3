# The compiled build's declarations for railbook.engine.mechanics.stock_round (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.state cimport Share
from railbook.engine.steps.base cimport StepBase
cimport cython
from railbook.engine.closing cimport close_operator
from railbook.engine.context cimport Context
from railbook.engine.state cimport Corporation, ckey, kind_of
cimport railbook.engine.market as market
cimport railbook.engine.shares as shares
from railbook.engine.access cimport ParamsReader, StateReader

cdef ParamsReader PARAMS
cdef StateReader STATE

cpdef object after_operating_action(Context g, action)
cpdef object round_started(Context g, kind)
@cython.locals(c=Corporation)
cpdef object sell_timing_ok(Context g, player, corp)
@cython.locals(c=Corporation)
cpdef object tradeable(Context g, corp)
@cython.locals(spec=dict)
cpdef object holding_limit(Context g, corp)
cpdef object pool_limit(Context g, corp)
cpdef object g_options(Context g, player)
cpdef object parse_price(Context g, spec)
cpdef object _times(rule)
