"""Undo and redo in a record's actions: which actions are kept (as the 18xx.games site does).

Compiled with the engine: a replay applies it to every record it reads.  :func:`railbook.records.kept_actions`
is the public door, which turns :class:`UndoWorkExceeded` into a record error naming the action.
"""

from __future__ import annotations

from typing import Any


class UndoWorkExceeded(Exception):
    """Undo and redo moved more than ``most`` actions by action ``index``."""

    def __init__(self, index: int, action_id: Any, most: int):
        self.index = index
        self.action_id = action_id
        self.most = most
        super().__init__(f"action {index} (id {action_id}): undo and redo move more than {most:,} actions")


def kept_actions(actions: list[dict[str, Any]], most: int) -> list[dict[str, Any]]:
    """The actions left once undo and redo are applied, moving at most ``most`` actions in all.

    ``undo`` takes back the last action (messages are never taken back) or, with ``action_id``, every
    action after that one (``0``: all); ``redo`` restores what the last undo took back, until another kind
    of action clears the redo history.  Taken-back actions always form the tail of the kept ones, so a
    stack of kept indices does it in time proportional to the actions moved.
    """
    first: dict[Any, int] | None = None  # id -> index of its first action (made at the first undo naming an id)
    live: list[int] = []  # indices of kept non-message actions, ascending
    messages: list[int] = []
    undone: list[list[int]] = []
    group: list[int]
    work = 0
    action: dict[str, Any]
    for index, action in enumerate(actions):
        atype = action.get("type")
        if atype == "undo":
            target = action.get("action_id")
            if target is None:
                group = [live.pop()] if live else []
            else:
                if target == 0:
                    start = 0
                else:
                    if first is None:
                        first = _first_indices(actions)
                    start = _undo_start(first, target, index)
                cut = len(live)
                while cut and live[cut - 1] >= start:
                    cut -= 1
                group = live[cut:]
                del live[cut:]
            undone.append(group)
            work += len(group)
        elif atype == "redo":
            if undone:
                group = undone.pop()
                live.extend(group)
                work += len(group)
        elif atype == "message":
            messages.append(index)
        else:
            undone.clear()
            live.append(index)
        if work > most:
            raise UndoWorkExceeded(index, action.get("id"), most)
    if messages:
        live = sorted(live + messages)
    return [actions[i] for i in live]


def _first_indices(actions: list[dict[str, Any]]) -> dict[Any, int]:
    """Each action id -> the index of the first action with that id."""
    first: dict[Any, int] = {}
    for index, action in enumerate(actions):
        aid = action.get("id")
        if aid is not None and not isinstance(aid, dict | list):
            first.setdefault(aid, index)
    return first


def _undo_start(first: dict[Any, int], target: Any, index: int) -> int:
    """The first index an undo to ``target`` takes back (``index`` itself, i.e. nothing, when unknown)."""
    try:
        pos = first.get(target)
    except TypeError:  # an unhashable target matches no id
        pos = None
    return pos + 1 if pos is not None else index
