"""`make bench`'s inputs: its long-game deck stays a legal deck every engine reads, and the
benchmark refuses a base commit the clone lacks before it builds or plays anything."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.deck import read_deck
from deckkit.animayhem.construction.legality import check_deck

ROOT = Path(__file__).resolve().parent.parent
LONG = ROOT / "benchmarks" / "decks" / "long-solo.deck"


def test_the_long_game_deck_is_legal_and_fully_read() -> None:
    deck = read_deck(LONG, load_card_db())
    report = check_deck(deck, deck.edition or "guidelines1998", deck.variant or "standard", 1)
    assert report.legal, report.violations
    assert sum(e.count for e in deck.entries) == 5 + 1 + 9 + 9 + 10 + 24 + 30


def test_a_base_commit_missing_from_the_clone_is_refused() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_engine.py"), "--base", "0" * 40],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "not in this clone's history" in done.stderr
    assert "Traceback" not in done.stderr
