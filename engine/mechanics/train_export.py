"""``train_export``: the bank removes ("exports") its next train at the end of each set of operating rounds.

The exported train leaves as if bought: the phase it starts begins, trains it rusts rust and its events happen.
``types`` limits the export to the times the next train is of one of those types (e.g. only while the
non-permanent trains are on sale); an empty list exports whatever is next.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from railbook.params.train_export import DECLARATION, Params

from .. import depot
from ..access import params_of
from ..contract import Mechanic

if TYPE_CHECKING:
    from ..context import Context


PARAMS = params_of(DECLARATION, Params)


def or_set_finished(g: Context) -> None:
    if not g.state.depot:
        return
    nxt = g.state.trains[g.state.depot[0]].sym
    types = PARAMS.of(g).types
    if types and nxt not in types:
        return
    depot.export_train(g)


MECHANIC = Mechanic.of(
    DECLARATION,
    hooks={"or_set_finished": or_set_finished},
)
