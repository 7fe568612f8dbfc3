# The compiled build's declarations for railbook.engine.install (setup.py; README.md, "The compiled build"); the .py source is
# compiled unchanged. The installed rules as a native class (``Context.rules``).
# A class declared here lists every field its instances have; a cpdef function keeps the signature written
# here (arguments by position, ``=*`` for a default).
from railbook.engine.book cimport Book

cdef class Installed

cdef class Installed:
    cdef public list mechanics
    cdef public dict params
    cdef public dict step_types
    cdef public dict round_types
    cdef public dict events
    cdef public dict event_params
    cdef public dict rounds
    cdef public dict programs
    cdef public dict plans
    cdef public dict step_classes
    cdef public dict interfaces

cpdef object installed(Book book)
cpdef object _rounds(Book book, Installed rules)
