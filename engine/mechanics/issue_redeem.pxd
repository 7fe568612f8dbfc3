# The compiled build's declarations for railbook.engine.mechanics.issue_redeem (setup.py; README.md, "The compiled build"): native classes,
# C functions (cpdef) taking a Context, typed locals, and the C functions and native classes of other modules it
# uses. The .py source is compiled unchanged. A class declared here lists every field its instances have; a cpdef
# function keeps the signature written here (arguments by position, ``=*`` for a default).
from railbook.engine.steps.base cimport StepBase
from railbook.engine.context cimport Context
from railbook.engine.shares cimport Bundle
from railbook.engine.state cimport kind_of, sym_of
cimport railbook.engine.depot as depot
cimport railbook.engine.market as market
cimport railbook.engine.rounds as rounds
cimport railbook.engine.shares as shares
from railbook.engine.access cimport ParamsReader

cdef ParamsReader PARAMS

cpdef object _same(Bundle a, Bundle b)
cpdef object round_started(Context g, kind)
cpdef object operator_started(Context g, entity)
