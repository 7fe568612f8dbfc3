# The compiled build's declarations for railbook.engine.mechanics.company_sizes (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.steps.base cimport StepBase
cimport cython
from railbook.engine.closing cimport close_company
from railbook.engine.context cimport Context
from railbook.engine.state cimport ckey, sym_of, xkey
cimport railbook.engine.market as market
cimport railbook.engine.rounds as rounds
cimport railbook.engine.shares as shares
cimport railbook.engine.stations as stations
from railbook.engine.access cimport ParamsReader, StateReader

cdef ParamsReader PARAMS
cdef StateReader STATE

@cython.locals(sizes=dict)
cpdef object size_of(Context g, corp)
cpdef object share_unit(Context g, corp)
cpdef object holding_limit(Context g, corp)
cpdef object _ipo(Context g)
cpdef object private_sums(Context g, player)
cpdef object payable_spans(Context g, player, lo, hi, step)
cpdef object phase_sizes(Context g)
cpdef object home_cities(Context g, corp)
cpdef object conversion_target(Context g, corp)
cpdef object convert_company(Context g, corp)
cpdef object corporation_closed(Context g, corp)
cpdef object markers_paid(Context g, action, entity)
cpdef object markers_unpaid(Context g)
cpdef object ipo_by_auction(Context g)
