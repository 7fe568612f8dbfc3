# The compiled build's declarations for railbook.engine.contract (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
cimport cython

cpdef object _function()
@cython.locals(namespace=dict)
cpdef object _read_only_class(model)
@cython.locals(seen=dict)
cpdef object check_unique(mechanics)
cpdef object _plan(spec, fns)
cpdef object _call(fn, g, args)
cpdef object _combined(kind, fns, default, g, args)
cpdef object _unhandled(spec)
