# The compiled build's declarations for railbook.engine.mechanics.mergers (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.steps.base cimport StepBase, step_active, step_blocking
cimport cython
from railbook.engine.closing cimport close_company, close_operator
from railbook.engine.context cimport Context
from railbook.engine.state cimport Corporation, ckey, kind_of, sym_of
cimport railbook.engine.board as board
cimport railbook.engine.depot as depot
cimport railbook.engine.market as market
cimport railbook.engine.rounds as rounds
cimport railbook.engine.shares as shares
cimport railbook.engine.stations as stations
from railbook.engine.access cimport ParamsReader, StateReader

cdef ParamsReader PARAMS
cdef StateReader STATE

cpdef object size_of(Context g, corp)
cpdef object zone(Context g, pos)
cpdef object inactive(Context g, corp)
cpdef object live_corps(Context g)
cpdef object _live(Corporation c)
cpdef object cell_at_most(Context g, value)
cpdef object move_to(Context g, corp, pos)
cpdef object liquidate(Context g, corp)
cpdef object loans(Context g, corp)
cpdef object cancel_short_pairs(Context g, corp)
cpdef object move_assets(Context g, target, to)
@cython.locals(out=set, seen=set)
cpdef object shared_tiles(Context g, corp)
cpdef object trim_tokens(Context g, corp)
cpdef object removable_tokens(Context g, corp)
cpdef object reset(Context g, corp)
cpdef object merged_price(Context g, corp, target, spec)
@cython.locals(both=dict)
cpdef object mergeable(Context g, corp)
cpdef object merger_setup(Context g)
cpdef object merger_next(Context g)
cpdef object merger_after(Context g, action)
cpdef object merger_finished(Context g)
cpdef object loan_value(Context g)
cpdef object sale_spec(Context g, mode)
cpdef object can_acquire(Context g, corp, buyer)
cpdef object compensation(Context g, corp)
cpdef object max_bid_for(Context g, buyer, corp)
cpdef object starting_bid(Context g, corp)
@cython.locals(c=Corporation)
cpdef object presidencies(Context g, player)
cpdef object max_bid(Context g, player, corp)
cpdef object buyers_for(Context g, player, corp, bid)
cpdef object _seller(Context g, corp)
cpdef object drop_bankrupt_bidders(Context g, action, entity)
cpdef object start_auction(Context g, corp)
cpdef object no_sale(Context g, corp)
cpdef object acquire(Context g, buyer)
cpdef object can_take(Context g, buyer)
cpdef object can_payoff(Context g, buyer)
cpdef object pay_one_loan(Context g, buyer)
cpdef object after_loans(Context g)
cpdef object settle_president(Context g, corp)
cpdef object _charge(Context g, player, amount, corp)
cpdef object acquisition_finished(Context g)
