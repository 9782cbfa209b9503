"""Paired, interleaved speed runs of several builds of the engine (the README's "The build").

Run: ``.venv/bin/python benchmarks/bench_builds.py TREE [TREE ...] [--deck NAME] [--games N]
[--rounds R] [--policy P]``

Each TREE is a copy of a checkout with its own build/fast (e.g. one built with other flags).
Each round plays games ``0..N-1`` of seed 0 in a fresh interpreter on every tree, in an order
that rotates between rounds (a change in the machine's load falls on all), timed in CPU seconds
of that process (benchmarks/bench_paired.py's run). It prints each tree's median games per CPU
second with its range, and the median and range of the per-round ratios to the first tree;
every tree must load its compiled engine and play the same games.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_paired import deck_path, run_once


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", type=Path, nargs="+")
    parser.add_argument("--deck", default="demo-solo", help="a name in decks/ or a .deck path")
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--policy", default="heuristic")
    args = parser.parse_args()
    trees = [t.resolve() for t in args.trees]
    rates: list[list[float]] = [[] for _ in trees]
    hashes: set[str] = set()
    for r in range(args.rounds):
        order = [(r + k) % len(trees) for k in range(len(trees))]
        if r % 2:
            order.reverse()
        for i in order:
            run = run_once(trees[i], deck_path(trees[i], args.deck), args.games, args.policy,
                           pure=False)  # fmt: skip
            if not run.compiled:
                raise SystemExit(f"{trees[i]} played its pure-Python engine")
            rates[i].append(run.rate)
            hashes.add(run.games_hash)
        line = " ".join(f"{t.name}={x[-1]:.0f}" for t, x in zip(trees, rates, strict=True))
        print(f"round {r}: {line}", flush=True)
    summary = []
    for tree, runs in zip(trees, rates, strict=True):
        ratios = [b / a for a, b in zip(rates[0], runs, strict=True)]
        summary.append({"tree": tree.name, "median": statistics.median(runs), "min": min(runs),
                        "max": max(runs), "ratio_median": statistics.median(ratios),
                        "ratio_min": min(ratios), "ratio_max": max(ratios)})  # fmt: skip
        print(f"{tree.name:24} {statistics.median(runs):7.0f} [{min(runs):.0f}-{max(runs):.0f}]"
              f" games/CPU s, x{statistics.median(ratios):.3f} "
              f"[{min(ratios):.2f}-{max(ratios):.2f}] of {trees[0].name}")  # fmt: skip
    print(json.dumps({"deck": args.deck, "games": args.games, "rounds": args.rounds,
                      "same_games": len(hashes) == 1, "trees": summary}))  # fmt: skip
    return 0 if len(hashes) == 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
