# The compiled build's declarations for railbook.engine.stations (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.state cimport Token
from railbook.engine.context cimport Context
from railbook.engine.state cimport kind_of, sym_of
cimport railbook.engine.abilities as abilities
cimport railbook.engine.board as board

cpdef object city_id(Context g, hex_id, ci)
cpdef object token_abilities(Context g, corp, hex_id, ci)
cpdef object teleport_nodes(Context g, corp)
cpdef object tokenable(Context g, corp, hex_id, ci)
cpdef object home_holds_hex(Context g, corp, hex_id)
cpdef object connected_city(Context g, corp, hex_id, ci)
cpdef object reachable_hexes(Context g, corp)
