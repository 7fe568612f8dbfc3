# The compiled build's declarations for railbook.engine.replay (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).

cimport cython
from railbook.engine.context cimport Context
cpdef object filter_actions(actions)
cpdef object load(path)
cpdef object players_of(record)
cpdef object record_options(record, rulebook)
cpdef object record_date(record)
cpdef object start_from_record(record, rulebook)
@cython.locals(plain=dict, allowed=frozenset)
cpdef object normalise(action)
cpdef object export_log(record, rulebook, game=*)
