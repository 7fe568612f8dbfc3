"""Bots: heuristic bot strength and speed per playable title (4 players; CPU seconds per game on one core)."""

from __future__ import annotations

import os

from benchmarks.results import record as note

#: games per title and table; RAILBOOK_BENCH_SIM_GAMES=200 for the issue's bars with tight intervals
GAMES = int(os.environ.get("RAILBOOK_BENCH_SIM_GAMES", "10"))
SEED = 1000


def run() -> None:
    from railbook.compiler.compile import build_rulebook
    from railbook.compiler.load import available_titles

    from railbook.simulate.run import SimConfig, simulate
    from railbook.simulate.summary import summarize
    from railbook.soak import not_playable

    for title in available_titles():
        book = build_rulebook(title)
        if not_playable(book) is not None or 4 not in [int(n) for n in book.get("players") or {}]:
            print(f"   {title:5s} not playable with 4 players yet")
            continue
        mixed = summarize(simulate(book, SimConfig(GAMES, 4, ("heuristic", "random"), SEED)))
        alone = summarize(simulate(book, SimConfig(GAMES, 4, ("heuristic",), SEED)))
        wins = mixed["bots"]["heuristic"]
        figures = {
            "games": GAMES,
            "heuristic_win_rate_vs_3_random": wins["win_rate"],
            "heuristic_win_rate_ci": wins["win_rate_ci"],
            "rule_end_rate_heuristic_only": alone["rule_end_rate"],
            "end_reasons_heuristic_only": alone["end_reasons"],
            "cpu_s_per_game_heuristic_only": alone["cpu_seconds_per_game"],
            "cpu_s_per_game_mixed": mixed["cpu_seconds_per_game"],
            "operating_rounds_heuristic_only": alone["operating_rounds"]["mean"],
            "invariant_failures": mixed["invariant_failures"] + alone["invariant_failures"],
            "errors": mixed["errors"] + alone["errors"],
        }
        note("simulate", title, figures)
        lo, hi = wins["win_rate_ci"]
        print(
            f"   {title:5s} heuristic vs 3 random wins {100 * wins['win_rate']:.0f}% "
            f"(95% CI {100 * lo:.0f}-{100 * hi:.0f}%) of {GAMES}; "
            f"heuristic x4 rule ends {100 * alone['rule_end_rate']:.0f}% {alone['end_reasons']}; "
            f"{alone['cpu_seconds_per_game']:.1f} CPU s/game (x4 heuristic), "
            f"{mixed['cpu_seconds_per_game']:.1f} (mixed); "
            f"{figures['invariant_failures']} invariant failures, {figures['errors']} errors"
        )
