# The compiled build's declarations for railbook.engine.depot (setup.py; README.md, "The compiled build"); the .py source is
# compiled unchanged. The depot's functions as C functions taking a Context.
# A class declared here lists every field its instances have; a cpdef function keeps the signature written
# here (arguments by position, ``=*`` for a default).
cimport cython
from railbook.engine.context cimport Context
from railbook.engine.state cimport Train, kind_of
cimport railbook.engine.memo as _memo

cpdef object variants(Context g, Train t)
cpdef object face_price(Context g, Train t)
cpdef object depot_trains(Context g)
@cython.locals(disc_names=set, names=set, out=list, train=Train)
cpdef object _depot_trains(Context g)
cpdef object _buyable_faces(Context g, Train t)
cpdef object train_limit(Context g, entity)
@cython.locals(t=Train)
cpdef object counted_trains(Context g, entity)
cpdef object room(Context g, entity)
cpdef object remove_train(Context g, tid)
cpdef object buy_train(Context g, buyer, tid, price, variant)
cpdef object _after_bank_purchase(Context g, Train t)
cpdef object phase_started(Context g)
@cython.locals(t=Train)
@cython.locals(t=Train, spec=dict, obsolete=list, rusted=list)
cpdef object rust_trains(Context g, Train purchased)
cpdef object rust(Context g, tid)
cpdef object discard_to_depot(Context g, tid)
