# The compiled build's declarations for railbook.engine.mechanics.track (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.steps.base cimport StepBase
cimport cython
from railbook.engine.context cimport Context
from railbook.engine.state cimport Ability, Company, kind_of, sym_of, xkey
cimport railbook.engine.abilities as abilities
cimport railbook.engine.board as board
cimport railbook.engine.rounds as rounds
cimport railbook.engine.stations as stations
from railbook.engine.access cimport ParamsReader

cdef ParamsReader PARAMS

cpdef object tile_downgrades(Context g, hex_id)
cpdef object turn_lay_cost(Context g, n, cost)
cpdef object lay_discount_abilities(Context g, corp)
cpdef object terrain_discount(Context g, corp, terrain)
cpdef object border_discount(Context g, corp, border_type, cost)
@cython.locals(a=Ability, c=Company)
cpdef object blocked_hex(Context g, hex_id)
@cython.locals(x=Ability)
cpdef object blocked_for_ability(Context g, hex_id, Ability a)
cpdef object _crossings_only(Ability a)
cpdef object special_lay_terms(Ability a)
cpdef object ability_fee(Ability a)
cpdef object _lift_tokens(Context g, corp, hex_id, old_track)
cpdef object lifted_token(Context g, entity)
cpdef object replace_lifted_token(Context g, entity, action)
cpdef object _lay_income(Context g, corp, hex_id)
cpdef object _hex_built(Context g, hex_id, entity)
cpdef object _hexes_lost_if_built(Context g)
cpdef object extra_lay_owned(Context g, corp)
cpdef object normal_lay_owned(Context g, corp)
@cython.locals(out=list)
cpdef object legal_lays(Context g, corp, limit=*)
cpdef object _adds_usable_track(Context g, corp, plan, edges)
cpdef object special_lay_ability(Context g, company)
cpdef object private_lay_for(Context g, corp, hex_id, param)
cpdef object spend_private_lay(Context g, owner, Ability a, hex_id)
cpdef object _turn_lay(Ability a)
cpdef object _normal_lay(Ability a)
cpdef object normal_lay_ability(Context g, company)
cpdef object _may_start(Context g, Ability a)
cpdef object _order_ok(Context g, Ability a)
cpdef object _check_joined(Context g, company, Ability a)
cpdef object _join_problem(Context g, pair, laid)
cpdef object _special_candidates(Context g, Ability a, corp=*, bint first=*, bint leaving=*)
cpdef object _can_complete(Context g, Ability a, pair, laid, left)
cpdef object _pairs_ok(Context g, Ability a, hex_id, tile, rotation)
cpdef object _check_connected_lays(Context g, hexes)
cpdef object _forfeit(Context g, entity, bint closes=*)
cpdef object turn_lay(Context g, entity, corp, action, tiles, discount)
cpdef object next_turn_lay_cost(Context g, corp)
cpdef object next_turn_lay_price(Context g, corp, plan, discount)
cpdef object use_turn_lay(Context g, corp)
cpdef object forbidden_rotation(Context g, corp, hex_id, tile, rotation)
cpdef object lay_allowed(Context g, corp, hex_id, tile, rotation)
cpdef object _brown_ordinary_city(Context g, name)
cpdef object max_exits_ok(Context g, hex_id, tile, rotation)
cpdef object preprocess(Context g, action, entity)
cpdef object action_processed(Context g, action, entity)
