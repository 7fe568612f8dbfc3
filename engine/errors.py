"""Errors raised by the interpreter.

Every error is printable as one line.  :class:`IllegalAction` names the rule an action broke; the game
state is left exactly as it was before the action (see :meth:`railbook.engine.game.Context.process`).
"""

from __future__ import annotations

from railbook.errors import RailbookError


class EngineError(RailbookError):
    """Base class of the interpreter's errors (one-line message)."""


class IllegalAction(EngineError):
    """An action that breaks a rule (or does not fit the game's current state).

    ``rule`` is a short stable identifier of the rule broken (e.g. ``track.connection``); ``message``
    explains it to a person.
    """

    def __init__(self, rule: str, message: str):
        self.rule = rule
        self.message = message
        super().__init__(f"{rule}: {message}")


class MalformedAction(IllegalAction):
    """An action record that is not well formed (missing field, unknown id, wrong type)."""

    def __init__(self, message: str):
        super().__init__("action.malformed", message)


class UnsupportedTitle(EngineError):
    """The rulebook needs a mechanic or parameter value the engine does not implement."""


def illegal(rule: str, message: str) -> IllegalAction:
    """Shorthand used by the rule modules: ``raise illegal('stock.cert_limit', '...')``."""
    return IllegalAction(rule, message)


class SaveError(EngineError):
    """A saved game (or a start argument) that cannot be read: another title's save, malformed JSON or state."""


class InternalError(RailbookError):
    """A fault of the engine itself (not of the record or action): a bug to report, with where it happened."""

    exit_code = 2
