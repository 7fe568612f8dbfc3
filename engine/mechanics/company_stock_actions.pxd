# The compiled build's declarations for railbook.engine.mechanics.company_stock_actions (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.steps.base cimport StepBase
from railbook.engine.context cimport Context
from railbook.engine.state cimport ckey, kind_of, sym_of
cimport railbook.engine.market as market
cimport railbook.engine.rounds as rounds
cimport railbook.engine.shares as shares
from railbook.engine.access cimport ParamsReader

cdef ParamsReader PARAMS

cpdef object own_pool_bundles(Context g, corp, most=*)
cpdef object own_pool_bundle(Context g, corp)
cpdef object company_actions(Context g, corp, last)
cpdef object _presided(Context g, player)
cpdef object _redeem_rules(Context g)
