"""Acting controls: HTML forms for exactly the legal actions, from ``Game.legal_actions()``.

Every form names its action by its index in the legal actions of the game's current revision (``rev``), so an
action can only be one the interpreter offered; the open choices are inputs that allow only the values of their
ranges (the server checks them again with ``LegalAction.with_``).  Tile lays and station tokens are chosen on the
map: the hexes where they are legal are marked, and a click shows that hex's choices (:func:`hex_choices`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable
from typing import Any

from railbook.engine.game import Game
from railbook.engine.legal import IntRange, LegalAction, RoutesChoice
from railbook.engine.stations import parse_city

from .views import e, money

#: at most this many values make a drop-down list; more make a number field with min, max and step
SELECT_MAX = 40
ON_MAP = ("lay_tile", "place_token")


def csrf_token(seat_token: str, game_id: str) -> str:
    """The anti-forgery field of a seat's forms (a MAC of the game id under the seat's secret)."""
    return hmac.new(seat_token.encode(), f"csrf:{game_id}".encode(), hashlib.sha256).hexdigest()[:32]


def label(game: Game, la: LegalAction) -> str:
    """The words on an action's button."""
    f = la.fields
    t = la.type
    if t == "pass":
        return "Pass"
    if t == "bid":
        target = f.get("company") or f.get("corporation") or f.get("minor") or ""
        return f"Bid on {target}" if la.open else f"Choose {target}"
    if t == "par":
        price = str(f.get("share_price", "")).split(",")[0]
        return f"Par {f.get('corporation')} at {money(game, int(price)) if price.isdigit() else price}"
    if t == "buy_shares":
        shares = f.get("shares") or []
        pct = sum(game.state.shares[s].percent for s in shares if s in game.state.shares)
        corp = game.state.shares[shares[0]].corp if shares and shares[0] in game.state.shares else "?"
        owner = game.state.shares[shares[0]].owner if shares and shares[0] in game.state.shares else ""
        where = " from the pool" if owner == "pool" else " (IPO)" if owner.startswith("C|") else ""
        return f"Buy {pct}% {corp}{where}"
    if t == "sell_shares":
        shares = f.get("shares") or []
        corp = game.state.shares[shares[0]].corp if shares and shares[0] in game.state.shares else "?"
        return f"Sell {f.get('percent')}% {corp}"
    if t == "buy_train":
        price = f" for {money(game, f['price'])}" if "price" in f else ""
        owner = game.state.trains[f["train"]].owner if f.get("train") in game.state.trains else ""
        frm = "" if owner in ("depot", "") else f" from {owner.split('|')[-1]}"
        return f"Buy a {f.get('variant') or f.get('train')} train{frm}{price}"
    if t == "buy_company":
        return f"Buy {f.get('company')}"
    if t == "dividend":
        return {"payout": "Pay out", "withhold": "Withhold", "half": "Pay half"}.get(
            str(f.get("kind")), str(f.get("kind"))
        )
    if t == "assign":
        return f"Assign to {f.get('target')}"
    if t == "place_token":
        return f"Station in {city_name(game, f.get('city'))}"
    if t == "lay_tile":
        return f"Tile {f.get('tile')} on {f.get('hex')}"
    if t == "run_routes":
        return "Run routes"
    words = t.replace("_", " ").capitalize()
    rest = ", ".join(f"{k} {v}" for k, v in f.items() if not isinstance(v, list | dict))
    return f"{words} {rest}".strip()


def _choice_input(name: str, allowed: IntRange, game: Game) -> str:
    values = allowed.values()
    if len(values) <= SELECT_MAX:
        opts = "".join(f'<option value="{v}">{money(game, v)}</option>' for v in values)
        return f'<select name="{e(name)}" aria-label="{e(name)}">{opts}</select>'
    return (
        f'<input type="number" name="{e(name)}" aria-label="{e(name)}" required min="{allowed.min}" '
        f'max="{allowed.max}" step="{allowed.step}" value="{allowed.min}">'
    )


def action_key(la: LegalAction) -> str:
    """A legal action's type, entity and fixed fields as one string (``data-key`` of its form: for tests, bots
    and user scripts)."""
    return json.dumps([la.type, la.entity, dict(sorted(la.fields.items()))], separators=(",", ":"), sort_keys=True)


def form(game_id: str, csrf: str, rev: int, index: int, body: str, button: str, cls: str = "", key: str = "") -> str:
    """One action form (posted by JavaScript, or as a plain form without it)."""
    data = f' data-key="{e(key)}"' if key else ""
    return (
        f'<form class="act {cls}"{data} method="post" action="/games/{e(game_id)}/act">'
        f'<input type="hidden" name="csrf" value="{e(csrf)}"><input type="hidden" name="rev" value="{rev}">'
        f'<input type="hidden" name="pick" value="{index}">{body}<button type="submit">{button}</button></form>'
    )


def routes_form(
    game: Game, game_id: str, csrf: str, rev: int, index: int, best: dict[str, Any] | None, key: str = ""
) -> str:
    """The optimiser's best routes for the operating company, with one box per train to run it or not."""
    hidden = '<input type="hidden" name="routes" value="best">'
    if best is None:
        return form(game_id, csrf, rev, index, hidden, "Run routes", "run_routes", key)
    rows = []
    for i, route in enumerate(best["routes"]):
        stops = " – ".join(str(s) for s in route.get("stops") or route.get("hexes") or [])
        rows.append(
            f'<label class="route r{i % 6}"><input type="checkbox" name="train" value="{e(route["train"])}" checked> '
            f"{e(route['train'])}: {e(stops)} = {money(game, int(route.get('revenue', 0)))}</label>"
        )
    total = money(game, int(best["total"]))
    body = (
        f'{hidden}<input type="hidden" name="trains_listed" value="1">'
        f'<div class="routes">{"".join(rows) or "no route"}</div>'
        f"<p>Best total {total} (exact optimiser, {e(best.get('ms', 0))} ms)</p>"
    )
    change = json.dumps(
        [{"train": r["train"], "connections": r["connections"]} for r in best["routes"]], separators=(", ", ": ")
    )
    edit = (
        '<input type="hidden" name="routes" value="custom"><p class="hint">One object per train: the train and the '
        "hexes of each stretch between two stops (18xx.games <code>connections</code>); the rules check them.</p>"
        f'<textarea name="custom_routes" rows="5" aria-label="routes">{e(change)}</textarea>'
    )
    return (
        form(game_id, csrf, rev, index, body, "Run these routes", "run_routes", key)
        + '<details class="change-routes"><summary>Change the routes</summary>'
        + form(game_id, csrf, rev, index, edit, "Run my routes", "run_routes custom")
        + "</details>"
    )


def hex_marks(game: Game, legal: Iterable[LegalAction]) -> dict[str, str]:
    """CSS classes per hex: ``lay`` where a tile may be laid, ``token`` where a token may be placed."""
    marks: dict[str, set[str]] = {}
    for la in legal:
        if la.type == "lay_tile" and "hex" in la.fields:
            marks.setdefault(str(la.fields["hex"]), set()).add("lay")
        elif la.type == "place_token" and "city" in la.fields:
            hex_id = city_hex(game, la.fields["city"])
            if hex_id:
                marks.setdefault(hex_id, set()).add("token")
    return {h: " ".join(sorted(v)) for h, v in marks.items()}


def city_name(game: Game, city: Any) -> str:
    """A city as a player reads it: the hex's name and, where the hex has several, which city."""
    try:
        hex_id, index = parse_city(game.context, city)
    except Exception:  # (a city id the board does not know: shown as it is)
        return str(city)
    hx = game.rulebook["hexes"].get(hex_id) or {}
    hs = game.state.hexes.get(hex_id)
    count = len(hs.tokens) if hs is not None else len(hx.get("cities") or [])
    name = f"{hx.get('name')} ({hex_id})" if hx.get("name") else hex_id
    return f"{name}, city {index + 1} of {count}" if count > 1 else name


def city_hex(game: Game, city: Any) -> str | None:
    try:
        return parse_city(game.context, city)[0]
    except Exception:  # (a city id the board does not know: shown in the list instead)
        return None


def controls_html(
    game: Game,
    game_id: str,
    legal: list[LegalAction],
    allowed: set[int],
    csrf: str,
    rev: int,
    best: dict[str, Any] | None,
) -> str:
    """The acting panel: a form per allowed legal action (map actions summarised; click the map)."""
    parts: list[str] = []
    on_map = {t: 0 for t in ON_MAP}
    for i, la in enumerate(legal):
        if i not in allowed:
            continue
        if la.type in ON_MAP:
            on_map[la.type] += 1
            continue
        if la.type == "run_routes":
            parts.append(routes_form(game, game_id, csrf, rev, i, best, action_key(la)))
            continue
        body = "".join(
            f"<label>{e(name)} {_choice_input(name, rng, game)}</label>"
            for name, rng in la.open.items()
            if isinstance(rng, IntRange)
        )
        if any(isinstance(v, RoutesChoice) for v in la.open.values()):
            continue
        who = f'<span class="who">{e(la.entity)}</span> ' if la.entity_type != "player" else ""
        parts.append(form(game_id, csrf, rev, i, body, who + e(label(game, la)), la.type, action_key(la)))
    hints = []
    if on_map["lay_tile"]:
        hints.append('<p class="hint lay">Lay a tile: click a <b>highlighted</b> hex on the map.</p>')
    if on_map["place_token"]:
        hints.append('<p class="hint token">Place a station token: click a <b>ringed</b> hex on the map.</p>')
    return "".join(hints) + "".join(parts)


def hex_choices(
    game: Game, game_id: str, hex_id: str, legal: list[LegalAction], allowed: set[int], csrf: str, rev: int
) -> str:
    """The tile lays (each tile turned as it may lie, drawn) and station tokens legal on one hex."""
    from .tiles import tile_preview

    lays, tokens = [], []
    for i, la in enumerate(legal):
        if i not in allowed:
            continue
        if la.type == "lay_tile" and la.fields.get("hex") == hex_id:
            tile_id = str(la.fields.get("tile"))
            name = tile_id.rsplit("-", 1)[0] if tile_id not in game.rulebook["tiles"] else tile_id
            art = tile_preview(game.rulebook, name, int(la.fields.get("rotation", 0)))
            text = f"{art}<span>{e(name)} ↻{e(la.fields.get('rotation', 0))}</span>"
            lays.append(form(game_id, csrf, rev, i, "", text, "tile", action_key(la)))
        elif la.type == "place_token" and city_hex(game, la.fields.get("city")) == hex_id:
            text = f"{e(la.entity)}: station in {e(city_name(game, la.fields.get('city')))}"
            tokens.append(form(game_id, csrf, rev, i, "", text, "token", action_key(la)))
    if not lays and not tokens:
        return f'<p class="hint">Nothing to do on {e(hex_id)}.</p>'
    head = f"<h3>{e(hex_id)}</h3>"
    return head + (f'<div class="tiles">{"".join(lays)}</div>' if lays else "") + "".join(tokens)
