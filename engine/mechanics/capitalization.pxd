# The compiled build's declarations for railbook.engine.mechanics.capitalization (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.context cimport Context
from railbook.engine.state cimport ckey
cimport railbook.engine.board as board
cimport railbook.engine.market as market
cimport railbook.engine.shares as shares
from railbook.engine.access cimport ParamsReader, StateReader

cdef ParamsReader PARAMS
cdef StateReader STATE

cpdef object train_on_sale(Context g)
cpdef object kind_of_corp(Context g, corp)
cpdef object capitalization_of(Context g, corp)
cpdef object ipo_receiver(Context g, corp, price)
cpdef object shares_to_operate(Context g)
cpdef object float_percent(Context g, corp)
cpdef object operator_skips(Context g, key)
cpdef object operator_started(Context g, key)
cpdef object _pay_capital(Context g, corp)
cpdef object round_finished(Context g, kind)
cpdef object corporation_floated(Context g, corp)
cpdef object corporation_launched(Context g, corp)
cpdef object after_par(Context g, corp)
