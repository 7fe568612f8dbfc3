# The compiled build's declarations for railbook.engine.mechanics.draft (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.context cimport Context
from railbook.engine.state cimport Company
cimport railbook.engine.rounds as rounds

cpdef object _p(Context g)
cpdef object _st(Context g)
cpdef object hand_size(Context g)
cpdef object prepare_deck(Context g)
cpdef object seeded_setup(Context g, part)
cpdef object company_removed(Context g, sym)
cpdef object round_entities(Context g, kind)
cpdef object price(Context g, Company c)
