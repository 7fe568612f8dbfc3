# The compiled build's declarations for railbook.engine.mechanics.private_payouts (setup.py; README.md, "The compiled build"): the
# types the .py source declares with @cython.locals (a Context, a step's self) and the classes they name.
from railbook.engine.context cimport Context
from railbook.engine.access cimport ParamsReader, StateReader

cdef ParamsReader PARAMS
cdef StateReader STATE
