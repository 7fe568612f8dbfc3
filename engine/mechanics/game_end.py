"""``game_end``: game-end rules beyond the rulebook's ``end`` triggers (which the core checks: bank broken,
bankruptcy, all corporations closed, market end cell, final phase or train, each with its timing)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from railbook.params.game_end import DECLARATION, Params

from ..access import params_of
from ..contract import Mechanic

if TYPE_CHECKING:
    from ..context import Context

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from .. import cython_shim as cython


PARAMS = params_of(DECLARATION, Params)


@cython.locals(g="Context")
def round_started(g: Context, kind: str) -> None:
    limit = PARAMS.of(g).turn_limit
    if kind == "stock" and limit is not None and g.state.turn >= limit and not g.state.finished:
        g.hooks("end_game", "dnf", False)


MECHANIC = Mechanic.of(
    DECLARATION,
    hooks={"round_started": round_started},
)
