# The compiled build's declarations for railbook.engine.mechanics.independents (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
cimport cython
from railbook.engine.closing cimport close_operator
from railbook.engine.context cimport Context
from railbook.engine.state cimport kind_of, mkey, sym_of
cimport railbook.engine.board as board
cimport railbook.engine.depot as depot

cpdef object _p(Context g)
cpdef object minor_of_private(Context g, private)
cpdef object acquisition_extra_cost(Context g, private)
cpdef object float_minor(Context g, private, player)
cpdef object may_buy_company(Context g, private, corp_key)
@cython.locals(changed=set)
cpdef object buy_minor_assets(Context g, corp_key, private)
cpdef object close_minors(Context g)
cpdef object privates_closed(Context g)
cpdef object phase_reached(Context g, name)
cpdef object buying_power(Context g, corp_key, purpose)
