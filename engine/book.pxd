# The compiled build's declarations for railbook.engine.book (setup.py; README.md, "The compiled build"); the .py source is
# compiled unchanged. Book and the tracks as native classes: compiled code reads their tables directly and
# calls ``Book.track`` (asked in every walk of the map) as a C method.
# A class declared here lists every field its instances have; a cpdef function keeps the signature written
# here (arguments by position, ``=*`` for a default).
cdef class Node
cdef class TrackPath
cdef class Track

cdef class Node:
    cdef readonly object name
    cdef readonly object kind
    cdef readonly object index
    cdef readonly object revenue
    cdef readonly object slots
    cdef readonly object group
    cdef readonly object hidden

cdef class TrackPath:
    cdef readonly object index
    cdef readonly object a
    cdef readonly object b
    cdef readonly object terminal

cdef class Track:
    cdef public list paths
    cdef public dict nodes
    cdef public object exits
    cdef public dict edge_paths
    cdef public dict node_paths
    cdef public dict node_exits
    cdef public list cities
    cdef public list ends
    cdef public list node_list
    cdef public list edge_paths_l
    cdef public list node_paths_l
    cdef public list terminal
    cdef public list end_a
    cdef public list end_b
    cdef public list edge_states_l
    cdef public list node_states_l

cpdef object _end(spec, rotation)
cpdef object _freeze_key(rulebook, options)
cpdef object _check_format(rulebook)
cpdef object book_for(rulebook, options=*)

cdef class Book:
    cdef public dict raw, base, hexes, tiles, trains, corporations, minors, privates, mechanics, market
    cdef public dict _tracks, _printed, share_units, derived, all_neighbours, impassable, neighbours, cells_by_kind, phase_index, hex_index
    cdef public list train_order, phases, end, market_grid, hex_ids, neighbour_index
    cdef public object options, title, layout, market_1d

    cpdef object track(self, tile, hex_id, rotation)
