"""Station tokens: where a corporation may place one, what it costs, and placing it.

A corporation places its next unused token (the charter's price) in a connected city with a free slot
(its reserved slot, or an open unreserved one), at most one token per tile, once per turn.  Token
abilities of the corporation (``type: token``, ``hexes``, ``cost``; ``params.cost_if_unconnected`` lets
it place there without a connection) change the price in their hexes and are then used up.  A private's
token ability (``params.extra_token``) gives the owning corporation an extra token placed for free in its
hex/city, without a connection and without using the turn's token placement (``extra_action``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import abilities, board
from .errors import illegal
from .memo import memo
from .state import BANK, Token, ckey, kind_of, sym_of

if TYPE_CHECKING:
    from .context import Context
    from .state import Ability

try:
    import cython
except ImportError:  # (only the compiled build reads these declarations)
    from . import cython_shim as cython


def parse_city(g: Context, city_id: Any) -> tuple[str, int]:
    """``"E11-1-0"`` (printed tile) or ``"14-2-0"`` (laid tile copy) -> (hex, city index)."""
    text = str(city_id)
    try:
        prefix, idx = text.rsplit("-", 1)
        ci = int(idx)
    except ValueError:
        raise illegal("token.city", f"bad city id {city_id!r}") from None
    head = prefix.rsplit("-", 1)[0] if "-" in prefix else prefix
    if head in g.book.hexes:
        hs = g.state.hexes[head]
        if hs.tile is not None:
            raise illegal("token.city", f"city {city_id} is no longer on the map")
        hex_id = head
    else:
        hex_id = next((h for h, hs in g.state.hexes.items() if hs.tile_id == prefix), None)
        if hex_id is None:
            raise illegal("token.city", f"tile {prefix} of city {city_id} is not on the map")
    if ci >= len(g.state.hexes[hex_id].tokens):
        raise illegal("token.city", f"no city {ci} on {hex_id}")
    return hex_id, ci


def city_id(g: Context, hex_id: str, ci: int) -> str:
    hs = g.state.hexes[hex_id]
    return f"{hs.tile_id}-{ci}" if hs.tile_id else f"{hex_id}-0-{ci}"


def token_abilities(g: Context, corp: str, hex_id: str, ci: int) -> list[tuple[str, Ability]]:
    out = []
    for owner, a in g.abilities_of(corp):
        if a.type != "token":
            continue
        if hex_id not in (a.spec.get("hexes") or []):
            continue
        city = (a.spec.get("params") or {}).get("city")
        if city is not None and int(city) != ci:
            continue
        if kind_of(owner) == "X" and not abilities.usable(g, owner, a, passive_ok=False):
            continue
        out.append((owner, a))
    return out


def teleport_nodes(g: Context, corp: str) -> list[tuple[str, str]]:
    """Cities a corporation may token unconnected (token abilities with an unconnected price)."""
    out = []
    for owner, a in g.abilities_of(corp):
        if a.type == "token" and kind_of(owner) == "C" and "cost_if_unconnected" in (a.spec.get("params") or {}):
            for h in a.spec.get("hexes") or []:
                for ci in range(len(g.state.hexes[h].tokens)):
                    out.append((h, f"c{ci}"))
    return out


def tokenable(g: Context, corp: str, hex_id: str, ci: int) -> bool:
    """Whether ``corp`` could put a token in this city (slot free for it, not already in the tile, the hex not held
    for another corporation's home)."""
    hs = g.state.hexes[hex_id]
    if ci >= len(hs.tokens):
        return False
    if board.hex_tokened_by(g, hex_id, corp):
        return False
    if board.free_slot(g, hex_id, ci, corp) is None:
        return False
    return not home_holds_hex(g, corp, hex_id)


def home_holds_hex(g: Context, corp: str, hex_id: str) -> bool:
    """Another corporation's home on ``hex_id`` holds the whole hex (``home.whole_hex``) and is not placed yet: its
    reservation stands and it has no station there."""
    held: dict[str, list[str]] | None = g.cache.get("whole_hex_homes")
    if held is None:
        held = {}
        for sym, spec in g.book.corporations.items():
            homes = spec.get("home")
            for h in homes if isinstance(homes, list) else [homes] if homes else []:
                if h.get("whole_hex"):
                    held.setdefault(h["hex"], []).append(ckey(sym))
        g.cache["whole_hex_homes"] = held
    for other in held.get(hex_id, ()):
        if other == corp or board.hex_tokened_by(g, hex_id, other):
            continue
        for res in g.state.hexes[hex_id].reservations:
            if other in res:
                return True
    return False


def connected_city(g: Context, corp: str, hex_id: str, ci: int) -> bool:
    """Whether ``corp`` may place a station in this city by connection: its network reaches the city and a legal
    train route runs there from one of its stations (no track used twice, no city passed twice)."""
    name = f"c{ci}"
    return (hex_id, name) in board.network(g, corp).nodes and board.route_reaches_node(g, corp, hex_id, name)


@memo
@cython.locals(g="Context", n="str")
def can_token(g: Context, corp: str) -> bool:
    for h, n in teleport_nodes(g, corp):
        if tokenable(g, corp, h, board.city_index(n)):
            return True
    for h, n in board.network(g, corp).nodes:
        if n.startswith("c") and tokenable(g, corp, h, board.city_index(n)):
            if board.route_reaches_node(g, corp, h, n):
                return True
    return False


@memo
@cython.locals(g="Context")
def min_token_price(g: Context, corp: str) -> int | None:
    op = g.operator(corp)
    prices = [t.price for t in op.tokens if not t.used]
    if not prices:
        return None
    for owner, a in g.abilities_of(corp):
        if a.type == "token" and kind_of(owner) == "C":
            if a.spec.get("cost") is not None:
                prices.append(int(a.spec["cost"]))
            if "cost_if_unconnected" in (a.spec.get("params") or {}):
                prices.append(int(a.spec["params"]["cost_if_unconnected"]))
    return min(prices)


@cython.locals(g="Context")
def token_price(g: Context, corp: str, hex_id: str, ci: int) -> int | None:
    """What placing the next token in this city would cost ``corp`` (None: no token left)."""
    op = g.operator(corp)
    nxt = next((t for t in op.tokens if not t.used), None)
    for owner, a in token_abilities(g, corp, hex_id, ci):
        params = a.spec.get("params") or {}
        if kind_of(owner) == "X" and params.get("extra_token"):
            return 0 if a.spec.get("free") or a.spec.get("cost") is None else int(a.spec["cost"])
        if nxt is None:
            return None
        price = nxt.price
        if "cost_if_unconnected" in params:
            price = int(params["cost_if_unconnected"])
        if hex_id in reachable_hexes(g, corp) and a.spec.get("cost") is not None:
            price = int(a.spec["cost"])
        if a.spec.get("free"):
            price = 0
        return price
    return nxt.price if nxt else None


def reachable_hexes(g: Context, corp: str) -> set[str]:
    return board.network(g, corp).path_hexes()


@cython.locals(g="Context", token="Token")
def place(
    g: Context,
    corp: str,
    hex_id: str,
    ci: int,
    *,
    connected: bool = True,
    special: tuple[str, Ability] | None = None,
) -> int:
    """Validate and place a token of ``corp``; returns the price paid."""
    op = g.operator(corp)
    if board.hex_tokened_by(g, hex_id, corp):
        raise illegal("token.existing", f"{sym_of(corp)} already has a token on {hex_id}")
    if board.free_slot(g, hex_id, ci, corp) is None:
        raise illegal("token.slot", f"no token space for {sym_of(corp)} in {hex_id}")
    abil = [special] if special else token_abilities(g, corp, hex_id, ci)
    price = None
    token: Token | None = None
    used_ability = None
    for owner, a in abil:
        params = a.spec.get("params") or {}
        if kind_of(owner) == "X" and params.get("extra_token"):
            token = Token(price=0, extra=True)
            op.tokens.append(token)
            price = 0 if a.spec.get("free") or a.spec.get("cost") is None else int(a.spec["cost"])
        else:
            nxt = next((t for t in op.tokens if not t.used), None)
            if nxt is None:
                raise illegal("token.none", f"{sym_of(corp)} has no token left")
            token = nxt
            price = nxt.price
            if "cost_if_unconnected" in params:
                price = int(params["cost_if_unconnected"])
            if hex_id in reachable_hexes(g, corp) and a.spec.get("cost") is not None:
                price = int(a.spec["cost"])
            if a.spec.get("free"):
                price = 0
        used_ability = (owner, a)
        break
    if token is None:
        token = next((t for t in op.tokens if not t.used), None)
        if token is None:
            raise illegal("token.none", f"{sym_of(corp)} has no token left")
        price = token.price
    extra_action = bool(used_ability and (used_ability[1].spec.get("params") or {}).get("extra_action"))
    unconnected_ok = bool(
        used_ability
        and (
            not used_ability[1].spec.get("connected", True)
            or (used_ability[1].spec.get("params") or {}).get("cost_if_unconnected") is not None
        )
    )
    if connected and not unconnected_ok:
        if not connected_city(g, corp, hex_id, ci):
            raise illegal(
                "token.connection", f"no legal route runs from {sym_of(corp)}'s stations to its city on {hex_id}"
            )
    if price and g.cash(corp) < price:
        if token.extra and token in op.tokens:
            op.tokens.remove(token)
        raise illegal("token.cash", f"{sym_of(corp)} cannot afford a {price} token")
    slot = board.free_slot(g, hex_id, ci, corp)
    hs = g.state.hexes[hex_id]
    hs.tokens[ci][slot] = corp
    for res in hs.reservations:
        for i, r in enumerate(res):
            if r == corp:
                res[i] = None
    token.used, token.hex, token.city = True, hex_id, ci
    if price:
        g.spend(corp, BANK, price)
    if used_ability is not None:
        owner, a = used_ability
        if kind_of(owner) == "X":
            # (applied to the owner's own placement, not placed by the private: no use of its own where it closes on
            # those only: private_companies.closes_after_own_use_only)
            g.use_ability(owner, a, special is not None or g.hooks("applied_use_counts", owner))
        else:
            g.remove_ability(owner, a)
    g.log(f"{sym_of(corp)} places a token on {hex_id} for {price or 0}")
    board.invalidate(g, {hex_id}, corp)
    if not extra_action:
        g.state.round.data["tokened"] = True
    return price or 0
