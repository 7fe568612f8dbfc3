"""Semantic checks of a validated title: references resolve, geometry agrees, counts add up."""

from __future__ import annotations

from railbook.hexgrid import hex_xy, neighbours, opposite

from .errors import located
from .load import KeyPath, Positions
from .models import GameSource, Tile, homes_of


class Problems:
    """Collects located problems."""

    def __init__(self, positions: Positions):
        self.positions = positions
        self.lines: list[str] = []

    def add(self, path: KeyPath, message: str) -> None:
        dotted = ".".join(str(p) for p in path)
        self.lines.append(located(self.positions.find(path), dotted, message))


def check_source(src: GameSource, catalogue: dict[str, Tile], positions: Positions) -> list[str]:
    """Every semantic problem of the title, one located line each."""
    p = Problems(positions)
    hexes = src.map.hexes
    tiles = {**catalogue, **src.tiles}
    axes = src.map.axes or ({"x": "letter", "y": "number"} if src.map.layout == "flat" else None)
    axes = axes or {"x": "number", "y": "letter"}

    # hex coordinates must fit the layout's doubled grid
    seen_xy: dict[tuple[int, int], str] = {}
    for hex_id in hexes:
        x, y = hex_xy(hex_id, axes)
        if (x + y) % 2 != (src.map.parity == "odd"):
            p.add(
                ("map", "hexes", hex_id),
                f"hex {hex_id} is off the {src.map.layout} grid (x+y must be {src.map.parity})",
            )
        if (x, y) in seen_xy:
            p.add(("map", "hexes", hex_id), f"same position as {seen_xy[(x, y)]}")
        seen_xy[(x, y)] = hex_id

    # manifest and tiles
    for tile_id in src.manifest:
        if tile_id not in tiles:
            p.add(("manifest", tile_id), f"unknown tile '{tile_id}' (not in the title or games/common/tiles.yaml)")
    for tile_id in src.tiles:
        if tile_id not in src.manifest:
            p.add(("tiles", tile_id), f"tile '{tile_id}' is defined but not in the manifest")
    for i, exc in enumerate(src.tile_rules.exceptions):
        for t in [*exc.tiles, *exc.to]:
            if not t.startswith("hex:") and t not in src.manifest:
                p.add(("tile_rules", "exceptions", i), f"unknown tile '{t}'")
            if t.startswith("hex:") and t[4:] not in hexes:
                p.add(("tile_rules", "exceptions", i), f"unknown hex '{t[4:]}'")
        for h in exc.hexes or []:
            if h not in hexes:
                p.add(("tile_rules", "exceptions", i, "hexes"), f"unknown hex '{h}'")

    # hexes: references and borders agree with neighbours
    nbrs = neighbours(hexes, src.map.layout, axes)
    for hex_id, hx in hexes.items():
        if hx is None:
            continue
        base = ("map", "hexes", hex_id)
        for t in hx.upgrades_to or []:
            if t not in src.manifest:
                p.add((*base, "upgrades_to"), f"unknown tile '{t}'")
        if hx.blocked_by and hx.blocked_by not in src.privates:
            p.add((*base, "blocked_by"), f"unknown private '{hx.blocked_by}'")
        for j, border in enumerate(hx.borders):
            other = nbrs[hex_id].get(border.edge)
            if other is None or hexes[other] is None:
                continue
            twin = [b for b in hexes[other].borders if b.edge == opposite(border.edge)]
            if twin and (twin[0].type, twin[0].cost) != (border.type, border.cost):
                p.add((*base, "borders", j), f"border disagrees with {other} edge {opposite(border.edge)}")

    # companies
    phase_names = {ph.name for ph in src.phases}
    train_names = set(src.trains)
    for kind, table in (("corporations", src.corporations), ("minors", src.minors)):
        for sym, ent in table.items():
            for home in homes_of(ent):
                path = (kind, sym, "home")
                hx = hexes.get(home.hex)
                if home.hex not in hexes:
                    p.add(path, f"unknown hex '{home.hex}'")
                elif hx is None or len(hx.cities) <= home.city:
                    if not (hx and hx.color == "white" and home.city == 0 and not hx.towns and hx.cities):
                        p.add(path, f"home hex {home.hex} has no city {home.city}")
            dest = getattr(ent, "destination", None)
            if dest and dest not in hexes:
                p.add((kind, sym, "destination"), f"unknown hex '{dest}'")
            for h in getattr(ent, "coordinates_reserved", []):
                if h not in hexes:
                    p.add((kind, sym, "coordinates_reserved"), f"unknown hex '{h}'")
    for sym, priv in src.privates.items():
        if priv.minor and priv.minor not in src.minors:
            p.add(("privates", sym, "minor"), f"unknown minor '{priv.minor}'")
        for j, ab in enumerate(priv.abilities):
            for h in ab.hexes:
                if h not in hexes:
                    p.add(("privates", sym, "abilities", j, "hexes"), f"unknown hex '{h}'")
            for t in ab.tiles:
                if t not in src.manifest:
                    p.add(("privates", sym, "abilities", j, "tiles"), f"unknown tile '{t}'")
            if ab.corporation and ab.corporation not in src.corporations:
                p.add(("privates", sym, "abilities", j, "corporation"), f"unknown corporation '{ab.corporation}'")
        if priv.closes_on and priv.closes_on not in phase_names and priv.closes_on not in train_names:
            p.add(("privates", sym, "closes_on"), f"unknown phase or train '{priv.closes_on}'")

    # trains and phases
    for name, train in src.trains.items():
        for field in ("rusts_on", "obsolete_on"):
            ref = getattr(train, field)
            if (
                ref
                and ref not in train_names
                and not any(ref == v.name for t in src.trains.values() for v in t.variants)
            ):
                p.add(("trains", name, field), f"unknown train '{ref}'")
        if train.available_on and train.available_on not in phase_names:
            p.add(("trains", name, "available_on"), f"unknown phase '{train.available_on}'")
    variant_names = {v.name for t in src.trains.values() for v in t.variants}
    for i, ph in enumerate(src.phases):
        if ph.on and ph.on not in train_names and ph.on not in variant_names:
            p.add(("phases", i, "on"), f"unknown train '{ph.on}'")

    # players
    for n, setup in src.players.items():
        if isinstance(setup.cert_limit, dict) and src.cert_limit_by == "players":
            p.add(("players", n, "cert_limit"), "a table needs cert_limit_by: corporations")
        for t in setup.trains_removed:
            if t not in train_names:
                p.add(("players", n, "trains_removed"), f"unknown train '{t}'")
    for name, train in src.trains.items():
        if isinstance(train.count, dict):
            for n in train.count:
                if n not in src.players:
                    p.add(("trains", name, "count"), f"count for {n} players, who cannot play")
    return p.lines
