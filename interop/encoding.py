"""The exact track of a hex or tile as one string: the ``encoding`` field of an 18xx-maker hex.

18xx-maker draws track as geometry; its ``encoding`` field holds the hex in the tile code 18xx.games
uses (``city=revenue:20;path=a:0,b:_0;label=Z``), which is what its own Ruby exporter reads. railbook
writes it on every exported hex and tile and reads it first on import, so connectivity survives exactly.
Nodes are numbered cities, then towns, then off-boards, then junctions; ``_i`` names node ``i``.
"""

from __future__ import annotations

from typing import Any

_KINDS = (("cities", "c", "city"), ("towns", "t", "town"), ("offboards", "o", "offboard"))


def _revenue_text(value: Any) -> str:
    if isinstance(value, dict):
        return "|".join(f"{k}_{v}" for k, v in value.items())
    return str(value)


def _revenue_value(text: str) -> Any:
    if "_" not in text:
        return _int(text)
    out: dict[str, int] = {}
    for part in text.split("|"):
        key, _, val = part.rpartition("_")
        out[key] = _int(val)
    return out


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0


def _clean(text: str) -> str:
    return str(text).replace(";", " ").replace(",", " ").replace(":", " ").replace("|", "/")


def encode(track: dict[str, Any], *, extras: bool = True) -> str:
    """A compiled hex or tile (cities, towns, offboards, junctions, paths, label, ...) as tile code."""
    parts: list[str] = []
    names: dict[str, str] = {}
    index = 0
    for key, prefix, word in _KINDS:
        for i, node in enumerate(track.get(key, [])):
            names[f"{prefix}{i}"] = f"_{index}"
            index += 1
            fields = [f"revenue:{_revenue_text(node.get('revenue', 0))}"]
            if node.get("slots", 1) != 1 and key == "cities":
                fields.append(f"slots:{node['slots']}")
            if node.get("group"):
                fields.append(f"groups:{_clean(node['group'])}")
            if key == "towns":
                fields.append(f"style:{node.get('style', 'dot')}")
            if node.get("hidden"):
                fields.append("hide:1")
            parts.append(f"{word}=" + ",".join(fields))
    for j in range(track.get("junctions", 0)):
        names[f"j{j}"] = f"_{index}"
        index += 1
        parts.append("junction")
    for p in track.get("paths", []):
        a, b = str(p["a"]), str(p["b"])
        fields = [f"a:{names.get(a, a)}", f"b:{names.get(b, b)}"]
        if p.get("terminal"):
            fields.append("terminal:1")
        if p.get("lanes", 1) != 1:
            fields.append(f"lanes:{p['lanes']}")
        parts.append("path=" + ",".join(fields))
    if track.get("label"):
        parts.append(f"label={_clean(track['label'])}")
    if extras:
        if track.get("cost") or track.get("terrain"):
            fields = [f"cost:{track.get('cost', 0)}"]
            if track.get("terrain"):
                fields.append("terrain:" + "|".join(track["terrain"]))
            parts.append("upgrade=" + ",".join(fields))
        for border in track.get("borders", []):
            fields = [f"edge:{border['edge']}"]
            if border.get("type", "impassable") != "impassable":
                fields.append(f"type:{border['type']}")
            if border.get("cost"):
                fields.append(f"cost:{border['cost']}")
            parts.append("border=" + ",".join(fields))
        for icon in track.get("icons", []):
            parts.append(f"icon=image:{_clean(icon['name'])}" + (",sticky:1" if icon.get("sticky") else ""))
    return ";".join(parts)


_WORDS = {
    "c": "city",
    "t": "town",
    "o": "offboard",
    "p": "path",
    "l": "label",
    "u": "upgrade",
    "j": "junction",
    "b": "border",
    "i": "icon",
}
_FIELDS = {
    "city": {"r": "revenue", "s": "slots", "g": "groups"},
    "town": {"r": "revenue", "g": "groups"},
    "offboard": {"r": "revenue", "g": "groups", "h": "hide"},
    "path": {"t": "terminal", "l": "lanes"},
    "upgrade": {"c": "cost", "t": "terrain"},
    "border": {"e": "edge", "t": "type", "c": "cost"},
    "icon": {"i": "image"},
}


def decode(code: str) -> dict[str, Any]:
    """Tile code back to railbook track keys (only the keys present are returned).

    Reads the long form railbook writes and the one-letter short form (``c=r:10;p=a:0,b:_0``).
    """
    cities: list[dict[str, Any]] = []
    towns: list[dict[str, Any]] = []
    offboards: list[dict[str, Any]] = []
    junctions = 0
    order: list[str] = []
    raw_paths: list[dict[str, str]] = []
    out: dict[str, Any] = {}
    for part in (p.strip() for p in code.split(";")):
        if not part:
            continue
        word, _, rest = part.partition("=")
        word = _WORDS.get(word.strip(), word.strip())
        names = _FIELDS.get(word, {})
        fields = {}
        for item in rest.split(","):
            if ":" in item:
                k, _, v = item.partition(":")
                fields[names.get(k.strip(), k.strip())] = v.strip()
        if word in ("city", "town", "offboard"):
            node: dict[str, Any] = {"revenue": _revenue_value(fields.get("revenue", "0"))}
            if word == "city" and fields.get("slots"):
                node["slots"] = _int(fields["slots"])
            if fields.get("groups"):
                node["group"] = fields["groups"].split("|")[0]
            if word == "town" and fields.get("style") in ("dot", "bar"):
                node["style"] = fields["style"]
            if word == "offboard" and fields.get("hide") == "1":
                node["hidden"] = True
            table = {"city": cities, "town": towns, "offboard": offboards}[word]
            order.append(f"{word[0]}{len(table)}")
            table.append(node)
        elif word == "junction":
            order.append(f"j{junctions}")
            junctions += 1
        elif word == "path":
            raw_paths.append(fields)
        elif word == "label":
            out["label"] = rest
        elif word == "upgrade":
            if _int(fields.get("cost", "0")):
                out["cost"] = _int(fields["cost"])
            if fields.get("terrain"):
                out["terrain"] = fields["terrain"].split("|")
        elif word == "border":
            border: dict[str, Any] = {"edge": _int(fields.get("edge", "0"))}
            border["type"] = fields.get("type", "impassable")
            if fields.get("cost"):
                border["cost"] = _int(fields["cost"])
            out.setdefault("borders", []).append(border)
        elif word == "icon":
            icon: dict[str, Any] = {"name": fields.get("image", "icon")}
            if fields.get("sticky") == "1":
                icon["sticky"] = True
            out.setdefault("icons", []).append(icon)

    def end(ref: str) -> str:
        if ref.startswith("_"):
            i = _int(ref[1:])
            return order[i] if 0 <= i < len(order) else "0"
        return str(_int(ref) % 6)

    paths: list[dict[str, Any]] = []
    for fields in raw_paths:
        path: dict[str, Any] = {"a": end(fields.get("a", "0")), "b": end(fields.get("b", "0"))}
        if fields.get("terminal"):
            path["terminal"] = True
        if fields.get("lanes"):
            path["lanes"] = _int(fields["lanes"])
        paths.append(path)
    for key, value in (("cities", cities), ("towns", towns), ("offboards", offboards), ("paths", paths)):
        if value:
            out[key] = value
    if junctions:
        out["junctions"] = junctions
    return out
