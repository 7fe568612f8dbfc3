# The compiled build's declarations for railbook.engine.market (setup.py; README.md, "The compiled build"); the .py source is
# compiled unchanged. The market's functions as C functions taking a Context.
# A class declared here lists every field its instances have; a cpdef function keeps the signature written
# here (arguments by position, ``=*`` for a default).
cimport cython
from railbook.engine.context cimport Context

cpdef object cell_key(pos)
cpdef object _exists(Context g, r, c)
cpdef object step(Context g, pos, direction)
cpdef object _movement(Context g)
cpdef object ledge_kind(Context g)
cpdef object crosses_ledge(Context g, src, dst)
cpdef object ledge_stops(Context g, pos, below, remaining)
cpdef object drop(Context g, corp, shares)
cpdef object relative(Context g, pos, directions)
cpdef object price_at(Context g, pos)
cpdef object kinds_at(Context g, pos)
@cython.locals(cells=list, col=long, grid=list, row=long)
cpdef object _cell(Context g, pos)
cpdef object place(Context g, corp, pos)
cpdef object remove(Context g, corp)
cpdef object move(Context g, corp, direction, times=*)
cpdef object position_in_cell(Context g, corp)
cpdef object sort_key(Context g, corp)
