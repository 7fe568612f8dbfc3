"""Playability checks: a design that validates but could not be played (errors) or may be a slip (warnings).

These run after the schema and reference checks (``checks.py``); they look at the title as a whole: money
adds up, every train, phase and labelled hex can be reached, homes fit, off-board track leads somewhere.
"""

from __future__ import annotations

import re
from collections import Counter

from railbook.hexgrid import default_axes, neighbours

from .checks import Problems
from .compile import _hex_upgrades
from .load import Positions
from .models import CELL_KINDS, GameSource, Tile, homes_of
from .suggest import suggestion

_CELL = re.compile(r"^(\d+)([a-z]*)$")


def check_playable(src: GameSource, catalogue: dict[str, Tile], positions: Positions) -> Problems:
    """Errors and warnings about whether the title can be played as written."""
    p = Problems(positions)
    _money(src, p)
    _market(src, p)
    _trains_and_phases(src, p)
    _homes(src, p)
    _map(src, {**catalogue, **src.tiles}, p)
    return p


def _money(src: GameSource, p: Problems) -> None:
    for n, setup in src.players.items():
        if setup.bank != "unlimited" and n * setup.cash > setup.bank:
            p.add(
                ("players", n, "bank"),
                f"a bank of {setup.bank} cannot pay {n} players {setup.cash} each ({n * setup.cash})",
            )
    for sym, priv in src.privates.items():
        if priv.value == 0:
            p.warn(("privates", sym, "value"), "value is 0: the private is given away")
    if not src.end:
        p.warn(("end",) if "end" in p.positions.table else (), "no end trigger: the game can only end by bankruptcy")


def _market(src: GameSource, p: Problems) -> None:
    market = src.market
    prices: set[int] = set()
    par_marked = False
    for r, row in enumerate(market.rows):
        bad: list[str] = []
        for c, token in enumerate(row.split()):
            if token == ".":
                continue
            m = _CELL.match(token)
            if not m:
                bad.append(f"cell {c} {token!r} is not a price followed by legend letters")
                continue
            prices.add(int(m.group(1)))
            for letter in m.group(2):
                if letter not in market.legend:
                    bad.append(f"cell {c} {token!r}: letter {letter!r} is not in the legend")
                elif market.legend[letter] == "par":
                    par_marked = True
        for message in bad:
            p.add(("market", "rows", r), message)
    for letter, kind in market.legend.items():
        if kind not in CELL_KINDS:
            p.add(("market", "legend", letter), f"unknown cell kind '{kind}'{suggestion(kind, CELL_KINDS)}")
    if market.type == "1d" and len(market.rows) != 1:
        p.add(("market", "type"), f"a 1d market has exactly one row, not {len(market.rows)}")
    for k, price in enumerate(market.par_prices or []):
        if price not in prices:
            near = sorted(prices, key=lambda x: (abs(x - price), x))[:1]
            hint = f" (nearest cell: {near[0]})" if near else ""
            p.add(("market", "par_prices", k), f"par value {price} is not a market cell{hint}")
    if not market.par_prices and not par_marked:
        p.add(("market",), "no par value: mark par cells with a legend letter of kind 'par' or list par_prices")


def _base_train(src: GameSource, name: str) -> str | None:
    """The train (card) a name belongs to: itself or the train one of whose variants it is."""
    if name in src.trains:
        return name
    return next((t for t, train in src.trains.items() if any(v.name == name for v in train.variants)), None)


def _for_sale(src: GameSource, name: str) -> bool:
    """Whether some player count leaves a copy of the train in the bank."""
    count = src.trains[name].count
    if count == "unlimited":
        return True
    table = count if isinstance(count, dict) else dict.fromkeys(src.players, count)
    return any(c - src.players[n].trains_removed.get(name, 0) > 0 for n, c in table.items() if n in src.players)


def _trains_and_phases(src: GameSource, p: Problems) -> None:
    order = list(src.trains)
    for name, train in src.trains.items():
        own = {name, *(v.name for v in train.variants)}
        for field in ("rusts_on", "obsolete_on"):
            ref = getattr(train, field)
            if ref in own:
                p.add(("trains", name, field), f"train '{name}' {field.replace('_', ' ')} itself: it would never run")
            elif ref and (base := _base_train(src, ref)) and order.index(base) < order.index(name):
                p.warn(
                    ("trains", name, field),
                    f"'{ref}' is sold before '{name}': '{name}' is already out of date when it goes on sale",
                )
        if not _for_sale(src, name):
            p.warn(("trains", name, "count"), f"no '{name}' train is ever for sale")
    phase_of = {ph.name: i for i, ph in enumerate(src.phases)}
    last: tuple[int, str] | None = None
    for i, ph in enumerate(src.phases):
        if ph.on is None:
            if i > 0:
                p.warn(("phases", i), f"phase {ph.name} has no 'on' train: no purchase starts it")
            continue
        base = _base_train(src, ph.on)
        if base is None:
            continue  # an unknown train is reported by the reference checks
        at = order.index(base)
        if last is not None and at <= last[0]:
            p.add(
                ("phases", i, "on"),
                f"phase {ph.name} starts on train '{ph.on}', which is sold no later than '{last[1]}' "
                "(the previous phase's train): the phases would start out of order",
            )
        last = (at, ph.on)
    starts = {_base_train(src, ph.on): i for i, ph in enumerate(src.phases) if ph.on}
    for name, train in src.trains.items():
        if train.available_on in phase_of:
            opener = src.phases[phase_of[train.available_on]].on
            opener_base = _base_train(src, opener) if opener else None
            if opener_base and order.index(opener_base) > order.index(name) and name not in starts:
                p.warn(
                    ("trains", name, "available_on"),
                    f"phase {train.available_on} starts with train '{opener}', sold after '{name}': "
                    f"'{name}' may block the trains behind it",
                )
    types = sorted({c.type for c in src.corporations.values() if c.type} | {"default"})
    for i, ph in enumerate(src.phases):
        if isinstance(ph.train_limit, dict):
            for kind in ph.train_limit:
                if kind not in types:
                    p.warn(
                        ("phases", i, "train_limit", kind),
                        f"no corporation has type '{kind}'{suggestion(kind, types)}: the limit applies to none",
                    )


def _homes(src: GameSource, p: Problems) -> None:
    hexes = src.map.hexes
    used: Counter[tuple[str, int]] = Counter()
    for kind, table in (("corporations", src.corporations), ("minors", src.minors)):
        for sym, ent in table.items():
            homes = homes_of(ent)
            path = (kind, sym, "tokens")
            if homes and not ent.tokens:
                p.add(path, f"{sym} has a home but no tokens: it cannot place its home station")
            elif len(homes) > len(ent.tokens):
                p.add(path, f"{sym} has {len(homes)} homes but only {len(ent.tokens)} tokens")
            for k, home in enumerate(homes):
                hx = hexes.get(home.hex)
                if hx is None or home.city >= len(hx.cities):
                    continue  # reported by the reference checks
                used[(home.hex, home.city)] += 1
                slots = hx.cities[home.city].slots
                if used[(home.hex, home.city)] > slots:
                    where = (kind, sym, "home", k) if isinstance(ent.home, list) else (kind, sym, "home")
                    p.add(where, f"city {home.city} of {home.hex} has {slots} slot(s), too few for every home there")
            dest = getattr(ent, "destination", None)
            hx = hexes.get(dest) if dest else None
            if dest in hexes and (hx is None or not (hx.cities or hx.towns or hx.offboards)):
                p.warn((kind, sym, "destination"), f"destination {dest} has no city, town or off-board to reach")


def _map(src: GameSource, pool: dict[str, Tile], p: Problems) -> None:
    hexes = src.map.hexes
    axes = dict(src.map.axes or default_axes(src.map.layout))
    nbrs = neighbours(hexes, src.map.layout, axes)
    order = src.tile_rules.colour_order
    labels = {pool[t].label for t in src.manifest if t in pool}
    conditional = {
        h
        for exc in src.tile_rules.exceptions
        if not exc.forbid
        for h in [*(exc.hexes or []), *(t[4:] for t in exc.tiles if t.startswith("hex:"))]
    }
    colours = {c for ph in src.phases for c in ph.tiles}
    for tile_id in src.manifest:
        tile = pool.get(tile_id)
        if tile is not None and tile.color not in colours:
            p.warn(("manifest", tile_id), f"no phase allows {tile.color} tiles: tile '{tile_id}' is never laid")
    for hex_id, hx in hexes.items():
        if hx is None:
            continue
        base = ("map", "hexes", hex_id)
        for k, path in enumerate(hx.paths):
            for end in (path.a, path.b):
                if end.isdigit() and int(end) not in nbrs[hex_id]:
                    # an off-board's track must come from the map; elsewhere a stub to the edge may be meant
                    p.add(
                        (*base, "paths", k),
                        f"path {path.a}-{path.b} leaves by edge {end}, which leads off the map "
                        f"(edges with a neighbour: {', '.join(str(e) for e in sorted(nbrs[hex_id])) or 'none'})",
                        warning=not hx.offboards,
                    )
        special = hx.label or hx.cities or hx.towns or hx.paths
        upgradable_colour = hx.color == "white" or hx.color in order[:-1]
        if not special or not upgradable_colour or hx.upgrades_to is not None or hex_id in conditional:
            continue
        if _hex_upgrades(hx, src, pool, hex_id):
            continue
        if hx.label and hx.label not in labels:
            p.add(
                (*base, "label"),
                f"no tile in the manifest has label '{hx.label}': the hex can never be upgraded"
                f"{suggestion(hx.label, sorted(x for x in labels if x))}",
            )
        else:
            p.warn(base, f"no tile in the manifest can be laid on {hex_id}: it can never be upgraded")
