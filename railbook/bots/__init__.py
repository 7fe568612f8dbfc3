"""Bots that play 18xx titles through the public game API.

A bot is seeded and deterministic: ``bot.choose(game, player)`` returns one complete
:class:`~railbook.engine.legal.LegalAction` for ``player`` (one of ``game.acting()``).  New bots subclass
:class:`Bot` and register a name in :data:`BOTS`::

    bot = make_bot("heuristic", seed=7)
    game.process(bot.choose(game, game.acting()[0]))
"""

from __future__ import annotations

from .base import Bot
from .heuristic import HeuristicBot
from .random_bot import RandomBot

#: bot name -> class; ``railbook simulate --bots`` takes these names
BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}


def make_bot(name: str, seed: int) -> Bot:
    """A new bot called ``name`` (a key of :data:`BOTS`), seeded with ``seed``."""
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"no bot named {name!r} (bots: {', '.join(sorted(BOTS))})") from None


__all__ = ["BOTS", "Bot", "HeuristicBot", "RandomBot", "make_bot"]
