"""The table's panels as HTML: status, stock market, charters, players, bank and trains, log."""

from __future__ import annotations

from html import escape
from typing import Any

from railbook.engine.game import Game
from railbook.engine.state import BANK, POOL, ckey, mkey, pkey, sym_of
from railbook.render.icons import company_colours
from railbook.render.market import cell_fill
from railbook.render.style import contrast
from railbook.render.style import money as render_money


def e(value: Any) -> str:
    """HTML-escaped text of any value."""
    return escape(str(value), quote=True)


def money(game: Game, amount: int) -> str:
    """An amount in the title's currency format (render/style.py's ``money``), escaped."""
    return e(render_money(amount, str((game.rulebook.get("meta") or {}).get("currency") or "${}")))


def chip(book: dict[str, Any], sym: str, table: str = "corporations") -> str:
    """A company's name in its colours."""
    ent = (book.get(table) or {}).get(sym) or (book.get("minors") or {}).get(sym) or {}
    fill, ink = company_colours(ent, "#dddddd")
    name = e(ent.get("name", sym))
    return f'<span class="chip" style="background:{e(fill)};color:{e(ink)}" title="{name}">{e(sym)}</span>'


def name_of(game: Game, player_id: str) -> str:
    """A player's name (their id when the game has no other)."""
    for p in game.state.players:
        if p.id == player_id:
            return p.name
    return player_id


def _price(game: Game, cell: list[int] | None) -> int | None:
    if not cell:
        return None
    grid = game.rulebook["market"]["grid"]
    try:
        found = grid[cell[0]][cell[1]]
    except (IndexError, TypeError):
        return None
    return int(found["price"]) if found else None


def _percent(game: Game, holder: str, corp: str) -> int:
    shares = game.state.shares
    return sum(shares[s].percent for s in game.state.holdings.get(holder, {}).get(corp, []))


def status_html(game: Game) -> str:
    """Round, phase and who acts."""
    st = game.state
    rnd = st.round
    phase = game.rulebook["phases"][min(st.phase, len(game.rulebook["phases"]) - 1)]
    parts = []
    if st.finished:
        outcome = game.outcome()
        ranking = ", ".join(f"{e(name_of(game, p))} {money(game, outcome.values[p])}" for p in outcome.ranking)
        parts.append(f'<p class="over">Game over ({e(st.game_end_reason or "")}): {ranking}</p>')
    else:
        kind = rnd.kind if rnd else "-"
        label = f"{kind} round {st.turn}" + (f".{rnd.round_num}" if rnd and kind == "operating" else "")
        acting = ", ".join(e(name_of(game, p)) for p in game.acting()) or "nobody"
        entities = [sym_of(k) for k in game.acting_entities()]
        ent = f" for {', '.join(e(x) for x in entities)}" if entities and entities != game.acting() else ""
        parts.append(
            f'<p class="round"><b>{e(label.capitalize())}</b> · phase {e(phase.get("name"))} · '
            f'<span class="acting">{acting}</span> to act{ent}</p>'
        )
    return "".join(parts)


def market_html(game: Game) -> str:
    """The stock market grid with the companies' tokens in their cells."""
    book = game.rulebook
    market = book["market"]
    zones = market.get("zone_colours") or {}
    rows = []
    for r, row in enumerate(market["grid"]):
        cells = []
        for c, cell in enumerate(row):
            if not cell:
                cells.append("<td></td>")
                continue
            fill = cell_fill(list(cell.get("kinds") or []), zones)
            here = "".join(chip(book, sym) for sym in game.state.market.get(f"{r},{c}", []))
            par = " par" if "par" in (cell.get("kinds") or []) else ""
            cells.append(
                f'<td class="cell{par}" style="background:{e(fill)};color:{e(contrast(fill))}">'
                f"<i>{e(cell['price'])}</i>{here}</td>"
            )
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return f'<div class="scroll"><table class="market">{"".join(rows)}</table></div>'


def _loans(game: Game) -> dict[str, int]:
    found = getattr(game.state.mechanics.get("loans"), "loans", None)
    return {str(k): int(v) for k, v in found.items()} if isinstance(found, dict) else {}


def charters_html(game: Game) -> str:
    """One card per company in play: cash, share price, trains, tokens left, loans, shares in the bank."""
    st, book, ctx = game.state, game.rulebook, game.context
    loans = _loans(game)
    cards = []
    for sym in st.corp_order or list(st.corporations):
        corp = st.corporations.get(sym)
        if corp is None or corp.removed:
            continue
        key = ckey(sym)
        price, par = _price(game, corp.price), _price(game, corp.par)
        trains = " ".join(e(st.trains[t].name) for t in corp.trains if t in st.trains) or "–"
        left = sum(1 for t in corp.tokens if not t.used)
        owner = name_of(game, sym_of(corp.owner)) if corp.owner and corp.owner.startswith("P|") else "–"
        ipo = _percent(game, key, sym)
        pool = _percent(game, POOL, sym)
        extra = f" · loans {loans[sym]}" if loans.get(sym) else ""
        privates = " ".join(chip(book, c, "privates") for c in corp.companies)
        state = "closed" if corp.closed else "floated" if corp.floated else "par" if corp.ipoed else "not started"
        cards.append(
            f'<div class="charter{" closed" if corp.closed else ""}" data-corp="{e(sym)}">{chip(book, sym)} '
            f'<span class="cname">{e(book["corporations"][sym].get("name", sym))}</span>'
            f'<div class="cdata"><span class="cash">{money(game, ctx.cash(key))}</span> · '
            f'price <span class="price">{money(game, price) if price is not None else "–"}</span>'
            f"{f' (par {money(game, par)})' if par is not None else ''} · {e(state)}<br>"
            f"pres. {e(owner)} · trains {trains} · tokens left {left} · IPO {ipo}% · pool {pool}%{extra}"
            f"{f'<br>{privates}' if privates else ''}</div></div>"
        )
    for sym, minor in st.minors.items():
        if minor.closed or not minor.owner:
            continue
        trains = " ".join(e(st.trains[t].name) for t in minor.trains if t in st.trains) or "–"
        cards.append(
            f'<div class="charter minor" data-corp="{e(sym)}">{chip(book, sym, "minors")} '
            f'<div class="cdata"><span class="cash">{money(game, ctx.cash(mkey(sym)))}</span> · '
            f"owner {e(name_of(game, sym_of(minor.owner)))} · trains {trains}</div></div>"
        )
    return "".join(cards)


def players_html(game: Game, seats: list[str]) -> str:
    """Each player's cash, certificates, privates and value (priority first in the current order)."""
    st, book, ctx = game.state, game.rulebook, game.context
    values = game.outcome().values
    acting = set(game.acting())
    priority = st.players[0].id if st.players else None
    rows = []
    for pid in seats:
        player = next((p for p in st.players if p.id == pid), None)
        if player is None:
            continue
        key = pkey(pid)
        certs = []
        for corp, shares in sorted(st.holdings.get(key, {}).items()):
            if not shares:
                continue
            pct = sum(st.shares[s].percent for s in shares)
            pres = any(st.shares[s].president for s in shares)
            certs.append(f"{chip(book, corp)}{pct}%{'P' if pres else ''}")
        privates = " ".join(chip(book, c, "privates") for c in player.companies)
        flags = (" · priority" if pid == priority else "") + (" · passed" if player.passed else "")
        flags += " · bankrupt" if player.bankrupt else ""
        rows.append(
            f'<tr class="{"acting" if pid in acting else ""}" data-player="{e(pid)}"><th>{e(player.name)}</th>'
            f'<td class="cash">{money(game, ctx.cash(key))}</td><td>{" ".join(certs)} {privates}</td>'
            f'<td title="value">{money(game, values.get(pid, 0))}{e(flags)}</td></tr>'
        )
    return f'<table class="players">{"".join(rows)}</table>'


def bank_html(game: Game) -> str:
    """The bank's cash, the pool, the phase and the trains still to come."""
    st, book = game.state, game.rulebook
    phase = book["phases"][min(st.phase, len(book["phases"]) - 1)]
    upcoming: list[tuple[str, int]] = []
    for tid in st.depot:
        name = st.trains[tid].name
        if upcoming and upcoming[-1][0] == name:
            upcoming[-1] = (name, upcoming[-1][1] + 1)
        else:
            upcoming.append((name, 1))
    price = {name: spec.get("price") for name, spec in book["trains"].items()}
    trains = " ".join(
        f'<span class="train">{e(n)}×{k}{f" {money(game, price[n])}" if price.get(n) else ""}</span>'
        for n, k in upcoming
    )
    pool_trains = " ".join(e(st.trains[t].name) for t in st.discarded if t in st.trains)
    bank_cash = st.cash.get(BANK, 0)
    pool = " ".join(
        f"{chip(book, corp)}{sum(st.shares[s].percent for s in ids)}%"
        for corp, ids in sorted(st.holdings.get(POOL, {}).items())
        if ids
    )
    return (
        f'<p>Bank <span class="cash">{money(game, bank_cash)}</span>{" (broken)" if st.bank_broken else ""} · '
        f"pool {pool or '–'}</p><p>Phase {e(phase.get('name'))}: tiles {e(', '.join(phase.get('tiles') or []))} · "
        f"train limit {e(phase.get('train_limit', '–'))} · {e(st.operating_rounds)} OR(s)</p>"
        f"<p>Trains: {trains or '–'}{f' · discarded {pool_trains}' if pool_trains else ''}</p>"
    )


def offboard_now(game: Game) -> dict[str, int]:
    """The revenue of each printed off-board area whose value changes by phase, in the current phase."""
    book = game.context.book
    out: dict[str, int] = {}
    for hex_id, hx in game.rulebook["hexes"].items():
        offboards = hx.get("offboards") or []
        revenue = offboards[0].get("revenue") if offboards else None
        if isinstance(revenue, dict) and len(set(revenue.values())) > 1:
            out[hex_id] = int(book.revenue_of(revenue, game.state.phase))
    return out


def log_html(game: Game, limit: int = 400) -> str:
    """The log, newest first (the last ``limit`` lines)."""
    lines = game.log[-limit:]
    return '<ol class="log" reversed>' + "".join(f"<li>{e(line)}</li>" for line in reversed(lines)) + "</ol>"
