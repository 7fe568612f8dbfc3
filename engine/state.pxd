# Compiled builds only (railbook.accel_build): the key helpers every module calls, as C functions that the modules
# importing them by name call directly.  The build adds the declarations of this module's dataclasses
# (railbook.accel_declare.native_dataclasses) above these.
cpdef str kind_of(str key)
cpdef str sym_of(str key)
cpdef str pkey(player_id)
cpdef str ckey(sym)
cpdef str mkey(sym)
cpdef str xkey(sym)
cdef str _key(dict table, str prefix, sym)
