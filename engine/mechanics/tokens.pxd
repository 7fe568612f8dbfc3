# The compiled build's declarations for railbook.engine.mechanics.tokens (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.steps.base cimport StepBase
from railbook.engine.context cimport Context
from railbook.engine.state cimport ckey, kind_of, sym_of
cimport railbook.engine.abilities as abilities
cimport railbook.engine.board as board
cimport railbook.engine.stations as stations

cpdef object remove_reservations(Context g, params)
