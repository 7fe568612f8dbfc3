"""railbook simulate: records, determinism across worker counts, the report, comparing two designs, Ray (tiny
capped runs here; `make bench` plays full games)."""

from __future__ import annotations

import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from railbook.compiler.load import available_titles

from railbook.simulate.compare import compare
from railbook.simulate.play import GameSetup, play_game, seats_for
from railbook.simulate.run import SimConfig, read_records, simulate
from railbook.simulate.summary import proportion_ci, summarize
from tests.conftest import ROOT, run_cli

needs_1846 = pytest.mark.skipif("1846" not in available_titles(), reason="games/1846 not written yet")
CAP = 120  # actions a test game is capped at
FIELDS = {"seed", "seats", "actions", "rounds", "end_reason", "values", "ranking", "companies", "privates", "phases"}


@pytest.fixture(scope="module")
def rulebook() -> dict:
    from railbook.api import rulebook_for_title

    return rulebook_for_title("1846")


@pytest.fixture(scope="module")
def records(rulebook: dict) -> list[dict]:
    config = SimConfig(games=3, players=4, bots=("heuristic", "random"), seed=21, workers=1, max_actions=CAP)
    return simulate(rulebook, config)


def _without_time(records: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in ("seconds", "cpu_seconds")} for r in records]


def test_seats_rotate_the_bots_with_the_game() -> None:
    bots = ("heuristic", "random", "random", "random")
    assert seats_for(bots, 0)[0] == {"player": "p1", "bot": "heuristic"}
    assert [s["bot"] for s in seats_for(bots, 1)] == ["random", "random", "random", "heuristic"]
    assert SimConfig(1, 4, ("heuristic", "random")).setup().bots == bots


@needs_1846
def test_records_carry_the_fields_a_designer_needs(records: list[dict]) -> None:
    assert [r["seed"] for r in records] == [21, 22, 23]
    for r in records:
        assert r.keys() >= FIELDS
        assert [s["player"] for s in r["seats"]] == ["p1", "p2", "p3", "p4"]
        assert sorted(r["ranking"]) == sorted(r["values"]) == ["p1", "p2", "p3", "p4"]
        assert r["end_reason"] == "capped" and r["actions"] == CAP and not r["rule_end"]
        for figures in r["companies"].values():
            assert figures.keys() >= {"floated_or", "revenue", "trains_bought"}
    assert any(r["companies"] for r in records)


@needs_1846
def test_a_game_depends_on_its_seed_alone(rulebook: dict, records: list[dict]) -> None:
    again = play_game(rulebook, 22, 1, GameSetup(("heuristic", "random", "random", "random"), max_actions=CAP))
    assert _without_time([again]) == _without_time(records[1:2])


@needs_1846
def test_worker_count_does_not_change_the_results(rulebook: dict, records: list[dict], tmp_path: Path) -> None:
    config = SimConfig(games=3, players=4, bots=("heuristic", "random"), seed=21, workers=2, max_actions=CAP)
    parallel = simulate(rulebook, config, tmp_path)
    assert _without_time(parallel) == _without_time(records)
    assert _without_time(read_records(tmp_path)) == _without_time(records)


@needs_1846
def test_the_report_renders(records: list[dict], tmp_path: Path) -> None:
    from railbook.simulate.report import render

    page = render(records, "1846", tmp_path / "report.html")
    text = page.read_text(encoding="utf-8")

    class Images(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.images: list[dict] = []

        def handle_starttag(self, tag: str, attrs: list) -> None:
            if tag == "img":
                self.images.append(dict(attrs))

    parser = Images()
    parser.feed(text)
    assert len(parser.images) == 7 and all(i["src"].startswith("data:image/png;base64,") for i in parser.images)
    assert sorted(p.name for p in tmp_path.glob("report-*.png")) == [
        f"report-{n}.png" for n in sorted(["length", "ends", "wins", "values", "companies", "privates", "phases"])
    ]
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium:  # a real browser loads it without errors
        done = subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--enable-logging=stderr",
                "--dump-dom",
                page.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr[-500:]
        assert done.stdout.count("<img") == 7 and "Uncaught" not in done.stderr


def test_summary_and_confidence_intervals() -> None:
    lo, hi = proportion_ci(95, 100)
    assert 0.88 < lo < 0.95 < hi < 0.99
    assert proportion_ci(0, 0) == (0.0, 1.0)
    record = {
        "seed": 1,
        "seats": [{"player": "p1", "bot": "heuristic"}, {"player": "p2", "bot": "random"}],
        "actions": 10,
        "rounds": 3,
        "operating_rounds": 2,
        "end_reason": "bank",
        "rule_end": True,
        "values": {"p1": 50, "p2": 10},
        "ranking": ["p1", "p2"],
        "winner_bot": "heuristic",
        "phases": [{"phase": "I", "or": 0, "round": 1}, {"phase": "II", "or": 2, "round": 3}],
        "bank_broken": {"or": 2, "round": 3},
        "companies": {"A": {"floated_or": 1, "revenue": {"1": 20, "2": 30}, "trains_bought": 1}},
        "privates": {"X": {"price": 20, "value": 20, "player": "p1", "or": 0, "round": 1}},
        "seconds": 0.1,
    }
    s = summarize([record])
    assert s["bots"]["heuristic"]["wins"] == 1 and s["bots"]["random"]["wins"] == 0
    assert s["companies"]["A"] == {"float_rate": 1.0, "mean_total_revenue": 50.0}
    assert s["phases_at_or"]["II"]["mean"] == 2 and s["bank_broken"]["games"] == 1
    other = {**record, "actions": 14, "rule_end": False, "end_reason": "capped"}
    rows = {r["metric"]: r for r in compare([record], [other])}
    assert rows["actions"]["diff"] == 4 and rows["rule end (share of games)"]["diff"] == -1


@needs_1846
def test_cli_simulates_and_compares_two_designs(tmp_path: Path) -> None:
    changed = tmp_path / "cheap2"
    shutil.copytree(ROOT / "games" / "1846", changed)
    trains = (changed / "trains.yaml").read_text(encoding="utf-8")
    assert "price: 80" in trains
    (changed / "trains.yaml").write_text(trains.replace("price: 80", "price: 60", 1), encoding="utf-8")
    out = tmp_path / "out"
    args = ["--games", "2", "--players", "4", "--bots", "heuristic,random", "--seed", "3", "--workers", "1"]
    done = run_cli("simulate", "1846", str(changed), *args, "--max-actions", "80", "--out", str(out), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [d["design"] for d in result["designs"]] == ["1846", str(changed)]
    assert (out / "1846" / "games.jsonl").is_file() and (out / "cheap2" / "games.jsonl").is_file()
    (comparison,) = result["compare"]
    assert comparison["a"] == "1846" and comparison["b"] == "cheap2" and Path(comparison["html"]).is_file()
    assert {"actions", "rule end (share of games)"} <= {r["metric"] for r in comparison["rows"]}
    bad = run_cli("simulate", "1846", "--bots", "grandmaster", "--out", str(out), "--json")
    assert bad.returncode == 1 and "unknown bot" in json.loads(bad.stdout)["error"]


@needs_1846
def test_ray_plays_the_same_games(rulebook: dict, records: list[dict]) -> None:
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'railbook[cluster]')")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        config = SimConfig(3, 4, ("heuristic", "random"), 21, workers=2, ray="auto", max_actions=CAP)
        assert _without_time(simulate(rulebook, config)) == _without_time(records)
    finally:
        ray.shutdown()
