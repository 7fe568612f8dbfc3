"""The interpreter's public face: :class:`Game`.

``Game.start(rulebook, players, seed=..., options=[...])`` builds the initial state from a compiled rulebook;
``game.acting()``, ``game.legal_actions()`` and ``game.process(action)`` play it; ``undo``/``redo`` step back and
forth; ``outcome()`` tells the standing; ``save``/``load`` keep a game as JSON text.  Actions are plain dicts in the
18xx.games shape (``type``, ``entity``, ``entity_type`` and the type's fields), or the typed
:class:`~railbook.engine.legal.LegalAction` items ``legal_actions()`` returns, once their open choices are filled.

``process`` is atomic: an illegal action raises :class:`~railbook.engine.errors.IllegalAction` naming the rule, and
the game is left exactly as it was.

Rule code never sees this class: it receives the game's :class:`~railbook.engine.context.Context`.
"""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Iterable
from typing import Any

from . import rounds, setup
from .action_shape import check_action_shape
from .book import book_for
from .context import Context, decode_state
from .errors import IllegalAction, SaveError
from .legal import LegalAction, from_descriptions
from .state import GameState, pkey, sym_of, to_json
from .types import EndReason, Outcome


class Game:
    """One game of a compiled rulebook, played by actions."""

    #: actions between snapshots: the largest recorded states pickle in ~1.7 ms, ~13 µs an action at 128; an illegal
    #: action or an undo then re-applies at most 128 actions (~25 ms)
    CHECKPOINT_EVERY = 128

    def __init__(self, context: Context) -> None:
        self._ctx = context
        # snapshots (pickled state, board version) taken before action number ``n``: n -> snapshot
        self._snapshots: dict[int, tuple[bytes, int]] = {}
        self._actions: list[dict[str, Any]] = []  # every action processed (atomically) since start or load
        self._redo: list[dict[str, Any]] = []  # actions undone, the last undone last

    # ---------------------------------------------------------------------------------- creation

    @classmethod
    def start(
        cls,
        rulebook: dict[str, Any],
        players: Iterable[str | dict[str, Any]],
        seed: int = 0,
        options: Iterable[str] = (),
    ) -> Game:
        """A new game.  ``players`` are ids (or ``{"id", "name"}`` records) in seating order."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise SaveError(f"seed must be an integer, not {seed!r}")
        book = book_for(rulebook, tuple(options))
        return cls(setup.new_game(Context, book, list(players), seed))

    @classmethod
    def load(cls, rulebook: dict[str, Any], text: str) -> Game:
        """A game saved by :meth:`save`, with the rulebook it was played with (SaveError for text that is no save
        of this rulebook's title)."""
        try:
            data = json.loads(text)
        except (ValueError, TypeError) as exc:
            raise SaveError(f"not a saved game: {exc}") from None
        return cls.from_json(rulebook, data)

    @classmethod
    def from_json(cls, rulebook: dict[str, Any], data: Any) -> Game:
        """A game from :meth:`to_json`'s object (SaveError for another title or a malformed save)."""
        if not isinstance(data, dict) or not isinstance(data.get("state"), dict):
            raise SaveError("not a saved game: expected an object with a 'state'")
        title = (rulebook.get("meta") or {}).get("title") if isinstance(rulebook, dict) else None
        if data.get("rulebook") != title:
            raise SaveError(f"a saved game of {data.get('rulebook')!r}, not of {title!r}")
        options = data.get("options") or []
        if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
            raise SaveError("not a saved game: 'options' must be a list of names")
        book = book_for(rulebook, tuple(options))
        try:
            state = decode_state(book, data["state"])
            game = cls(Context(book, state))
            rounds.active_entities(game._ctx)  # (a state whose round machinery cannot run is no save)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise SaveError(f"not a saved game of {title!r}: {type(exc).__name__} {exc}") from None
        return game

    # ---------------------------------------------------------------------------------- reading

    @property
    def context(self) -> Context:
        """The game's rule services and state, as rule code sees them (engine-internal; not a stable API)."""
        return self._ctx

    @property
    def state(self) -> GameState:
        """The whole game state (read it; change it only through :meth:`process`)."""
        return self._ctx.state

    @property
    def rulebook(self) -> dict[str, Any]:
        """The compiled rulebook the game is played with (options applied)."""
        return self._ctx.book.raw

    @property
    def title(self) -> str:
        return self._ctx.book.title

    @property
    def options(self) -> tuple[str, ...]:
        return tuple(self._ctx.book.options)

    @property
    def log(self) -> list[str]:
        """What happened, one line per event."""
        return self._ctx.state.log

    @property
    def actions(self) -> list[dict[str, Any]]:
        """The actions processed since the game started (or was loaded), oldest first."""
        return list(self._actions)

    def acting(self) -> list[str]:
        """Ids of the players who must act now (a corporation acts through its president; for one without a
        president, any player may enter its actions)."""
        g = self._ctx
        if g.state.finished:
            return []
        out: list[str] = []
        for key in rounds.active_entities(g):
            player = g.controller(key)
            players = [player] if player else g.player_keys() if g.hooks("in_receivership", key) else []
            out.extend(sym_of(p) for p in players if sym_of(p) not in out)
        return out

    def acting_entities(self) -> list[str]:
        """Entity keys (``P|id``, ``C|sym``, ...) that may act now."""
        return [] if self._ctx.state.finished else rounds.active_entities(self._ctx)

    def legal_actions(self) -> list[LegalAction]:
        """Every action the acting entities may take now, one per choice, with open choices typed."""
        return from_descriptions(self.legal_descriptions())

    def legal_descriptions(self) -> list[dict[str, Any]]:
        """The rule steps' own descriptions of the legal actions (grouped choices; what the random player reads)."""
        if self._ctx.state.finished:
            return []
        return rounds.legal_actions(self._ctx)

    def outcome(self) -> Outcome:
        """The standing: values, ranking (best first; ties keep seating order) and, at the end, the reason."""
        g = self._ctx
        values = {p.id: g.hooks("player_value", pkey(p.id)) for p in g.state.players}
        seats = {pid: i for i, pid in enumerate(g.state.player_ids)}
        ranking = sorted(values, key=lambda pid: (-values[pid], seats.get(pid, 0)))
        reason = g.state.game_end_reason
        return Outcome(
            finished=g.state.finished,
            values=values,
            reason=EndReason(reason) if reason is not None and reason in EndReason._value2member_map_ else None,
            ranking=ranking,
        )

    def result(self) -> dict[str, int]:
        """Each player's final (or current) value."""
        return self.outcome().values

    # ---------------------------------------------------------------------------------- playing

    def process(self, action: dict[str, Any] | LegalAction, atomic: bool = True) -> Game:
        """Apply one action.  Raises :class:`IllegalAction` and leaves the state unchanged.

        Atomicity without copying the state on every action: a snapshot (pickle) is taken every
        ``CHECKPOINT_EVERY`` actions and the actions since are kept; when an action fails the state is
        rebuilt from the snapshot by re-applying them (the engine is deterministic).  ``atomic=False``
        skips all that (a replay that stops at the first error does not need it) and trusts that the state
        changed only through ``process`` since the last action (memoised answers are kept); such actions cannot be
        undone.
        """
        if isinstance(action, LegalAction):
            action = action.to_action()
        check_action_shape(action)  # (which refuses what is no JSON object)
        if type(action) is not dict:
            action = dict(action)  # (a mapping of another dict type: the engine reads plain dicts)
        g = self._ctx
        if not atomic:
            rounds.process(g, action)
            if self._actions or self._snapshots or self._redo:  # (a replay's every action comes this way)
                self._snapshots.clear()
                self._actions.clear()
                self._redo.clear()
            return self
        g.epoch += 1  # the caller may have changed the state by hand since the last action
        n = len(self._actions)
        if n % self.CHECKPOINT_EVERY == 0 and n not in self._snapshots:
            self._snapshots[n] = (pickle.dumps(g.state, protocol=pickle.HIGHEST_PROTOCOL), g.board_version)
        action = copy.deepcopy(action)
        try:
            rounds.process(g, action)
        except BaseException:
            self._rewind(n)
            raise
        self._actions.append(action)
        self._redo.clear()
        return self

    def can_undo(self) -> bool:
        return bool(self._actions)

    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> Game:
        """Take back the last action (IllegalAction when there is none)."""
        if not self._actions:
            raise IllegalAction("game.undo", "there is no action to undo")
        redo = [*self._redo, self._actions[-1]]
        self._rewind(len(self._actions) - 1)
        self._redo = redo
        return self

    def redo(self) -> Game:
        """Apply again the action last undone (IllegalAction when there is none)."""
        if not self._redo:
            raise IllegalAction("game.redo", "there is no undone action to redo")
        redo = self._redo[:-1]
        self.process(self._redo[-1])
        self._redo = redo
        return self

    def _rewind(self, n: int) -> None:
        """Back to the state before action number ``n``: the last snapshot at or before it plus the actions since."""
        g = self._ctx
        at = max(k for k in self._snapshots if k <= n)
        data, version = self._snapshots[at]
        g.state = pickle.loads(data)
        g.cache = {}
        g.board_version = version + 1 + g.board_version  # (never an earlier version: boards cached by it are stale)
        g.epoch += 1
        for k in [k for k in self._snapshots if k > n]:
            del self._snapshots[k]
        del self._actions[n:]
        for done in self._actions[at:]:
            rounds.process(g, copy.deepcopy(done))

    # ---------------------------------------------------------------------------------- saving

    def to_json(self) -> dict[str, Any]:
        """The game as a JSON object: rulebook title, options and the whole state."""
        g = self._ctx
        return {"rulebook": g.book.title, "options": list(g.book.options), "state": to_json(g.state)}

    def save(self) -> str:
        """The game as JSON text; :meth:`load` reads it back."""
        return json.dumps(self.to_json(), separators=(",", ":"))

    dumps = save


__all__ = ["Game", "LegalAction"]
