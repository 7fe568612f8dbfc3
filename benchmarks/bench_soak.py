"""Soak speed: random legal games per second per playable title, invariants checked after every action."""

from __future__ import annotations

from benchmarks.results import record as note

GAMES = 20


def run() -> None:
    from railbook.compiler.compile import build_rulebook
    from railbook.compiler.load import available_titles

    from railbook.soak import soak

    for title in available_titles():
        summary = soak(title, build_rulebook(title), games=GAMES, seed=1)
        if not summary.playable:
            print(f"   {title:5s} not playable yet")
            continue
        per_action = 1e3 * summary.seconds / max(summary.actions, 1)
        note(
            "soak",
            title,
            {
                "games": summary.games,
                "actions": summary.actions,
                "games_per_s": round(summary.games_per_second, 3),
                "ms_per_action_all_cores": round(per_action, 3),
                "failures": len(summary.failures),
            },
        )
        print(
            f"   {title:5s} {summary.games} games, {summary.actions} actions: {summary.games_per_second:.2f} games/s "
            f"({per_action:.1f} ms/action on all cores), {len(summary.failures)} invariant failures"
        )
