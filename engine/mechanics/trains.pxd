# The compiled build's declarations for railbook.engine.mechanics.trains (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.state cimport Minor
from railbook.engine.steps.base cimport StepBase
cimport cython
from railbook.engine.context cimport Context
from railbook.engine.state cimport Corporation, Train, ckey, kind_of, mkey, sym_of
cimport railbook.engine.memo as _memo
cimport railbook.engine.board as board
cimport railbook.engine.depot as depot
cimport railbook.engine.market as market
cimport railbook.engine.rounds as rounds
cimport railbook.engine.shares as shares
from railbook.engine.access cimport ParamsReader

cdef ParamsReader PARAMS

cpdef object must_buy(Context g, corp)
cpdef object _train_order(Context g)
@cython.locals(seller=Corporation, t=Train)
cpdef object _other_trains_scan(Context g, corp, zones)
cpdef object can_buy(Context g, corp)
cpdef object _train_limits(Context g)
cpdef object _over_limit(Context g, limits, key, held)
cpdef object after_operating_action(Context g, action)
cpdef object round_finished(Context g, kind)
cpdef object closed_operator_trains(Context g, key)
