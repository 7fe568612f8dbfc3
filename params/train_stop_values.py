"""The ``train_stop_values`` mechanic's parameters and declaration.

Its rules: ``engine/mechanics/train_stop_values.py``."""

from __future__ import annotations

from pydantic import Field
from railbook.params.base import Declaration, HexId, TrainId
from railbook.params.base import Params as BaseParams


class Params(BaseParams):
    """Stop values by train type."""

    values: dict[HexId, dict[TrainId, int]] = Field(
        description="hex -> train type -> $ a counted stop there earns that train, in place of its printed value"
    )


DECLARATION = Declaration(
    name="train_stop_values",
    description="stops worth a different amount to some train types",
    params=Params,
)
