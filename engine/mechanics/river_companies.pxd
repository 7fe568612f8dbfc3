# The compiled build's declarations for railbook.engine.mechanics.river_companies (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.context cimport Context
from railbook.engine.state cimport kind_of

cpdef object _p(Context g)
cpdef object crossings_held(Context g)
cpdef object sides(a, b, restrict)
cpdef object lay_allowed(Context g, corp, hex_id, tile, rotation)
cpdef object company_buy_window(Context g, company, corp)
cpdef object buy_company_step_open(Context g, corp)
