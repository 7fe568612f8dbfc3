# The compiled build's declarations for railbook.engine.game (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.action_shape cimport check_action_shape
from railbook.engine.book cimport book_for
from railbook.engine.state cimport pkey, sym_of, to_json
cimport railbook.engine.rounds as rounds
