"""What a bot reads from a game: prices, trains, what a company owes and earns (engine state, rule data)."""

from __future__ import annotations

from typing import Any

DEPOT = "depot"


def share_price(game: Any, sym: str) -> int:
    """A corporation's market price (its par price before it has one; 0 when it has neither)."""
    from railbook.engine.market import price_at

    corp = game.state.corporations[sym]
    cell = corp.price or corp.par
    return int(price_at(game.context, cell)) if cell else 0


def par_price(game: Any, sym: str) -> int:
    """A corporation's par price (0 before it has one)."""
    from railbook.engine.market import price_at

    corp = game.state.corporations[sym]
    return int(price_at(game.context, corp.par)) if corp.par else 0


def par_value(share_price_field: Any) -> int:
    """The price in a ``par`` action's ``share_price`` ("68,5,6": price, row, column) or a plain number."""
    if isinstance(share_price_field, int | float):
        return int(share_price_field)
    text = str(share_price_field).split(",")[0]
    return int(text) if text.lstrip("-").isdigit() else 0


def corp_spec(game: Any, sym: str) -> dict[str, Any]:
    return (game.rulebook.get("corporations") or {}).get(sym) or {}


def float_percent(game: Any, sym: str) -> int:
    return int(corp_spec(game, sym).get("float_percent") or 60)


def president_percent(game: Any, sym: str) -> int:
    shares = corp_spec(game, sym).get("shares") or [20]
    return int(shares[0])


def operator_key(game: Any, sym: str) -> str:
    return f"C|{sym}" if sym in game.state.corporations else f"M|{sym}"


def next_depot_train(game: Any) -> tuple[str, int] | None:
    """The depot's next train: (base name, price)."""
    for tid in game.state.depot:
        t = game.state.trains.get(tid)
        if t is not None and t.owner == DEPOT:
            spec = game.context.book.trains.get(t.sym) or {}
            return t.sym, int(spec.get("price") or 0)
    return None


def lasting(game: Any, tid: str) -> bool:
    """Whether a train will still run after the depot's next train is bought (it neither rusts nor is phased out
    on it, and has not already)."""
    t = game.state.trains.get(tid)
    if t is None or t.rusted or t.obsolete:
        return False
    nxt = next_depot_train(game)
    spec = game.context.book.trains.get(t.sym) or {}
    return nxt is None or nxt[0] not in (spec.get("rusts_on"), spec.get("obsolete_on"))


def live_trains(game: Any, key: str) -> list[str]:
    """The operator's trains that will still run after the depot's next train is bought."""
    return [tid for tid in game.context.entity_trains(key) if lasting(game, tid)]


def train_reserve(game: Any, key: str) -> int:
    """Cash an operator should keep for a train: the next depot train's price when it has no lasting train."""
    if live_trains(game, key):
        return 0
    nxt = next_depot_train(game)
    return nxt[1] if nxt else 0


def player_percent(game: Any, player: str, sym: str) -> int:
    """The percentage of ``sym`` that ``player`` holds."""
    ids = (game.state.holdings.get(f"P|{player}") or {}).get(sym) or []
    return sum(int(game.state.shares[s].percent) for s in ids)


def presided(game: Any, player: str) -> list[str]:
    """The corporations ``player`` is president of."""
    key = f"P|{player}"
    return [s for s, c in game.state.corporations.items() if c.owner == key and not c.closed]


def interest_due(game: Any, sym: str) -> int:
    """The interest a corporation's loans will cost this operating round (0 in a title without loans)."""
    if "loans" not in game.state.mechanics:
        return 0
    from railbook.engine.mechanics.loans import interest_rate, loans_of

    try:
        return int(interest_rate(game.context) * loans_of(game.context, sym))
    except (AttributeError, KeyError, TypeError):
        return 0


def loans_left(game: Any, sym: str) -> int:
    """Loans a corporation may still take by its cap and the bank's supply (0 in a title without loans)."""
    if "loans" not in game.state.mechanics:
        return 0
    from railbook.engine.mechanics.loans import loan_room

    try:
        return max(0, int(loan_room(game.context, sym, 0)))
    except (AttributeError, KeyError, TypeError):
        return 0


def cash_needed(game: Any, key: str) -> int:
    """Cash an operator should keep: a train when it has no lasting one, and its loans' interest."""
    return train_reserve(game, key) + interest_due(game, key[2:])
