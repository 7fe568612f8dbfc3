"""``final_value``: a player's result is cash + certificates at market price + privates still owned at face
value (closed ones count nothing; none with ``private_companies.count_in_final_value: false``); corporation
treasuries are ignored.  This is the core's rule; the mechanic
is where titles that change it (debts, short positions) add their parameters."""

from __future__ import annotations

from railbook.params.final_value import DECLARATION

from ..contract import Mechanic

MECHANIC = Mechanic.of(
    DECLARATION,
)
