# The compiled build's declarations for railbook.engine.mechanics.short_selling (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.state cimport Corporation
from railbook.engine.steps.base cimport StepBase
cimport cython
from railbook.engine.context cimport Context
from railbook.engine.state cimport Share, ckey, kind_of
cimport railbook.engine.memo as _memo
cimport railbook.engine.market as market
cimport railbook.engine.shares as shares
from railbook.engine.access cimport ParamsReader

cdef ParamsReader PARAMS

@cython.locals(share=Share)
cpdef object _shorts(Context g, corp, holder=*)
@cython.locals(counts=dict, share=Share)
cpdef object _short_counts(Context g)
cpdef object shortable(Context g, player)
cpdef object stock_turn_options(Context g, player)
cpdef object cert_exempt(Context g, player, corp)
cpdef object action_processed(Context g, action, entity)
@cython.locals(looked=set, short=Share)
cpdef object _pair_held(Context g, p, st)
@cython.locals(short=Share)
cpdef object _close_pairs(Context g, p, st)
cpdef object _may_close(p, holder)
@cython.locals(share=Share)
cpdef object _holds_plain(Context g, st, ids, corp)
cpdef object round_started(Context g, kind)
@cython.locals(owing=dict)
cpdef object dividend_paid(Context g, corp, per_share)
