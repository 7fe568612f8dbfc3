# The compiled build's declarations for railbook.engine.mechanics.private_payouts (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.context cimport Context
from railbook.engine.state cimport ckey, kind_of, sym_of

cpdef object _st(Context g)
cpdef object _pay(Context g, corp_key, amount, sym)
cpdef object train_left_depot(Context g, tid)
cpdef object train_rusted(Context g, tid, owner)
cpdef object company_converted(Context g, corp)
