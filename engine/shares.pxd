# The compiled build's declarations for railbook.engine.shares (setup.py; README.md, "The compiled build"); the .py source is
# compiled unchanged. Bundles as a native class; the share questions as C functions taking a Context.
# A class declared here lists every field its instances have; a cpdef function keeps the signature written
# here (arguments by position, ``=*`` for a default).
cimport cython
from railbook.engine.context cimport Context
from railbook.engine.state cimport Corporation, Share, ckey, kind_of, pkey
cimport railbook.engine.memo as _memo
cimport railbook.engine.market as market

cdef class Bundle

cdef class Bundle:
    cdef public object corp
    cdef public list shares
    cdef public object percent
    cdef public object owner
    cdef public object share_price

cpdef object share_percent(Context g, corp)
cpdef object presidents_percent(Context g, corp)
cpdef object president_shares(Context g, corp)
@cython.locals(held=dict)
cpdef object shares_of(Context g, holder, corp)
cpdef object percent_of(Context g, holder, corp)
@cython.locals(share=Share)
cpdef object _total_percent(st, ids)
cpdef object num_shares_of(Context g, holder, corp)
cpdef object price_per_share(Context g, corp)
cpdef object bundle_price(Context g, Bundle b)
cpdef object num_shares(Context g, Bundle b)
cpdef object presidents_share(Context g, Bundle b)
@cython.locals(first=Share, objs=list, share=Share)
cpdef object make_bundle(Context g, share_ids, percent=*)
cpdef object can_dump(Context g, Bundle b, holder)
cpdef object fit_in_pool(Context g, Bundle b)
@cython.locals(c=Corporation, kept=dict, share=Share)
cpdef object bundles_for(Context g, holder, corp)
cpdef object _bundles(corp, holder, held, normal)
cpdef object _cert_count(Context g, sid, weight)
cpdef object certs_at_most(Context g, player)
@cython.locals(c=Corporation, kinds=list)
cpdef object _cert_tally(Context g, player, exemptions)
cpdef object certs_of(Context g, player, corp)
@cython.locals(c=Corporation, kinds=list)
cpdef object holding_ok(Context g, holder, corp, extra=*)
cpdef object holdings_changed(Context g)
@cython.locals(s=Share)
cpdef object move_share(Context g, sid, to)
cpdef object _distance(Context g, a, b)
cpdef object _shift(Context g, sid, to)
cpdef object check_float(Context g, corp, was_floated)
cpdef object value_of_holdings(Context g, holder)
cpdef object corp_of_share(sid)
cpdef object sale_moves(Context g)
cpdef object sell_and_move(Context g, Bundle b)
@cython.locals(share=Share)
cpdef object shorts(Context g)
cpdef object _scanned_shorts(st)
@cython.locals(s=Share)
cpdef object new_share(Context g, corp, holder, percent)
cpdef object remove_share(Context g, sid)
