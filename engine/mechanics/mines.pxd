# The compiled build's declarations for railbook.engine.mechanics.mines (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.context cimport Context
from railbook.engine.routes cimport Route
from railbook.engine.state cimport Ability, kind_of, sym_of
cimport railbook.engine.abilities as abilities
cimport railbook.engine.board as board
cimport railbook.engine.bonuses as bonuses

cpdef object _p(Context g)
cpdef object _st(Context g)
cpdef object token_ability(Context g, company)
cpdef object _owner(Context g, company)
cpdef object _check(Context g, company, Ability a, hex_id, tile, rotation)
cpdef object lay_allowed(Context g, corp, hex_id, tile, rotation)
cpdef object _path_spec(Context g)
cpdef object extra_bonus_specs(Context g, corp, out)
cpdef object _rights_private_state(Context g)
cpdef object company_sold(Context g, company, corp)
cpdef object check_route(Context g, corp_key, Route route)
cpdef object route_forbidden_hexes(Context g, corp, out)
