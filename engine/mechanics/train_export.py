"""``train_export``: the bank removes ("exports") its next train at the end of each set of operating rounds.

The exported train leaves as if bought: the phase it starts begins, trains it rusts rust and its events happen.
``types`` limits the export to the times the next train is of one of those types (e.g. only while the
non-permanent trains are on sale); an empty list exports whatever is next.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from .. import depot
from ..contract import Mechanic, TrainId
from ..contract import Params as BaseParams

if TYPE_CHECKING:
    from ..context import Context


class Params(BaseParams):
    """The export at the end of each set of operating rounds."""

    types: list[TrainId] = Field(
        [], description="export only while the next bank train is of one of these types (empty: any type)"
    )


def _p(g: Context) -> Params:
    return g.params["train_export"]  # type: ignore[return-value]


def or_set_finished(g: Context) -> None:
    if not g.state.depot:
        return
    nxt = g.state.trains[g.state.depot[0]].sym
    types = _p(g).types
    if types and nxt not in types:
        return
    depot.export_train(g)


MECHANIC = Mechanic(
    name="train_export",
    description="the bank exports its next train at the end of each set of operating rounds",
    params=Params,
    hooks={"or_set_finished": or_set_finished},
)
