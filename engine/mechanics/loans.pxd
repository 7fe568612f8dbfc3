# The compiled build's declarations for railbook.engine.mechanics.loans (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.steps.base cimport StepBase
cimport cython
from railbook.engine.context cimport Context
from railbook.engine.state cimport ckey, kind_of, sym_of
from railbook.engine.steps.base cimport step_active
cimport railbook.engine.market as market
cimport railbook.engine.rounds as rounds
cimport railbook.engine.shares as shares
from railbook.engine.access cimport ParamsReader, StateReader

cdef ParamsReader PARAMS
cdef StateReader STATE

@cython.locals(loans=dict)
cpdef object loans_of(Context g, corp)
cpdef object total_loans(Context g)
cpdef object interest_rate(Context g)
cpdef object set_market_rate(Context g)
cpdef object may_take(Context g, corp)
cpdef object _buy_train_passed(Context g)
cpdef object take_loan(Context g, corp)
cpdef object _price_move(Context g, corp, event)
cpdef object repay(Context g, corp, count=*)
cpdef object cancel_loans(Context g, corp)
cpdef object charge_president(Context g, corp, amount)
cpdef object player_owes(Context g, player, amount, corp)
cpdef object crisis_from(Context g, player)
cpdef object first_in_crisis(Context g)
cpdef object pay_debts_from_cash(Context g, action, entity)
cpdef object pay_debts(Context g)
cpdef object revenue_deduction(Context g, entity)
cpdef object force_repayment(Context g, corp)
cpdef object more_than_needed(Context g, b, owed)
@cython.locals(best=dict)
cpdef object raisable(Context g, player, bundles)
cpdef object bankrupt(Context g, player)
cpdef object operating_round_started(Context g)
cpdef object buying_power(Context g, entity, purpose)
cpdef object loan_room(Context g, corp, extra)
cpdef object transfer_loans(Context g, corp, to)
cpdef object value_adjustment(Context g, player)
