# The compiled build's declarations for railbook.engine.mechanics.river_companies (setup.py; README.md, "The compiled build"): the
# types the .py source declares with @cython.locals (a Context, a step's self) and the classes they name.
from railbook.engine.context cimport Context
from railbook.engine.access cimport ParamsReader

cdef ParamsReader PARAMS
