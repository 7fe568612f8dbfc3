# The compiled build's declarations for railbook.engine.mechanics.price_protection (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.steps.base cimport StepBase
from railbook.engine.context cimport Context
from railbook.engine.state cimport kind_of
cimport railbook.engine.market as market
cimport railbook.engine.rounds as rounds
cimport railbook.engine.shares as shares
from railbook.engine.access cimport ParamsReader, StateReader

cdef ParamsReader PARAMS
cdef StateReader STATE

cpdef object defer_sale_move(Context g, corp, share_ids, percent, seller, president)
cpdef object _drop_after(Context g, corp, n)
cpdef object cert_exempt(Context g, player, corp)
cpdef object holding_exempt(Context g, player, corp)
cpdef object _sold_this_round(Context g, player, corp)
cpdef object can_protect(Context g, entry)
cpdef object _arrived_at_sale(Context g, corp, there)
cpdef object _counted_once_protected(Context g, president)
cpdef object decline(Context g, forced=*)
