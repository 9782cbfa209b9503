"""Paired, interleaved speed runs of one player on two source trees (this one and a base).

Run: ``.venv/bin/python benchmarks/bench_paired.py BASE_TREE [--deck NAME] [--games N]
[--rounds R] [--policy P]``

Each round plays games ``0..N-1`` of seed 0 in a fresh interpreter for each tree (order
alternating between rounds, so a change in the machine's load falls on both), timed in CPU
seconds of that process. It prints games per CPU second of each run and the median of the
per-round ratios (this tree / base): the figure to quote for "the player is no slower". Build each
tree's compiled engine first (``tools/build_fast.py``) or set DECKKIT_PURE=1 for both.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

CHILD = r"""
import sys, time
root = sys.argv[1]; sys.path.insert(0, root)
from pathlib import Path
from deckkit.animayhem.engine import COMPILED
from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.deck import read_deck
from deckkit.animayhem.construction.editions import DEFAULT_EDITION, load_edition
from deckkit.animayhem.engine.play import GameOptions, play_game, prepare_game
from deckkit.animayhem.engine.policy import make_policy
deck = read_deck(Path(root) / "decks" / (sys.argv[2] + ".deck"), load_card_db())
setup = prepare_game(deck, load_edition(deck.edition or DEFAULT_EDITION), GameOptions())
policy = make_policy(sys.argv[4]); n = int(sys.argv[3])
t = time.process_time()
for i in range(n):
    play_game(setup, policy, 0, i)
print(COMPILED, n / (time.process_time() - t))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path)
    parser.add_argument("--deck", default="demo-solo")
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--policy", default="heuristic")
    args = parser.parse_args()
    trees = {"base": args.base.resolve(), "this": REPO}
    runs: dict[str, list[float]] = {"base": [], "this": []}
    for r in range(args.rounds):
        for name in ("base", "this") if r % 2 == 0 else ("this", "base"):
            out = subprocess.run(
                [sys.executable, "-c", CHILD, str(trees[name]), args.deck, str(args.games),
                 args.policy],
                capture_output=True, text=True, check=True, cwd="/",
            )  # fmt: skip
            compiled, rate = out.stdout.split()
            runs[name].append(float(rate))
        print(f"round {r}: compiled={compiled} base={runs['base'][-1]:.0f} "
              f"this={runs['this'][-1]:.0f} games/CPU s", flush=True)  # fmt: skip
    ratios = [b / a for a, b in zip(runs["base"], runs["this"], strict=True)]
    print(json.dumps({"deck": args.deck, "games": args.games, "policy": args.policy, **runs,
                      "ratios": ratios, "ratio_median": statistics.median(ratios)}))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
