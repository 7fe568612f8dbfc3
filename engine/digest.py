"""A canonical digest of a game's state after every action, for differential play against other engines.

The format is the reference harness's (``docs/CONFORMANCE.md``): one JSON object per processed action with
the acting entities and the action types each may take, money, share prices and holdings, trains, tokens,
companies' owners, tiles, phase, round and turn; then a final ``{"game_end_reason", "result"}`` object, or an
``{"error", "id"}`` object where an action is refused.  Keys are sorted at every level (``json.dumps(...,
sort_keys=True)``); ids are the record's (player ids, corporation, minor and company symbols, hex ids).

:func:`digest_stream` replays a record and yields the objects; :func:`digest` is the digest of one game state.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from . import rounds
from .errors import EngineError
from .game import Game
from .state import POOL, kind_of, sym_of
from .steps.base import step_actions_of, step_active, step_blocking

#: the interpreter's round kinds under the reference engine's round class names
ROUND_NAMES = {
    "stock": "Stock",
    "operating": "Operating",
    "draft": "Draft",
    "auction": "Auction",
    "initial": "Auction",
    "merger": "Merger",
    "acquisition": "Acquisition",
}

#: the cash of an unlimited bank at the start (``setup``): its digest is what it paid out, from 0
UNLIMITED_BANK = 10**9

#: action types left out of ``acting`` (meta actions, as the format says)
META = frozenset({"message", "log", "end_game", "undo", "redo"})


def holder_id(key: str | None) -> str | None:
    """A holder key as a digest id: players by id, companies by symbol, the pool ``market``; the bank None."""
    if key is None or key == "bank":
        return None
    if key == "pool":
        return "market"
    if key == "depot":
        return None
    return sym_of(key)


def round_name(g: Game) -> str:
    r = g.state.round
    if r is None:
        return ""
    return ROUND_NAMES.get(r.kind, r.kind[:1].upper() + r.kind[1:])


def acting(g: Game) -> dict[str, list[str]]:
    """Who may act and which action types each may take: for each active entity, what every active step up
    to the first that blocks offers it."""
    ctx = g.context
    if ctx.state.finished or ctx.state.round is None:
        return {}
    out: dict[str, list[str]] = {}
    for key in rounds.active_entities(ctx):
        types: set[str] = set()
        for s in rounds.steps(ctx):
            if not step_active(s):
                continue
            types.update(t for t in step_actions_of(s, key) if t not in META and not t.startswith("program_"))
            if step_blocking(s):
                break
        out[holder_id(key) or key] = sorted(types)
    return out


def _loans(g: Game) -> dict[str, int] | None:
    state = g.state.mechanics.get("loans")
    if state is None:
        return None
    return dict(getattr(state, "loans", {}) or {})


def _operator(g: Game, key: str, op: Any, loans: dict[str, int] | None) -> dict[str, Any]:
    ctx = g.context
    owner = op.owner
    out: dict[str, Any] = {
        "cash": ctx.cash(key),
        "floated": _floated(g, key, op),
        "president": sym_of(owner) if owner and kind_of(owner) == "P" else None,
        "tokens": sorted(t.hex for t in op.tokens if t.used and t.hex),
        "trains": sorted(g.state.trains[t].name for t in op.trains),
    }
    if kind_of(key) == "C":
        out["price"] = _price(g, op)
        out["shares"] = _shares(g, op.sym)
    if loans is not None:
        out["loans"] = loans.get(op.sym, 0)
    return out


def _site(g: Game) -> dict[str, Any]:
    """The title's ``site`` section: how the reference engine names its phases and counts floats."""
    return g.context.book.raw.get("site") or {}


def site_fails_on_company_privates(g: Game) -> bool:
    """The site's engine fails once a private owned by a public company closes with it in the current phase
    (``site.private_closing_fails_in_phases``): a record written for the site has no company buy a private now."""
    return g.context.phase_name() in (_site(g).get("private_closing_fails_in_phases") or [])


def site_fails_on_unowned_income(g: Game) -> bool:
    """The site's engine fails when it pays the privates' income while a private of the title's
    ``site.unowned_private_income_fails`` has no owner: a record written for the site has no player pass now, where
    he may do anything else."""
    for sym in _site(g).get("unowned_private_income_fails") or []:
        company = g.state.companies.get(sym)
        if company is not None and not company.closed and company.owner is None:
            return True
    return False


def site_stalls_on_closing(g: Game) -> bool:
    """Whether the site's engine stalls a stock round after a closing (``site.closing_stalls_stock_round``): when a
    corporation closed in the turn that just ended and the next two players in turn have nothing to do, it keeps
    the second waiting with nothing offered. ``stalled_turn`` tells such a turn's end."""
    return bool(_site(g).get("closing_stalls_stock_round"))


def site_graph_stale_after_closing(g: Game) -> bool:
    """Whether the site's engine keeps its route graph when a corporation closes and its markers leave the map, until
    the next tile lay or marker placement (``site.closing_leaves_graph_stale``)."""
    return bool(_site(g).get("closing_leaves_graph_stale"))


def site_redemption_fails(g: Game, corp: str) -> bool:
    """Whether the site's engine fails on any redemption by ``corp`` now (``site.redemption_fails_on_lone_president
    _certificate``): with none of its shares in the open market it lists one share of each player holding some, its
    president's too unless he holds as much as the most any other player holds, and fails where the president holds
    his certificate alone (no share but it to list)."""
    if not _site(g).get("redemption_fails_on_lone_president_certificate"):
        return False
    st = g.state
    if st.holdings.get(POOL, {}).get(corp):
        return False
    president = st.corporations[corp].owner
    if president is None or kind_of(president) != "P":
        return False
    held = {
        p: sum(st.shares[x].percent for x in ids)
        for p, corps in st.holdings.items()
        if kind_of(p) == "P"
        for c, ids in corps.items()
        if c == corp and ids
    }
    mine = st.holdings.get(president, {}).get(corp) or []
    alone = bool(mine) and all(st.shares[x].president for x in mine)
    others = [v for p, v in held.items() if p != president]
    return alone and held.get(president, 0) != (max(others) if others else None)


def site_route_memo(g: Game) -> bool:
    """Whether the site's route graph keeps a route it once found for a company (``site.route_memo_keeps_train_duty``):
    a company with no train must buy one there ever after, its route lost or not."""
    return bool(_site(g).get("route_memo_keeps_train_duty"))


def site_loan_ids(rulebook: dict[str, Any]) -> int | None:
    """How many loans the site numbers where the title says so (``site.loan_ids``); None: as the rules' bank total."""
    n = (rulebook.get("site") or {}).get("loan_ids")
    return int(n) if isinstance(n, int) and n > 0 else None


def stock_turn(g: Game) -> str | None:
    """Whose stock-round turn it is (the round's current player, also while a president decides on a price
    protection in the seller's turn); None outside a stock round."""
    r = g.state.round
    if g.state.finished or r is None or r.kind != "stock" or not 0 <= r.entity_index < len(r.entities):
        return None
    key = r.entities[r.entity_index]
    return sym_of(key) if kind_of(key) == "P" else None


def stock_turn_goes_on(g: Game, player: str) -> bool:
    """After a move in ``player``'s stock-round turn: whether that turn goes on (it is still his, and it has not
    started again: a player whom everybody else's lack of moves brings round again starts a new turn)."""
    r = g.state.round
    return r is not None and stock_turn(g) == player and bool(r.data.get("current_actions"))


def stalled_turn(
    g: Game, player: str, closed_in_turn: bool, same_round: bool = True, at_round_end: bool = False
) -> bool:
    """After an action that ended ``player``'s stock-round turn (a corporation closed in it: ``closed_in_turn``;
    ``same_round``: the game is still in that stock round), whether the site's engine would stall there
    (``site_stalls_on_closing``): the players after him, in turn order, that the round passed over because they
    had nothing to do, are two or more (all of them, him included, where the round has ended). ``at_round_end``:
    the closing came from the round's own end (:func:`closed_at_round_end`), which the site plays out without
    stalling."""
    if not closed_in_turn or not site_stalls_on_closing(g):
        return False
    if not same_round and at_round_end:
        return False
    if not same_round:
        return len([p for p in g.state.players if not p.bankrupt]) >= 2
    order = [p.id for p in g.state.players if not p.bankrupt]
    if player not in order:
        return False
    n = len(order)
    r = g.state.round
    acting = g.acting_entities() if r is not None and r.kind == "stock" else []
    nxt = next((sym_of(a) for a in acting if kind_of(a) == "P" and sym_of(a) in order), None)
    if nxt is None:  # (the round or the game has ended: every player was passed over, the seller too)
        return n >= 2
    i = order.index(player)
    skipped = (order.index(nxt) - i - 1) % n
    return skipped >= 2


def open_prices(g: Game) -> dict[str, Any]:
    """The share price of each open corporation (before a move, for :func:`closed_at_round_end`)."""
    return {k: None if c.price is None else tuple(c.price) for k, c in g.state.corporations.items() if not c.closed}


def closed_at_round_end(g: Game, action: dict[str, Any], before: dict[str, Any], gone: Any) -> bool:
    """Whether the corporations ``gone`` closed at the end of a stock round that ``action`` ended: a pass that ended
    the round, whose end-of-round price moves (not a sale, nor a price that had reached the closing cell before it)
    took each of them there. The site closes them as it finishes its round and goes on (docs/CONFORMANCE.md, "A
    stock round the site does not end": the last pass of the round moved a price with shares in the market into the
    closing cell, and the reference went on to the operating round)."""
    r = g.state.round
    if action.get("type") != "pass" or (r is not None and r.kind == "stock") or not gone:
        return False
    now = {k: g.state.corporations[k].price for k in gone}
    return all(k in before and now[k] is not None and before[k] != tuple(now[k]) for k in gone)


def site_unowned_income_reserve(g: Game) -> int:
    """The cash a player keeps free of bids in a record written for the site while a private of the title's
    ``site.unowned_private_income_fails`` is unsold: its price (the highest of them), so that someone can always buy
    it once it is offered and the round never ends in everyone's pass with it unowned; 0 when none is unsold."""
    out = 0
    for sym in _site(g).get("unowned_private_income_fails") or []:
        company = g.state.companies.get(sym)
        if company is not None and not company.closed and company.owner is None:
            out = max(out, int(company.value or 0))
    return out


def site_tile_copies_taken_out(g: Game, base: dict[str, Any]) -> dict[str, int]:
    """Per tile, how many of its first copies the site has taken out of the game where the game's options lower its
    count below the title's (``base``: the rulebook without options) and ``site.removed_tile_copies_first`` says the
    site keeps the others' ids: a record written for the site names railbook's n-th copy ``<tile>-<n + that>``."""
    if not _site(g).get("removed_tile_copies_first"):
        return {}
    full, played = base.get("tiles") or {}, g.context.book.tiles
    out: dict[str, int] = {}
    for name, spec in played.items():
        was, now = (full.get(name) or {}).get("count"), spec.get("count")
        if isinstance(was, int) and isinstance(now, int) and was > now:
            out[name] = was - now
    return out


def _floated(g: Game, key: str, op: Any) -> bool:
    if not op.floated:
        return False
    if _site(g).get("floated_from_first_turn"):
        if g.context.hooks("float_percent", sym_of(key)) == 0:
            return True  # (a corporation no share sale starts, e.g. a national formed floated: the site's from then)
        if g.context.hooks("capitalization_of", sym_of(key)) == "full":
            return (
                True  # (fully capitalized at its float: the site counts it floated from the sale, 1856_game_end_bank)
            )
        now = g.context.current_operator()
        # (the first in the order before the round's first turn has begun; a company that round skips is not it)
        return bool(op.operated) or now == key or (now is None and key in g.state.round.entities[:1])
    return True


def _price(g: Game, corp: Any) -> int | None:
    from .market import price_at

    if corp.price is None:
        return None
    return int(price_at(g.context, corp.price))


def _shares(g: Game, sym: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for holder, by_corp in g.state.holdings.items():
        ids = by_corp.get(sym)
        if not ids:
            continue
        percent = sum(g.state.shares[s].percent for s in ids)
        if not percent:
            continue
        name = "market" if holder == "pool" else "bank" if holder == "bank" else sym_of(holder)
        out[name] = out.get(name, 0) + percent
    return out


def digest(g: Game) -> dict[str, Any]:
    """The digest of the game's state now (without the action's ``entity``, ``id`` and ``type``)."""
    st = g.state
    loans = _loans(g)
    corporations: dict[str, Any] = {}
    for sym, corp in st.corporations.items():
        if corp.closed or corp.removed:
            continue
        corporations[sym] = _operator(g, f"C|{sym}", corp, loans)
    for sym, minor in st.minors.items():
        if minor.closed:
            continue
        corporations[sym] = _operator(g, f"M|{sym}", minor, None)
    tiles = {h: f"{hx.tile}@{hx.rotation}" for h, hx in st.hexes.items() if hx.tile is not None}
    r = st.round
    bank = st.cash.get("bank", 0)
    if g.context.book.players_setup(len(st.player_ids)).get("bank") == "unlimited":
        bank -= UNLIMITED_BANK
    phase = g.context.phase_name()
    return {
        "acting": acting(g),
        "bank": bank,
        "companies": {c.sym: holder_id(c.owner) for c in st.companies.values() if not c.closed and not c.removed},
        "corporations": corporations,
        "phase": (_site(g).get("phase_names") or {}).get(phase, phase),
        "players": {p.id: st.cash.get(f"P|{p.id}", 0) for p in st.players},
        "round": round_name(g),
        "tiles": tiles,
        "turn": f"{st.turn}.{r.round_num if r is not None else 1}",
    }


def final_line(g: Game) -> dict[str, Any]:
    return {"game_end_reason": g.state.game_end_reason, "result": {str(k): v for k, v in g.result().items()}}


def digest_stream(record: dict[str, Any], rulebook: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Replay ``record`` (an 18xx.games export or a railbook action log) with its title's compiled ``rulebook``
    (``railbook.api.record_rulebook``) and yield one digest per processed action, in record order, then the final
    line; a refused action yields ``{"error", "id"}`` and ends the stream."""
    from .replay import LOG_FORMAT, NON_MOVES, filter_actions, normalise, start_from_record

    try:
        game = start_from_record(record, rulebook)
    except EngineError as exc:
        yield {"error": f"{type(exc).__name__}: {exc}", "id": 0}
        return
    log = record.get("format") == LOG_FORMAT
    actions = list(record["actions"]) if log else filter_actions(record["actions"])
    for index, action in enumerate(actions):
        if not isinstance(action, dict):
            yield {"error": "MalformedAction: action is not an object", "id": index}
            return
        if action.get("type") == "message":
            continue
        aid = action.get("id", index + 1)
        if action.get("type") in NON_MOVES or (game.state.finished and action.get("type") == "end_game"):
            line = {"entity": _entity(action), "id": aid, "type": action.get("type"), **digest(game)}
            yield line
            continue
        try:
            for a in [action, *(action.get("auto_actions") or [])]:
                game.process(normalise(a), False)
                game.state.extra.pop("route_checks", None)
        except EngineError as exc:
            yield {"error": f"{type(exc).__name__}: {exc}", "id": aid}
            return
        yield {"entity": _entity(action), "id": aid, "type": action.get("type"), **digest(game)}
    yield final_line(game)


def _entity(action: dict[str, Any]) -> str | None:
    entity = action.get("entity")
    return None if entity is None else str(entity)
