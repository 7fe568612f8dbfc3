# The compiled build's declarations for railbook.engine.mechanics.receivership (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.context cimport Context
from railbook.engine.shares cimport Bundle
from railbook.engine.state cimport ckey, kind_of, sym_of
cimport railbook.engine.depot as depot
cimport railbook.engine.market as market
cimport railbook.engine.shares as shares

cpdef object _p(Context g)
cpdef object in_receivership(Context g, entity)
cpdef object pool_president_bundle(Context g, player, Bundle b)
cpdef object after_withhold(Context g, entity)
cpdef object operating_after_action(Context g, action)
cpdef object presidency_vacated(Context g, corp)
