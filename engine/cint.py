"""``CInt``: the annotation of a local integer variable that the compiled build keeps in a C ``long``.

To the interpreter and to type checkers it is ``int``.  The annotation documents the declaration; what the compiled
build uses is the ``@cython.locals(name=long)`` of the function in the module's ``.pxd`` (``engine/board.pxd``).
Only for a value that is always an ``int`` and stays far below 2**63: a variable declared so raises on anything else.
Import it under ``if TYPE_CHECKING:``.
"""

from typing import TypeAlias

CInt: TypeAlias = int
