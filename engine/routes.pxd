# The compiled build's declarations for railbook.engine.routes (setup.py; README.md, "The compiled build"); the .py source is
# compiled unchanged. Segments and routes as native classes; the route checks as C functions, the walks' locals
# declared.
# A class declared here lists every field its instances have; a cpdef function keeps the signature written
# here (arguments by position, ``=*`` for a default).
cimport cython
from railbook.engine.book cimport Node, Track
from railbook.engine.context cimport Context
from railbook.engine.state cimport Train
cimport railbook.engine.board as board

cdef class Segment
cdef class Route

cdef class Segment:
    cdef public object a
    cdef public object b
    cdef public list paths
    cdef public object keys
    cdef public Segment reverse

cdef class Route:
    cdef public object train
    cdef public list stops
    cdef public list segments
    cdef public list counted
    cdef public object revenue
    cdef public object views

@cython.locals(hexes=list, seen=list)
cpdef object _segments(Context g, chain)
@cython.locals(out=list, t0=Track, tracks=list)
cpdef object _walk_segments(Context g, hexes)
@cython.locals(a=long, at=long, b=long, back=long, barred=set, came=long, end_bits=long, following=Track, into=list, last=long, nbrs=dict, other=long, path=long, path_bits=long, pj=long, state=long, t=Track, walked=list)
cpdef object _extend(Context g, hexes, tracks, i, start, pi, entered, paths, out, seen)
cpdef object _reverse(Segment s)
cpdef object _edge_keys(Context g, Segment seg)
@cython.locals(a=long, b=long, base=long, index=dict, t=Track)
cpdef object _track_keys(Context g, Segment seg)
@cython.locals(options=list)
cpdef object rebuild(Context g, corp_key, train, chains, used)
@cython.locals(acc=list)
cpdef object _assemble(Context g, options, used)
cpdef object _search(Context g, oriented, ends, i, acc, taken, nodes)
cpdef object _tokened(Context g, node, corp_key)
@cython.locals(t=Track)
cpdef object node_info(Context g, node)
cpdef object stop_revenue(Context g, node, phase=*)
@cython.locals(t=Train)
cpdef object distance_of(Context g, train_id)
cpdef object _is_simple(distance)
@cython.locals(routes=list, used=set)
cpdef object evaluate(Context g, corp_key, specs)
@cython.locals(groups=dict, info=Node)
cpdef object check_route(Context g, corp_key, Route route)
@cython.locals(kept=dict, t=Train)
cpdef object _distance_fits(Context g, train_id, kinds)
@cython.locals(kept=dict, t=Train)
cpdef object _train_distance(Context g, train_id)
cpdef object score_stops(Context g, corp_key, Route route, stops, routes, values=*)
cpdef object round_revenue(Context g)
