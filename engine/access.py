"""The typed readers of a mechanic's own parameters and state in a game.

A rule module declares its readers once, ``PARAMS = params_of(DECLARATION, Params)`` and
``STATE = state_of(DECLARATION, State)``, and reads ``PARAMS.of(g).field`` / ``STATE.of(g).field``.  The readers
are asked on nearly every question a mechanic answers; in the compiled build a module that declares them in its
``.pxd`` calls them as C methods that read the context's fields directly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeVar

from railbook.params.base import Declaration, Params

if TYPE_CHECKING:
    from .context import Context

ParamsT = TypeVar("ParamsT", bound=Params)
StateT = TypeVar("StateT")
T_co = TypeVar("T_co", covariant=True)


class Reads(Generic[T_co]):
    """What a reader gives (for type checkers: ``PARAMS.of(g)`` is the mechanic's parameter model)."""

    def of(self, g: Context) -> T_co:  # pragma: no cover - the readers below answer
        raise NotImplementedError


class ParamsReader:
    """Reads one mechanic's parameters in a game (a read-only copy of its model, see ``contract.read_only``)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def of(self, g: Context) -> Any:
        return g.params[self.name]


class StateReader:
    """Reads one mechanic's part of a game's state (``game.state.mechanics[name]``)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def of(self, g: Context) -> Any:
        return g.state.mechanics[self.name]


def params_of(declaration: Declaration, model: type[ParamsT]) -> Reads[ParamsT]:
    """The reader of a mechanic's parameters, typed by its model."""
    if declaration.params is not model:
        raise TypeError(f"mechanic {declaration.name}: its parameters are {declaration.params.__name__}")
    reader: Any = ParamsReader(declaration.name)
    return reader  # type: ignore[no-any-return]


def state_of(declaration: Declaration, cls: type[StateT]) -> Reads[StateT]:
    """The reader of a mechanic's part of the game state, of class ``cls``."""
    reader: Any = StateReader(declaration.name)
    return reader  # type: ignore[no-any-return]
