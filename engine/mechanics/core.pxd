# The compiled build's declarations for railbook.engine.mechanics.core (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
cimport cython
from railbook.engine.closing cimport close_company, close_operator
from railbook.engine.context cimport Context
from railbook.engine.state cimport Ability, Corporation, Minor, Player, Train, ckey, kind_of, mkey, sym_of, xkey
cimport railbook.engine.memo as _memo
cimport railbook.engine.board as board
cimport railbook.engine.depot as depot
cimport railbook.engine.market as market
cimport railbook.engine.rounds as rounds
cimport railbook.engine.shares as shares

cpdef object operating_round_started(Context g)
cpdef object ability_removed(Context g, owner, Ability ability)
cpdef object ability_used_up(Context g, owner, Ability ability)
cpdef object phase_reached(Context g, name)
cpdef object action_processed(Context g, action, entity)
@cython.locals(kept=dict)
cpdef object _markers_on(Context g, kind, cells)
@cython.locals(corp=Corporation)
cpdef object _on_close_cell(Context g, sym, closing)
cpdef object _on_close_cells(Context g, closing)
cpdef object player_value(Context g, player)
@cython.locals(found=list)
cpdef object end_check(Context g)
cpdef object _final_set_size(Context g, reason)
@cython.locals(corp=Corporation, minor=Minor, p=Player, params=dict, spec=dict, train=Train)
cpdef object _triggered(Context g, trig)
@cython.locals(corp=Corporation)
cpdef object _on_end_cell(Context g, ending)
cpdef object _trains_of_type(Context g, sym)
cpdef object end_now(Context g, timing)
cpdef object end_game(Context g, reason, manual)
cpdef object corporation_closed(Context g, corp)
