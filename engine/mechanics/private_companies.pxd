# The compiled build's declarations for railbook.engine.mechanics.private_companies (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.steps.base cimport StepBase
from railbook.engine.closing cimport close_company
from railbook.engine.context cimport Context
from railbook.engine.state cimport Ability, Company, ckey, kind_of, mkey, sym_of, xkey
cimport railbook.engine.abilities as abilities
cimport railbook.engine.rounds as rounds
from railbook.engine.access cimport ParamsReader

cdef ParamsReader PARAMS

cpdef object _bound(b, value)
cpdef object company_price_range(Context g, company)
cpdef object can_buy_phase(Context g)
cpdef object ability_range(Context g, sym, corp)
cpdef object price_range(Context g, sym, corp)
cpdef object buying_power(Context g, corp)
cpdef object sold(Context g, sym, corp)
cpdef object unassign_everywhere(Context g, sym, hexes=*, corps=*)
cpdef object marker_states(a)
cpdef object marker_state(Context g, sym, hex_id)
cpdef object marker_targets(Context g, sym, a)
cpdef object or_start_company(Context g)
cpdef object block_or_start(Context g)
cpdef object assignable_targets(Context g, sym)
cpdef object remove_markers(Context g, params)
cpdef object ability_removed(Context g, owner, ability)
