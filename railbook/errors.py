"""The base of every error railbook reports to a user: ``str()`` is one line (or one line per problem)."""

from __future__ import annotations


class RailbookError(Exception):
    """A user-facing error; ``str()`` is one line (or one line per problem).  ``exit_code``: what the command line
    exits with (1: bad input; 2: a fault of railbook itself)."""

    exit_code = 1
