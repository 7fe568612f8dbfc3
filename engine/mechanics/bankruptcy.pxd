# The compiled build's declarations for railbook.engine.mechanics.bankruptcy (setup.py; README.md, "The compiled build"): the
# types the .py source declares with @cython.locals (a Context, a step's self) and the classes they name.
from railbook.engine.context cimport Context
from railbook.engine.steps.base cimport StepBase
from railbook.engine.access cimport ParamsReader

cdef ParamsReader PARAMS
