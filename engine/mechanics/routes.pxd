# The compiled build's declarations for railbook.engine.mechanics.routes (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.steps.base cimport StepBase
cimport cython
from railbook.engine.context cimport Context
from railbook.engine.state cimport ckey, kind_of, sym_of
cimport railbook.engine.routes as R
cimport railbook.engine.memo as _memo
cimport railbook.engine.board as board
cimport railbook.engine.bonuses as bonuses
from railbook.engine.access cimport ParamsReader, StateReader

cdef ParamsReader PARAMS
cdef StateReader STATE

cpdef object _rights(Context g)
cpdef object _rights_of(Context g)
cpdef object holds_right(Context g, corp, right)
cpdef object transfer_rights(Context g, corp, to)
cpdef object right_bonus_specs(Context g, corp, out)
cpdef object keep_right(Context g, company, owner)
cpdef object right_label(right)
cpdef object buyable_rights(Context g, corp_key)
cpdef object _stop(Context g, node)
@cython.locals(kept=dict)
cpdef object _stop_kept(Context g, node)
@cython.locals(views=dict)
cpdef object _views(Context g, nodes)
cpdef object _visited(Context g, route)
cpdef object bonus_revenue(Context g, corp_key, route, stops, routes)
cpdef object runnable_trains(Context g, entity)
