"""Sales that need the seller's consent, and a view of a game without the offers a seller turned down.

The rules let a corporation buy a train (or a private) from one run by another player "at any price mutually
agreed": the engine, like a record of a game at a table, takes the price the buyer writes down, since the
agreement is made between the players.  Bots at a table agree the same way: before such a sale is processed the
seller's bot is asked (:meth:`railbook.bots.Bot.agrees`), and an offer it turns down is left out of the buyer's
choices (:class:`Refusals`) until the buyer has chosen something else.
"""

from __future__ import annotations

from typing import Any

from railbook.engine.legal import LegalAction

from .base import entity_key, from_dict

#: owners that are no player's: a sale from them needs no one's consent
_NOBODY = ("depot", "pool", "bank", "discard", "market", "")


def seller_of(game: Any, action: LegalAction | dict[str, Any]) -> str | None:
    """The player (id) whose consent ``action`` (a legal action or a plain action or description) needs: it buys
    a train or a private held by an entity another player controls; None when no one else must agree."""
    kind, _, asset_id = _offer(action)
    if kind not in ("buy_train", "buy_company"):
        return None
    g = game.context
    if kind == "buy_train":
        asset = game.state.trains.get(asset_id)
    else:
        asset = game.state.companies.get(asset_id)
    owner = str(getattr(asset, "owner", None) or "")
    if owner in _NOBODY:
        return None
    try:
        seller = g.controller(owner)
        buyer = g.controller(entity_key(action if isinstance(action, LegalAction) else from_dict(action)))
    except (KeyError, AttributeError, ValueError):
        return None
    if not seller or not str(seller).startswith("P|") or seller == buyer:
        return None
    return str(seller)[2:]


def _offer(action: LegalAction | dict[str, Any]) -> tuple[str, str, str]:
    get = action.get if isinstance(action, dict) else action.fields.get
    kind = action["type"] if isinstance(action, dict) else action.type
    entity = action["entity"] if isinstance(action, dict) else action.entity
    return str(kind), str(entity), str(get("train") or get("company") or "")


class Refusals:
    """A game as a buyer sees it after sellers turned offers down: the same game, without those offers among its
    legal actions and descriptions (everything else is the game's own)."""

    def __init__(self, game: Any, refused: list[LegalAction], every: bool = False) -> None:
        """``every``: leave out every offer that needs another player's consent, not only those in ``refused``."""
        self._game = game
        self._refused = {_offer(a) for a in refused}
        self._every = every

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def legal_actions(self) -> list[LegalAction]:
        return [a for a in self._game.legal_actions() if not self._turned_down(a)]

    def legal_descriptions(self) -> list[dict[str, Any]]:
        out = []
        for desc in self._game.legal_descriptions():
            if self._turned_down(desc):
                continue
            choices = desc.get("choices")
            if isinstance(choices, list):
                kept = [c for c in choices if not (isinstance(c, dict) and self._turned_down({**desc, **c}))]
                if not kept and choices:
                    continue
                desc = {**desc, "choices": kept}
            out.append(desc)
        return out

    def _turned_down(self, action: LegalAction | dict[str, Any]) -> bool:
        if _offer(action) in self._refused:
            return True
        return self._every and seller_of(self._game, action) is not None
