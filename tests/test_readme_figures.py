"""The README's figures hold: its sample-deck win rates (measured by
benchmarks/deck_winrates.py on 10,000 games) agree with a replay of the first 1,000 of those
games, and its coverage claims match `deckkit cards coverage`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.deck_winrates import DECKS, win_count
from deckkit.analysis.summary import proportion

ROOT = Path(__file__).resolve().parent.parent
RATE = r"(?P<{}>[\d.]+)% \([^)]*\)"
DECK = r"^\| `decks/(?P<deck>[\w-]+)\.deck` \| "
ROW = re.compile(DECK + RATE.format("h") + r" \| " + RATE.format("r") + r" \|$")
REPLAY = 1_000


def readme_rates() -> dict[str, tuple[float, float]]:
    rows = {}
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if m:
            rows[m["deck"]] = (float(m["h"]) / 100, float(m["r"]) / 100)
    return rows


def test_readme_lists_every_sample_deck() -> None:
    assert set(readme_rates()) == set(DECKS)


def test_the_player_tables_cover_every_sample_deck() -> None:
    """The ladder (benchmarks/ladder.py) has a row for every solitaire sample deck and the
    sensitivity table (benchmarks/sensitivity_table.py) a column for each but demo: a deck added
    without making them again fails here."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    ladder = next(line for line in text.splitlines() if line.startswith("| deck | random (10,000)"))
    rows = text[text.index(ladder) :].split("\n\n", 1)[0].splitlines()[2:]
    assert [re.match(DECK, r)["deck"] for r in rows] == list(DECKS)  # type: ignore[index]
    head = next(line for line in text.splitlines() if line.startswith("| reading | "))
    columns = [c.strip(" `") for c in head.strip("|").split("|")[1:]]
    assert columns == [d.removesuffix("-solo") for d in DECKS if d != "demo-solo"]


@pytest.mark.slow
@pytest.mark.parametrize("deck", DECKS)
def test_readme_win_rates_agree_with_a_replay(deck: str) -> None:
    """The README's rate lies in the 99.9% interval of the first 1,000 games of its run (same
    seed): a change to the engine that moves a deck's win rate makes this fail until the table
    is measured again. (Slow, 12,000 games: `make test-slow`, run by .ci/run.)"""
    heuristic, random_ = readme_rates()[deck]
    for policy, stated in (("heuristic", heuristic), ("random", random_)):
        wins = win_count(deck, policy, REPLAY, seed=1)
        rate = proportion(wins, REPLAY, confidence=0.999)
        assert rate.ci is not None
        lo, hi = rate.ci
        assert lo - 0.0005 <= stated <= hi + 0.0005, (deck, policy, stated, rate)
