# The compiled build's declarations for railbook.engine.undo (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
cimport cython

@cython.locals(action=dict, group=list, live=list, messages=list, undone=list)
cpdef object kept_actions(actions, most)
@cython.locals(first=dict)
cpdef object _first_indices(actions)
cpdef object _undo_start(first, target, index)
