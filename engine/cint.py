"""``CInt``: the annotation of a local integer variable that compiled builds keep in a C ``long``.

To the interpreter and to type checkers it is ``int``.  :mod:`railbook.accel_declare` keeps a local variable's
annotation ``CInt`` (``n: CInt = 0``) where it blanks the others, drops the import of the name and declares it in
the module's ``.pxd``; arithmetic on the variable is then C arithmetic (with Python's rules for ``%`` and ``//``).
Only for a value that is always an ``int`` and stays far below 2**63: a variable declared so raises on anything else.
Import it under ``if TYPE_CHECKING:``, alone in its import statement.
"""

from typing import TypeAlias

CInt: TypeAlias = int
