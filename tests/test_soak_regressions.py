"""Random games that once broke the engine (found by `railbook soak`), played again through the public API."""

from __future__ import annotations

import pytest
from railbook.compiler.load import available_titles

from railbook.soak import play_game

CASES = [
    ("1817", 1044, 160),  # a friendly-sale offer left pending after its president went bankrupt (owner: the pool)
    ("1817", 1059, 310),  # shareholders paid $0 a share when a liquidated company's leftover was under $1 a share
    ("1850", 1, 320),  # a `choose` description listed bare values, not action fields
    ("1817", 10, 55),  # an IPO winner paying with privates was left with negative cash meanwhile
    ("1817", 9, 88),  # an IPO bid offered that cash plus privates at face value could not make exactly
    ("1817", 15, 80),  # a mine tile offered as the turn's second lay that the company could not pay for
    ("1817", 1012, 400),  # more than eight station markers after a merger: the president's choice (§7.3) was refused
    ("1817", 1087, 220),  # the same choice (two markers removed) as random players play since they tire of stock rounds
    ("1817", 100410, 115),  # a mine lay offered whose terrain cost its company could not pay
    ("1856", 100387, 610),  # random bidders locked all their cash in bids: no one could buy the next private, for ever
    ("1817", 200218, 170),  # a bidder's bankruptcy passed the acquisition step before the next liquidation's auction
    ("1817", 200154, 300),  # the same, later in a game
    ("1830", 101, 330),  # a teleport lay offered whose mountain its company could not pay
    ("1830", 118, 730),  # a teleport token offered to a company with no station token left
    ("18Chesapeake", 374, 620),  # a yellow lay offered, then refused by the new-track rule meant for upgrades only
]


@pytest.mark.parametrize(("title", "seed", "actions"), CASES, ids=[f"{t}-seed{s}" for t, s, _ in CASES])
def test_soak_seed_plays_without_failures(title: str, seed: int, actions: int) -> None:
    if title not in available_titles():
        pytest.skip(f"games/{title} not written yet")
    from railbook.api import rulebook_for_title

    report = play_game(rulebook_for_title(title), seed, max_actions=actions)
    assert report.failures == [], [f"{f.action}: {f.invariant}: {f.message}" for f in report.failures]
