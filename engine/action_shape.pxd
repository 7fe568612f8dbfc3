# The compiled build's declarations for railbook.engine.action_shape (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
cimport cython

cpdef object _is_int(value)
cpdef object _is_str(value)
cpdef object _is_dict(value)
cpdef list _items(value)
@cython.locals(items=list)
cpdef object _is_list_of(value, type kind)
@cython.locals(items=list)
cpdef object _is_str_list_list(value)
cpdef object _describe(value)
cpdef str _where(long route)
@cython.locals(table=dict, ranges=dict, bounds=tuple, items=list)
cpdef object _check_fields(dict fields, shapes, checks, long route)
cpdef str _unknown(name, long route)
@cython.locals(fields=dict)
cpdef object check_action_shape(action)
