"""Anima Tactics: how many party games per CPU second this tree's engine and players play
against an older tree's, on the same seeded games (which must come out the same).

Run: ``python benchmarks/bench_animatactics_players.py [--base REV] [--policy heuristic|search]
[--games N] [--rounds R]``

The older tree is git revision ``--base`` (default ``main``), extracted as
``benchmarks/bench_engine.py`` extracts its bases (:func:`bench_engine.base_tree`, pure Python:
the party games are not compiled). Each round plays games ``0..N-1`` of seed 1, the Unaligned
party against Samael Darkness with the plan ``guarded``, both sides by the one player, once on
each tree, each in a fresh interpreter (the odds' caches start empty for both), in an order
that alternates between rounds (a change in the machine's load falls on both), timed in CPU
seconds of that process. It prints each tree's median games per CPU second with its range, the
median and range of the per-round ratios, and whether every game came out the same.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_engine import REPO, base_tree


def child(policy: str, games: int) -> int:
    """One round in this process, on the deckkit its PYTHONPATH names: prints {"rate": games
    per CPU second, "digest": of the games' results}."""
    from deckkit.animatactics.analysis.ladder import DECKS, _side
    from deckkit.animatactics.engine.playing import play_game
    from deckkit.animatactics.engine.skirmish import Side

    a = _side(DECKS / "at-unaligned.party", "guarded")
    b = _side(DECKS / "at-samael-darkness.party", "guarded")
    sides = (Side(a.fighters, a.levels, a.plan, policy), Side(b.fighters, b.levels, b.plan, policy))
    start = time.process_time()
    results = [play_game(sides, 1, i) for i in range(games)]
    spent = time.process_time() - start
    digest = hashlib.sha256(repr(results).encode()).hexdigest()[:16]
    import deckkit

    print(json.dumps({"rate": games / spent, "digest": digest, "from": deckkit.__file__}))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="main")
    parser.add_argument("--policy", choices=("heuristic", "search"), default="heuristic")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.policy, args.games)
    return compare({"base": base_tree(args.base, compiled=False), "this": REPO}, args)


def compare(trees: dict[str, Path], args: argparse.Namespace) -> int:
    """The interleaved rounds on the two trees and their summary."""
    rates: dict[str, list[float]] = {"base": [], "this": []}
    digests: set[str] = set()
    for r in range(args.rounds):
        order = ("base", "this") if r % 2 == 0 else ("this", "base")
        for side in order:
            command = [sys.executable, __file__, "--child", "--policy", args.policy,
                       "--games", str(args.games)]  # fmt: skip
            env = {**os.environ, "PYTHONPATH": str(trees[side])}
            done = subprocess.run(command, capture_output=True, text=True, check=True, env=env,
                                  cwd=trees[side])  # fmt: skip
            run = json.loads(done.stdout.strip().splitlines()[-1])
            if not Path(run["from"]).is_relative_to(trees[side]):
                raise SystemExit(f"the {side} round loaded {run['from']}, not {trees[side]}'s")
            rates[side].append(run["rate"])
            digests.add(run["digest"])
        print(f"round {r}: base {rates['base'][-1]:.2f}, this {rates['this'][-1]:.2f} games/CPU s",
              flush=True)  # fmt: skip
    ratios = [t / b for b, t in zip(rates["base"], rates["this"], strict=True)]
    for side, runs in rates.items():
        print(
            f"{side}: {statistics.median(runs):.2f} [{min(runs):.2f}-{max(runs):.2f}] games/CPU s"
        )
    print(f"ratio this/base: {statistics.median(ratios):.2f} [{min(ratios):.2f}-{max(ratios):.2f}]"
          f"; same games: {'yes' if len(digests) == 1 else 'NO'}")  # fmt: skip
    return 0 if len(digests) == 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
