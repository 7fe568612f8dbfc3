"""JSON helpers every layer shares: canonical text, atomic writes and RFC 7386 merge patches."""

from __future__ import annotations

import copy
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any


def dump_json(data: Any) -> str:
    """Canonical JSON text: UTF-8, fixed order, two-space indent, newline at the end."""
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _umask() -> int:
    """The process's umask (read by setting it and putting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write through a temporary file in the same folder, so a failure never leaves half a file.

    The file gets the permissions a plain ``open`` would give it (0666 less the umask), not ``mkstemp``'s 0600.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name[:200]}.", dir=path.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as fh:
            fh.write(text.encode("utf-8") if isinstance(text, str) else text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def deep_merge(base: Any, overlay: Any) -> Any:
    """Merge ``overlay`` over ``base``: mappings merge, anything else replaces, ``None`` deletes."""
    if not isinstance(base, dict) or not isinstance(overlay, dict):
        return copy.deepcopy(overlay)
    out = dict(base)
    for key, value in overlay.items():
        if value is None:
            out.pop(key, None)
        elif key in out:
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def merge_patch_diff(base: Any, target: Any) -> Any:
    """The RFC 7386 merge patch that turns ``base`` into ``target``."""
    if not isinstance(base, dict) or not isinstance(target, dict):
        return target
    patch: dict[str, Any] = {}
    for key in base:
        if key not in target:
            patch[key] = None
    for key, value in target.items():
        if key not in base:
            patch[key] = value
        elif base[key] != value:
            patch[key] = merge_patch_diff(base[key], value) if isinstance(value, dict) else value
    return patch


def apply_merge_patch(doc: Any, patch: Any) -> Any:
    """Apply an RFC 7386 merge patch (the engine does this for options)."""
    return deep_merge(doc, patch)


def read_json(path: Path | str) -> Any:
    """Parse a UTF-8 JSON file."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def interned(value: Any) -> Any:
    """A copy of JSON data whose strings, keys included, are interned (``sys.intern``): one object per text.

    The engine keys its tables by names (corporations, hexes, trains, action fields).  A dict lookup whose key is
    the object stored in the table is settled by identity; an equal string that is another object costs a
    comparison of the texts too, and JSON holds a fresh object for every occurrence of a name.  Rulebooks (as the
    engine's book) and records (as read) are interned once, when they are loaded.
    """
    if isinstance(value, str):
        return sys.intern(value)
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            out[sys.intern(k) if isinstance(k, str) else k] = interned(v)
        return out
    if isinstance(value, list):
        return [interned(v) for v in value]
    return value
