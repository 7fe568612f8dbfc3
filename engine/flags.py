"""Switches read once from the environment (a leaf module: it imports nothing of the engine)."""

from __future__ import annotations

import os

#: ``RAILBOOK_MEMO_AUDIT=1``: every memoised answer is recomputed and compared (engine/memo.py)
AUDIT = bool(os.environ.get("RAILBOOK_MEMO_AUDIT"))
