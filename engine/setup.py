"""Building the initial state of a game from its book (rulebook + options)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import board, rounds
from .errors import EngineError
from .state import (
    BANK,
    DEPOT,
    Ability,
    Company,
    Corporation,
    GameState,
    Minor,
    Player,
    Share,
    Token,
    Train,
    ckey,
    mkey,
    pkey,
)

if TYPE_CHECKING:
    from .book import Book
    from .context import Context


def make_ability(spec: dict[str, Any]) -> Ability:
    return Ability(type=spec["type"], spec=spec, count=spec.get("count"))


def _player_records(players: list[Any]) -> list[tuple[str, str]]:
    out = []
    for p in players:
        if isinstance(p, dict):
            pid = p.get("id", p.get("name"))
            out.append((str(pid), str(p.get("name", pid))))
        else:
            out.append((str(p), str(p)))
    ids = [i for i, _ in out]
    if len(set(ids)) != len(ids):
        raise EngineError("player ids must be unique")
    return out


def new_game(cls: type[Context], book: Book, players: list[Any], seed: int) -> Context:
    recs = _player_records(players)
    n = len(recs)
    setup = book.players_setup(n)
    bank = setup["bank"]
    state = GameState(
        title=book.title,
        options=list(book.options),
        seed=int(seed),
        players=[Player(pid, name) for pid, name in recs],
        player_ids=[pid for pid, _ in recs],
        cash={BANK: 10**9 if bank == "unlimited" else int(bank)},
        corporations={},
        minors={},
        companies={},
        shares={},
        holdings={},
        market={},
        trains={},
        depot=[],
        discarded=[],
        hexes={},
        tiles_out={},
    )
    for pid, _ in recs:
        state.cash[pkey(pid)] = 0
    g = cls(book, state)
    for pid, _ in recs:
        g.spend(BANK, pkey(pid), int(setup["cash"]))
    _init_corporations(g)
    _init_minors(g)
    _init_companies(g)
    _init_trains(g, n)
    state.hexes = board.init_hexes(g)
    _init_reservations(g)
    state.operating_rounds = int(g.phase_spec().get("operating_rounds", 1))
    state.corp_order = list(book.corporations)
    for sym in setup.get("privates_removed") or []:  # components not in play at this player count
        from .closing import close_company  # (loaded here, when first needed)

        close_company(g, sym)
        state.companies[sym].removed = True
        g.hooks("company_removed", sym)
    g.hooks("setup")
    g.hooks("update_cert_limit")
    rounds.start_first_round(g)
    return g


def copy_json(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, scalars), as ``copy.deepcopy`` makes it but without its bookkeeping
    (a rulebook's ability specs are copied into every new game)."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value


def _init_corporations(g: Context) -> None:
    for sym, spec in g.book.corporations.items():
        corp = Corporation(sym=sym)
        corp.tokens = [Token(price=int(p)) for p in spec.get("tokens") or []]
        corp.abilities = [make_ability(copy_json(a)) for a in spec.get("abilities") or []]
        g.state.corporations[sym] = corp
        g.state.cash[ckey(sym)] = 0
        key = ckey(sym)
        ids = []
        for i, pct in enumerate(spec.get("shares") or [20] + [10] * 8):
            sid = f"{sym}_{i}"
            g.state.shares[sid] = Share(sid, sym, i, int(pct), i == 0, key)
            ids.append(sid)
        g.state.holdings.setdefault(key, {})[sym] = ids


def _init_minors(g: Context) -> None:
    for sym, spec in g.book.minors.items():
        m = Minor(sym=sym)
        m.tokens = [Token(price=int(p)) for p in spec.get("tokens") or [0]]
        g.state.minors[sym] = m
        g.state.cash[mkey(sym)] = 0


def _init_companies(g: Context) -> None:
    for sym, spec in g.book.privates.items():
        c = Company(sym=sym, value=int(spec.get("value") or 0))
        rev = spec.get("revenue") or 0
        c.revenue = int(rev) if isinstance(rev, int) else int(min(rev.values()))
        c.abilities = [make_ability(copy_json(a)) for a in spec.get("abilities") or []]
        lo, hi = g.hooks("company_price_range", c) or ((c.value + 1) // 2, c.value * 2)
        c.min_price, c.max_price = lo, hi
        g.state.companies[sym] = c


def _init_trains(g: Context, players: int) -> None:
    for name in g.book.train_order:
        count = g.book.train_count(name, players)
        copies = count if count is not None else g.hooks("unlimited_train_copies", name)
        for i in range(copies):
            tid = f"{name}-{i}"
            g.state.trains[tid] = Train(id=tid, sym=name, name=name, index=i, owner=DEPOT)
            g.state.depot.append(tid)


def _init_reservations(g: Context) -> None:
    """Home cities of corporations and reserved token spaces (abilities of type reservation)."""
    for sym, spec in g.book.corporations.items():
        homes = spec.get("home")
        if homes is None:
            continue
        for h in homes if isinstance(homes, list) else [homes]:
            board.reserve(g, h["hex"], int(h.get("city", 0)), None, ckey(sym))
    for sym, corp in g.state.corporations.items():
        for a in corp.abilities:
            if a.type == "reservation":
                _reserve_ability(g, ckey(sym), a)
    for sym, c in g.state.companies.items():
        for a in c.abilities:
            if a.type == "reservation":
                _reserve_ability(g, f"X|{sym}", a)


def _reserve_ability(g: Context, key: str, a: Ability) -> None:
    params = a.spec.get("params") or {}
    for h in a.spec.get("hexes") or []:
        board.reserve(g, h, int(params.get("city", 0)), params.get("slot"), key)
