"""Resolve a validated title into the canonical rulebook and write it atomically."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from railbook.hexgrid import default_axes, hex_xy, neighbours, upgrade_rotations
from railbook.jsonio import deep_merge, dump_json, merge_patch_diff
from railbook.outputs import write_inside

from .bounds import bound_problems
from .checks import check_source
from .contract_checks import check_mechanics
from .errors import TitleError
from .load import LoadedDoc, Positions, load_catalogue, load_title
from .models import GameSource, Hex, Market, Tile, dump_ordered, homes_of
from .rulebook import Rulebook
from .validate import validate_catalogue, validate_source

_CELL = re.compile(r"^(\d+)([a-z]*)$")


# ------------------------------------------------------------------------------------------ resolving


def _track(obj: Any) -> dict[str, Any]:
    return obj.model_dump(mode="json", include={"cities", "towns", "offboards", "junctions", "paths"})


def compile_market(market: Market) -> dict[str, Any]:
    grid: list[list[dict[str, Any] | None]] = []
    par: list[dict[str, int]] = []
    for r, row in enumerate(market.rows):
        cells: list[dict[str, Any] | None] = []
        for c, token in enumerate(row.split()):
            if token == ".":
                cells.append(None)
                continue
            m = _CELL.match(token)
            if not m:
                raise ValueError(f"market row {r} cell {c}: bad cell {token!r} (price then legend letters)")
            kinds = []
            for letter in m.group(2):
                if letter not in market.legend:
                    raise ValueError(f"market row {r} cell {c}: letter {letter!r} is not in the legend")
                kinds.append(market.legend[letter])
            cell = {"price": int(m.group(1)), "row": r, "col": c, "kinds": kinds}
            cells.append(cell)
            if "par" in kinds:
                par.append({"price": cell["price"], "row": r, "col": c})
        grid.append(cells)
    if market.par_prices:
        par = []
        for price in market.par_prices:
            spots = [c for row in grid for c in row if c and c["price"] == price]
            if not spots:
                raise ValueError(f"par price {price} is not a market cell")
            par.append({"price": price, "row": spots[0]["row"], "col": spots[0]["col"]})
    if market.type == "1d" and len(grid) != 1:
        raise ValueError("a 1d market has exactly one row")
    return {
        "type": market.type,
        "grid": grid,
        "par": sorted(par, key=lambda p: (p["price"], p["row"], p["col"])),
        "movement": dump_ordered(market.movement),
        "zone_colours": market.zone_colours,
    }


def _fits_counts(old: dict[str, Any], new: dict[str, Any], src: GameSource) -> bool:
    rules = src.tile_rules
    oc, nc = len(old.get("cities", [])), len(new.get("cities", []))
    ot, nt = len(old.get("towns", [])), len(new.get("towns", []))
    if rules.allow_town_to_city and ot and not oc and nc == ot and not nt:
        return True
    if rules.keep_city_count and oc != nc:
        return False
    return not (rules.keep_town_count and ot != nt)


def _is_upgrade(old: dict[str, Any], old_label: str | None, new: Tile, src: GameSource) -> bool:
    new_track = _track(new)
    if (old_label or None) != (new.label or None) or not _fits_counts(old, new_track, src):
        return False
    return bool(upgrade_rotations(old, 0, new_track, town_to_city=src.tile_rules.allow_town_to_city))


def compile_tiles(src: GameSource, catalogue: dict[str, Tile]) -> dict[str, dict[str, Any]]:
    pool = {**catalogue, **src.tiles}
    order = src.tile_rules.colour_order
    out: dict[str, dict[str, Any]] = {}
    for tile_id, count in src.manifest.items():
        tile = pool[tile_id]
        step = order.index(tile.color) + 1 if tile.color in order else len(order)
        nxt = order[step] if step < len(order) else None
        old = _track(tile)
        ups = [
            other_id
            for other_id in src.manifest
            if nxt and pool[other_id].color == nxt and _is_upgrade(old, tile.label, pool[other_id], src)
        ]
        data = tile.model_dump(mode="json", exclude_none=True)
        data.update(
            id=tile_id,
            count=count,
            upgrades=ups,
            origin="title" if tile_id in src.tiles else "catalogue",
        )
        out[tile_id] = data
    for exc in src.tile_rules.exceptions:
        if exc.hexes or exc.phases:
            continue  # conditional exceptions are applied by the engine at lay time
        for t in exc.tiles:
            if t in out:
                ups = out[t]["upgrades"]
                if exc.forbid:
                    out[t]["upgrades"] = [u for u in ups if u not in exc.to]
                else:
                    out[t]["upgrades"] = ups + [u for u in exc.to if u not in ups]
    return out


def _hex_upgrades(hx: Any, src: GameSource, pool: dict[str, Tile], hex_id: str) -> list[str]:
    if hx.upgrades_to is not None:
        ups = list(hx.upgrades_to)
    elif hx.color in ("white",):
        ups = []
        for tile_id in src.manifest:
            tile = pool[tile_id]
            if tile.color != src.tile_rules.colour_order[0] or (tile.label or None) != (hx.label or None):
                continue
            if len(tile.cities) == len(hx.cities) and len(tile.towns) == len(hx.towns):
                if not hx.paths or _is_upgrade(_track(hx), hx.label, tile, src):
                    ups.append(tile_id)
    elif hx.color in src.tile_rules.colour_order[:-1]:
        nxt = src.tile_rules.colour_order[src.tile_rules.colour_order.index(hx.color) + 1]
        ups = [t for t in src.manifest if pool[t].color == nxt and _is_upgrade(_track(hx), hx.label, pool[t], src)]
    else:
        ups = []
    for exc in src.tile_rules.exceptions:
        if f"hex:{hex_id}" in exc.tiles and not exc.phases:
            ups = [u for u in ups if u not in exc.to] if exc.forbid else ups + [u for u in exc.to if u not in ups]
    return ups


def compile_hexes(src: GameSource, pool: dict[str, Tile]) -> dict[str, dict[str, Any]]:
    axes = dict(src.map.axes or default_axes(src.map.layout))
    nbrs = neighbours(src.map.hexes, src.map.layout, axes)
    homes: dict[str, list[str]] = {}
    reserved: dict[str, list[str]] = {}
    for table in (src.corporations, src.minors):
        for sym, ent in table.items():
            for h in homes_of(ent):
                homes.setdefault(h.hex, []).append(sym)
            for h in getattr(ent, "coordinates_reserved", []):
                reserved.setdefault(h, []).append(sym)
    for sym, priv in src.privates.items():
        for ab in priv.abilities:
            if ab.type == "reservation":
                for h in ab.hexes:
                    reserved.setdefault(h, []).append(sym)
    out: dict[str, dict[str, Any]] = {}
    for hex_id, hx in src.map.hexes.items():
        hx = hx or Hex()
        x, y = hex_xy(hex_id, axes)
        data = hx.model_dump(mode="json", exclude_none=True)
        data.update(
            id=hex_id,
            x=x,
            y=y,
            neighbours={str(e): n for e, n in sorted(nbrs[hex_id].items())},
            tile_upgrades=_hex_upgrades(hx, src, pool, hex_id),
            homes=homes.get(hex_id, []),
            reserved=reserved.get(hex_id, []),
        )
        out[hex_id] = data
    return out


def mechanics_data(src: GameSource) -> dict[str, Any]:
    """The switched-on mechanics with every parameter spelled out (defaults included)."""
    return {name: params.model_dump(mode="json") for name, params in src.mechanics if params is not None}


def resolve(src: GameSource, catalogue: dict[str, Tile]) -> dict[str, Any]:
    """The rulebook of one (option-merged) source, as plain JSON data."""
    pool = {**catalogue, **src.tiles}
    dump = lambda m: m.model_dump(mode="json", exclude_none=True, by_alias=True)  # noqa: E731
    book = {
        "format_version": Rulebook.model_fields["format_version"].default,
        "title": src.meta.title,
        "meta": dump(src.meta),
        "players": {str(n): dump(p) for n, p in src.players.items()},
        "cert_limit_by": src.cert_limit_by,
        "layout": src.map.layout,
        "axes": dict(src.map.axes or default_axes(src.map.layout)),
        "hexes": compile_hexes(src, pool),
        "tiles": compile_tiles(src, catalogue),
        "upgrade_exceptions": [dump(e) for e in src.tile_rules.exceptions if e.hexes or e.phases],
        "market": compile_market(src.market),
        "trains": {k: dump(v) for k, v in src.trains.items()},
        "train_order": list(src.trains),
        "phases": [dump(p) for p in src.phases],
        "corporations": {k: dump(v) for k, v in src.corporations.items()},
        "minors": {k: dump(v) for k, v in src.minors.items()},
        "privates": {k: dump(v) for k, v in src.privates.items()},
        "mechanics": mechanics_data(src),
        "rounds": src.rounds.model_dump(mode="json"),
        "end": [dump(e) for e in src.end],
        "options": {},
        "site": src.site.model_dump(mode="json"),
    }
    return book


# ---------------------------------------------------------------------------------------- entry points


@cache
def catalogue_tiles() -> dict[str, Tile]:
    """The shared tile catalogue, read and validated once per process."""
    return dict(validate_catalogue(load_catalogue()).tiles)


def check(doc: LoadedDoc, warnings: list[str] | None = None) -> GameSource:
    """Schema, semantic and playability validation of a loaded title; warnings are appended to ``warnings``."""
    from .playable import check_playable  # builds on this module's resolvers

    src = validate_source(doc)
    bounds = bound_problems(src, doc)
    if bounds:
        raise TitleError(bounds)
    problems = check_source(src, catalogue_tiles(), doc.positions) + check_mechanics(src, doc.positions)
    if not problems:  # (validate refuses what compile would: an upgrade exception no rotation fits)
        problems = _check_exceptions(src, {**catalogue_tiles(), **src.tiles}, doc.positions)
    if not problems:
        playable = check_playable(src, catalogue_tiles(), doc.positions)
        problems = playable.lines
        if warnings is not None:
            warnings.extend(playable.warnings)
    if problems:
        raise TitleError(problems)
    return src


def _check_exceptions(src: GameSource, pool: dict[str, Tile], positions: Positions) -> list[str]:
    lines = []
    for i, exc in enumerate(src.tile_rules.exceptions):
        if exc.forbid:
            continue
        for t in exc.tiles:
            old = _track(src.map.hexes[t[4:]]) if t.startswith("hex:") and src.map.hexes.get(t[4:]) else None
            if old is None and t in pool:
                old = _track(pool[t])
            for u in exc.to:
                if (
                    old is not None
                    and u in pool
                    and not upgrade_rotations(old, 0, _track(pool[u]), town_to_city=True, injective=False)
                ):
                    lines.append(
                        f"{positions.find(('tile_rules', 'exceptions', i))}: tile_rules.exceptions.{i}: "
                        f"'{u}' does not keep the track of '{t}' under any rotation"
                    )
    return lines


def build_rulebook(title: str | Path) -> dict[str, Any]:
    """Load, validate and resolve a title (with its options) into rulebook data."""
    doc = load_title(title)
    src = check(doc)
    catalogue = catalogue_tiles()
    book = resolve(src, catalogue)
    base_data = {k: v for k, v in doc.data.items() if k != "options"}
    for name, option in src.options.items():
        merged = deep_merge(base_data, option.overlay)
        variant = resolve(GameSource.model_validate(merged), catalogue)
        book["options"][name] = {
            "description": option.description,
            "default": option.default,
            **({"site_before": option.site_before.isoformat()} if option.site_before else {}),
            **({"excludes": list(option.excludes)} if option.excludes else {}),
            "patch": merge_patch_diff({**book, "options": {}}, variant),
        }
    Rulebook.model_validate(book)
    return book


def compile_title(title: str | Path, out_dir: Path) -> Path:
    """Compile one title to ``out_dir/<title>/rulebook.json``; returns the path written."""
    book = build_rulebook(title)
    return write_inside(out_dir, book["title"], "rulebook.json", data=dump_json(book))
