"""End-to-end tests of ``railbook serve`` in a real Chromium (Debian's package, driven by Playwright): the
opening of every title by clicks (auction, stock round, a tile lay, a token, routes and dividends), a short
hotseat game to its end, two seats in two browsers with live updates, Watch checked against the interpreter, and a
server restart mid-game.  They skip where /usr/bin/chromium is missing."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from railbook.engine.replay import start_from_record
from railbook.engine.state import ckey, pkey
from railbook.engine.stations import parse_city

import railbook
from railbook.serve.routing import best_routes, chosen_routes
from tests.serve_browser import ARGS, CHROMIUM, ProcessServer, ThreadServer, click_action, free_port, need_browser
from tests.serve_support import TITLES

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed (apt-get install chromium)")

#: the kinds of action the opening of each title must have taken by clicks
OPENING = {
    "share": ("par", "buy_shares"),
    "tile": ("lay_tile",),
    "token": ("place_token",),
    "routes": ("run_routes",),
    "dividend": ("dividend",),
}
OR_PREFERENCE = ("lay_tile", "place_token", "run_routes", "dividend", "buy_train")


@pytest.fixture(scope="module")
def browser():
    sync_api = need_browser()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    need_browser()
    s = ThreadServer(tmp_path_factory.mktemp("serve") / "games.sqlite3")
    yield s
    s.stop()


_CLIENTS: dict[str, httpx.Client] = {}


def _http(server: Any) -> httpx.Client:
    """One kept-alive client per server (a new connection per request costs ~50 ms)."""
    found = _CLIENTS.get(server.url)
    if found is None:
        found = _CLIENTS[server.url] = httpx.Client(base_url=server.url, timeout=60)
    return found


def _new(server: Any, title: str, players: list[str], hotseat: bool = True, seed: int = 3) -> dict[str, Any]:
    body = {"title": title, "players": players, "seed": seed, "hotseat": hotseat}
    r = _http(server).post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def _legal(server: Any, gid: str) -> list[dict[str, Any]]:
    """The legal actions as the API gives them (in the server's process for a server in a thread)."""
    if isinstance(server, ThreadServer):
        table = server.app.state.tables.get(gid)
        with table.lock:
            return [la.to_json() for la in table.game.legal_actions()]
    return _http(server).get(f"/api/games/{gid}/legal").json()["legal"]


def _push(server: Any, gid: str, action: dict[str, Any]) -> None:
    """An action taken in the server's own process, as the API takes it (the way to a position; not under test)."""
    server.app.state.tables.get(gid).act(action)


def _post(server: Any, gid: str, token: str, action: dict[str, Any]) -> None:
    r = _http(server).post(f"/api/games/{gid}/actions", json=action, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text


def _plain_choice(option: dict[str, Any]) -> bool:
    """Dividends paid out, trains bought at their price from the bank (not for $1 from a sister company)."""
    if option["type"] == "dividend":
        return option["fields"].get("kind") == "payout"
    return option["type"] != "buy_train" or not option["open"]


def _choose(legal: list[dict[str, Any]], rnd: random.Random) -> dict[str, Any]:
    """Operating rounds: lay, token, run, pay, buy trains, borrow; otherwise mostly buy and bid, sometimes pass."""
    for kind in OR_PREFERENCE:
        found = [x for x in legal if x["type"] == kind and _plain_choice(x)]
        if found:
            return rnd.choice(found)
    loans = [x for x in legal if x["type"] == "take_loan"]
    if loans and rnd.random() < 0.5:  # (a company with no money for a train borrows: 1817, 1856)
        return loans[0]
    passes = [x for x in legal if x["type"] == "pass"]
    # (a player's purchase of another's private, at the least price, could go round the table for ever)
    others = [
        x
        for x in legal
        if x["type"] not in ("pass", "bankrupt", "sell_shares", "take_loan")
        and not (x["type"] == "buy_company" and x.get("entity_type") == "player")
    ]
    return rnd.choice(passes if passes and (not others or rnd.random() < 0.25) else others or legal)


def _filled(server: Any, gid: str, legal: dict[str, Any]) -> dict[str, Any]:
    action = {"type": legal["type"], "entity": legal["entity"], "entity_type": legal["entity_type"], **legal["fields"]}
    for name, allowed in legal["open"].items():
        if allowed["kind"] == "range":
            action[name] = allowed["min"]
        else:
            game = server.app.state.tables.get(gid).game
            action[name] = chosen_routes(best_routes(game, legal["entity"]), None)
    return action


@pytest.mark.parametrize("title", TITLES)
def test_the_opening_of_every_title_by_clicks(browser: Any, server: Any, title: str) -> None:
    players = ["ann", "bob", "cy", "dee"]
    made = _new(server, title, players)
    gid, token = made["id"], made["seats"]["ann"]
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.goto(f"{server.url}/games/{gid}/seat/{token}")
    on_table = True
    game = server.app.state.tables.get(gid).game
    rnd = random.Random(11)
    clicked: set[str] = set()
    auction_clicks = 0
    for _ in range(900):
        legal = _legal(server, gid)
        option = _choose(legal, rnd)
        kind = game.state.round.kind if game.state.round else ""
        wanted = next((k for k, types in OPENING.items() if option["type"] in types and k not in clicked), None)
        if wanted is None and kind not in ("stock", "operating") and auction_clicks < 2:
            wanted, auction_clicks = "auction", auction_clicks + 1
        if wanted:
            if not on_table:  # (the table is left while actions are sent through the API: no refresh for each)
                page.goto(f"{server.url}/games/{gid}")
                on_table = True
            click_action(page, option, lambda city: parse_city(game.context, city)[0])
            clicked.add(wanted)
        else:
            if on_table:
                page.goto("about:blank")
                on_table = False
            _push(server, gid, _filled(server, gid, option))
        if set(OPENING) <= clicked:
            break
    assert set(OPENING) <= clicked, f"{title}: clicked only {sorted(clicked)}"
    assert auction_clicks or title == "1846"  # (1846 opens with a draft of its privates: those were clicks too)
    page.close()


def test_a_short_hotseat_game_to_its_end(browser: Any, server: Any) -> None:
    rulebook = server.app.state.tables.catalogue.rulebook("1817")
    options = [name for name, spec in rulebook["options"].items() if spec.get("default")]
    players = ["ann", "bob", "cy"]
    for seed in (2, *range(12)):  # a seed whose random play ends soon (seed 2: a train purchase ends it)
        game = railbook.Game.start(rulebook, players, seed=seed, options=options)
        rnd = random.Random(seed)
        while not game.state.finished and len(game.actions) < 150:
            offered = game.legal_actions()
            passes = [o for o in offered if o.type == "pass"]
            others = [o for o in offered if o.type != "pass"]
            pick = rnd.choice(passes if passes and (not others or rnd.random() < 0.35) else others)
            for name, allowed in pick.open.items():
                if isinstance(allowed, railbook.IntRange):
                    pick = pick.with_(**{name: rnd.choice(allowed.values())})
                else:
                    pick = pick.with_(**{name: chosen_routes(best_routes(game, pick.entity), None)})
            game.process(pick)
        if game.state.finished:
            break
    assert game.state.finished
    made = _new(server, "1817", players, seed=seed)
    gid, token = made["id"], made["seats"]["bob"]
    actions = game.actions
    for action in actions[:-3]:
        _push(server, gid, action)
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.goto(f"{server.url}/games/{gid}/seat/{token}")
    live = server.app.state.tables.get(gid).game
    for action in actions[-3:]:
        legal = next(x for x in _legal(server, gid) if _same(x, action))
        values = {k: action[k] for k, v in legal["open"].items() if v["kind"] == "range"}
        click_action(page, legal, lambda city: parse_city(live.context, city)[0], values)
    assert live.state.finished
    assert "Game over" in page.locator(".status").text_content()
    page.close()


def _same(legal: dict[str, Any], action: dict[str, Any]) -> bool:
    head = (legal["type"], legal["entity"]) == (action["type"], action["entity"])
    return head and all(action.get(k) == v for k, v in legal["fields"].items()) and set(legal["open"]) <= set(action)


def test_two_seats_in_two_browsers_update_live(browser: Any, server: Any) -> None:
    made = _new(server, "1846", ["ann", "bob", "cy"], hotseat=False)
    gid, seats = made["id"], made["seats"]
    pages = {}
    for player in ("ann", "bob", "cy"):
        context = browser.new_context()
        pages[player] = context.new_page()
        pages[player].goto(f"{server.url}/games/{gid}/seat/{seats[player]}")
    live = server.app.state.tables.get(gid).game
    for _ in range(4):
        actor = live.acting()[0]
        others = [p for p in pages if p != actor]
        for p in others:  # a seat not to act is offered nothing
            assert pages[p].locator(".controls form[data-key]").count() == 0
        legal = next(x for x in _legal(server, gid) if x["type"] != "pass")
        before = {p: pages[p].get_attribute("#table", "data-rev") for p in others}
        click_action(pages[actor], legal)
        for p in others:  # the other browsers follow by server-sent events, without reloading
            pages[p].wait_for_function(
                "old => document.getElementById('table').dataset.rev !== old", arg=before[p], timeout=10_000
            )
    for page in pages.values():
        page.context.close()


def test_watch_a_shared_record_against_the_interpreter(browser: Any, server: Any, tmp_path: Path) -> None:
    gid = _new(server, "1846", ["ann", "bob", "cy"], seed=8)["id"]
    rnd = random.Random(4)
    for _ in range(70):
        _push(server, gid, _filled(server, gid, _choose(_legal(server, gid), rnd)))
    record = _http(server).get(f"/api/games/{gid}/record").json()
    path = tmp_path / "shared.json"
    path.write_text(json.dumps(record))
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.goto(f"{server.url}/watch")
    page.set_input_files('input[name="record"]', str(path))
    page.click(".watch-upload button")
    page.wait_for_selector("#watch")
    rulebook = server.app.state.tables.catalogue.rulebook("1846")

    def check(at: int) -> None:
        page.wait_for_selector(f'#watch[data-at="{at}"]')
        game = start_from_record(record, rulebook)
        for action in record["actions"][:at]:
            game.process({k: v for k, v in action.items() if k != "id"})
        for player in ("ann", "bob", "cy"):
            shown = page.locator(f'tr[data-player="{player}"] td.cash').text_content()
            assert shown == f"${game.context.cash(pkey(player))}"
        for corp in page.locator(".charter[data-corp]").all():
            sym = corp.get_attribute("data-corp")
            if sym not in game.state.corporations:
                continue
            assert corp.locator(".cash").first.text_content() == f"${game.context.cash(ckey(sym))}"
            cell = game.state.corporations[sym].price
            price = corp.locator(".price").text_content()
            expected = f"${rulebook['market']['grid'][cell[0]][cell[1]]['price']}" if cell else "–"
            assert price == expected

    check(70)
    page.click("text=start")
    check(0)
    for at in (1, 2, 3):  # the arrow keys step too
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(f'#watch[data-at="{at}"]')
    check(3)
    page.fill(".jump input[type=number]", "55")
    page.click('.jump button:text("go")')
    check(55)
    page.click("text=back")
    check(54)
    page.close()


def test_a_restart_mid_game_loses_nothing(browser: Any, tmp_path: Path) -> None:
    need_browser()
    db, port = tmp_path / "games.sqlite3", free_port()
    first = ProcessServer(db, port)
    try:
        made = httpx.post(f"{first.url}/api/games", json={"title": "1846", "players": ["ann", "bob", "cy"]}).json()
        gid, token = made["id"], made["seats"]["ann"]
        page = browser.new_page()
        page.goto(f"{first.url}/games/{gid}/seat/{token}")
        for _ in range(2):
            click_action(page, next(x for x in _legal(first, gid) if x["type"] != "pass"))
    finally:
        first.stop()
    second = ProcessServer(db, port)
    try:
        assert httpx.get(f"{second.url}/api/games/{gid}").json()["actions"] == 2
        # the page open before the restart goes on: its forms name the revision the server stored
        click_action(page, next(x for x in _legal(second, gid) if x["type"] != "pass"))
        state = httpx.get(f"{second.url}/api/games/{gid}").json()
        assert state["actions"] == 3
        assert re.search(r"ann|bob|cy", page.locator(".status").text_content())
    finally:
        second.stop()
    page.close()
