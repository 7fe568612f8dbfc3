"""The ``random_removal`` mechanic's parameters and declaration (its rules: ``engine/mechanics/random_removal.py``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from railbook.params.base import Declaration
from railbook.params.base import Params as BaseParams


class Group(BaseParams):
    """A group of companies of which some are removed at random."""

    kind: Literal["privates", "corporations"] = Field(description="what the members are")
    members: list[str] = Field(description="private or corporation ids, in the order they draw")
    remove: dict[int, int] = Field(default_factory=dict, description="player count -> members removed (0 if absent)")


class Params(BaseParams):
    """Seeded random removal of companies by group at setup."""

    groups: dict[str, Group] = Field(default_factory=dict, description="removal groups by name")
    order: list[str] = Field(
        default_factory=list,
        description="group names (and seeded-setup parts of other mechanics, e.g. `draft_deck`) in the order they "
        "draw; default: the groups in their order",
    )


DECLARATION = Declaration(
    name="random_removal",
    description="seeded random removal of companies by group at setup",
    params=Params,
)
