"""How the search player's win rate grows with its budget: the README's budget table.

Run: ``.venv/bin/python benchmarks/search_budget.py DECK... [--games N] [--seed S]
[--workers W] [--rollouts R ...]``

For each deck it plays games ``0..N-1`` of the seed with the heuristic player and with the search
player at each budget (``deckkit simulate --policy search --rollouts R``), and prints a Markdown
row a deck: the heuristic's rate, then each budget's rate with its 95% interval, its paired
difference from the heuristic on the same games (95% normal interval on the per-game
differences) and the CPU seconds of the run and its workers. The same seed and game index deal
the same cards to every player, so only the decisions differ.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def outcomes(deck: str, rollouts: int | None, args: argparse.Namespace) -> tuple[list[bool], float]:
    """Whether each game was won (by the search player at ``rollouts``, else the heuristic), and
    the CPU seconds the run took."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "games.csv"
        cmd = [sys.executable, "-m", "deckkit", "simulate", str(REPO / "decks" / f"{deck}.deck"),
               "--games", str(args.games), "--seed", str(args.seed), "--workers",
               str(args.workers), "--out", str(out), "--force", "--quiet"]  # fmt: skip
        if rollouts is None:
            cmd += ["--policy", "heuristic"]
        else:
            cmd += ["--policy", "search", "--rollouts", str(rollouts)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=dict(os.environ))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        with out.open(newline="") as f:
            rows = sorted(csv.DictReader(f), key=lambda r: int(r["index"]))
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return [r["outcome"] == "win" for r in rows], cpu


def wilson(k: int, n: int) -> tuple[float, float]:
    z = 1.959964
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("decks", nargs="+")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rollouts", type=int, nargs="+", default=[8, 16, 32])
    args = parser.parse_args()
    head = ["deck", "heuristic"]
    for r in args.rollouts:
        head += [f"search, {r} rollouts (95% CI)", "− heuristic (95% CI)", "CPU s"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for deck in args.decks:
        base, _ = outcomes(deck, None, args)
        n = len(base)
        cells = [f"`decks/{deck}.deck`", f"{sum(base) / n * 100:.1f}%"]
        for r in args.rollouts:
            won, cpu = outcomes(deck, r, args)
            lo, hi = wilson(sum(won), n)
            diffs = [int(a) - int(b) for a, b in zip(won, base, strict=True)]
            mean = sum(diffs) / n
            sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, n - 1))
            half = 1.96 * sd / math.sqrt(n)
            a, b = (mean - half) * 100, (mean + half) * 100
            cells += [f"{sum(won) / n * 100:.1f}% ({lo * 100:.1f}%–{hi * 100:.1f}%)",
                      f"{mean * 100:+.1f} ({a:+.1f} to {b:+.1f})", f"{cpu:.0f}"]  # fmt: skip
        print("| " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
