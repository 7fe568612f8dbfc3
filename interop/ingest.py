"""Import an 18xx-maker game file as a railbook title (the YAML files and a NOTES.md TODO list)."""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from railbook import limits
from railbook.errors import RailbookError
from railbook.hexgrid import hex_xy

from .encoding import decode
from .geometry import Node, city_node, connectivity, position, rotate, screen_turn
from .maker import HEX_COLOURS, PALETTE, TILE_COLOURS, first_int, kind_of_phrase, train_item

_HEX_ID = re.compile(r"^[A-Z]{1,2}\d{1,3}$")


@dataclass
class Imported:
    """A title made from an 18xx-maker game: its top-level keys by file, and what needs a designer."""

    name: str
    files: dict[str, dict[str, Any]]
    todo: list[str] = field(default_factory=list)
    source: str = ""


def load_catalogue(folder: Path | None) -> dict[str, Any]:
    """18xx-maker's standard tiles (``tiles/*.json`` of ``@18xx-maker/games``) with their aliases."""
    from railbook.records import parse_json, read_text

    tiles: dict[str, Any] = {}
    if folder is None:
        return tiles
    for path in sorted(Path(folder).glob("*.json")):
        data = parse_json(read_text(path), str(path), depth=64)  # errors name this file, not the game file
        if not isinstance(data, dict):
            raise RailbookError(f"{path}: not an 18xx-maker tiles file (the top level is not an object)")
        tiles.update({str(k): v for k, v in data.items() if isinstance(v, dict)})
    for tile in list(tiles.values()):
        for alias in tile.get("aliases", []) if isinstance(tile, dict) else []:
            tiles.setdefault(str(alias), tile)
    return tiles


# ----------------------------------------------------------------------------------------------- track


def _values(hex_: dict[str, Any]) -> list[int]:
    return [first_int(v.get("value")) for v in hex_.get("values", []) if isinstance(v, dict)]


def _offboard_revenue(spec: dict[str, Any]) -> int | dict[str, int]:
    out: dict[str, int] = {}
    for r in spec.get("revenues", []):
        colour = str(r.get("color", "")).replace("grey", "gray")
        amount = first_int(r.get("value", r.get("revenue", r.get("cost", 0))))
        if re.fullmatch(r"[a-z][a-z_]*", colour) and colour not in out:
            out[colour] = amount
    if not out:
        amounts = [first_int(r.get("value", r.get("revenue", r.get("cost", 0)))) for r in spec.get("revenues", [])]
        return amounts[0] if amounts else 0
    if len(set(out.values())) == 1 and list(out) == [next(iter(out))]:
        return next(iter(out.values()))
    return out


def _name(item: dict[str, Any]) -> str | None:
    name = item.get("name")
    if isinstance(name, dict) and name.get("name"):
        return str(name["name"])
    return None


def track_of(hex_: dict[str, Any], layout: str) -> dict[str, Any]:
    """railbook track keys (nodes, paths, label, ...) of an 18xx-maker hex or tile.

    Tiles are read in 18xx-maker's tile frame (``layout`` flat); map hexes in their map's layout, whose
    positions are on screen while the track is turned with the hex.
    """
    if hex_.get("encoding"):
        out = decode(str(hex_["encoding"]))
        _town_styles(out)
        return out
    values = _values(hex_)
    offboard = hex_.get("offBoardRevenue") if isinstance(hex_.get("offBoardRevenue"), dict) else None
    cities, towns, nodes = [], [], []
    k = 0

    def revenue() -> Any:
        nonlocal k
        if offboard is not None:
            return _offboard_revenue(offboard)
        value = values[k] if k < len(values) else (values[0] if values else 0)
        k += 1
        return value

    for city in hex_.get("cities", []):
        size = max(1, first_int(city.get("size", 1), 1))
        data: dict[str, Any] = {"revenue": revenue()}
        if size != 1:
            data["slots"] = min(size, 6)
        if city.get("groups"):
            data["group"] = str(city["groups"][0])
        nodes.append(city_node(f"c{len(cities)}", city, size))
        cities.append(data)
    for key, style in (("centerTowns", "dot"), ("mediumCities", "dot"), ("boomtowns", "dot"), ("towns", "bar")):
        for town in hex_.get(key, []):
            data = {"revenue": revenue(), "style": style}
            if town.get("groups"):
                data["group"] = str(town["groups"][0])
            nodes.append(Node(f"t{len(towns)}", position(town), 20.0))
            towns.append(data)
    offboards = []
    if offboard is not None and not cities and not towns:
        data = {"revenue": _offboard_revenue(offboard)}
        if offboard.get("groups"):
            data["group"] = str(offboard["groups"][0])
        nodes.append(Node("o0", (0.0, 0.0), 50.0))
        offboards.append(data)
    turn = screen_turn(layout)
    for node in nodes:
        node.at = rotate(node.at, -turn)
        node.slots = tuple(rotate(p, -turn) for p in node.slots)
    tracks = [t for t in hex_.get("track", []) if isinstance(t, dict)]
    pairs, junctions = connectivity(tracks, nodes, layout)
    out: dict[str, Any] = {}
    if cities:
        out["cities"] = cities
    if towns:
        out["towns"] = towns
    if offboards:
        out["offboards"] = offboards
    if junctions:
        out["junctions"] = junctions
    if pairs:
        out["paths"] = [{"a": a, "b": b} for a, b in pairs]
    labels = [str(lb.get("label")) for lb in hex_.get("labels", []) if isinstance(lb, dict) and lb.get("label")]
    if labels:
        out["label"] = labels[0]
    return out


def _town_styles(track: dict[str, Any]) -> None:
    """A town without a style is a bar when one path crosses it (two exits), else a dot."""
    for i, town in enumerate(track.get("towns", [])):
        if "style" not in town:
            ends = [p for p in track.get("paths", []) if f"t{i}" in (str(p["a"]), str(p["b"]))]
            town["style"] = "bar" if len(ends) == 2 else "dot"


# ------------------------------------------------------------------------------------------------- map


def _map_hexes(game: dict[str, Any]) -> list[dict[str, Any]]:
    maps = game.get("map")
    if isinstance(maps, list):
        first = maps[0] if maps else {}
        hexes = list(first.get("hexes", []))
        if isinstance(first.get("copy"), int) and 0 <= first["copy"] < len(maps):
            hexes = list(maps[first["copy"]].get("hexes", [])) + hexes
        removed = set(first.get("remove", []))
        if removed:
            hexes = [{**h, "hexes": [c for c in h.get("hexes", []) if c not in removed]} for h in hexes]
        return hexes
    return list(maps.get("hexes", [])) if isinstance(maps, dict) else []


def _resolve_copies(hexes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each hex written as a ``copy`` of another takes that one's contents (found through an index: a map of
    thousands of copies must not take a scan per copy)."""
    first: dict[str, dict[str, Any]] = {}
    for h in hexes:
        if not h.get("copy"):
            for coord in h.get("hexes", []):
                first.setdefault(str(coord), h)
    out = []
    for h in hexes:
        if h.get("copy"):
            base = first.get(str(h["copy"]))
            if base is not None:
                h = {**copy.deepcopy(base), **{k: v for k, v in h.items() if k != "copy"}}
        out.append(h)
    return out


def _terrain(hex_: dict[str, Any]) -> dict[str, Any]:
    allowed = {"mountain", "water", "hill", "river", "swamp", "lake", "desert", "forest"}
    out: dict[str, Any] = {}
    cost = 0
    kinds: list[str] = []
    for t in hex_.get("terrain", []):
        if not isinstance(t, dict):
            continue
        cost = cost or first_int(t.get("cost", 0))
        kind = {"stream": "river"}.get(str(t.get("type", "mountain")), str(t.get("type", "mountain")))
        if kind in allowed and kind not in kinds:
            kinds.append(kind)
    if cost:
        out["cost"] = cost
        out["terrain"] = kinds or ["mountain"]
    return out


def _borders(hex_: dict[str, Any], layout: str) -> list[dict[str, Any]]:
    """Hexside costs (tunnels, bridges) and black side lines (impassable) of an 18xx-maker hex."""
    out: list[dict[str, Any]] = []
    for key, kind in (("tunnels", "mountain"), ("bridges", "water")):
        for item in hex_.get(key, []):
            if not isinstance(item, dict) or not first_int(item.get("cost", 0)):
                continue
            x, y = position(item)
            if math.hypot(x, y) < 60:
                continue
            edge = _screen_edge(math.degrees(math.atan2(-x, y)), layout)
            out.append({"edge": edge, "type": kind, "cost": first_int(item["cost"])})
    for item in hex_.get("borders", []):
        if isinstance(item, dict) and item.get("color") == "black" and isinstance(item.get("side"), int):
            out.append({"edge": _screen_edge((item["side"] - 1) * 60, "flat"), "type": "impassable"})
    return out


def _screen_edge(angle: float, layout: str) -> int:
    """The railbook edge whose midpoint lies at a screen angle (clockwise from the bottom)."""
    return round((angle - (30 if layout == "pointy" else 0)) / 60) % 6


def _homes(hex_: dict[str, Any]) -> tuple[list[tuple[str, int]], list[str]]:
    """Companies whose home (or reserved space) an 18xx-maker hex's cities show."""
    homes: list[tuple[str, int]] = []
    reserved: list[str] = []
    for i, city in enumerate(hex_.get("cities", [])):
        for entry in city.get("companies", []) or []:
            if isinstance(entry, str):
                homes.append((entry, i))
            elif isinstance(entry, dict) and entry.get("abbrev"):
                if entry.get("reserved"):
                    reserved.append(str(entry["abbrev"]))
                else:
                    homes.append((str(entry["abbrev"]), i))
    return homes, reserved


def import_map(game: dict[str, Any], layout: str, todo: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The railbook ``map`` and each company's homes and reservations found on it."""
    hexes: dict[str, Any] = {}
    homes: dict[str, list[dict[str, Any]]] = {}
    reserved: dict[str, list[str]] = {}
    skipped: list[str] = []
    entries = _map_hexes(game)
    coords = sum(len(h.get("hexes", [])) for h in entries if isinstance(h, dict))
    if coords > limits.TITLE_HEXES.value:
        raise RailbookError(f"{coords:,} hexes, more than a title may have ({limits.TITLE_HEXES.value:,}, title_hexes)")
    for h in _resolve_copies(entries):
        colour = HEX_COLOURS.get(str(h.get("color", "plain")), "white")
        body: dict[str, Any] = {}
        if colour != "white":
            body["color"] = colour
        names = [n for n in [_name(c) for c in h.get("cities", [])] if n]
        names += [n for n in [_name(t) for t in h.get("centerTowns", []) + h.get("towns", [])] if n]
        if isinstance(h.get("offBoardRevenue"), dict) and _name(h["offBoardRevenue"]):
            names.append(_name(h["offBoardRevenue"]))  # type: ignore[arg-type]
        names += [str(n.get("name")) for n in h.get("names", []) if isinstance(n, dict) and n.get("name")]
        if names:
            body["name"] = " & ".join(dict.fromkeys(names))
        body.update(track_of(h, layout))
        body.update({k: v for k, v in _terrain(h).items() if k not in body})
        if "borders" not in body and _borders(h, layout):
            body["borders"] = _borders(h, layout)
        icons = [{"name": str(i["type"])} for i in h.get("icons", []) if isinstance(i, dict) and i.get("type")]
        if icons and "icons" not in body:
            body["icons"] = icons
        if colour == "blue" and ("paths" in body or "cities" in body):
            body["color"] = "white"
        found_homes, found_reserved = _homes(h)
        for coord in h.get("hexes", []):
            if not _HEX_ID.match(str(coord)):
                skipped.append(str(coord))
                continue
            if coord in hexes:
                merged = dict(hexes[coord] or {})
                merged.update(body)
                hexes[coord] = merged
            else:
                hexes[coord] = dict(body)
            for abbrev, city in found_homes:
                homes.setdefault(abbrev, []).append({"hex": coord, "city": city})
            for abbrev in found_reserved:
                reserved.setdefault(abbrev, []).append(coord)
    if skipped:
        todo.append(f"map: hexes with ids railbook cannot read were left out: {', '.join(sorted(set(skipped)))}")
    return _fit_grid(hexes, layout, todo), {"homes": homes, "reserved": reserved}


def _fit_grid(hexes: dict[str, Any], layout: str, todo: list[str]) -> dict[str, Any]:
    """The ``map`` mapping: layout, and the axes and parity the ids need."""
    spec: dict[str, Any] = {"layout": layout}
    if not hexes:
        todo.append("map: the 18xx-maker file has no map; a one-hex placeholder was written")
        spec["hexes"] = {"A1": None}
        return spec
    default = {"x": "letter", "y": "number"} if layout == "flat" else {"x": "number", "y": "letter"}
    swapped = {"x": default["y"], "y": default["x"]}
    for axes in (default, swapped):
        parities = {sum(hex_xy(h, axes)) % 2 for h in hexes}
        if len(parities) == 1:
            if axes is swapped:
                spec["axes"] = axes
            if parities == {1}:
                spec["parity"] = "odd"
            break
    else:
        by_parity: dict[int, list[str]] = {}
        for h in hexes:
            by_parity.setdefault(sum(hex_xy(h, default)) % 2, []).append(h)
        keep = max(by_parity, key=lambda p: len(by_parity[p]))
        dropped = sorted(h for p, ids in by_parity.items() if p != keep for h in ids)
        todo.append(f"map: ids off the hex grid were left out: {', '.join(dropped)}")
        hexes = {h: v for h, v in hexes.items() if h not in dropped}
        if keep == 1:
            spec["parity"] = "odd"
    spec["hexes"] = {h: (v or None) for h, v in hexes.items()}
    return spec


# ----------------------------------------------------------------------------------------------- tiles


def _tile_definition(tile_id: str, entry: Any, game_tiles: dict[str, Any], catalogue: dict[str, Any]) -> Any:
    if isinstance(entry, dict) and entry.get("color"):
        return entry
    if isinstance(entry, dict) and entry.get("tile"):
        target = str(entry["tile"])
        inner = game_tiles.get(target)
        if isinstance(inner, dict) and inner.get("color"):
            return inner
        return catalogue.get(target) or catalogue.get(target.split("|")[0])
    return catalogue.get(tile_id) or catalogue.get(tile_id.split("|")[0])


def _count(entry: Any) -> int | str:
    if isinstance(entry, bool):
        return 1
    if isinstance(entry, int):
        return entry
    if isinstance(entry, dict):
        q = entry.get("quantity", 1)
        return "unlimited" if q == "∞" else max(1, first_int(q, 1))
    return 1


def import_tiles(game: dict[str, Any], catalogue: dict[str, Any], todo: list[str]) -> dict[str, Any]:
    """``tiles`` (every tile's track as 18xx-maker draws it) and ``manifest``."""
    from railbook.compiler.compile import catalogue_tiles

    from railbook.hexgrid import signature

    ours = catalogue_tiles()
    tiles: dict[str, Any] = {}
    manifest: dict[str, Any] = {}
    unknown, odd = [], []
    for tile_id, entry in (game.get("tiles") or {}).items():
        definition = _tile_definition(str(tile_id), entry, game.get("tiles") or {}, catalogue)
        if not isinstance(definition, dict):
            unknown.append(str(tile_id))
            continue
        colour = str(definition.get("color", "")).replace("grey", "gray")
        if colour not in TILE_COLOURS:
            odd.append(f"{tile_id} ({colour})")
            continue
        track = track_of(definition, "flat")
        tile = {"color": colour, **track}
        name = str(tile_id)
        known = ours.get(name)
        if known is not None and _same_tile(known.model_dump(mode="json", exclude_none=True), tile, signature):
            manifest[name] = _count(entry)
            continue
        tiles[name] = tile
        manifest[name] = _count(entry)
    if unknown:
        todo.append(f"tiles: not in 18xx-maker's catalogue nor defined by the game, left out: {', '.join(unknown)}")
    if odd:
        todo.append(f"tiles: colours railbook has no phase for, left out: {', '.join(odd)}")
    return {"tiles": tiles, "manifest": manifest}


def _same_tile(ours: dict[str, Any], theirs: dict[str, Any], signature: Any) -> bool:
    if ours.get("color") != theirs.get("color") or (ours.get("label") or None) != (theirs.get("label") or None):
        return False

    def revenues(t: dict[str, Any]) -> list[Any]:
        return sorted(str(n.get("revenue", 0)) for k in ("cities", "towns") for n in t.get(k, []))

    def slots(t: dict[str, Any]) -> list[int]:
        return sorted(c.get("slots", 1) for c in t.get("cities", []))

    if revenues(ours) != revenues(theirs) or slots(ours) != slots(theirs):
        return False
    return any(signature(ours, 0) == signature(theirs, r) for r in range(6))


# ---------------------------------------------------------------------------------------- market, trains


def import_market(game: dict[str, Any], todo: list[str]) -> dict[str, Any]:
    stock = game.get("stock") if isinstance(game.get("stock"), dict) else {}
    kind = str(stock.get("type", "2D"))
    raw = stock.get("market", [])
    rows_in = [raw] if kind == "1D" else list(raw) if isinstance(raw, list) else []
    if rows_in and not all(isinstance(r, list) for r in rows_in):
        rows_in = [raw]
    legend_in = [item for item in stock.get("legend", []) if isinstance(item, dict)]
    legend: dict[str, str] = {"p": "par"}
    letters = iter("abcdefghijklmnoqrstuvwxz")
    by_kind: dict[str, str] = {"par": "p"}

    def letter(kind_name: str) -> str:
        if kind_name not in by_kind:
            by_kind[kind_name] = next(letters)
            legend[by_kind[kind_name]] = kind_name
        return by_kind[kind_name]

    rows: list[str] = []
    for row in rows_in:
        cells: list[str] = []
        for cell in row:
            if cell is None or (isinstance(cell, dict) and not cell):
                cells.append(".")
                continue
            if isinstance(cell, dict):
                price = first_int(cell.get("value", cell.get("label", 0)))
                flags = ""
                if cell.get("par"):
                    flags += "p"
                if isinstance(cell.get("legend"), int) and 0 <= cell["legend"] < len(legend_in):
                    named = kind_of_phrase(str(legend_in[cell["legend"]].get("description", "")))
                    if named:
                        flags += letter(named)
                for word in (cell.get("label"), cell.get("subLabel")):
                    named = kind_of_phrase(str(word)) if isinstance(word, str) else None
                    if named and named in ("close", "liquidation", "acquisition"):
                        flags += letter(named)
                if cell.get("arrow") in ("up", "down"):
                    flags += letter(f"{cell['arrow']}_arrow")
                cells.append(f"{max(price, 0)}{''.join(dict.fromkeys(flags))}")
            else:
                cells.append(str(max(first_int(cell), 0)))
        while cells and cells[-1] == ".":
            cells.pop()
        if cells:
            rows.append(" ".join(cells))
    market: dict[str, Any] = {"type": "1d" if len(rows) == 1 else "2d", "legend": legend}
    if not rows:
        todo.append("market: the 18xx-maker file has no stock market; a one-cell placeholder was written")
        rows = ["100p"]
    market["rows"] = rows
    if "p" not in "".join(rows):
        values = [first_int(v) for v in (stock.get("par", {}) or {}).get("values", [])]
        prices = {first_int(c.rstrip("abcdefghijklmnopqrstuvwxyz")) for r in rows for c in r.split() if c != "."}
        par = sorted({v for v in values if v in prices})
        if par:
            market["par_prices"] = par
        else:
            todo.append("market: no par values marked; mark them with 'p' cells")
    movement = stock.get("movement")
    if isinstance(movement, dict):
        kept, legend = _movement(movement, two_d=market.get("type") != "1d")
        if kept:
            market["movement"] = kept
        if legend:
            todo.append(f"market: the movement legend ({', '.join(legend)}) is text; write it as market.movement rules")
    return market


def _movement(movement: dict[str, Any], two_d: bool) -> tuple[dict[str, Any], list[str]]:
    """The entries of an 18xx-maker movement legend that are railbook movement rules, and the names of the rest."""
    from pydantic import ValidationError
    from railbook.compiler.models import Movement

    kept: dict[str, Any] = {}
    legend: list[str] = []
    for key, value in movement.items():
        if key not in ("up", "down", "left", "right"):
            continue
        try:
            Movement.model_validate({key: value})
        except ValidationError:
            legend.append(str(key))
            continue
        if two_d and key in ("up", "down") and isinstance(value, str):  # a 2d market's form is a mapping
            legend.append(str(key))
            continue
        kept[key] = value
    return kept, legend


def _distance(name: str) -> Any:
    if re.fullmatch(r"\d+", name):
        return int(name)
    m = re.fullmatch(r"(\d+)\s*/\s*(\d+)", name)
    if m:
        return f"{m.group(1)}/{m.group(2)}"
    m = re.fullmatch(r"(\d+)\s*\+\s*(\d+)", name)
    if m:
        return f"{m.group(1)}+{m.group(2)}"
    m = re.match(r"(\d+)", name)
    if m:
        return int(m.group(1))
    return "unlimited"


def import_trains(game: dict[str, Any], todo: list[str]) -> dict[str, Any]:
    trains: dict[str, dict[str, Any]] = {}
    guessed: list[str] = []
    free: list[str] = []
    for t in game.get("trains", []) or []:
        if not isinstance(t, dict) or t.get("name") in (None, ""):
            continue
        name = str(t["name"])
        count = "unlimited" if t.get("quantity") == "∞" else max(1, first_int(t.get("quantity", 1), 1))
        if name in trains:
            old = trains[name]
            if "unlimited" in (old["count"], count):
                old["count"] = "unlimited"
            else:
                old["count"] += count
            old["price"] = old["price"] or first_int(t.get("price", 0))
            continue
        if first_int(t.get("price", 0)) <= 0:
            free.append(name)
            continue
        distance = _distance(name)
        if distance == "unlimited" or not re.fullmatch(r"\d+(?:\s*[/+]\s*\d+)?", name):
            guessed.append(name)
        train: dict[str, Any] = {"distance": distance, "price": first_int(t.get("price", 0)), "count": count}
        for key, field_name in (("rust", "rusts_on"), ("obsolete", "obsolete_on"), ("phased", "obsolete_on")):
            ref = train_item(t.get(key))
            if ref and field_name not in train:
                train[field_name] = ref
        if t.get("available"):
            train["available_on"] = str(t["available"])
        trains[name] = train
    for train in trains.values():
        for key in ("rusts_on", "obsolete_on"):
            if key in train and train[key] not in trains:
                todo.append(f"trains: {key} '{train.pop(key)}' names no train; check the rust/phase-out rule")
    if free:
        todo.append(f"trains: without a price (not sold by the bank), left out: {', '.join(dict.fromkeys(free))}")
    if guessed:
        todo.append(f"trains: distances guessed from the names {', '.join(guessed)} (18xx-maker holds none)")
    phases = []
    colours = list(TILE_COLOURS)
    for i, p in enumerate(game.get("phases", []) or []):
        if not isinstance(p, dict):
            continue
        tiles_colour = str(p.get("tiles", "yellow")).replace("grey", "gray")
        upto = colours[: colours.index(tiles_colour) + 1] if tiles_colour in colours else ["yellow"]
        phase: dict[str, Any] = {"name": str(p.get("name", i + 1))}
        on = train_item(p.get("train", p.get("on"))) or (phase["name"] if phase["name"] in trains else None)
        if on and on in trains and i > 0:
            phase["on"] = on
        phase["tiles"] = upto
        limit = p.get("limit", 4)
        phase["train_limit"] = 99 if limit == "∞" else first_int(limit, 4)
        if p.get("rounds") is not None:
            phase["operating_rounds"] = max(1, first_int(p["rounds"], 1))
        phases.append(phase)
    for phase in phases:
        if "available_on" in phase:
            continue
    order = list(trains)
    last = -1
    for phase in phases:
        if "on" in phase and order.index(phase["on"]) <= last:
            todo.append(f"phases: {phase['name']} starts on train '{phase.pop('on')}' out of train order; check it")
        elif "on" in phase:
            last = order.index(phase["on"])
    names = {p["name"] for p in phases}
    for train in trains.values():
        if train.get("available_on") and train["available_on"] not in names:
            todo.append(f"trains: available '{train.pop('available_on')}' names no phase")
    if not trains:
        todo.append("trains: the 18xx-maker file has no trains")
    if not phases:
        todo.append("phases: the 18xx-maker file has no phases; one yellow phase was written")
        phases = [{"name": "1", "tiles": ["yellow"], "train_limit": 4, "operating_rounds": 1}]
    return {"trains": trains, "phases": phases}


# -------------------------------------------------------------------------------------------- companies


def _colour(value: Any) -> str:
    text = str(value or "gray")
    return PALETTE.get(text, text)


def _tokens(company: dict[str, Any], game: dict[str, Any]) -> list[int]:
    tokens = company.get("tokens")
    types = game.get("tokenTypes") or {}
    if isinstance(tokens, str):
        tokens = types.get(tokens)
    if tokens is None:
        tokens = types.get("minor" if company.get("minor") else "default")
    out = [first_int(t, 0) if isinstance(t, int | str) else 0 for t in (tokens or [])]
    return out or [0]


def _shares(company: dict[str, Any], game: dict[str, Any]) -> list[int] | None:
    shares = company.get("shares")
    types = game.get("shareTypes") or {}
    if isinstance(shares, str):
        shares = types.get(shares)
    if shares is None:
        shares = types.get("minor" if company.get("minor") else "default")
    if not isinstance(shares, list):
        return None
    out: list[int] = []
    for s in shares:
        if isinstance(s, dict):
            out += [first_int(s.get("percent", 10))] * max(1, first_int(s.get("quantity", 1), 1))
    return out if sum(out) == 100 else None


def import_companies(
    game: dict[str, Any], found: dict[str, Any], hexes: dict[str, Any], todo: list[str]
) -> dict[str, Any]:
    corporations: dict[str, Any] = {}
    minors: dict[str, Any] = {}
    capitalization = str((game.get("info") or {}).get("capitalization", "full"))
    bad_shares = []
    for company in game.get("companies", []) or []:
        if not isinstance(company, dict) or not company.get("abbrev"):
            continue
        sym = str(company["abbrev"])
        if company.get("minor"):
            minors[sym] = _minor(sym, company, game, found, hexes)
            continue
        corp: dict[str, Any] = {"name": str(company.get("name", sym))}
        homes = [h for h in found["homes"].get(sym, []) if _has_city(hexes.get(h["hex"]), h["city"])]
        if homes:
            corp["home"] = homes[0] if len(homes) == 1 else homes
            if len(homes) == 1 and homes[0]["city"] == 0:
                corp["home"] = homes[0]["hex"]
        corp["tokens"] = _tokens(company, game)
        shares = _shares(company, game)
        if shares is None:
            bad_shares.append(sym)
            shares = [20, 10, 10, 10, 10, 10, 10, 10, 10]
        corp["shares"] = shares
        floats = company.get("floatPercent", game.get("floatPercent"))
        if isinstance(floats, int | float):
            corp["float_percent"] = int(floats)
        if capitalization in ("full", "incremental"):
            corp["capitalization"] = capitalization
        corp["color"] = _colour(company.get("color"))
        if company.get("textColor"):
            corp["text_color"] = _colour(company["textColor"])
        reserved = [h for h in found["reserved"].get(sym, []) if h in hexes]
        if reserved:
            corp["coordinates_reserved"] = reserved
        while sym in corporations:
            sym += "_"
        corporations[sym] = corp
    if bad_shares:
        todo.append(f"corporations: shares not given or not adding to 100% (10 x 10% assumed): {', '.join(bad_shares)}")
    privates: dict[str, Any] = {}
    for i, p in enumerate(game.get("privates", []) or []):
        if not isinstance(p, dict) or not p.get("name"):
            continue
        sym = str(p.get("sym") or p.get("abbrev") or p.get("id") or _initials(str(p["name"])) or f"P{i + 1}")
        while sym in privates:
            sym += "_"
        priv: dict[str, Any] = {"name": str(p["name"]), "value": first_int(p.get("price", p.get("bid", 0)))}
        priv["revenue"] = first_int(p.get("revenue", 0))
        if p.get("description"):
            priv["description"] = str(p["description"])
        if p.get("hex") and str(p["hex"]) in hexes:
            priv["abilities"] = [{"type": "blocks_hexes", "hexes": [str(p["hex"])], "owner": "player"}]
        privates[sym] = priv
    if privates:
        todo.append("privates: abilities are descriptions only; write them as typed abilities (compiler/models.py)")
    out: dict[str, Any] = {"corporations": corporations}
    if minors:
        out["minors"] = minors
        todo.append("minors: cash, starting train and revenue split are not in the file")
    out["privates"] = privates
    return out


def _minor(
    sym: str, company: dict[str, Any], game: dict[str, Any], found: dict[str, Any], hexes: dict[str, Any]
) -> Any:
    minor: dict[str, Any] = {"name": str(company.get("name", sym))}
    homes = [h for h in found["homes"].get(sym, []) if _has_city(hexes.get(h["hex"]), h["city"])]
    if homes:
        minor["home"] = homes[0]["hex"] if homes[0]["city"] == 0 else homes[0]
    minor["tokens"] = _tokens(company, game)
    minor["color"] = _colour(company.get("color"))
    if company.get("textColor"):
        minor["text_color"] = _colour(company["textColor"])
    return minor


def _has_city(hex_: Any, city: int) -> bool:
    return isinstance(hex_, dict) and len(hex_.get("cities", [])) > city


def _initials(name: str) -> str:
    return "".join(w[0] for w in re.findall(r"[A-Za-z0-9]+", name) if w[0].isupper() or w[0].isdigit())[:6]


# ------------------------------------------------------------------------------------------------ game


def import_players(game: dict[str, Any], todo: list[str]) -> dict[int, Any]:
    players: dict[int, Any] = {}
    for p in game.get("players", []) or []:
        if not isinstance(p, dict) or not p.get("number"):
            continue
        bank = p.get("bank", game.get("bank"))
        players[int(p["number"])] = {
            "cash": first_int(p.get("capital", game.get("capital", 0))),
            "bank": "unlimited" if bank in (None, "∞") else first_int(bank),
            "cert_limit": first_int(p.get("certLimit", game.get("certLimit", 0))),
        }
    if not players or any(p["cash"] <= 0 or p["cert_limit"] <= 0 for p in players.values()):
        todo.append("players: no complete player table (cash, bank, certificate limit); railbook new's was written")
        players = {int(n): p for n, p in _starter_rules()["players"].items()}
    return players


def _starter_rules() -> dict[str, Any]:
    """The generic rules ``railbook new`` writes (mechanics, end triggers, a player table), as a start."""
    import io

    from railbook.compiler.scaffold import FILES
    from ruamel.yaml import YAML

    data = YAML(typ="safe", pure=True).load(io.StringIO(FILES["game.yaml"].format(name="x")))
    return {k: data[k] for k in ("mechanics", "end", "players") if k in data}


_SHAPE_ERRORS = (KeyError, IndexError, TypeError, ValueError, AttributeError, ArithmeticError, RecursionError)


@contextmanager
def _reading(source: str, part: str) -> Iterator[None]:
    """Turn a field of an unexpected shape met while reading ``part`` into a one-line error naming the part."""
    try:
        yield
    except RailbookError as exc:
        if str(exc).startswith(source):
            raise
        raise RailbookError(f"{source}: {part}: {exc}") from None
    except _SHAPE_ERRORS as exc:
        key = exc.args[0] if isinstance(exc, KeyError) and exc.args else None
        missing = f" (no '{key}')" if isinstance(key, str) and len(key) <= 40 and key.isprintable() else ""
        raise RailbookError(
            f"{source}: {part}: not in the shape 18xx-maker writes{missing}; this importer cannot read it"
        ) from None


def _check_sizes(game: dict[str, Any], where: str) -> None:
    """Refuse at once a file with more companies, tiles, trains or phases than a title may have (their import would
    otherwise run for minutes before validation refused the result)."""
    sections = {
        "companies": limits.TITLE_COMPANIES,
        "privates": limits.TITLE_COMPANIES,
        "tiles": limits.TITLE_COPIES,
        "trains": limits.TITLE_COUNT,
        "phases": limits.TITLE_COUNT,
    }
    for key, limit in sections.items():
        value = game.get(key)
        size = len(value) if isinstance(value, list | dict) else 0
        if size > limit.value:
            raise RailbookError(
                f"{where}: {key}: {size:,} entries, more than a title may have ({limit.value:,}, {limit.name})"
            )


def import_game(game: dict[str, Any], name: str, catalogue: dict[str, Any], source: str = "") -> Imported:
    """An 18xx-maker game (parsed JSON) as railbook title files."""
    where = source or name
    if not isinstance(game, dict) or not isinstance(game.get("info"), dict):
        raise RailbookError(f"{where}: not an 18xx-maker game file (no 'info' object)")
    info = game["info"]
    todo: list[str] = []
    _check_sizes(game, where)
    with _reading(where, "info"):
        layout = "flat" if info.get("orientation") == "horizontal" else "pointy"
        full = " ".join(str(x) for x in (info.get("title", name), info.get("subtitle", "")) if x).strip()
        meta: dict[str, Any] = {"title": name, "full_name": full or name}
        if info.get("designer"):
            meta["designer"] = str(info["designer"])
        if info.get("publisher"):
            meta["publisher"] = str(info["publisher"])
        meta["sources"] = [f"18xx-maker game file {where}"]
        if isinstance(info.get("currency"), str) and "#" in info["currency"]:
            meta["currency"] = info["currency"].replace("#", "{}", 1)
    with _reading(where, "map"):
        map_spec, found = import_map(game, layout, todo)
    with _reading(where, "players"):
        players = import_players(game, todo)
    with _reading(where, "tiles"):
        tiles = import_tiles(game, catalogue, todo)
    with _reading(where, "stock market"):
        market = import_market(game, todo)
    with _reading(where, "trains and phases"):
        trains = import_trains(game, todo)
    with _reading(where, "companies"):
        companies = import_companies(game, found, map_spec["hexes"], todo)
    files = {
        "game.yaml": {
            "meta": meta,
            "players": players,
            "mechanics": _starter_rules().get("mechanics", {}),
            "end": _starter_rules().get("end", []),
        },
        "map.yaml": {"map": map_spec},
        "tiles.yaml": tiles,
        "market.yaml": {"market": market},
        "trains.yaml": trains,
        "companies.yaml": companies,
    }
    with _reading(where, "tiles and map"):
        _tidy(files, todo)
    return Imported(name, files, todo, source)


def _tidy(files: dict[str, dict[str, Any]], todo: list[str]) -> None:
    """Drop what railbook would reject as dangling: tiles not in the manifest, hex labels no tile carries."""
    from railbook.compiler.compile import catalogue_tiles

    tiles, manifest = files["tiles.yaml"]["tiles"], files["tiles.yaml"]["manifest"]
    for tile_id in list(tiles):
        if tile_id not in manifest:
            del tiles[tile_id]
    ours = catalogue_tiles()
    labels = {t.get("label") for t in tiles.values()}
    labels |= {ours[t].label for t in manifest if t not in tiles and t in ours}
    dropped = []
    for hex_id, hx in files["map.yaml"]["map"]["hexes"].items():
        upgradable = hx and hx.get("color", "white") in ("white", "yellow", "green", "brown")
        if upgradable and hx.get("label") and hx["label"] not in labels:
            dropped.append(f"{hex_id} {hx.pop('label')}")
    if dropped:
        todo.append(f"map: printed labels no tile carries were dropped (add their tiles): {', '.join(dropped)}")


# ----------------------------------------------------------------------------------------------- write

_HEADERS = {
    "game.yaml": "meta, players; generic mechanics for the designer to replace (see NOTES.md)",
    "map.yaml": "the board: hexes, preprinted track, terrain, off-boards",
    "tiles.yaml": "title tiles (as 18xx-maker draws them) and the manifest",
    "market.yaml": "the stock market",
    "trains.yaml": "trains and phases",
    "companies.yaml": "corporations and private companies",
}


def _compact(value: Any) -> Any:
    """Paths without flags as 'a-b' strings, as the hand-written titles do."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k == "paths" and isinstance(v, list):
                out[k] = [f"{p['a']}-{p['b']}" if isinstance(p, dict) and set(p) == {"a", "b"} else p for p in v]
            else:
                out[k] = _compact(v)
        return out
    if isinstance(value, list):
        return [_compact(v) for v in value]
    return value


def _yaml_text(data: dict[str, Any], header: str) -> str:
    import io

    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = None
    yaml.width = 120
    yaml.sort_base_mapping_type_on_output = False  # type: ignore[attr-defined]
    buf = io.StringIO()
    yaml.dump(_compact(data), buf)
    return header + buf.getvalue()


def notes_text(imported: Imported) -> str:
    lines = [
        f"# {imported.name}",
        "",
        f"Imported by `railbook import 18xx-maker` from {imported.source or 'an 18xx-maker game file'}.",
        "18xx-maker files describe components (map, tiles, market, trains, companies) but not the rules.",
        "",
        "## TODO for the designer",
        "",
        "- mechanics: the file holds no rules; game.yaml has the generic `mechanics:` and `end:` of `railbook new`.",
        "  Replace them with the game's (stock round, dividends, track, tokens, trains, game end; docs/MECHANICS.md).",
        "- check train distances, phase events, private abilities and any special tile upgrades.",
    ]
    lines += [f"- {item}" for item in imported.todo]
    return "\n".join(lines) + "\n"


def _comment(text: str) -> str:
    """``text`` made safe for one YAML comment line: no line breaks or other control characters."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)[:200]


def write_title(imported: Imported, out: Path, *, force: bool = False) -> Path:
    """Write the title folder all at once (a temporary folder renamed into place)."""
    import os
    import shutil
    import tempfile

    from railbook.outputs import NAME_MAX, inside, write_inside

    if not out.name or out.name in (".", ".."):
        raise RailbookError(f"{out}: --out must name the title folder to create")
    if len(out.name.encode("utf-8", "surrogatepass")) > NAME_MAX - 16:
        raise RailbookError(f"{out}: --out: a folder name of {len(out.name)} characters is too long")
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise RailbookError(f"{out}: already exists and is not a folder; choose another --out")
    inside(out.parent, out.name, is_folder=True)
    tmp: Path | None = None
    try:
        if out.exists() and any(out.iterdir()) and not force:
            raise RailbookError(f"{out}: already exists and is not empty; choose another --out or pass --force")
        if out.exists():
            stranger = next((p for p in sorted(out.iterdir()) if not _title_file(p)), None)
            if stranger is not None:
                raise RailbookError(
                    f"{out}: --force replaces only a title folder (YAML and Markdown files); it holds {stranger.name!r}"
                )
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
        source = _comment(imported.source or "an 18xx-maker game file")
        for file, data in imported.files.items():
            header = f"# {_comment(imported.name)}: {_HEADERS[file]}.\n# source: {source} (imported by railbook)\n"
            write_inside(tmp, file, data=_yaml_text(data, header))
        write_inside(tmp, "NOTES.md", data=notes_text(imported))
        tmp.chmod(0o777 & ~_umask())
        if out.exists():
            shutil.rmtree(out)
        os.replace(tmp, out)
        tmp = None
    except OSError as exc:
        raise RailbookError(f"{exc.filename or out}: cannot write the title: {exc.strerror or exc}") from None
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    return out


def _title_file(path: Path) -> bool:
    """A file an import writes (or a designer adds) in a title folder: a plain ``.yaml`` or ``.md`` file."""
    return path.suffix in (".yaml", ".md") and path.is_file() and not path.is_symlink()


def _umask() -> int:
    import os

    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def title_name(out: Path) -> str:
    """The title id an import into ``out`` gets: the folder's name made a title id (``railbook/outputs.py``)."""
    from railbook.outputs import TITLE_ID_MAX

    name = re.sub(r"[^A-Za-z0-9_.-]", "_", out.name).lstrip("._-")[:TITLE_ID_MAX]
    return name or "imported"


def import_file(path: Path, out: Path, catalogue_dir: Path | None = None, *, force: bool = False) -> Imported:
    """Read an 18xx-maker game file and write it as a railbook title in ``out``."""
    from railbook.records import parse_json, read_text

    game = parse_json(read_text(Path(path)), str(path), depth=64)  # within the input limits, errors located
    imported = import_game(game, title_name(out), load_catalogue(catalogue_dir), source=_comment(Path(path).name))
    write_title(imported, out, force=force)
    return imported
