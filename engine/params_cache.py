"""Validated mechanic parameters kept between runs.

Building a parameter model's validator (pydantic) costs a few milliseconds per model, more than the rest of a
short replay; a rulebook's parameters were validated when it was compiled and again the first time it is
played.  The validated objects are kept (pickled) in the rulebook cache folder, keyed by the parameters' JSON
and the engine's code, so later runs load them instead.  ``RAILBOOK_CACHE=off`` turns this off.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import pickle
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from railbook.jsonio import write_atomic
from railbook.rulebook_cache import cache_dir

T = TypeVar("T")
_ENGINE = Path(__file__).resolve().parent


@cache
def _code_stamp() -> bytes:
    """Sizes and modification times of the engine's modules (the parameter models live there), with the Python
    and pydantic versions the pickles were made by."""
    import pydantic

    parts = [f"python {sys.version_info[:3]}", f"pydantic {pydantic.VERSION}"]
    for path in sorted(_ENGINE.rglob("*.py")):
        st = path.stat()
        parts.append(f"{path.relative_to(_ENGINE)}:{st.st_size}:{st.st_mtime_ns}")
    return "\n".join(parts).encode()


def cached(inputs: Any, build: Callable[[], T]) -> T:
    """``build()``, or the result an earlier run got from the same JSON ``inputs`` with the same engine code."""
    folder = cache_dir()
    if folder is None:
        return build()
    code = hashlib.sha256(_code_stamp()).hexdigest()[:12]
    digest = hashlib.sha256(json.dumps(inputs, sort_keys=True, separators=(",", ":"), default=str).encode())
    path = folder / f"params-{code}-{digest.hexdigest()[:24]}.pickle"
    try:
        with path.open("rb") as f:
            hit: T = pickle.load(f)
        return hit
    except Exception:  # missing, damaged or from other code: build afresh
        pass
    result = build()
    with contextlib.suppress(OSError, pickle.PicklingError, TypeError, AttributeError):
        write_atomic(path, pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
        for old in folder.glob("params-*.pickle"):
            if not old.name.startswith(f"params-{code}-"):
                old.unlink(missing_ok=True)  # made by other engine code: never hit again
    return result
