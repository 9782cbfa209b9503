"""Instructions a game, counted by valgrind: a speed figure that the machine's load cannot move.

Run: ``.venv/bin/python benchmarks/instructions.py [TREE] [--decks demo-solo,medium-solo]
[--games 300,200] [--policy heuristic]``

For each deck it runs, under ``valgrind --tool=cachegrind --cache-sim=no``, a child that plays
games 0..N-1 of seed 0 in the tree's engine (compiled when its build is fresh), and the same child
playing none; the difference over N is the instructions of one game, from its set-up to its
record (a run without valgrind goes first, so that writing bytecode caches is counted in
neither). ``PYTHONHASHSEED=0`` for both: left random, a set's or a dictionary's layout moves a
medium game's count by up to 1% from one process to the next, as much as one speed step gains.
The CPU clock (``benchmarks/bench_engine.py``) stays the figure a speed claim rests on; this one
says, without noise, whether a step removed work.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

CHILD = r"""
import sys
root = sys.argv[1]; sys.path.insert(0, root)
from pathlib import Path
from deckkit.animayhem.engine import COMPILED
from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.deck import read_deck
from deckkit.animayhem.construction.editions import DEFAULT_EDITION, load_edition
from deckkit.animayhem.engine.play import GameOptions, play_game, prepare_game
from deckkit.animayhem.engine.policy import make_policy
deck = read_deck(Path(sys.argv[2]), load_card_db())
setup = prepare_game(deck, load_edition(deck.edition or DEFAULT_EDITION), GameOptions())
policy = make_policy(sys.argv[4])
play_game(setup, policy, 1, 0)  # one game outside the count's difference: first-call costs
for i in range(int(sys.argv[3])):
    play_game(setup, policy, 0, i).counters  # read, as a run's summary reads every record's
print("compiled" if COMPILED else "pure")
"""


def count(tree: Path, deck: Path, games: int, policy: str) -> tuple[int, str]:
    """Instructions of a child process playing ``games`` games, and the build it loaded."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cg.out"
        env = dict(os.environ, PYTHONHASHSEED="0")
        proc = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}",
             sys.executable, "-c", CHILD, str(tree), str(deck), str(games), policy],
            capture_output=True, text=True, env=env, check=True,
        )  # fmt: skip
        found = re.search(r"I\s+refs:\s+([\d,]+)", proc.stderr)
        if found is None:
            raise SystemExit(f"valgrind printed no instruction count:\n{proc.stderr[-2000:]}")
        return int(found.group(1).replace(",", "")), proc.stdout.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", default=str(REPO), help="source tree (default: this)")
    parser.add_argument("--decks", default="demo-solo,medium-solo")
    parser.add_argument("--games", default="300,200", help="games a deck, one or one per deck")
    parser.add_argument("--policy", default="heuristic")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    tree = Path(args.tree).resolve()
    names = args.decks.split(",")
    games = [int(g) for g in args.games.split(",")]
    if len(games) == 1:
        games *= len(names)
    if len(games) != len(names):
        raise SystemExit("--games: one count, or one per deck")
    for name, n in zip(names, games, strict=True):
        deck = Path(name) if name.endswith(".deck") else REPO / "decks" / f"{name}.deck"
        # Unmeasured first: a tree's first run writes the bytecode caches of what it imports.
        subprocess.run([sys.executable, "-c", CHILD, str(tree), str(deck), "0", args.policy],
                       capture_output=True, check=True)  # fmt: skip
        full, build = count(tree, deck, n, args.policy)
        none, _ = count(tree, deck, 0, args.policy)
        each = (full - none) / n
        print(f"{deck.stem:14} {build:8} {n:5} games  {each:12,.0f} instructions a game")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
