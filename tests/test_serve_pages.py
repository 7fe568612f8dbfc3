"""railbook serve's pages through Starlette's TestClient: new game forms (shipped titles and a designer's
folder), the table for seats and spectators, anti-forgery checks on the act form, and Watch."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # (Starlette 1.x would rather have httpx2; httpx works)
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from railbook.compiler.scaffold import scaffold
from railbook.engine.replay import start_from_record
from railbook.engine.state import pkey

from railbook.serve import create_app
from railbook.serve.catalogue import Catalogue
from tests.serve_support import plain, play

ORIGIN = {"Origin": "http://testserver"}


@pytest.fixture
def client(tmp_path: Path):
    with TestClient(create_app(tmp_path / "games.sqlite3")) as c:
        yield c


def _start(client: TestClient, title: str = "1846", hotseat: bool = True) -> tuple[str, str]:
    form = {"title": title, "players": "ann\nbob\ncy", "seed": "4"}
    if hotseat:
        form["hotseat"] = "1"
    r = client.post("/games", data=form, headers=ORIGIN, follow_redirects=False)
    assert r.status_code == 303, r.text
    seat = r.headers["location"]
    m = re.fullmatch(r"/games/(\w+)/seat/(\S+)", seat)
    assert m
    page = client.get(seat)  # sets the seat's cookie and shows the table
    assert page.status_code == 200
    return m[1], m[2]


def _forms(html: str) -> list[dict[str, str]]:
    out = []
    for form in re.findall(r'<form class="act[^"]*"[^>]*>(.*?)</form>', html, re.S):
        out.append(dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form)))
    return out


def test_home_offers_every_title(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    for title in ("1817", "1846", "1850", "1856", "1870"):
        assert f'<option value="{title}">' in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]


def test_the_table_shows_the_live_state_and_only_legal_actions(client: TestClient) -> None:
    gid, _ = _start(client)
    page = client.get(f"/games/{gid}").text
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="map"' in page and 'class="market"' in page
    assert 'data-hex="B16"' in page and "Players" in page and "Log" in page
    forms = [f for f in _forms(page) if "pick" in f]
    legal = client.get(f"/api/games/{gid}/legal").json()["legal"]
    assert forms and len(forms) <= len(legal)
    assert all(int(f["pick"]) < len(legal) for f in forms)
    assert len(page.encode()) < 1_000_000


def test_the_act_form_checks_seat_forgery_and_revision(client: TestClient) -> None:
    gid, _ = _start(client)
    form = next(f for f in _forms(client.get(f"/games/{gid}").text) if "pick" in f)
    fetch = {**ORIGIN, "X-Requested-With": "fetch"}
    forged = client.post(f"/games/{gid}/act", data={**form, "csrf": "x"}, headers=fetch)
    assert forged.status_code == 403
    cross = client.post(f"/games/{gid}/act", data=form, headers={"Origin": "http://evil.example"})
    assert cross.status_code == 403
    stale = client.post(f"/games/{gid}/act", data={**form, "rev": "99"}, headers=fetch)
    assert stale.status_code == 409
    done = client.post(f"/games/{gid}/act", data=form, headers=fetch)
    assert done.status_code == 200 and done.json()["ok"], done.text
    assert client.get(f"/api/games/{gid}").json()["actions"] == 1
    undo = next(f for f in _forms(client.get(f"/games/{gid}").text) if f.get("op") == "undo")
    assert client.post(f"/games/{gid}/act", data=undo, headers=fetch).json()["ok"]
    assert client.get(f"/api/games/{gid}").json()["actions"] == 0
    client.cookies.clear()  # a spectator: no forms, and no acting
    page = client.get(f"/games/{gid}").text
    assert not [f for f in _forms(page) if "pick" in f] and "You are watching" in page
    assert client.post(f"/games/{gid}/act", data=form, headers=fetch).status_code == 403


def test_a_game_of_seats_shows_each_seat_its_link(client: TestClient) -> None:
    gid, _ = _start(client, hotseat=False)
    page = client.get(f"/games/{gid}").text
    links = re.findall(rf"/games/{gid}/seat/([\w-]+)", page)
    assert len(set(links)) == 3


def test_a_designers_folder_is_validated_and_playable(tmp_path: Path) -> None:
    good = scaffold("18test", tmp_path)
    with TestClient(create_app(tmp_path / "g.sqlite3", [str(good)])) as client:
        gid, _ = _start(client, good.name)
        assert client.get(f"/api/games/{gid}").json()["title"] == good.name
    with TestClient(create_app(tmp_path / "g.sqlite3")) as client:  # started again without the folder
        gone = client.get(f"/api/games/{gid}")
        assert gone.status_code == 409 and "folder" in gone.text
    broken = tmp_path / "18broken"
    broken.mkdir()
    for f in good.iterdir():
        (broken / f.name).write_text(f.read_text())
    game_yaml = broken / "game.yaml"
    game_yaml.write_text(game_yaml.read_text() + "\nnot_a_field: 3\n")
    cat = Catalogue.build([str(broken)])
    with TestClient(create_app(tmp_path / "b.sqlite3", catalogue=cat)) as client:
        form = {"title": "18broken", "players": "ann\nbob\ncy", "hotseat": "1"}
        r = client.post("/games", data=form, headers=ORIGIN)
        assert r.status_code == 400 and "cannot be played" in r.text and "game.yaml" in r.text


def test_watch_steps_through_a_record(client: TestClient) -> None:
    made = client.post("/api/games", json={"title": "1846", "players": ["ann", "bob", "cy"], "seed": 5}).json()
    gid = made["id"]
    play(client, gid, made["seats"]["ann"], 40, seed=5)
    record = client.get(f"/api/games/{gid}/record").content
    r = client.post(
        "/watch", files={"record": ("game.json", record, "application/json")}, headers=ORIGIN, follow_redirects=False
    )
    assert r.status_code == 303, r.text
    where = r.headers["location"]
    game = start_from_record(
        client.get(f"/api/games/{gid}/record").json(), client.app.state.tables.catalogue.rulebook("1846")
    )
    actions = client.get(f"/api/games/{gid}/record").json()["actions"]
    for at in (25, 3, 40, 0):
        page = client.get(f"{where}?at={at}").text
        assert f'data-at="{at}"' in page
        if at == 25:
            for a in actions[:25]:
                game.process({k: v for k, v in a.items() if k != "id"})
            for p in ("ann", "bob", "cy"):
                cash = game.context.cash(pkey(p))
                row = re.search(rf'data-player="{p}">.*?<td class="cash">\$(\d+)</td>', page, re.S)
                assert row and int(row[1]) == cash
    assert client.get("/watch").status_code == 200
    bad = client.post("/watch", files={"record": ("x.json", b"{}", "application/json")}, headers=ORIGIN)
    assert bad.status_code == 400


def test_a_run_offers_the_best_routes_and_runs_only_the_trains_ticked(client: TestClient) -> None:
    made = client.post("/api/games", json={"title": "1846", "players": ["ann", "bob", "cy"], "seed": 3}).json()
    gid, token = made["id"], made["seats"]["ann"]
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(400):  # run the operating companies' first trains: lay, buy trains, pay out
        legal = client.get(f"/api/games/{gid}/legal").json()["legal"]
        if any(x["type"] == "run_routes" for x in legal):
            break
        order = ("buy_train", "lay_tile", "par", "buy_shares", "bid", "pass")
        pick = min(legal, key=lambda x: order.index(x["type"]) if x["type"] in order and not x["open"] else 99)
        assert client.post(f"/api/games/{gid}/actions", json=plain(pick), headers=auth).status_code == 200
    client.get(f"/games/{gid}/seat/{token}")
    page = client.get(f"/games/{gid}").text
    assert "Run these routes" in page and 'class="route"' in page  # the best routes, drawn on the map too
    form = next(f for f in _forms(page) if "routes" in f)
    trains = re.findall(r'name="train" value="([^"]+)" checked', page)
    assert trains
    fetch = {**ORIGIN, "X-Requested-With": "fetch"}
    assert client.post(f"/games/{gid}/act", data=form, headers=fetch).json()["ok"]  # every box unticked
    game = client.app.state.tables.get(gid).game
    assert game.actions[-1]["type"] == "run_routes" and game.actions[-1]["routes"] == []
    assert client.post(f"/api/games/{gid}/actions", json={"type": "undo"}, headers=auth).status_code == 200
    form = next(f for f in _forms(client.get(f"/games/{gid}").text) if "routes" in f)
    ticked = {**form, "train": trains}
    assert client.post(f"/games/{gid}/act", data=ticked, headers=fetch).json()["ok"]
    best = game.actions[-1]["routes"]
    assert [r["train"] for r in best] == trains
    assert client.post(f"/api/games/{gid}/actions", json={"type": "undo"}, headers=auth).status_code == 200
    # the routes changed by hand: the rules check them (a route broken by hand gets the engine's message)
    page = client.get(f"/games/{gid}").text
    custom = next(f for f in _forms(page) if f.get("routes") == "custom")
    assert "custom_routes" in page
    broken = [{"train": best[0]["train"], "connections": [["A1", "Z99"]]}]
    refused = client.post(f"/games/{gid}/act", data={**custom, "custom_routes": json.dumps(broken)}, headers=fetch)
    assert refused.status_code == 422 and refused.json()["error"]
    mine = client.post(f"/games/{gid}/act", data={**custom, "custom_routes": json.dumps(best)}, headers=fetch)
    assert mine.json()["ok"] and game.actions[-1]["routes"] == best


def test_forms_work_without_javascript(client: TestClient) -> None:
    gid, _ = _start(client)
    form = next(f for f in _forms(client.get(f"/games/{gid}").text) if "pick" in f)
    done = client.post(f"/games/{gid}/act", data=form, headers=ORIGIN, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == f"/games/{gid}"
    stale = client.post(f"/games/{gid}/act", data=form, headers=ORIGIN, follow_redirects=False)
    assert stale.status_code == 303 and "error=" in stale.headers["location"]
    assert "moved on" in client.get(stale.headers["location"]).text
