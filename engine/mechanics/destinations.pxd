# The compiled build's declarations for railbook.engine.mechanics.destinations (setup.py; README.md, "The compiled build"); the .py source is
# compiled unchanged. The destination walks as C functions taking a Context, their locals declared.
# A class declared here lists every field its instances have; a cpdef function keeps the signature written
# here (arguments by position, ``=*`` for a default).
from railbook.engine.steps.base cimport StepBase
cimport cython
from railbook.engine.book cimport Track
from railbook.engine.context cimport Context
from railbook.engine.state cimport Corporation, Token, Train, ckey, kind_of, sym_of
cimport railbook.engine.routes as R
cimport railbook.engine.memo as _memo
cimport railbook.engine.board as board
cimport railbook.engine.market as market
cimport railbook.engine.rounds as rounds
cimport railbook.engine.shares as shares
from railbook.engine.access cimport ParamsReader, StateReader

cdef ParamsReader PARAMS
cdef StateReader STATE

cpdef object destination_of(Context g, corp)
@cython.locals(c=Corporation, home=Token)
cpdef object home_hexes(Context g, corp)
cpdef object connected(Context g, corp)
@cython.locals(c=Corporation, asked=list, found=list, order=list)
cpdef object check(Context g, operator=*)
@cython.locals(c=Corporation)
cpdef object _connected_to(Context g, p, corp, dest, homes)
cpdef object _network_reaches(Context g, corp, dest)
cpdef object _run_home_to(Context g, corp, dest, homes)
cpdef object _train_can_run(Context g, corp, dest, homes)
cpdef object _walk_reaches(Context g, corp, dest, homes)
cpdef object _walk_from(Context g, corp, dest)
cpdef object _trace_runs(Context g, corp, dest, homes, trains)
@cython.locals(came=dict, depth=dict)
cpdef object _fewest_stops_trace(Context g, corp, dest, homes, read=*, most=*)
@cython.locals(kept=dict, t=Train)
cpdef object _train_stops(Context g, tid)
cpdef object _adjacent_now(Context g)
@cython.locals(table=dict)
cpdef object _adjacent_in(Context g, kept, node, read)
cpdef object _adjacent_table(Context g, kept)
@cython.locals(a=long, b=long, back=long, entered=long, first=long, found=set, hi=long, ids=list, into=list, mask=long, nb=long, neighbour_index=list, other=long, out=list, path=long, path_bits=long, pi=long, pj=long, seen=set, stack=list, t=Track, tn=Track, tracks=dict)
cpdef object _adjacent_chains(Context g, node, read=*)
cpdef object operator_started(Context g, operator)
cpdef object after_operating_action(Context g, action)
cpdef object record_notice(Context g, action)
cpdef object extra_bonus_specs(Context g, corp, out)
