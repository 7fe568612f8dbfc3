"""The random bot: ``railbook soak``'s random player (mostly an active move, more passes the longer a stock round
lasts, bids mostly at their least, trains run the optimiser's best routes nine times in ten)."""

from __future__ import annotations

from typing import Any

from railbook.engine.legal import LegalAction

from .base import Bot, from_dict


class RandomBot(Bot):
    """Random legal moves, tiring of long rounds as the soak's players do."""

    name = "random"

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self._round: tuple[Any, ...] = ()
        self._in_round = 0

    def choose(self, game: Any, player: str) -> LegalAction:
        from railbook.soak import bid_weariness, choose, patience, round_key

        now = round_key(game)
        self._in_round = self._in_round + 1 if now == self._round else 0
        self._round = now
        stock = game.state.round is not None and game.state.round.kind == "stock"
        action = choose(
            game, self.rnd, patience(self._in_round if stock else 0), 0.0 if stock else bid_weariness(self._in_round)
        )
        if action is None:
            raise RuntimeError("no legal action to choose")
        return from_dict(action)

    def agrees(self, game: Any, player: str, action: LegalAction) -> bool:
        return self.rnd.random() < 0.5
