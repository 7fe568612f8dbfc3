"""What every mechanic's parameter models build on, and the declaration the compiler reads of a mechanic.

This package (``railbook.params``) holds, per mechanic, the data the compiler needs: its parameter model,
its phase events' parameter models and the names of the steps and round types it contributes.  It imports
nothing of the engine, so validating a title never loads the engine's runtime; the engine's rule modules
(``railbook.engine.mechanics``) import their models from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from pydantic import BaseModel, ConfigDict
from pydantic.fields import FieldInfo


def _function() -> None:
    """A function of this module: its type is the type of the methods defined here (a compiled build's methods are
    not Python functions, and pydantic must be told to leave them alone)."""


class Params(BaseModel):
    """Base of every mechanic's (and event's) parameter model: unknown keys are errors, values are frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True, ignored_types=(type(_function),))


class NoParams(Params):
    """A mechanic or event that takes no parameters."""


PRINT_ONLY: dict[str, object] = {"x-print-only": True}
"""Metadata of a field that is only printed (a name, a colour, a note on a card): no rule reads it, by definition.
Give it as ``Field(..., json_schema_extra=PRINT_ONLY)``; the JSON schema shows it, and the test of a closed format
(``tests/test_format_closed.py``) looks for no engine code reading it."""


def is_print_only(info: FieldInfo) -> bool:
    """Whether a field is marked :data:`PRINT_ONLY`."""
    extra = info.json_schema_extra
    return isinstance(extra, dict) and extra.get("x-print-only") is True


@dataclass(frozen=True)
class Ref:
    """Marks a parameter value as the id of something in the rulebook; the compiler checks it exists."""

    kind: str  # corporations | minors | privates | hexes | phases | trains | tiles | market_cells


#: Ids of rulebook entities, for parameter models (checked by the compiler, with file and line).
CorporationId = Annotated[str, Ref("corporations")]
MinorId = Annotated[str, Ref("minors")]
PrivateId = Annotated[str, Ref("privates")]
HexId = Annotated[str, Ref("hexes")]
PhaseId = Annotated[str, Ref("phases")]
TrainId = Annotated[str, Ref("trains")]
TileId = Annotated[str, Ref("tiles")]


@dataclass(frozen=True)
class Declaration:
    """What a mechanic declares to the compiler: its name, what it does, its parameter model, the steps and round
    types it contributes (by name), its phase events (event type -> parameter model) and the interfaces
    (``railbook.engine.interfaces``, by name) it provides, requires (a title switching it on must switch on a
    provider) and uses when a switched-on mechanic provides them.  The engine's rule module of the same name
    supplies the code for each (``railbook.engine.contract.Mechanic.of``)."""

    name: str
    description: str
    params: type[Params] = NoParams
    steps: tuple[str, ...] = ()
    round_types: tuple[str, ...] = ()
    events: dict[str, type[Params]] = field(default_factory=dict)
    provides: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    uses: tuple[str, ...] = ()
    implemented: bool = True
