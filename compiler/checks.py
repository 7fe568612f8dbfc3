"""Semantic checks of a validated title: references resolve, geometry agrees, counts add up."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from railbook.hexgrid import hex_xy, neighbours, opposite

from .errors import located
from .load import KeyPath, Positions
from .models import GameSource, Tile, homes_of
from .suggest import unknown


class Problems:
    """Collects located errors and warnings."""

    def __init__(self, positions: Positions):
        self.positions = positions
        self.lines: list[str] = []
        self.warnings: list[str] = []

    def add(self, path: KeyPath, message: str, warning: bool = False) -> None:
        dotted = ".".join(str(p) for p in path)
        line = located(self.positions.find(path), dotted, f"warning: {message}" if warning else message)
        (self.warnings if warning else self.lines).append(line)

    def warn(self, path: KeyPath, message: str) -> None:
        self.add(path, message, warning=True)

    def unknown(self, path: KeyPath, kind: str, name: object, choices: Iterable[object]) -> None:
        """An unknown reference, with the nearest valid name suggested."""
        self.add(path, unknown(kind, name, choices))


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
            hint = unknown("tile", tile_id, tiles)
            p.add(("manifest", tile_id), f"{hint}: not in the title's tiles or games/common/tiles.yaml")
    for tile_id in src.tiles:
        if tile_id not in src.manifest:
            p.add(("tiles", tile_id), f"tile '{tile_id}' is defined but not in the manifest")
    for i, exc in enumerate(src.tile_rules.exceptions):
        for field in ("tiles", "to"):
            for k, t in enumerate(getattr(exc, field)):
                path = ("tile_rules", "exceptions", i, field, k)
                if not t.startswith("hex:") and t not in src.manifest:
                    p.unknown(path, "tile", t, src.manifest)
                if t.startswith("hex:") and t[4:] not in hexes:
                    p.unknown(path, "hex", t[4:], hexes)
        for k, h in enumerate(exc.hexes or []):
            if h not in hexes:
                p.unknown(("tile_rules", "exceptions", i, "hexes", k), "hex", h, hexes)

    # hexes: references and borders agree with neighbours
    nbrs = neighbours(hexes, src.map.layout, axes)
    for hex_id, hx in hexes.items():
        if hx is None:
            continue
        base = ("map", "hexes", hex_id)
        for k, t in enumerate(hx.upgrades_to or []):
            if t not in src.manifest:
                p.unknown((*base, "upgrades_to", k), "tile", t, src.manifest)
        if hx.blocked_by and hx.blocked_by not in src.privates:
            p.unknown((*base, "blocked_by"), "private", hx.blocked_by, src.privates)
        for j, border in enumerate(hx.borders):
            other = nbrs[hex_id].get(border.edge)
            if other is None or hexes[other] is None:
                continue
            twin = [b for b in hexes[other].borders if b.edge == opposite(border.edge)]
            if twin and (twin[0].type, twin[0].cost) != (border.type, border.cost):
                p.add((*base, "borders", j), f"border disagrees with {other} edge {opposite(border.edge)}")

    # companies
    phase_names = [ph.name for ph in src.phases]
    train_names = list(src.trains)
    variant_names = [v.name for t in src.trains.values() for v in t.variants]
    for kind, table in (("corporations", src.corporations), ("minors", src.minors)):
        for sym, ent in table.items():
            for k, home in enumerate(homes_of(ent)):
                path = (kind, sym, "home", k) if isinstance(ent.home, list) else (kind, sym, "home")
                hx = hexes.get(home.hex)
                if home.hex not in hexes:
                    p.unknown(path, "hex", home.hex, hexes)
                elif hx is None or len(hx.cities) <= home.city:
                    if not (hx and hx.color == "white" and home.city == 0 and not hx.towns and hx.cities):
                        p.add(path, f"home hex {home.hex} has no city {home.city}")
            dest = getattr(ent, "destination", None)
            if dest and dest not in hexes:
                p.unknown((kind, sym, "destination"), "hex", dest, hexes)
            for k, h in enumerate(getattr(ent, "coordinates_reserved", [])):
                if h not in hexes:
                    p.unknown((kind, sym, "coordinates_reserved", k), "hex", h, hexes)
    owners: list[tuple[str, dict[str, Any]]] = [
        ("privates", src.privates),
        ("corporations", src.corporations),
        ("minors", src.minors),
    ]
    for kind, table in owners:
        for sym, ent in table.items():
            for j, ab in enumerate(ent.abilities):
                base = (kind, sym, "abilities", j)
                for k, h in enumerate(ab.hexes):
                    if h not in hexes:
                        p.unknown((*base, "hexes", k), "hex", h, hexes)
                for k, t in enumerate(ab.tiles):
                    if t not in src.manifest:
                        p.unknown((*base, "tiles", k), "tile", t, src.manifest)
                if ab.corporation and ab.corporation not in src.corporations:
                    p.unknown((*base, "corporation"), "corporation", ab.corporation, src.corporations)
    for sym, priv in src.privates.items():
        if priv.minor and priv.minor not in src.minors:
            p.unknown(("privates", sym, "minor"), "minor", priv.minor, src.minors)
        if priv.closes_on and priv.closes_on not in phase_names and priv.closes_on not in train_names:
            p.unknown(("privates", sym, "closes_on"), "phase or train", priv.closes_on, phase_names + train_names)

    _check_ability_rules(src, p)

    # trains and phases
    for name, train in src.trains.items():
        for field in ("rusts_on", "obsolete_on"):
            ref = getattr(train, field)
            if ref and ref not in train_names and ref not in variant_names:
                p.unknown(("trains", name, field), "train", ref, train_names + variant_names)
        if train.available_on and train.available_on not in phase_names:
            p.unknown(("trains", name, "available_on"), "phase", train.available_on, phase_names)
    for i, ph in enumerate(src.phases):
        if ph.on and ph.on not in train_names and ph.on not in variant_names:
            p.unknown(("phases", i, "on"), "train", ph.on, train_names + variant_names)
    for name in src.site.phase_names:
        if name not in phase_names:
            p.unknown(("site", "phase_names", name), "phase", name, phase_names)

    # players
    for n, setup in src.players.items():
        if isinstance(setup.cert_limit, dict) and src.cert_limit_by == "players":
            p.add(("players", n, "cert_limit"), "a table needs cert_limit_by: corporations")
        for t in setup.trains_removed:
            if t not in train_names:
                p.unknown(("players", n, "trains_removed", t), "train", t, train_names)
        for k, sym in enumerate(setup.privates_removed):
            if sym not in src.privates:
                p.unknown(("players", n, "privates_removed", k), "private", sym, src.privates)
    for name, train in src.trains.items():
        if isinstance(train.count, dict):
            for n in train.count:
                if n not in src.players:
                    p.add(("trains", name, "count", n), f"count for {n} players, who cannot play")
    return p.lines


#: Every timing word (`when:`) an ability may have; docs/FORMAT.md explains each.
TIMING_WORDS = (
    "track",
    "token",
    "par",
    "owning_corp_or_turn",
    "or_start",
    "any",
    "stock_round",
    "owning_player_sr_turn",
    "owning_player_or_turn",
    "owning_player_track",
    "owning_player_or_sr_turn",
    "bought_train",
    "sold",
)


def needed_mechanic(ab: object) -> str | None:
    """The mechanic whose rules play an ability, when it is one a title switches on by name."""
    kind = getattr(ab, "type", None)
    when = getattr(ab, "when", None)
    params = getattr(ab, "params", None)
    if kind in ("exchange", "teleport"):
        return str(kind)
    random_president = kind == "shares" and getattr(params, "random", None)
    if kind == "train" or (kind == "close" and when == "bought_train") or random_president:
        return "private_abilities"
    return None


def _check_ability_rules(src: GameSource, p: Problems) -> None:
    """Abilities name a known timing word, and the mechanic that plays them is switched on."""
    owners = [("privates", src.privates), ("corporations", src.corporations), ("minors", src.minors)]
    for kind, table in owners:
        for sym, ent in table.items():
            for j, ab in enumerate(getattr(ent, "abilities", [])):
                base = (kind, sym, "abilities", j)
                if ab.when is not None and ab.when not in TIMING_WORDS:
                    p.unknown((*base, "when"), "timing word", ab.when, TIMING_WORDS)
                needed = needed_mechanic(ab)
                if needed and getattr(src.mechanics, needed, None) is None:
                    p.add(
                        (*base, "type"), f"this {ab.type} ability is played by mechanic {needed}: add `{needed}: {{}}`"
                    )
