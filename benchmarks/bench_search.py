"""The search player's speed: this tree against a base commit, paired, in CPU time.

Run: ``.venv/bin/python benchmarks/bench_search.py [--base COMMIT] [--deck NAME|PATH]
[--games N] [--rounds R] [--player search|search:N] [--pure] [--json PATH]``

Each round plays search games ``0..N-1`` of seed 0 on the deck in a fresh interpreter for each
tree (order alternating between rounds, so a change in the machine's load falls on both), timed
in CPU seconds of that process: games per CPU second is what one core does, whatever else the
machine runs. Each run hashes its games' records (outcome, turns, items, end reason, every
per-card counter): a tree whose runs differ among themselves stops the benchmark (its games are
not reproducible); when the two trees' hashes differ, they play other games (the heuristic the
rollouts play has other rules), and the benchmark says so ("same games: no") and gives the
ratio of turns per CPU second beside that of games, as `make bench` does: a speed-up read from
different games is only an estimate. It prints each tree's median games/CPU s with its range,
and the median and range of the per-round ratios (this / base).

The base tree is extracted and built as ``make bench`` does it (benchmarks/bench_engine.py:
build/bench-base/<commit>/, its own tools/build_fast.py, cached).

The default base, c731dca, is the search player without its speed work under the rules of
main at 1138d9a. The commit before that work (d30287c) and the earlier base 013dcad (made from
f9aac0c) no longer play the same games: the heuristic the rollouts play has gained rules since
(HUNT_PASS_ON, FIGHT_FOR_ITEMS, RETREAT_AWAY_FROM_RISK, WEAR_DOWN_ROUNDS, HUNT_SPOILS_SAFE, rule
fixes), so the benchmark reports them as other games. c731dca is main (1138d9a) with the
search player's modules (search.py, determinize.py, rollout.py) as they were at d30287c plus the
one rule fix made among the speed commits (8a4aba3: a copy keeps the item pickup reading and the
built havens), the charm make-up speed-ups of queries.py and gamecards.py undone (all three as at
013dcad), and those three modules left out of the compiled build (tools/build_fast.py), as they
were before the speed work (013dcad's tree still compiled them, so its ratios were measured
against a compiled base); fingerprint.py --search-games gives the same total on it as on
1138d9a. It is a commit of its own, restored by the next one, so it lies in main's history once
merged and any clone can build it; a branch of its own would be lost to a clone of main, and a
merge with ``-s ours`` would hide the base's tree behind a merge. When the heuristic's rules
change again, make a new base the same way (that tree's rules, the search player's modules and
the charm make-up code from the base, the three modules out of the build) and name it here.
Since the heuristic's counted threat (COUNTED_THREAT) c731dca too plays other games than this
tree: no such base has been made for it yet.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_engine import base_tree
from bench_paired import REPO, deck_path

# The search player before its speed work under today's rules (see the module's docstring).
BASE_COMMIT = "c731dca"
JSON_OUT = REPO / "build" / "bench-search.json"

# One timed run in a fresh interpreter, on the tree given as argv[1]: whether the compiled
# engine loaded, games per CPU second, the games' hash, and where deckkit was imported from.
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
from deckkit.animayhem.engine.players import make_player
deck = read_deck(Path(sys.argv[2]), load_card_db())
setup = prepare_game(deck, load_edition(deck.edition or DEFAULT_EDITION), GameOptions())
policy = make_player(sys.argv[4]); n = int(sys.argv[3])
h = hashlib.sha256()
turns = 0
t = time.process_time()
for i in range(n):
    r = play_game(setup, policy, 0, i)
    turns += r.turns
    counters = sorted((k[0], str(k[1]), v) for k, v in r.counters.items())
    h.update(repr((r.outcome, r.turns, r.items_in_play, r.items_retrieved, r.items_lost,
                   r.end_reason, counters)).encode())
spent = time.process_time() - t
print(COMPILED, n / spent, h.hexdigest()[:16], deckkit.__file__, turns / spent)
"""


def run_once(
    tree: Path, deck: Path, games: int, player: str, pure: bool
) -> tuple[float, str, float]:
    """Games per CPU second, the games' hash and turns per CPU second of one run on ``tree`` in
    a fresh interpreter."""
    env = {k: v for k, v in os.environ.items() if k != "DECKKIT_PURE"}
    if pure:
        env["DECKKIT_PURE"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(tree), str(deck), str(games), player],
        capture_output=True, text=True, cwd="/", env=env, check=False,
    )  # fmt: skip
    if out.returncode != 0:
        raise SystemExit(f"benchmark run on {tree} failed:\n{out.stderr}")
    compiled, rate, digest, module, turn_rate = out.stdout.split()
    if not Path(module).resolve().is_relative_to(tree.resolve()):
        raise SystemExit(f"the run meant for {tree} imported deckkit from {module}")
    if (compiled == "True") == pure:
        raise SystemExit(f"the run on {tree} did not load its {'pure' if pure else 'compiled'} "
                         "engine (run `make fast`)")  # fmt: skip
    return float(rate), digest, float(turn_rate)


def _spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--base", default=BASE_COMMIT, help=f"the base commit (default {BASE_COMMIT})")
    p.add_argument("--deck", default="medium-solo", help="a name in decks/ or a .deck path")
    p.add_argument("--games", type=int, default=4, help="search games a run plays (default 4)")
    p.add_argument("--rounds", type=int, default=11, help="interleaved rounds (default 11)")
    p.add_argument("--player", default="search", help="search or search:N (N rollouts)")
    p.add_argument("--pure", action="store_true", help="both trees' pure-Python engine")
    p.add_argument("--json", type=Path, default=JSON_OUT, help="where the figures go")
    args = p.parse_args(argv)
    trees = {"base": base_tree(args.base, not args.pure), "this": REPO}
    started = time.perf_counter()
    load = os.getloadavg()[0]
    rates: dict[str, list[float]] = {"base": [], "this": []}
    turn_rates: dict[str, list[float]] = {"base": [], "this": []}
    digests: dict[str, set[str]] = {"base": set(), "this": set()}
    for r in range(args.rounds):
        for name in ("base", "this") if r % 2 == 0 else ("this", "base"):
            tree = trees[name]
            rate, digest, turn_rate = run_once(tree, deck_path(tree, args.deck), args.games,
                                               args.player, args.pure)  # fmt: skip
            rates[name].append(rate)
            turn_rates[name].append(turn_rate)
            digests[name].add(digest)
        ratio = rates["this"][-1] / rates["base"][-1]
        print(f"round {r + 1}/{args.rounds}: base {rates['base'][-1]:.3f}, this "
              f"{rates['this'][-1]:.3f} games/CPU s ({ratio:.2f}x)", flush=True)  # fmt: skip
        for name, seen in digests.items():
            if len(seen) > 1:
                print(f"error: the {name} tree played different games from run to run "
                      f"({sorted(seen)})", file=sys.stderr)  # fmt: skip
                return 1
    same = digests["base"] == digests["this"]
    if not same:
        print(f"the two trees play other games (hashes {next(iter(digests['base']))} and "
              f"{next(iter(digests['this']))}): the ratios compare different games",
              file=sys.stderr)  # fmt: skip
    ratios = [t / b for b, t in zip(rates["base"], rates["this"], strict=True)]
    turn_ratios = [t / b for b, t in zip(turn_rates["base"], turn_rates["this"], strict=True)]
    result: dict[str, Any] = {
        "base": args.base, "deck": args.deck, "games": args.games, "rounds": args.rounds,
        "player": args.player, "build": "pure" if args.pure else "compiled",
        "games_hash": next(iter(digests["this"])), "same_games": same,
        "base_games_per_cpu_s": _spread(rates["base"]),
        "this_games_per_cpu_s": _spread(rates["this"]), "ratio": _spread(ratios),
        "turns_ratio": _spread(turn_ratios),
        "base_rounds": rates["base"], "this_rounds": rates["this"],
        "seconds": time.perf_counter() - started, "load_before": load,
        "load_after": os.getloadavg()[0],
    }  # fmt: skip
    b, t, x = result["base_games_per_cpu_s"], result["this_games_per_cpu_s"], result["ratio"]
    games = f"same games: hash {result['games_hash']}" if same else "same games: no"
    print(f"{args.player} on {args.deck}, {result['build']}, {args.games} games x "
          f"{args.rounds} rounds ({games})")  # fmt: skip
    print(f"  base {args.base}: {b['median']:.3f} [{b['min']:.3f}-{b['max']:.3f}] games/CPU s")
    print(f"  this tree:    {t['median']:.3f} [{t['min']:.3f}-{t['max']:.3f}] games/CPU s")
    print(f"  this / base:  {x['median']:.2f}x [{x['min']:.2f}-{x['max']:.2f}] (paired rounds)")
    y = result["turns_ratio"]
    print(f"  turns / CPU s, this / base: {y['median']:.2f}x [{y['min']:.2f}-{y['max']:.2f}]")
    print(f"1-minute load {load:.2f} before, {result['load_after']:.2f} after")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.json.with_name(args.json.name + ".tmp")
    tmp.write_text(json.dumps(result, indent=2) + "\n")
    tmp.replace(args.json)
    print(f"figures written to {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
