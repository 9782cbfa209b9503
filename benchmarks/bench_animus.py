"""Benchmark of the Animus battle engine: complete battles per second on one core.

Run: ``.venv/bin/python benchmarks/bench_animus.py [--games N] [--repeats R]``

It plays the two sample teams (``decks/animus-vanguard.team`` against
``decks/animus-counterpoint.team``) with the heuristic players through
``deckkit.animus.montecarlo.run`` with one worker, exactly what ``deckkit simulate -w 1`` does,
and reports the median of R timed runs of N battles each (team files read once per run, as the
command does). A speed figure is only meaningful from this script, never from unit tests.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a plain script from a checkout
    sys.path.insert(0, str(REPO))

from deckkit.animus import montecarlo  # noqa: E402
from deckkit.animus.construction.options import RuleOptions  # noqa: E402

TEAM = REPO / "decks" / "animus-vanguard.team"
VS = REPO / "decks" / "animus-counterpoint.team"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--policy", default="heuristic")
    args = parser.parse_args()
    match = montecarlo.Match(TEAM, VS, RuleOptions(), (args.policy, args.policy))
    rates = []
    turns = 0.0
    for repeat in range(args.repeats):
        started = time.perf_counter()
        result = montecarlo.run(match, games=args.games, seed=repeat, workers=1)
        seconds = time.perf_counter() - started
        rates.append(args.games / seconds)
        turns = result.tally.turns / result.tally.games
    load = os.getloadavg()
    print(f"python {platform.python_version()} on {platform.machine()}, load {load[0]:.2f}")
    print(
        f"animus: {args.games} battles x {args.repeats} runs, one core, {args.policy} players, "
        f"{turns:.1f} turns a battle"
    )
    print(
        f"battles per second: median {statistics.median(rates):,.0f} "
        f"(runs: {', '.join(f'{r:,.0f}' for r in rates)})"
    )


if __name__ == "__main__":
    main()
