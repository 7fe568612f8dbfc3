"""railbook serve's JSON API (Starlette's TestClient): new games of every title, state, legal actions, seats,
undo/redo, records that replay, persistence across a restart, bounded and validated requests."""

from __future__ import annotations

import threading
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # (Starlette 1.x would rather have httpx2; httpx works)
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import railbook
from railbook.serve import create_app
from tests.serve_support import PLAYERS, TITLES, play


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db: Path):
    with TestClient(create_app(db)) as c:
        yield c


def _new(client: TestClient, title: str = "1846", **extra: object) -> dict:
    body = {"title": title, "players": PLAYERS[:3] if title != "1850" else PLAYERS, "seed": 3, **extra}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


@pytest.mark.parametrize("title", TITLES)
def test_every_title_plays_through_the_api_and_its_record_replays(client: TestClient, title: str) -> None:
    made = _new(client, title)
    gid, seats = made["id"], made["seats"]
    assert set(seats) == set(PLAYERS[: len(seats)]) and made["url"] == f"/games/{gid}"
    state = client.get(f"/api/games/{gid}").json()
    assert state["acting"] and state["actions"] == 0 and "corporations" in state["state"]
    played = play(client, gid, next(iter(seats.values())), 120, seed=7)
    state = client.get(f"/api/games/{gid}").json()
    assert state["actions"] == played > 0
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["title"] == title and len(record["actions"]) == played
    replayed = railbook.replay(record)
    assert replayed.result == state["values"]
    ours = client.app.state.tables.get(gid).game.to_json()["state"]
    theirs = replayed.game.to_json()["state"]
    assert {**theirs, "extra": None} == {**ours, "extra": None}  # (replay keeps its revenue checks in extra)


def test_seats_act_only_for_themselves(client: TestClient) -> None:
    made = _new(client, hotseat=False)
    gid, seats = made["id"], made["seats"]
    legal = client.get(f"/api/games/{gid}/legal").json()
    actor = legal["acting"][0]
    option = legal["legal"][0]
    action = {
        "type": option["type"],
        "entity": option["entity"],
        "entity_type": option["entity_type"],
        **option["fields"],
    }
    other = next(p for p in seats if p != actor)
    assert client.post(f"/api/games/{gid}/actions", json=action).status_code == 401
    bad = client.post(f"/api/games/{gid}/actions", json=action, headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 401
    foreign = client.post(f"/api/games/{gid}/actions", json=action, headers={"Authorization": f"Bearer {seats[other]}"})
    assert foreign.status_code == 403 and actor in foreign.json()["error"]
    ok = client.post(f"/api/games/{gid}/actions", json=action, headers={"Authorization": f"Bearer {seats[actor]}"})
    assert ok.status_code == 200 and ok.json()["actions"] == 1
    # only the one who acted may take it back
    undo = {"type": "undo"}
    assert (
        client.post(
            f"/api/games/{gid}/actions", json=undo, headers={"Authorization": f"Bearer {seats[other]}"}
        ).status_code
        == 403
    )
    back = client.post(f"/api/games/{gid}/actions", json=undo, headers={"Authorization": f"Bearer {seats[actor]}"})
    assert back.status_code == 200 and back.json()["actions"] == 0 and back.json()["can_redo"]


def test_hotseat_accepts_any_seat_and_illegal_actions_get_the_engine_message(client: TestClient) -> None:
    made = _new(client)
    gid, seats = made["id"], made["seats"]
    legal = client.get(f"/api/games/{gid}/legal").json()
    actor = legal["acting"][0]
    other = next(p for p in seats if p != actor)
    auth = {"Authorization": f"Bearer {seats[other]}"}
    wrong = {"type": "buy_shares", "entity": actor, "entity_type": "player", "shares": ["B&O_1"]}
    refused = client.post(f"/api/games/{gid}/actions", json=wrong, headers=auth)
    assert refused.status_code == 422 and refused.json()["rule"] and refused.json()["error"]
    assert client.get(f"/api/games/{gid}").json()["actions"] == 0
    option = legal["legal"][0]
    action = {
        "type": option["type"],
        "entity": option["entity"],
        "entity_type": option["entity_type"],
        **option["fields"],
    }
    assert client.post(f"/api/games/{gid}/actions", json=action, headers=auth).status_code == 200
    before = client.get(f"/api/games/{gid}").json()["state"]
    assert client.post(f"/api/games/{gid}/actions", json={"type": "undo"}, headers=auth).status_code == 200
    redone = client.post(f"/api/games/{gid}/actions", json={"type": "redo"}, headers=auth)
    assert redone.status_code == 200 and redone.json()["state"] == before


def test_a_restart_loses_nothing(db: Path) -> None:
    with TestClient(create_app(db)) as first:
        made = _new(first, "1856")
        gid, token = made["id"], next(iter(made["seats"].values()))
        play(first, gid, token, 60, seed=2)
        first.post(f"/api/games/{gid}/actions", json={"type": "undo"}, headers={"Authorization": f"Bearer {token}"})
        before = first.get(f"/api/games/{gid}").json()
    with TestClient(create_app(db)) as second:
        after = second.get(f"/api/games/{gid}").json()
        assert after == before and after["can_redo"]
        assert (
            second.post(
                f"/api/games/{gid}/actions", json={"type": "redo"}, headers={"Authorization": f"Bearer {token}"}
            ).status_code
            == 200
        )
        assert play(second, gid, token, 5, seed=3) == 5


def test_concurrent_actions_on_one_game_are_serialised(client: TestClient) -> None:
    made = _new(client)
    gid, token = made["id"], next(iter(made["seats"].values()))
    option = client.get(f"/api/games/{gid}/legal").json()["legal"][0]
    action = {
        "type": option["type"],
        "entity": option["entity"],
        "entity_type": option["entity_type"],
        **option["fields"],
    }
    codes: list[int] = []

    def send() -> None:
        r = client.post(f"/api/games/{gid}/actions", json=action, headers={"Authorization": f"Bearer {token}"})
        codes.append(r.status_code)

    threads = [threading.Thread(target=send) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert codes.count(200) >= 1 and all(c in (200, 422) for c in codes)
    assert client.get(f"/api/games/{gid}").json()["actions"] == codes.count(200)


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"title": "18xx", "players": ["a", "b", "c"]}, 400),
        ({"title": "1846", "players": []}, 400),
        ({"title": "1846", "players": ["a", "a", "b"]}, 400),
        ({"title": "1846", "players": ["a"]}, 400),
        ({"title": "1846", "players": ["a", "b", "c"], "seed": "x"}, 400),
        ({"title": "1846", "players": ["a", "b", "c"], "options": ["nope"]}, 400),
        ({"title": "1846", "players": ["a", "b", "c"], "extra": 1}, 400),
        ([1, 2], 400),
    ],
)
def test_new_game_requests_are_validated(client: TestClient, body: object, status: int) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == status and response.json()["error"]


def test_requests_are_bounded(client: TestClient) -> None:
    made = _new(client)
    gid, token = made["id"], next(iter(made["seats"].values()))
    huge = b'{"type": "pass", "x": "' + b"a" * 300_000 + b'"}'
    r = client.post(f"/api/games/{gid}/actions", content=huge, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 413
    r = client.post(f"/api/games/{gid}/actions", content=b"{not json", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 400
    r = client.post(f"/api/games/{gid}/actions", json=[1], headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 400
    assert client.get("/api/games/nope").status_code == 404
    assert client.get("/api/games/nope/record").status_code == 404


def test_default_options_apply_when_none_are_named(client: TestClient) -> None:
    made = _new(client, "1817")
    record = client.get(f"/api/games/{made['id']}/record").json()
    known = client.app.state.tables.catalogue.rulebook("1817")
    defaults = [name for name, spec in known["options"].items() if spec.get("default")]
    assert defaults and record["settings"]["optional_rules"] == defaults
