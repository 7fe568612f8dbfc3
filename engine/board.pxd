# The compiled build's declarations for railbook.engine.board (setup.py; README.md, "The compiled build"); the .py source is
# compiled unchanged. Networks and lay plans as native classes; the map's functions as C functions taking a
# Context, with the walks' locals declared (C ``long`` for those annotated ``CInt``).
# A class declared here lists every field its instances have; a cpdef function keeps the signature written
# here (arguments by position, ``=*`` for a default).
cimport cython
from railbook.engine.book cimport Node, Track
from railbook.engine.context cimport Context
from railbook.engine.memo cimport audit
from railbook.engine.state cimport HexState

cdef class Network
cdef class LayPlan

cdef class Network:
    cdef public dict hex_edges
    cdef public set nodes
    cdef public object route_available
    cdef public object path_bits
    cdef public list hex_ids

cdef class LayPlan:
    cdef public object hex
    cdef public object tile
    cdef public object tile_id
    cdef public object rotation
    cdef public object upgrade
    cdef public object terrain_cost
    cdef public list border_edges
    cdef public dict city_map

cpdef object init_hexes(Context g)
@cython.locals(hs=HexState)
cpdef object track(Context g, hex_id)
cpdef object tile_spec(Context g, hex_id)
cpdef object colour(Context g, hex_id)
cpdef object label(Context g, hex_id)
cpdef object city_index(name)
cpdef object tokened_by(Context g, hex_id, city, key)
@cython.locals(hs=HexState)
cpdef object hex_tokened_by(Context g, hex_id, key)
cpdef object city_blocks(Context g, hex_id, city, key)
cpdef object free_slot(Context g, hex_id, city, key)
cpdef object reserved_for(Context g, hex_id, city, key)
cpdef object reserve(Context g, hex_id, city, slot, key)
@cython.locals(changed=set)
cpdef object unreserve(Context g, key, hexes=*)
cpdef object node_blocks(Context g, hex_id, node, key, kind)
cpdef object stop_nodes(Context g, hex_id)
@cython.locals(hs=HexState, out=list)
cpdef object token_nodes(Context g, key)
cpdef object network(Context g, key)
cpdef object _walk_tracks(Context g, key)
cpdef object reach(Context g, key, starts, blocking=*)
cpdef object _cached(Context g, cache, k, key, starts, blocking)
cpdef object _touched(Network net, starts)
cpdef object _touches(hexes, touched)
cpdef object _changes_after(Context g, since)
cpdef object _still_valid(Context g, key, since, touched, own_tokens=*)
cpdef object compute_network(Context g, key, starts=*, blocking=*)
cpdef object _state(hi, pi, side)
cpdef object _trk(Context g, tracks, h)
@cython.locals(hs=HexState, t=Track)
cpdef object _trk_at(Context g, tracks, hi)
cpdef object _start_states(Context g, start, tracks)
@cython.locals(a=long, also=bytearray, b=long, back=long, base=long, bit=long, blocked_at=dict, byte=long, code=long, edges=set, end=long, hex_edges=dict, hi=long, hs=HexState, ids=list, into=list, k=long, marks_also=long, nb=long, nbrs=list, neighbour_index=list, node=Node, nodes=set, other=long, path=long, path_bits=long, path_mask=long, pi=long, reached=bytearray, s=long, seen=bytearray, t=Track, tn=Track, todo=list, track_at=list)
cpdef object _walk(Context g, key, blocking, Network net, stack, visited, token_set, tracks, blocked, local, explored=*)
cpdef object _forget_stops(blocked, hex_id, Track t)
cpdef object _lay_keeps(Context g, key, hex_id, HexState old_hs, blocking=*, new_tokens=*)
cpdef object unchanged_since(Context g, since, hexes)
@cython.locals(out=set)
cpdef object hexes_changed_since(Context g, since)
cpdef object invalidate(Context g, hexes=*, key=*, HexState before=*)
cpdef object tile_name_of(tile_id)
cpdef object available_copies(Context g, name)
cpdef object next_copy_id(Context g, name)
cpdef object upgrade_options(Context g, hex_id)
cpdef object downgrade_of(Context g, hex_id)
@cython.locals(out=set)
cpdef object listed_upgrades(Context g, hex_id)
cpdef object rotations_keeping_track(Context g, hex_id, new)
cpdef object apply_lay(Context g, LayPlan plan)
cpdef object network_after(Context g, key, LayPlan plan)
cpdef object _facts(Network net)
cpdef object _sub(old, new)
cdef long _NODE_BITS, _NOT_FOUND, _FOUND, _OUT_OF_BUDGET
@cython.final
cdef class _RouteSearch:
    cdef Context g
    cdef object key
    cdef list tracks
    cdef set origins, used, seen, sides
    cdef long left
    @cython.locals(nb=long, mine=long, theirs=long)
    cdef long side(self, long hi, long edge) except -1
    @cython.locals(t=Track, pi=long, entered=long, s=long)
    cdef long start(self, long hi, long code) except -1
    @cython.locals(g=Context, t=Track, pi=long, other=long, nb=long, ni=long, stop=long, c=long, found=long, node=Node, s=long)
    cdef long out(self, long hi, long code) except -1
    @cython.locals(path=long)
    cdef long into(self, long hi, long code) except -1


@cython.locals(thi=long, side=long, search=_RouteSearch)
cpdef object route_reaches_path(Context g, key, hex_id, target, budget=*)
@cython.locals(cache=dict)
cpdef object route_reaches_node(Context g, key, hex_id, name, budget=*)
@cython.locals(t=Track)
cdef bint _route_to_node(Context g, key, hex_id, name, budget)
@cython.locals(t=Track, pi=long, thi=long, search=_RouteSearch)
cdef bint _route_along_to(Context g, key, hex_id, long end, budget)
@cython.locals(hi=long, thi=long, t0=Track, entry=tuple)
cdef _RouteSearch _route_search(Context g, key, hex_id, target, budget)
@cython.locals(cache=dict)
cpdef object route_reaches_side(Context g, key, hex_id, edge, budget=*)
cdef bint _route_to_side(Context g, key, hex_id, edge, budget)

