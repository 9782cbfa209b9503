"""The fixed start-up cost of short commands: `--version` and `simulate DECK --games 1`.

Each command runs N times in a fresh process; the median wall-clock time is reported, with the
time Python itself needs to start (`python -c pass`) for reference. Run on a quiet machine:

    .venv/bin/python benchmarks/bench_startup.py [--runs 7]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DECK = REPO / "decks" / "demo-solo.deck"

COMMANDS: dict[str, list[str]] = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "deckkit --version": [sys.executable, "-m", "deckkit", "--version"],
    "deckkit validate DECK": [sys.executable, "-m", "deckkit", "validate", str(DECK)],
    "deckkit simulate DECK --games 1": [
        sys.executable,
        "-m",
        "deckkit",
        "simulate",
        str(DECK),
        "--games",
        "1",
        "--workers",
        "1",
    ],
}


def median_seconds(argv: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(argv, cwd=REPO, capture_output=True, check=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    for name, argv in COMMANDS.items():
        print(f"{name:34s} {median_seconds(argv, args.runs):6.3f} s (median of {args.runs})")


if __name__ == "__main__":
    main()
