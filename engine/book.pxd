# Compiled builds only (railbook.accel_build): Book as a native class, so code that knows it holds one (``Context.book``,
# ``engine/game.pxd``) reads its tables directly and calls ``track`` (asked in every walk of the map) as a C function.
# Every attribute a Book has must be listed here.  The build adds the declarations of this module's dataclasses
# (railbook.accel_declare.native_dataclasses) above these.
cdef class Book:
    cdef public dict raw, base, hexes, tiles, trains, corporations, minors, privates, mechanics, market
    cdef public dict _tracks, _printed, share_units, derived, all_neighbours, impassable, neighbours, cells_by_kind, phase_index, hex_index
    cdef public list train_order, phases, end, market_grid, hex_ids, neighbour_index
    cdef public object options, title, layout, market_1d

    cpdef object track(self, tile, hex_id, rotation)
