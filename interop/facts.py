"""The facts of a compiled rulebook that an 18xx-maker game file can hold, in a comparable form.

Used by the round-trip tests (export -> import -> compile gives the same facts) and by ``railbook
diff``. Track is compared by connectivity (which edges reach which stop, which edges are joined),
not by node numbering, so two drawings of the same tile agree.
"""

from __future__ import annotations

from typing import Any

from railbook.hexgrid import signature

SECTIONS = ("players", "hexes", "tiles", "market", "trains", "phases", "corporations", "minors", "privates")


def _revenue(value: Any) -> Any:
    if isinstance(value, dict):
        values = set(value.values())
        return next(iter(values)) if len(values) == 1 else tuple(sorted((str(k), v) for k, v in value.items()))
    return value


def track_facts(track: dict[str, Any]) -> dict[str, Any]:
    """Stops, their revenues and slots, connectivity and label of a hex or tile."""
    edges, nodes = signature(track)
    stops = []
    for key, kind in (("cities", "c"), ("towns", "t"), ("offboards", "o")):
        for i, node in enumerate(track.get(key, [])):
            exits = next((e for n, e in _named_nodes(track) if n == f"{kind}{i}"), frozenset())
            stop = (kind, _revenue(node.get("revenue", 0)), node.get("slots", 1) if kind == "c" else 0)
            stops.append((*stop, tuple(sorted(exits))))
    return {
        "stops": sorted(stops, key=repr),
        "links": sorted(tuple(sorted(p)) for p in edges),
        "label": track.get("label") or None,
        "nodes": len(nodes),
    }


def _named_nodes(track: dict[str, Any]) -> list[tuple[str, frozenset[int]]]:
    out: dict[str, set[int]] = {}
    for p in track.get("paths", []):
        a, b = str(p["a"]), str(p["b"])
        for x, y in ((a, b), (b, a)):
            if not x.isdigit() and y.isdigit():
                out.setdefault(x, set()).add(int(y))
    return [(k, frozenset(v)) for k, v in out.items()]


def hex_facts(hx: dict[str, Any]) -> dict[str, Any]:
    colour = hx.get("color", "white")
    out = {"color": colour, **track_facts(hx)}
    if hx.get("cost"):
        out["cost"] = hx["cost"]
    borders = sorted((b["edge"], b.get("type", "impassable"), b.get("cost", 0)) for b in hx.get("borders", []))
    if borders:
        out["borders"] = borders
    return out


def tile_facts(tile: dict[str, Any]) -> dict[str, Any]:
    return {"color": tile["color"], "count": tile["count"], **track_facts(tile)}


def _homes(corp: dict[str, Any]) -> list[tuple[str, int]]:
    home = corp.get("home")
    homes = home if isinstance(home, list) else [home] if home else []
    return sorted((h["hex"], h.get("city", 0)) for h in homes)


def _one(value: Any) -> Any:
    """A table (by players, by type, by phase) as the one value 18xx-maker keeps: its largest."""
    return max(value.values()) if isinstance(value, dict) and value else value


def facts(book: dict[str, Any]) -> dict[str, Any]:
    """Every fact both railbook and 18xx-maker hold, keyed by section.

    Tables 18xx-maker keeps as one number (counts by players, limits by corporation type) are
    projected onto that number; the exporter reports each such projection as a loss.
    """
    grid = [[None if c is None else (c["price"], "par" in c["kinds"]) for c in row] for row in book["market"]["grid"]]
    first = book["phases"][0]["name"] if book["phases"] else None
    return {
        "layout": book["layout"],
        "players": {
            int(n): {"cash": p["cash"], "bank": p["bank"], "cert_limit": _one(p["cert_limit"])}
            for n, p in book["players"].items()
        },
        "hexes": {h: hex_facts(hx) for h, hx in book["hexes"].items()},
        "tiles": {t: tile_facts(tile) for t, tile in book["tiles"].items()},
        "market": {"grid": grid, "par": sorted(p["price"] for p in book["market"]["par"])},
        "trains": {
            name: {
                "price": t["price"],
                "count": _one(t["count"]),
                "rusts_on": t.get("rusts_on"),
                "obsolete_on": t.get("obsolete_on"),
            }
            for name, t in book["trains"].items()
        },
        "phases": [
            {
                "name": p["name"],
                "on": p.get("on") if p["name"] != first else None,
                "tiles": p["tiles"][-1],
                "train_limit": _one(p["train_limit"]),
                "operating_rounds": p.get("operating_rounds", 2),
            }
            for p in book["phases"]
        ],
        "corporations": {
            sym: {
                "name": c["name"],
                "tokens": c["tokens"],
                "shares": c["shares"],
                "float_percent": c.get("float_percent"),
                "homes": _homes(c),
            }
            for sym, c in book["corporations"].items()
        },
        "minors": {
            sym: {"name": m["name"], "tokens": m.get("tokens", [0]), "homes": _homes(m)}
            for sym, m in book.get("minors", {}).items()
        },
        "privates": {
            sym: {"name": p["name"], "value": p["value"], "revenue": _first(p.get("revenue", 0))}
            for sym, p in book["privates"].items()
        },
    }


def align(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Re-key B's privates (18xx-maker gives them no symbol) to A's symbols where the names agree."""
    out = dict(b)
    names = {v["name"].lower(): k for k, v in a.get("privates", {}).items()}
    keyed = {}
    for sym, p in b.get("privates", {}).items():
        target = sym if sym in a.get("privates", {}) else names.get(p["name"].lower(), sym)
        keyed[target if target not in keyed else sym] = p
    out["privates"] = keyed
    return out


def _first(value: Any) -> Any:
    return next(iter(value.values()), 0) if isinstance(value, dict) else value


def compare(a: Any, b: Any, path: str = "") -> list[str]:
    """Human-readable differences between two fact trees (``path: a != b``)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for key in list(a) + [k for k in b if k not in a]:
            where = f"{path}.{key}" if path else str(key)
            if key not in b:
                out.append(f"{where}: only in A")
            elif key not in a:
                out.append(f"{where}: only in B")
            else:
                out += compare(a[key], b[key], where)
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and a and isinstance(a[0], dict):
        out = []
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            out += compare(x, y, f"{path}[{i}]")
        return out
    return [] if a == b else [f"{path}: {_show(a)} != {_show(b)}"]


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 160 else text[:157] + "..."
