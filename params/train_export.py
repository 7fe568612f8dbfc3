"""The ``train_export`` mechanic's parameters and declaration.

Its rules: ``engine/mechanics/train_export.py``."""

from __future__ import annotations

from pydantic import Field
from railbook.params.base import Declaration, TrainId
from railbook.params.base import Params as BaseParams


class Params(BaseParams):
    """The export at the end of each set of operating rounds."""

    types: list[TrainId] = Field(
        [], description="export only while the next bank train is of one of these types (empty: any type)"
    )


DECLARATION = Declaration(
    name="train_export",
    description="the bank exports its next train at the end of each set of operating rounds",
    params=Params,
)
