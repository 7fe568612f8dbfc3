"""The ``independents`` mechanic's parameters and declaration (its rules: ``engine/mechanics/independents.py``)."""

from __future__ import annotations

from pydantic import Field
from railbook.params.base import Declaration, MinorId, PhaseId, PrivateId
from railbook.params.base import Params as BaseParams


class Independent(BaseParams):
    """An independent (minor) company owned through a private company."""

    private: PrivateId = Field(description="the private company whose owner owns the independent")
    debt: int = Field(0, ge=0, description="$ paid to the bank on top of the private's price when acquiring it")


class TrainCountRange(BaseParams):
    """A range of trains a corporation owns."""

    min: int = Field(0, ge=0, description="fewest trains")
    max: int = Field(99, ge=0, description="most trains")


class Params(BaseParams):
    """Minors owned through a private company, bought out by corporations."""

    companies: dict[MinorId, Independent] = Field(description="the independents, by minor id")
    close_on_phase: PhaseId | None = Field(
        None, description="phase whose start closes every independent (None: they never close by phase)"
    )
    buyout_counts_for_track: TrainCountRange | None = Field(
        None,
        description="a corporation owning this many trains may count the cash of player-owned independents "
        "(it could buy them) as money for track; None: it may not",
    )
    buyout_counts_for_trains: TrainCountRange | None = Field(
        None,
        description="a corporation owning this many trains may count the cash of player-owned independents "
        "as money for a train; None: it may not",
    )


DECLARATION = Declaration(
    name="independents",
    description="minors owned through a private company that split their revenue with the owner",
    params=Params,
    uses=("PrivateCompanies",),
)
