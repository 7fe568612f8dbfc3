# The compiled build's declarations for railbook.engine.mechanics.national_railway (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.steps.base cimport StepBase
cimport cython
from railbook.engine.closing cimport close_operator
from railbook.engine.context cimport Context
from railbook.engine.state cimport ckey, kind_of
cimport railbook.engine.board as board
cimport railbook.engine.depot as depot
cimport railbook.engine.market as market
cimport railbook.engine.rounds as rounds
cimport railbook.engine.shares as shares
cimport railbook.engine.stations as stations
from railbook.engine.access cimport ParamsReader, StateReader

cdef ParamsReader PARAMS
cdef StateReader STATE

cpdef object _debts(Context g)
cpdef object _settle(Context g)
cpdef object _permanent(Context g, tid)
cpdef object _order_from_trigger(Context g)
cpdef object _place(Context g, hex_id, ci, old)
cpdef object _pad_tokens(Context g)
cpdef object share_unit(Context g, corp)
cpdef object _unproven(Context g)
cpdef object must_withhold(Context g, entity)
cpdef object price_fixed(Context g, corp)
cpdef object stock_obligation(Context g, player)
cpdef object temporary_president_check(Context g, action, entity)
cpdef object never_closes(Context g, corp)
cpdef object may_buy_train(Context g, corp, tid)
cpdef object face_price_trade(Context g, buyer, seller)
cpdef object forced_train_purchase(Context g, corp)
cpdef object cert_weight(Context g, corp)
cpdef object holding_limit(Context g, corp)
cpdef object cert_allowance(Context g, player)
@cython.locals(out=dict)
cpdef object _borrowable(Context g)
cpdef object return_borrowed(Context g)
cpdef object _own_trains(Context g, key)
cpdef object operator_started(Context g, operator)
cpdef object round_finished(Context g, kind)
