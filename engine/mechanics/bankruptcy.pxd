# The compiled build's declarations for railbook.engine.mechanics.bankruptcy (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.closing cimport close_company, close_operator
from railbook.engine.context cimport Context
from railbook.engine.state cimport ckey, clone, kind_of, mkey, sym_of
cimport railbook.engine.depot as depot
cimport railbook.engine.market as market
cimport railbook.engine.rounds as rounds
cimport railbook.engine.shares as shares

cpdef object _p(Context g)
cpdef object _buy_train_step(Context g)
cpdef object emergency_liquidity(Context g, player, corp)
cpdef object _sell_estate_bundle(Context g, b)
cpdef object _needs_train(Context g, corp)
