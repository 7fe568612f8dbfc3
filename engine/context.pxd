# The compiled build's declarations for railbook.engine.context (setup.py; README.md, "The compiled build"); the .py source is
# compiled unchanged. Context as a native class: code that knows it holds one (an argument declared
# ``Context g``, a step's ``self.g``) reads its fields directly and calls its methods as C methods.
# A class declared here lists every field its instances have; a cpdef function keeps the signature written
# here (arguments by position, ``=*`` for a default).
cimport cython
from railbook.engine.book cimport Book
from railbook.engine.install cimport Installed
from railbook.engine.state cimport (
    Ability, Company, Corporation, GameState, Minor, Player, ckey, kind_of, mkey, pkey, sym_of, xkey
)

cdef class Context:
    cdef public dict cache, params
    cdef public list memo
    cdef public GameState state
    cdef public Book book
    cdef public Installed rules
    cdef public object hooks
    cdef public long board_version, epoch  # (C integers: compared on every memoised answer)
    cdef public bint audit

    # the questions every module asks of the game, as C methods for code that knows it holds a Context (each must keep
    # the signature here: arguments by position, no generator or closure in its body)
    cpdef object log(self, message)
    cpdef object phase_spec(self)
    cpdef object phase_name(self)
    @cython.locals(p=Player)
    cpdef object player(self, str key)
    cpdef object corp(self, key_or_sym)
    cpdef object minor(self, key_or_sym)
    cpdef dict table(self, str name)
    cpdef object company(self, key_or_sym)
    cpdef object operator(self, key)
    cpdef object name(self, key)
    cpdef object owner(self, key)
    cpdef object controller(self, key)
    @cython.locals(corp=Corporation, minor=Minor, company=Company)
    cpdef bint is_closed(self, str key) except -1
    cpdef object companies_of(self, key)
    cpdef object entity_trains(self, key)
    cpdef object cash(self, key)
    cpdef object spend(self, src, dst, amount, check_positive=*)
    @cython.locals(fields=dict, kinds=dict, p=Player)
    cpdef str entity_key(self, action)
    @cython.locals(out=list, c=Company, corp=Corporation, a=Ability)
    cpdef list abilities_of(self, str key)
    cpdef object remove_ability(self, str owner, Ability ability)
    cpdef object use_ability(self, str owner, Ability ability, bint marks=*, bint used_up_closes=*)
