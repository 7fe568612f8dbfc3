# The compiled build's declarations for railbook.engine.abilities (setup.py; README.md, "The compiled build"); the .py source is
# compiled unchanged. The ability questions as C functions taking a Context.
# A class declared here lists every field its instances have; a cpdef function keeps the signature written
# here (arguments by position, ``=*`` for a default).
from railbook.engine.context cimport Context
from railbook.engine.state cimport Ability, kind_of
cimport railbook.engine.rounds as rounds

cpdef object holder_of(Context g, owner)
cpdef object right_owner(Context g, owner, Ability a)
cpdef object per_or_ok(Ability a)
cpdef object corp_assign_ok(Ability a)
cpdef object timing_ok(Context g, owner, Ability a, passive_ok=*)
cpdef object ability_step(Context g)
cpdef object usable(Context g, owner, Ability a, passive_ok=*)
cpdef object find(Context g, entity, type_, passive_ok=*)
cpdef object spec_param(Ability a, key, default=*)
