# The compiled build's declarations for railbook.engine.mechanics.dividends (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.steps.base cimport StepBase
from railbook.engine.context cimport Context
from railbook.engine.routes cimport round_revenue
from railbook.engine.state cimport ckey, kind_of, pkey, sym_of
cimport railbook.engine.depot as depot
cimport railbook.engine.market as market
cimport railbook.engine.rounds as rounds
cimport railbook.engine.shares as shares
from railbook.engine.access cimport ParamsReader

cdef ParamsReader PARAMS

cpdef object price_move(Context g, corp, paid)
cpdef object earnings(Context g, entity)
cpdef object single_certificate_exact(Context g, corp)
cpdef object half_withheld(Context g, corp, revenue)
cpdef object options(Context g, entity, revenue)
cpdef object pay(Context g, entity, kind, revenue)
cpdef object pay_minor(Context g, entity, revenue)
cpdef object _after_run(Context g, entity)
