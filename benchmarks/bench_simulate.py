"""Bots: heuristic bot strength, rule ends and CPU seconds per game on one core, per playable title (4 players)."""

from __future__ import annotations

import os

from benchmarks.results import record as note

#: games per title and table (a small sample: a few minutes in all); RAILBOOK_BENCH_SIM_GAMES=200 for the issue's
#: bars with tight intervals (docs/SIMULATE.md)
GAMES = int(os.environ.get("RAILBOOK_BENCH_SIM_GAMES", "4"))
SEED = 1000
CORES = 2  # the 1,000-game estimate is for this many cores


def run() -> None:
    from railbook.compiler.compile import build_rulebook
    from railbook.compiler.load import available_titles

    from railbook.simulate.run import SimConfig, simulate
    from railbook.simulate.summary import summarize
    from railbook.soak import not_playable

    print(f"   {GAMES} games per title and table, seeds {SEED}-{SEED + GAMES - 1}, one process (CPU s on one core)")
    for title in available_titles():
        book = build_rulebook(title)
        if not_playable(book) is not None or 4 not in [int(n) for n in book.get("players") or {}]:
            print(f"   {title:12s} not playable with 4 players yet")
            continue
        mixed = summarize(simulate(book, SimConfig(GAMES, 4, ("heuristic", "random"), SEED, workers=1)))
        alone = summarize(simulate(book, SimConfig(GAMES, 4, ("heuristic",), SEED, workers=1)))
        wins = mixed["bots"]["heuristic"]
        per_game = alone["cpu_seconds_per_game"]
        figures = {
            "games": GAMES,
            "heuristic_win_rate_vs_3_random": wins["win_rate"],
            "heuristic_win_rate_ci": wins["win_rate_ci"],
            "rule_end_rate_heuristic_only": alone["rule_end_rate"],
            "end_reasons_heuristic_only": alone["end_reasons"],
            "cpu_s_per_game_heuristic_only": per_game,
            "cpu_s_per_game_mixed": mixed["cpu_seconds_per_game"],
            "minutes_for_1000_heuristic_games_on_2_cores": round(per_game * 1000 / CORES / 60, 1),
            "operating_rounds_heuristic_only": alone["operating_rounds"]["mean"],
            "invariant_failures": mixed["invariant_failures"] + alone["invariant_failures"],
            "errors": mixed["errors"] + alone["errors"],
        }
        note("simulate", title, figures)
        lo, hi = wins["win_rate_ci"]
        print(
            f"   {title:12s} heuristic vs 3 random: wins {wins['wins']}/{GAMES} "
            f"(95% CI {100 * lo:.0f}-{100 * hi:.0f}%); "
            f"4 heuristic: rule ends {round(alone['rule_end_rate'] * GAMES)}/{GAMES} {alone['end_reasons']}, "
            f"{per_game:.1f} CPU s a game (1,000 games on {CORES} cores: "
            f"{figures['minutes_for_1000_heuristic_games_on_2_cores']:.0f} min); "
            f"mixed {mixed['cpu_seconds_per_game']:.1f} s a game; "
            f"{figures['invariant_failures']} invariant failures, {figures['errors']} errors"
        )
