"""``certificate_limit``: the limit is looked up per player count and, when ``cert_limit_by`` is
``corporations``, by the number of corporations still in the game (it changes when one closes)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..game import Game


def corporation_closed(g: Game, corp: str) -> None:
    from . import update_cert_limit

    update_cert_limit(g)
