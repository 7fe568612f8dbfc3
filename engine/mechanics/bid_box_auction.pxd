# The compiled build's declarations for railbook.engine.mechanics.bid_box_auction (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.steps.base cimport StepBase
from railbook.engine.closing cimport close_company
from railbook.engine.context cimport Context
from railbook.engine.state cimport kind_of
cimport railbook.engine.market as market
cimport railbook.engine.rounds as rounds
cimport railbook.engine.shares as shares
from railbook.engine.access cimport ParamsReader, StateReader

cdef ParamsReader PARAMS
cdef StateReader STATE

cpdef object unsold(Context g)
cpdef object price_of(Context g, sym)
cpdef object max_bid(Context g, player, sym)
cpdef object acquire(Context g, player, sym, price)
cpdef object resolve(Context g)
cpdef object parse_price(Context g, spec)
cpdef object round_entities(Context g, kind)
cpdef object _finished(Context g)
cpdef object _on_finish(Context g)
cpdef object _after(Context g, action)
