"""1817 §7.3 acquired station markers: a merger leaving the survivor with more than eight placed markers (or two on
one tile) has its president remove markers (``remove_token`` with a city and slot, as on 18xx.games)."""

from __future__ import annotations

import pytest
from railbook.engine import Game
from railbook.engine.errors import IllegalAction
from railbook.engine.replay import load, replay
from railbook.engine.state import Token

from railbook.api import rulebook_for_title

from .conftest import fixture_files

RECORD = next((p for p in fixture_files("1817") if p.name == "15528.json"), None)
MERGE_AT = 489  # WT merges with J in the merger round after the first operating rounds


def _place(g: Game, corp: str, hex_id: str, city: int, slot: int) -> None:
    slots = g.state.hexes[hex_id].tokens[city]
    assert slots[slot] is None
    slots[slot] = f"C|{corp}"
    g.state.corporations[corp].tokens.append(Token(price=0, used=True, hex=hex_id, city=city))


def _before_merge() -> Game:
    if RECORD is None:
        pytest.skip("the shared 1817 records are not available (set RAILBOOK_SHARED to the shared/ folder)")
    record = load(RECORD)
    g = replay({**record, "actions": []}, rulebook_for_title("1817")).game
    for action in record["actions"][:MERGE_AT]:
        g.process({**action, "entity": str(action["entity"])}, atomic=False)
    assert record["actions"][MERGE_AT]["type"] == "merge"
    # minimal setup: WT (home I12) and J (home D19) get markers enough to pass eight together; they share the
    # city of C8 and the tile of New York (E22: WT in its first city, J in the second, taken over from NYSW)
    for hex_id, city, slot in (("C8", 0, 0), ("C26", 0, 0), ("B5", 0, 0), ("E22", 0, 0)):
        _place(g, "WT", hex_id, city, slot)
    nysw = g.state.corporations["NYSW"]
    nysw.tokens = [t for t in nysw.tokens if not (t.used and t.hex == "E22")]
    g.state.hexes["E22"].tokens[1][0] = None
    for hex_id, city, slot in (("C8", 0, 1), ("C14", 0, 0), ("F3", 0, 0), ("G6", 0, 0), ("E22", 1, 0)):
        _place(g, "J", hex_id, city, slot)
    g.context.epoch += 1
    return g


def _removals(g: Game) -> list[dict[str, object]]:
    found = [a for a in g.legal_descriptions() if a["type"] == "remove_token"]
    assert len(found) == 1 and found[0]["entity"] == "WT"
    return list(found[0]["choices"])


def _placed(g: Game, corp: str) -> list[tuple[str, int]]:
    return sorted((t.hex, int(t.city or 0)) for t in g.state.corporations[corp].tokens if t.used and t.hex)


def _remove(g: Game, choice: dict[str, object]) -> None:
    g.process({"type": "remove_token", "entity": "WT", "entity_type": "corporation", **choice})


def test_the_president_removes_markers_down_to_eight_new_york_first() -> None:
    g = _before_merge()
    g.process({"type": "merge", "entity": "WT", "entity_type": "corporation", "corporation": "J"})
    # C8: J's marker went to the charter at once; 10 placed markers remain, two of them on New York's tile
    assert g.state.hexes["C8"].tokens[0].count("C|WT") == 1 and "C|J" not in g.state.hexes["C8"].tokens[0]
    assert len(_placed(g, "WT")) == 10
    assert g.acting() == [str(g.state.corporations["WT"].owner).split("|")[-1]]  # WT's president chooses
    ny = _removals(g)
    assert sorted(str(c["city"]).rsplit("-", 1)[1] for c in ny) == ["0", "1"]  # only New York's two cities
    assert all(a["type"] == "remove_token" for a in g.legal_descriptions())
    with pytest.raises(IllegalAction, match=r"§7\.3"):
        _remove(g, {"city": "C14-0-0", "slot": 0})  # New York first
    again = Game.from_json(rulebook_for_title("1817"), g.to_json())  # the pending choice survives JSON
    assert again.state.mechanics["mergers"].reducing == "WT" and _removals(again) == ny
    _remove(g, next(c for c in ny if str(c["city"]).endswith("-1")))
    assert ("E22", 1) not in _placed(g, "WT") and g.state.hexes["E22"].tokens[1] == [None]
    rest = _removals(g)
    assert len(rest) == 9  # any placed marker now
    _remove(g, next(c for c in rest if str(c["city"]).startswith("B5")))
    assert len(_placed(g, "WT")) == 8 and ("B5", 0) not in _placed(g, "WT")
    assert len(g.state.corporations["WT"].tokens) == 8  # the charter keeps eight markers in all
    assert g.state.mechanics["mergers"].reducing is None
    assert not any(a["type"] == "remove_token" for a in g.legal_descriptions())
    assert g.state.round.kind == "merger"  # the merger round goes on (treasury share trading after the change)


def test_eight_markers_or_fewer_need_no_choice() -> None:
    g = _before_merge()
    wt = g.state.corporations["WT"]
    for hex_id, city in (("C26", 0), ("E22", 0)):  # WT keeps I12, C8 and B5; no longer two on New York's tile
        g.state.hexes[hex_id].tokens[city][0] = None
        wt.tokens = [t for t in wt.tokens if (t.hex, t.city) != (hex_id, city)]
    g.context.epoch += 1
    g.process({"type": "merge", "entity": "WT", "entity_type": "corporation", "corporation": "J"})
    assert len(_placed(g, "WT")) == 8  # 3 + 6 less the shared city of C8: exactly eight, kept without a choice
    assert g.state.mechanics["mergers"].reducing is None
    assert not any(a["type"] == "remove_token" for a in g.legal_descriptions())
