"""Paired, interleaved speed runs of one player on two source trees (this one and a base).

Run: ``.venv/bin/python benchmarks/bench_paired.py BASE_TREE [--deck NAME|PATH] [--games N]
[--rounds R] [--policy P] [--pure]``

Each round plays games ``0..N-1`` of seed 0 in a fresh interpreter for each tree (order
alternating between rounds, so a change in the machine's load falls on both), timed in CPU
seconds of that process. It prints games per CPU second of each run and the median of the
per-round ratios (this tree / base): the figure to quote for "the player is no slower". Build each
tree's compiled engine first (``tools/build_fast.py``) or pass ``--pure`` (DECKKIT_PURE=1 for
both). ``benchmarks/bench_engine.py`` (``make bench``) runs these pairs on several decks and
builds against a fixed commit.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# One timed run in a fresh interpreter, on the tree given as argv[1]. Only the game loop is
# timed; it prints whether the compiled engine was loaded, games and turns per CPU second, the
# mean turns of a game, a hash of the first pass's game records (outcome, turns, item counts,
# end reason, per-card counters, as benchmarks/fingerprint.py hashes them: two trees that print
# the same played the same games), and the file deckkit was imported from (to prove which tree
# ran). Every game's counters are read in the timed loop: a record builds them when first read,
# and a run's summary reads every record's.
CHILD = r"""
import hashlib, sys, time
root = sys.argv[1]; sys.path.insert(0, root)
from pathlib import Path
import deckkit
from deckkit.animayhem.engine import COMPILED
from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.deck import read_deck
from deckkit.animayhem.construction.editions import DEFAULT_EDITION, load_edition
from deckkit.animayhem.engine.play import GameOptions, play_game, prepare_game
from deckkit.animayhem.engine.policy import make_policy
deck = read_deck(Path(sys.argv[2]), load_card_db())
setup = prepare_game(deck, load_edition(deck.edition or DEFAULT_EDITION), GameOptions())
policy = make_policy(sys.argv[4]); n = int(sys.argv[3]); least = float(sys.argv[5])
games = turns = 0
records = []
t = time.process_time()
while True:  # games 0..n-1, again until `least` CPU seconds have passed
    for i in range(n):
        r = play_game(setup, policy, 0, i)
        turns += r.turns + 0 * len(r.counters)  # read, as every run's summary reads them
        if not games:
            records.append(r)
    games += n
    spent = time.process_time() - t
    if spent >= least:
        break
h = hashlib.sha256()
for r in records:  # hashed after the clock stops
    counters = sorted((k[0], str(k[1]), v) for k, v in r.counters.items())
    h.update(repr((r.outcome, r.turns, r.items_in_play, r.items_retrieved, r.items_lost,
                   r.end_reason, counters)).encode())
print(COMPILED, games / spent, turns / spent, turns / games, h.hexdigest()[:16], deckkit.__file__)
"""


@dataclass(frozen=True)
class Run:
    """One timed run: the build it loaded, games and turns per CPU second, turns of a game, and
    the hash of its games' records."""

    compiled: bool
    rate: float
    turn_rate: float
    mean_turns: float
    games_hash: str


def deck_path(tree: Path, deck: str) -> Path:
    """A deck given by name (``decks/NAME.deck`` of ``tree``) or by path."""
    if deck.endswith(".deck") or "/" in deck:
        return Path(deck).resolve()
    return tree / "decks" / f"{deck}.deck"


def run_once(
    tree: Path, deck: Path, games: int, policy: str, pure: bool, least: float = 0.0
) -> Run:
    """Play games 0..games-1 of seed 0 on ``tree``'s engine in a fresh interpreter, repeated
    until at least ``least`` CPU seconds have passed (a short game set still times a while)."""
    env = dict(os.environ)
    env.pop("DECKKIT_PURE", None)
    if pure:
        env["DECKKIT_PURE"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(tree), str(deck), str(games), policy, str(least)],
        capture_output=True, text=True, cwd="/", env=env, check=False,
    )  # fmt: skip
    if out.returncode != 0:
        raise SystemExit(f"benchmark run on {tree} failed:\n{out.stderr}")
    compiled, rate, turn_rate, mean_turns, digest, module = out.stdout.split()
    if not Path(module).resolve().is_relative_to(tree.resolve()):
        raise SystemExit(f"the run meant for {tree} imported deckkit from {module}")
    return Run(compiled == "True", float(rate), float(turn_rate), float(mean_turns), digest)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path)
    parser.add_argument("--deck", default="demo-solo", help="a name in decks/ or a .deck path")
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--policy", default="heuristic")
    parser.add_argument("--pure", action="store_true", help="both trees' pure-Python engine")
    args = parser.parse_args()
    trees = {"base": args.base.resolve(), "this": REPO}
    runs: dict[str, list[float]] = {"base": [], "this": []}
    hashes: dict[str, str] = {}
    for r in range(args.rounds):
        for name in ("base", "this") if r % 2 == 0 else ("this", "base"):
            tree = trees[name]
            run = run_once(tree, deck_path(tree, args.deck), args.games, args.policy, args.pure)
            runs[name].append(run.rate)
            hashes[name] = run.games_hash
        print(f"round {r}: compiled={run.compiled} base={runs['base'][-1]:.0f} "
              f"this={runs['this'][-1]:.0f} games/CPU s", flush=True)  # fmt: skip
    ratios = [b / a for a, b in zip(runs["base"], runs["this"], strict=True)]
    print(json.dumps({"deck": args.deck, "games": args.games, "policy": args.policy, **runs,
                      "ratios": ratios, "ratio_median": statistics.median(ratios),
                      "same_games": hashes["base"] == hashes["this"]}))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
