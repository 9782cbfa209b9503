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


def _row(same: bool) -> dict[str, object]:
    spread = {"median": 1.0, "min": 1.0, "max": 1.0}
    return {
        "deck": "demo-solo", "build": "pure", "base": "1b040a5",
        "base_games_per_cpu_s": spread, "this_games_per_cpu_s": spread, "ratio_games": spread,
        "ratio_turns": spread, "base_mean_turns": 9.2, "this_mean_turns": 6.0,
        "same_games": same,
    }  # fmt: skip


def test_the_table_says_whether_a_base_played_the_same_games() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_engine import table

    same = table([_row(True)])
    assert same.splitlines()[2].endswith("yes") and "not the speed work's gain" not in same
    other = table([_row(True), _row(False)])
    assert other.splitlines()[3].endswith("no") and "not the speed work's gain" in other


def test_a_timed_run_hashes_the_games_it_played() -> None:
    """The hash a benchmark run prints is the one of its games' records (fingerprint.py's)."""
    import hashlib

    from deckkit.animayhem.construction.editions import DEFAULT_EDITION, load_edition
    from deckkit.animayhem.engine.play import GameOptions, play_game, prepare_game
    from deckkit.animayhem.engine.policy import make_policy

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_paired import run_once

    deck_file = ROOT / "decks" / "demo-solo.deck"
    run = run_once(ROOT, deck_file, 3, "heuristic", True)
    assert not run.compiled
    deck = read_deck(deck_file, load_card_db())
    setup = prepare_game(deck, load_edition(deck.edition or DEFAULT_EDITION), GameOptions())
    h = hashlib.sha256()
    for i in range(3):
        r = play_game(setup, make_policy("heuristic"), 0, i)
        counters = sorted((k[0], str(k[1]), v) for k, v in r.counters.items())
        h.update(repr((r.outcome, r.turns, r.items_in_play, r.items_retrieved, r.items_lost,
                       r.end_reason, counters)).encode())  # fmt: skip
    assert run.games_hash == h.hexdigest()[:16]
