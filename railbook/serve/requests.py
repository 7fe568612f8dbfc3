"""Size-bounded, validated request bodies."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request

#: bytes in one JSON or form request (an action, a new game); a record upload has its own bound
BODY_BYTES = 256 * 1024


class BadRequest(Exception):
    """A request the server refuses: ``status`` (400, 413, 415...) and a message for the client."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


async def body_bytes(request: Request, limit: int = BODY_BYTES) -> bytes:
    """The request body, refused (413) past ``limit`` bytes whatever Content-Length says."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit():
            raise BadRequest("bad Content-Length")
        if int(declared) > limit:
            raise BadRequest(f"request body over {limit} bytes", 413)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BadRequest(f"request body over {limit} bytes", 413)
        chunks.append(chunk)
    return b"".join(chunks)


async def json_body(request: Request, limit: int = BODY_BYTES) -> Any:
    """The body as JSON (400 for anything else)."""
    raw = await body_bytes(request, limit)
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadRequest(f"the body is not JSON: {exc}") from None


async def form_pairs(request: Request, limit: int = BODY_BYTES) -> list[tuple[str, str]]:
    """A url-encoded form's fields in order (a name may come more than once; 415 for another body)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip()
    if kind != "application/x-www-form-urlencoded":
        raise BadRequest("expected a url-encoded form", 415)
    raw = await body_bytes(request, limit)
    try:
        return parse_qsl(raw.decode("utf-8"), keep_blank_values=True, max_num_fields=200)
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadRequest(f"bad form: {exc}") from None


def new_game_spec(data: Any, titles: list[str]) -> dict[str, Any]:
    """The checked fields of a new-game request ``{"title", "players", "seed", "options", "hotseat"}``."""
    if not isinstance(data, dict):
        raise BadRequest("expected an object with 'title' and 'players'")
    unknown = set(data) - {"title", "players", "seed", "options", "hotseat"}
    if unknown:
        raise BadRequest(f"unknown field(s): {', '.join(sorted(unknown))}")
    title = data.get("title")
    if not isinstance(title, str) or title not in titles:
        raise BadRequest(f"'title' must be one of {', '.join(titles)}")
    players = data.get("players")
    if not isinstance(players, list) or not players or len(players) > 12:
        raise BadRequest("'players' must be a list of 1 to 12 names")
    names: list[str] = []
    for p in players:
        if not isinstance(p, str) or not p.strip() or len(p) > 40 or p.strip() in names:
            raise BadRequest("each player must be a distinct, non-empty name of at most 40 characters")
        names.append(p.strip())
    seed = data.get("seed", None)
    if seed is None:
        import secrets

        seed = secrets.randbelow(2**31)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise BadRequest("'seed' must be a whole number from 0")
    options = data.get("options")
    if options is not None and (
        not isinstance(options, list) or len(options) > 50 or not all(isinstance(o, str) for o in options)
    ):
        raise BadRequest("'options' must be a list of option names")
    hotseat = data.get("hotseat", True)
    if not isinstance(hotseat, bool):
        raise BadRequest("'hotseat' must be true or false")
    return {"title": title, "players": names, "seed": seed, "options": options, "hotseat": hotseat}


def check_options(spec: dict[str, Any], rulebook: dict[str, Any]) -> list[str]:
    """The options of a new game: those named (each must exist) or, when none are named, the defaults; and the
    player count must be one the title allows."""
    known = rulebook.get("options") or {}
    options = spec["options"]
    if options is None:
        options = [name for name, o in known.items() if o.get("default")]
    bad = [o for o in options if o not in known]
    if bad:
        raise BadRequest(f"unknown option(s) for {spec['title']}: {', '.join(bad)}")
    counts = sorted(int(n) for n in (rulebook.get("players") or {}) if str(n).isdigit())
    if counts and len(spec["players"]) not in counts:
        raise BadRequest(f"{spec['title']} is for {counts[0]} to {counts[-1]} players")
    return list(dict.fromkeys(options))
