"""One player on two source trees, paired on the same games: did a change to the player help?

Run: ``.venv/bin/python benchmarks/player_paired.py BASE_TREE DECK... [--games N] [--seed S]
[--policy P] [--rule NAME=VALUE ...] [--workers W]``

For each deck it plays games ``0..N-1`` of the seed with ``deckkit simulate --out`` on this tree
and on ``BASE_TREE`` (e.g. ``git archive`` of the commit before the change, extracted), reads
each game's outcome from the two files and prints both win rates and their paired difference
(this tree - base) with a 95% interval (normal approximation on the per-game differences), and
how many games changed outcome each way. A stall counts as not won. The same seed and game index
deal the same cards on both trees, so only the player's decisions (and what follows from them)
differ.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def outcomes(tree: Path, deck: Path, args: argparse.Namespace, out: Path) -> list[bool]:
    """Whether each game 0..N-1 was won, played on ``tree``'s engine."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree)
    cmd = [sys.executable, "-m", "deckkit", "simulate", str(deck), "--policy", args.policy,
           "--games", str(args.games), "--seed", str(args.seed), "--workers", str(args.workers),
           "--out", str(out), "--force", "--quiet"]  # fmt: skip
    for rule in args.rule:
        cmd += ["--rule", rule]
    subprocess.run(cmd, cwd=tree, env=env, check=True, stdout=subprocess.DEVNULL)
    with out.open(newline="") as f:
        rows = sorted(csv.DictReader(f), key=lambda r: int(r["index"]))
    return [r["outcome"] == "win" for r in rows]


def paired(new: list[bool], old: list[bool]) -> tuple[float, float, float]:
    """Mean difference (new - old) and its 95% interval."""
    n = len(new)
    diffs = [int(a) - int(b) for a, b in zip(new, old, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path)
    parser.add_argument("decks", nargs="+")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", default="heuristic")
    parser.add_argument("--rule", action="append", default=[])
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.decks:
            deck = Path(name) if name.endswith(".deck") else REPO / "decks" / f"{name}.deck"
            new = outcomes(REPO, deck.resolve(), args, Path(tmp) / "new.csv")
            old = outcomes(args.base.resolve(), deck.resolve(), args, Path(tmp) / "old.csv")
            mean, lo, hi = paired(new, old)
            gained = sum(1 for a, b in zip(new, old, strict=True) if a and not b)
            lost = sum(1 for a, b in zip(new, old, strict=True) if b and not a)
            n = len(new)
            print(
                f"{deck.stem}: {n} games, this {sum(new) / n:.1%} base {sum(old) / n:.1%} "
                f"diff {mean * 100:+.1f} pts (95% CI {lo * 100:+.1f} to {hi * 100:+.1f}); "
                f"won only here {gained}, only on base {lost}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
