# The compiled build's declarations for railbook.engine.access (setup.py; README.md, "The compiled build"): the readers
# as native classes whose ``of`` is a C method reading the context's fields. A module that reads its parameters or
# state often declares ``cdef ParamsReader PARAMS`` / ``cdef StateReader STATE`` in its own .pxd.
cimport cython
from railbook.engine.context cimport Context


@cython.final
cdef class ParamsReader:
    cdef public str name
    cpdef object of(self, Context g)


@cython.final
cdef class StateReader:
    cdef public str name
    cpdef object of(self, Context g)
