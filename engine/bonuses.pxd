# The compiled build's declarations for railbook.engine.bonuses (setup.py; README.md, "The compiled build"); the .py source is
# compiled unchanged. The bonus functions as C functions.
# A class declared here lists every field its instances have; a cpdef function keeps the signature written
# here (arguments by position, ``=*`` for a default).
cimport cython
from railbook.engine.context cimport Context
from railbook.engine.state cimport HexState

cpdef object make_bonus(spec)
cpdef object _icon_amount(stop)
@cython.locals(route=list, whole=list)
cpdef object split(bonuses)
@cython.locals(entries=list)
cpdef object _bonus_plan(book)
cpdef object _hexes_of(value)
cpdef object _sym(key)
cpdef object _no_icons(hex_id)
@cython.locals(hs=HexState, tags=set)
cpdef object hex_tags(Context g, hex_id)
