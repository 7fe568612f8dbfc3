# The compiled build's declarations for railbook.engine.mechanics.edge_tokens (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.context cimport Context
from railbook.engine.state cimport kind_of, sym_of
cimport railbook.engine.board as board
cimport railbook.engine.rounds as rounds

cpdef object _p(Context g)
cpdef object _st(Context g)
cpdef object area_of(Context g, corp)
cpdef object extra_bonus_specs(Context g, corp, out)
