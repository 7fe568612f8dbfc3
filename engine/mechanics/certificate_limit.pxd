# The compiled build's declarations for railbook.engine.mechanics.certificate_limit (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.context cimport Context
cimport railbook.engine.market as market
from railbook.engine.access cimport ParamsReader

cdef ParamsReader PARAMS

cpdef object cert_exempt(Context g, player, corp)
