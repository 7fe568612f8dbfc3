"""How long a private's ability lasts and where its markers may go (issue 36: rules the format had dropped, now
played): ``closes_when_used`` (the private closes once the ability is used up), ``lost_if_hex_built`` (the ability
goes once another tile is laid in its hex) and ``max_per_hex`` (at most so many markers of one kind in a hex, every
private's counting).  Each is played in the small title of ``test_base_vocabulary``, through ``Game.process`` and
the legal actions."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from railbook.engine.errors import IllegalAction
from railbook.engine.game import Game
from railbook.engine.replay import filter_actions, load, normalise, start_from_record
from railbook.engine.state import ckey, pkey

from railbook.api import rulebook_for_title
from tests.conftest import fixture_files
from tests.test_base_vocabulary import give, small_title

PLAYERS = ["ann", "bob", "cy"]


def _lay(g: Game, private: str, hex_id: str, tile: str, rotation: int) -> None:
    lay = {"type": "lay_tile", "entity": private, "entity_type": "company", "hex": hex_id}
    g.process({**lay, "tile": tile, "rotation": rotation}, False)


def _lay_title(tmp_path: Path, mr: dict[str, Any], bt: dict[str, Any] | None = None) -> Game:
    """Players may lay a private's tile in their stock turn; MR lays on C3 with ``mr`` params; BT (if given) lays
    on C3 or A5 with ``bt`` params."""

    def change(t: dict[str, Any]) -> None:
        t["rounds"]["kinds"]["stock"]["steps"] = ["exchange", "special_track", "stock"]
        lay = {"type": "tile_lay", "owner": "player", "when": "owning_player_or_sr_turn", "tiles": ["7", "8", "9"]}
        t["privates"]["MR"]["abilities"] = [{**lay, "hexes": ["C3"], "count": 1, "free": True, "params": mr}]
        if bt is not None:
            t["privates"]["BT"] = {
                "name": "Builder",
                "value": 30,
                "revenue": 5,
                "abilities": [{**lay, "hexes": ["C3", "A5"], "count": 2, "free": True, "params": bt}],
            }

    return Game.start(small_title(tmp_path, change), PLAYERS, seed=1)


def _lays_offered(g: Game, private: str) -> bool:
    return any(d["entity"] == private and d["type"] == "lay_tile" for d in g.legal_descriptions())


@pytest.mark.parametrize("closes", [False, True])
def test_a_private_closes_once_its_ability_is_used_up(tmp_path: Path, closes: bool) -> None:
    g = _lay_title(tmp_path, {"closes_when_used": closes} if closes else {})
    give(g, "MR", "ann")
    assert _lays_offered(g, "MR")
    _lay(g, "MR", "C3", "9-0", 1)
    mr = g.state.companies["MR"]
    assert mr.closed is closes
    assert (mr.owner is None) is closes, "a closed private leaves its owner; an open one stays, worth its revenue"
    assert not mr.abilities and not _lays_offered(g, "MR")


def test_a_private_with_uses_left_stays_open(tmp_path: Path) -> None:
    g = _lay_title(tmp_path, {}, bt={"closes_when_used": True})
    give(g, "BT", "ann")
    _lay(g, "BT", "A5", "8-0", 4)
    assert not g.state.companies["BT"].closed and _lays_offered(g, "BT"), "one lay of two is left"
    _lay(g, "BT", "C3", "9-0", 1)
    assert g.state.companies["BT"].closed


@pytest.mark.parametrize("lost", [False, True])
def test_an_ability_is_lost_once_another_tile_is_laid_in_its_hex(tmp_path: Path, lost: bool) -> None:
    g = _lay_title(tmp_path, {"lost_if_hex_built": True} if lost else {}, bt={})
    give(g, "MR", "bob")
    give(g, "BT", "ann")
    _lay(g, "BT", "C3", "9-0", 1)  # another private builds MR's hex
    assert bool(g.state.companies["MR"].abilities) is not lost
    assert not g.state.companies["MR"].closed, "without closes_when_used the private stays"


@pytest.mark.parametrize("holder", ["player", "corporation"])
def test_a_private_whose_hex_is_built_stays_open_in_any_hands(tmp_path: Path, holder: str) -> None:
    """With ``closes_when_used`` too, losing the ability is not using it: the private stays open whoever holds it
    (1817 §1.2.6: "Private companies remain open the entire game"; 18xx.games leaves a company's Pittsburgh Steel
    Mill open once another tile is on its hex: differential run 7 seed 90007)."""
    g = _lay_title(tmp_path, {"lost_if_hex_built": True, "closes_when_used": True}, bt={})
    if holder == "player":
        give(g, "MR", "bob")
    else:
        g.state.companies["MR"].owner = ckey("WR")
        g.context.corp("WR").companies.append("MR")
    give(g, "BT", "ann")
    _lay(g, "BT", "C3", "9-0", 1)
    mr = g.state.companies["MR"]
    assert not mr.abilities
    assert not mr.closed
    assert ("MR" in g.context.corp("WR").companies) is (holder == "corporation")


def _marker_title(tmp_path: Path, cap: int | None) -> Game:
    """MR (one marker) and BT (two), both ``bridge`` markers for C3 or C5, placed in their owner's stock turn."""

    def change(t: dict[str, Any]) -> None:
        t["rounds"]["kinds"]["stock"]["steps"] = ["exchange", "assign", "stock"]
        params: dict[str, Any] = {"token": "bridge", "bonus_for": "all_companies"}
        if cap is not None:
            params["max_per_hex"] = cap
        marker = {"type": "assign_hexes", "owner": "player", "when": "any", "hexes": ["C3", "C5"], "amount": 10}
        t["privates"]["MR"]["abilities"] = [{**marker, "count": 1, "params": params}]
        t["privates"]["BT"] = {
            "name": "Builder",
            "value": 30,
            "revenue": 5,
            "abilities": [{**marker, "count": 2, "params": params}],
        }

    return Game.start(small_title(tmp_path, change), PLAYERS, seed=1)


def _targets(g: Game, private: str) -> list[str]:
    return sorted(
        c["target"]
        for d in g.legal_descriptions()
        if d["entity"] == private and d["type"] == "assign"
        for c in d["choices"]
    )


def _assign(g: Game, private: str, hex_id: str) -> None:
    assign = {"type": "assign", "entity": private, "entity_type": "company"}
    g.process({**assign, "target": hex_id, "target_type": "hex"}, False)


@pytest.mark.parametrize("cap", [None, 1])
def test_at_most_one_marker_of_a_kind_per_hex(tmp_path: Path, cap: int | None) -> None:
    g = _marker_title(tmp_path, cap)
    give(g, "MR", "ann")
    give(g, "BT", "bob")
    _assign(g, "MR", "C3")
    assert _targets(g, "BT") == (["C5"] if cap else ["C3", "C5"])
    if cap:
        with pytest.raises(IllegalAction):
            _assign(g, "BT", "C3")
    _assign(g, "BT", "C5")
    assert _targets(g, "BT") == ([] if cap else ["C3"]), "nor two of one private's markers in a hex"


# ------------------------------------------------------------------------------------------ payout_on_transfer


def _with_payout(rb: dict[str, Any]) -> dict[str, Any]:
    """The rulebook with every private carrying ``payout_on_transfer: 100`` (as 1817's Golden Parachute does)."""
    out = copy.deepcopy(rb)
    out["mechanics"].setdefault("private_payouts", {})
    for spec in out["privates"].values():
        spec.setdefault("abilities", []).append(
            {"type": "description", "owner": "corporation", "params": {"payout_on_transfer": 100}}
        )
    return out


def _process(games: tuple[Game, ...], action: dict[str, Any]) -> None:
    for g in games:
        for x in [action, *(action.get("auto_actions") or [])]:
            g.process(normalise(x), atomic=False)


def _open_auction(g: Game) -> tuple[str, str, dict[str, Any]] | None:
    """In an acquisition round, an auction of a company that holds privates and has a player president, with
    another player to bid: (company, its president, that player's lowest bid)."""
    r = g.state.round
    auction = r.data.get("auction") if r.kind == "acquisition" else None
    if not auction:
        return None
    corp = g.state.corporations[auction["corp"]]
    if not corp.companies or corp.owner is None or not corp.owner.startswith("P"):
        return None
    for d in g.legal_descriptions():
        if d["type"] == "bid" and pkey(d["entity"]) != corp.owner:
            bid = {k: d[k] for k in ("entity", "entity_type", "type", "corporation")}
            return auction["corp"], corp.owner, {**bid, "price": d["min"]}
    return None


@pytest.mark.skipif(not fixture_files("1817"), reason="the shared 1817 records are not available")
def test_the_president_is_paid_when_another_president_s_company_acquires_the_privates() -> None:
    """1817's Golden Parachute (``payout_on_transfer``): the bank pays the president of the owning company when a
    company of another president acquires it.  A shared record is played, with and without the payout on every
    private, to an acquisition auction; there another player outbids the president and acquires the company: the
    old president alone is paid, $100 for each of its privates."""
    base = rulebook_for_title("1817")
    for path in fixture_files("1817"):
        record = load(path)
        plain, paid = start_from_record(record, base), start_from_record(record, _with_payout(base))
        for action in filter_actions(record["actions"]):
            found = _open_auction(plain)
            if found is not None:
                break
            if action["type"] not in ("message", "log"):
                _process((plain, paid), action)
        else:
            continue
        corp, president, bid = found
        privates = list(plain.state.corporations[corp].companies)
        _process((plain, paid), bid)
        for _ in range(20):  # the others pass; the winner names the acquiring company
            if plain.state.corporations[corp].companies != privates:
                break
            legal = plain.legal_descriptions()
            d = next((x for x in legal if x["type"] not in ("bid", "pass")), None) or next(
                x for x in legal if x["type"] == "pass"
            )
            act = {k: v for k, v in d.items() if k not in ("choices", "min", "max", "step")}
            if d.get("choices"):
                act.update(d["choices"][0])
            _process((plain, paid), act)
        assert not set(privates) & set(plain.state.corporations[corp].companies), "the company was acquired"
        diff = {p.id: paid.context.cash(pkey(p.id)) - plain.context.cash(pkey(p.id)) for p in plain.state.players}
        assert {pkey(k): v for k, v in diff.items() if v} == {president: 100 * len(privates)}
        return
    pytest.skip("no shared 1817 record reaches an acquisition auction another player may bid in")


@pytest.mark.parametrize(
    ("ability", "words"),
    [
        ({"type": "tile_lay", "hexes": ["C3"], "params": {"closes_when_used": True}}, "needs a `count`"),
        ({"type": "tile_lay", "count": 1, "params": {"lost_if_hex_built": True}}, "needs `hexes`"),
        ({"type": "tile_lay", "hexes": ["C3"], "count": 1, "params": {"max_per_hex": 1}}, "assign_hexes parameter"),
    ],
)
def test_validate_names_a_lifetime_param_without_what_it_needs(
    tmp_path: Path, ability: dict[str, Any], words: str
) -> None:
    from railbook.compiler.errors import TitleError

    def change(t: dict[str, Any]) -> None:
        t["privates"]["MR"]["abilities"] = [ability]

    with pytest.raises(TitleError, match=words.replace("`", ".")):
        small_title(tmp_path, change)
