"""Export a compiled rulebook as an 18xx-maker game file (``src/data/games/<title>.json`` format).

The map and tiles are drawn with 18xx-maker's own track pieces, and every hex and tile also carries its
exact connectivity in 18xx-maker's ``encoding`` field (see :mod:`railbook.interop.encoding`). What the
format cannot hold is returned as a list of losses for the caller to show.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from .encoding import encode
from .geometry import point_on, rotate, screen_turn, side_of_edge
from .maker import RAILBOOK_TO_MAKER_HEX, TILE_COLOURS

_CELL_KINDS_WITH_COLOUR = {
    "no_cert_limit": "yellow",
    "unlimited_holding": "orange",
    "multiple_buy": "brown",
    "close": "black",
    "liquidation": "red",
    "acquisition": "gray",
    "ledge": "orange",
}


def _revenue_items(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        return [{"color": str(k), "cost": str(v)} for k, v in value.items()]
    return [{"color": "yellow", "cost": str(value)}]


def _node_value(value: Any) -> int | str:
    if isinstance(value, dict):
        return "/".join(str(v) for v in value.values())
    return value


def _piece(side_a: int, side_b: int) -> tuple[str, int]:
    """The 18xx-maker piece joining two sides, and the side it starts on."""
    step = (side_b - side_a) % 6
    if step > 3:
        side_a, step = side_b, 6 - step
    return {1: "sharp", 2: "gentle", 3: "straight"}.get(step, "straight"), side_a


def _spot(x: float, y: float, layout: str) -> dict[str, Any]:
    """A point of the track frame as an on-screen position."""
    x, y = rotate((x, y), screen_turn(layout))
    return {"angle": round(math.degrees(math.atan2(-x, y))) % 360, "percent": round(math.hypot(x, y) / 75, 4)}


def _piece_through(edge_a: int, edge_b: int, layout: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A piece joining two edges, and a spot on it for the stop it passes through."""
    kind, side = _piece(side_of_edge(edge_a, layout), side_of_edge(edge_b, layout))
    return {"type": kind, "side": side}, _spot(*point_on(kind, side, 0.3), layout)


def draw(track: dict[str, Any], layout: str) -> dict[str, Any]:
    """18xx-maker drawing (cities, towns, values, track, labels) of railbook track."""
    out: dict[str, Any] = {}
    cities, towns = track.get("cities", []), track.get("towns", [])
    paths = [(str(p["a"]), str(p["b"])) for p in track.get("paths", [])]
    nodes = [f"c{i}" for i in range(len(cities))] + [f"t{i}" for i in range(len(towns))]
    exits: dict[str, list[int]] = {n: [] for n in nodes}
    for a, b in paths:
        for x, y in ((a, b), (b, a)):
            if x in exits and y.isdigit():
                exits[x].append(int(y))
    centred = len(nodes) <= 1
    placed: dict[str, dict[str, Any]] = {}
    through: dict[str, dict[str, Any]] = {}
    for n in nodes:
        if centred or not exits[n]:
            placed[n] = {}
        elif len(exits[n]) == 2:
            piece, spot = _piece_through(exits[n][0], exits[n][1], layout)
            placed[n], through[n] = spot, piece
        else:
            placed[n] = _spot(*point_on("straight", side_of_edge(exits[n][0], layout), 0.25), layout)
    if cities:
        out["cities"] = []
        for i, city in enumerate(cities):
            item: dict[str, Any] = dict(placed[f"c{i}"])
            if city.get("slots", 1) > 1:
                item["size"] = city["slots"]
            if city.get("group"):
                item["groups"] = [str(city["group"])]
            out["cities"].append(item)
    dots = [i for i, t in enumerate(towns) if t.get("style", "dot") == "dot"]
    bars = [i for i, t in enumerate(towns) if t.get("style", "dot") == "bar"]
    if dots:
        out["centerTowns"] = [dict(placed[f"t{i}"]) for i in dots]
    if bars:
        out["towns"] = [dict(placed[f"t{i}"]) for i in bars]
    values = [_node_value(n.get("revenue", 0)) for n in [*cities, *(towns[i] for i in dots), *(towns[i] for i in bars)]]
    if values and any(v not in (0, "0") for v in values):
        out["values"] = [{"value": v} for v in values]
    pieces: list[dict[str, Any]] = list(through.values())
    for a, b in paths:
        if a.isdigit() and b.isdigit():
            kind, sa = _piece(side_of_edge(int(a), layout), side_of_edge(int(b), layout))
            pieces.append({"type": kind, "side": sa})
            continue
        edge, node = (a, b) if a.isdigit() else (b, a) if b.isdigit() else (None, None)
        if edge is None or node is None:
            continue
        side = side_of_edge(int(edge), layout)
        if node in through:
            continue
        if node.startswith("o"):
            pieces.append({"type": "offboard", "side": side})
        elif placed.get(node):
            pieces.append({"type": "straight", "side": side, "end": 0.25})
        else:
            pieces.append({"side": side})
    if pieces:
        out["track"] = pieces
    if track.get("label"):
        out["labels"] = [{"label": str(track["label"])}]
    return out


def export_hex(hx: dict[str, Any], layout: str, homes: dict[str, list[tuple[str, int]]]) -> dict[str, Any]:
    colour = RAILBOOK_TO_MAKER_HEX.get(hx.get("color", "white"), hx.get("color", "white"))
    out: dict[str, Any] = {"color": colour, "hexes": [hx["id"]]}
    drawn = draw(hx, layout)
    offboards = hx.get("offboards", [])
    if offboards:
        ob: dict[str, Any] = {"revenues": _revenue_items(offboards[0].get("revenue", 0))}
        if hx.get("name"):
            ob["name"] = {"name": hx["name"]}
        if offboards[0].get("group"):
            ob["groups"] = [str(offboards[0]["group"])]
        if offboards[0].get("hidden"):
            ob["hidden"] = True
        out["offBoardRevenue"] = ob
    elif hx.get("name"):
        if drawn.get("cities"):
            drawn["cities"][0]["name"] = {"name": hx["name"]}
        else:
            out["names"] = [{"name": hx["name"]}]
    for sym, city in homes.get(hx["id"], []):
        if city < len(drawn.get("cities", [])):
            drawn["cities"][city].setdefault("companies", []).append(sym)
    for sym in hx.get("reserved", []):
        if drawn.get("cities"):
            drawn["cities"][0].setdefault("companies", []).append({"abbrev": sym, "reserved": True})
    out.update(drawn)
    if hx.get("cost"):
        kinds = hx.get("terrain") or ["mountain"]
        out["terrain"] = [{"type": kinds[0], "cost": hx["cost"]}]
    for border in hx.get("borders", []):
        if border.get("cost"):
            key = "tunnels" if border.get("type") == "mountain" else "bridges"
            angle = border["edge"] * 60 + (30 if layout == "pointy" else 0)
            out.setdefault(key, []).append({"cost": border["cost"], "angle": angle, "percent": 1})
        else:
            out.setdefault("borders", []).append({"side": border["edge"] + 1, "color": "black"})
    if hx.get("icons"):
        out["icons"] = [{"type": i["name"]} for i in hx["icons"]]
    code = encode(hx)
    if code:
        out["encoding"] = code
    return out


def _train_colour(book: dict[str, Any], name: str) -> str:
    colour = "yellow"
    for phase in book["phases"]:
        if phase.get("on") == name and phase.get("tiles"):
            return str(phase["tiles"][-1])
        if phase.get("on") is None and phase.get("tiles"):
            colour = str(phase["tiles"][-1])
    return colour


def _count(value: Any, what: str, losses: list[str]) -> int | str:
    if value == "unlimited":
        return "∞"
    if isinstance(value, dict):
        losses.append(f"{what}: count by number of players {value} (18xx-maker holds one count; the largest written)")
        return max(int(v) for v in value.values())
    return int(value)


def _shares(shares: list[int]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i, pct in enumerate(shares):
        if out and out[-1]["percent"] == pct and i > 1:
            out[-1]["quantity"] += 1
            continue
        item: dict[str, Any] = {"quantity": 1, "percent": pct, "shares": max(1, pct // 10)}
        if i == 0:
            item["label"] = "President's Certificate"
        out.append(item)
    return out


def _tokens(tokens: list[int]) -> list[Any]:
    return ["Home" if i == 0 and cost == 0 else cost for i, cost in enumerate(tokens)]


def export_market(market: dict[str, Any], losses: list[str]) -> dict[str, Any]:
    kinds = sorted({k for row in market["grid"] for c in row if c for k in c["kinds"] if k != "par"})
    legend = [
        {"color": market.get("zone_colours", {}).get(k, _CELL_KINDS_WITH_COLOUR.get(k, "gray")), "description": k}
        for k in kinds
    ]
    rows: list[list[Any]] = []
    for row in market["grid"]:
        cells: list[Any] = []
        for c in row:
            if c is None:
                cells.append(None)
                continue
            extra = [k for k in c["kinds"] if k != "par"]
            if not extra and "par" not in c["kinds"]:
                cells.append(c["price"])
                continue
            cell: dict[str, Any] = {"value": c["price"]}
            if "par" in c["kinds"]:
                cell["par"] = True
            if extra:
                cell["legend"] = kinds.index(extra[0])
                if len(extra) > 1:
                    losses.append(f"market: cell {c['row']},{c['col']} has kinds {extra}; only {extra[0]} written")
            cells.append(cell)
        rows.append(cells)
    out: dict[str, Any] = {"type": "1D" if market["type"] == "1d" else "2D"}
    out["market"] = rows[0] if market["type"] == "1d" else rows
    if legend:
        out["legend"] = legend
    marked = {(c["row"], c["col"]) for row in market["grid"] for c in row if c and "par" in c["kinds"]}
    par = [p for p in market["par"] if (p["row"], p["col"]) not in marked]
    if par:
        out["par"] = {"values": sorted({p["price"] for p in market["par"]}, reverse=True)}
    if market.get("movement"):
        moves = {k: v for k, v in market["movement"].items() if k in ("up", "down", "left", "right")}
        if all(isinstance(v, list) and all(isinstance(x, str) for x in v) for v in moves.values()) and moves:
            out["movement"] = moves
        losses.append("market: movement rules are railbook parameters; 18xx-maker prints only a text legend")
    return out


def export_rulebook(book: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """An 18xx-maker game document for a compiled rulebook, and what could not be carried."""
    losses: list[str] = []
    layout = book["layout"]
    meta = book["meta"]
    info: dict[str, Any] = {"title": meta["title"]}
    if meta.get("full_name") and meta["full_name"] != meta["title"]:
        info["subtitle"] = meta["full_name"]
    for key in ("designer", "publisher"):
        if meta.get(key):
            info[key] = meta[key]
    info["orientation"] = "horizontal" if layout == "flat" else "vertical"
    info["currency"] = meta.get("currency", "${}").replace("{}", "#", 1)
    caps = {c.get("capitalization", "full") for c in book["corporations"].values()}
    if caps <= {"full", "incremental"} and len(caps) == 1:
        info["capitalization"] = caps.pop()
    elif caps:
        losses.append(f"corporations: capitalization {sorted(caps)} (18xx-maker holds full or incremental)")
    game: dict[str, Any] = {"info": info}

    players = []
    for n, p in sorted(book["players"].items(), key=lambda kv: int(kv[0])):
        limit = p["cert_limit"]
        if isinstance(limit, dict):
            losses.append(f"players {n}: certificate limit table {limit} (written as its largest value)")
            limit = max(limit.values())
        bank = "∞" if p["bank"] == "unlimited" else p["bank"]
        players.append({"number": int(n), "capital": p["cash"], "certLimit": limit, "bank": bank})
    game["players"] = players

    homes: dict[str, list[tuple[str, int]]] = {}
    companies = []
    for table, minor in ((book["corporations"], False), (book["minors"], True)):
        for sym, corp in table.items():
            home = corp.get("home")
            for h in home if isinstance(home, list) else [home] if home else []:
                homes.setdefault(h["hex"], []).append((sym, h.get("city", 0)))
            item: dict[str, Any] = {"name": corp["name"], "abbrev": sym, "color": corp.get("color", "gray")}
            if corp.get("text_color"):
                item["textColor"] = corp["text_color"]
            item["tokens"] = _tokens(corp.get("tokens", [0]))
            if minor:
                item["minor"] = True
                item["shares"] = [{"quantity": 1, "percent": 100, "shares": 10, "label": "Owner's Certificate"}]
                losses.append(f"minors {sym}: cash, starting train and revenue split are not carried")
            else:
                item["shares"] = _shares(corp["shares"])
                item["floatPercent"] = corp.get("float_percent", 60)
            if corp.get("abilities"):
                losses.append(f"{'minors' if minor else 'corporations'} {sym}: {len(corp['abilities'])} abilities")
            companies.append(item)
    game["companies"] = companies

    privates = []
    for sym, p in book["privates"].items():
        item = {"name": p["name"], "sym": sym, "price": p["value"]}
        revenue = p.get("revenue", 0)
        if isinstance(revenue, dict):
            losses.append(f"privates {sym}: revenue by phase {revenue} (the first written)")
            revenue = next(iter(revenue.values()), 0)
        item["revenue"] = revenue
        if p.get("description"):
            item["description"] = p["description"]
        blocked = [h for ab in p.get("abilities", []) if ab["type"] == "blocks_hexes" for h in ab.get("hexes", [])]
        if blocked:
            item["hex"] = blocked[0]
        if p.get("abilities"):
            losses.append(f"privates {sym}: {len(p['abilities'])} typed abilities (kept only as its description)")
        privates.append(item)
    if privates:
        game["privates"] = privates

    trains = []
    for name in book["train_order"]:
        t = book["trains"][name]
        item = {"name": name, "quantity": _count(t["count"], f"trains {name}", losses), "price": t["price"]}
        item["color"] = _train_colour(book, name)
        if t.get("rusts_on"):
            item["rust"] = t["rusts_on"]
        if t.get("obsolete_on"):
            item["obsolete"] = t["obsolete_on"]
        if t.get("available_on"):
            item["available"] = t["available_on"]
        if t.get("variants"):
            faces = ", ".join(f"{v['name']} ${v['price']}" for v in t["variants"])
            item["description"] = f"other face: {faces}"
            losses.append(f"trains {name}: other faces {faces} (18xx-maker has one face per train)")
        for key in ("events", "discount", "multiplier", "no_towns"):
            if t.get(key) and t.get(key) != 1:
                losses.append(f"trains {name}: {key}")
        trains.append(item)
    game["trains"] = trains

    phases = []
    for p in book["phases"]:
        limit = p["train_limit"]
        if isinstance(limit, dict):
            losses.append(f"phases {p['name']}: train limit by corporation type {limit} (the largest written)")
            limit = max(limit.values())
        item = {"name": p["name"], "limit": limit, "rounds": p.get("operating_rounds", 2), "tiles": p["tiles"][-1]}
        if p.get("on"):
            item["train"] = p["on"]
        if list(p["tiles"]) != list(TILE_COLOURS[: len(p["tiles"])]):
            losses.append(f"phases {p['name']}: tile colours {p['tiles']} (18xx-maker holds the latest colour)")
        if p.get("events"):
            item["events"] = {e["type"]: True for e in p["events"]}
            losses.append(f"phases {p['name']}: event parameters")
        phases.append(item)
    game["phases"] = phases

    game["stock"] = export_market(book["market"], losses)

    tiles: dict[str, Any] = {}
    for tile_id, t in book["tiles"].items():
        drawn = draw(t, "flat")
        tile = {"color": t["color"], "quantity": "∞" if t["count"] == "unlimited" else t["count"], **drawn}
        tile["encoding"] = encode(t)
        tiles[tile_id] = tile
    game["tiles"] = tiles

    game["map"] = {"hexes": [export_hex(hx, layout, homes) for hx in book["hexes"].values()]}
    lost_hex = Counter()
    for hx in book["hexes"].values():
        for key in ("partitions", "upgrades_to", "blocked_by", "tags"):
            if hx.get(key):
                lost_hex[key] += 1
    for key, n in sorted(lost_hex.items()):
        losses.append(f"map: {key} on {n} hexes")
    for key in ("mechanics", "options", "end"):
        if book.get(key):
            losses.append(f"{key}: {len(book[key])} entries (rules; 18xx-maker describes components only)")
    if any(t.get("variants") for t in book["trains"].values()) or any(
        t.get("distance") for t in book["trains"].values()
    ):
        losses.append("trains: distances (18xx-maker reads them from the train names)")
    return game, losses
