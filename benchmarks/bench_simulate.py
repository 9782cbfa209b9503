"""Benchmark of `deckkit simulate`: complete games per second, and memory against game count.

Run: ``.venv/bin/python benchmarks/bench_simulate.py [--games N] [--deck PATH]``

It plays the demo deck with the real engine (``deckkit.animayhem.runs.EngineGames``, exactly what
the command uses) and prints:

* games per second with one process (in-process, no pool) and with every core, timed end to end
  (pool start-up included, as a user of ``--workers`` experiences it);
* peak resident memory of runs of 1,000 and 100,000 games without per-game rows. ``ru_maxrss``
  is a high-water mark for a whole process, so each memory run happens in a fresh interpreter;
  the parent's figure and the largest worker's are reported separately. Flat figures across the
  two sizes show that memory does not grow with the number of games.

A speed figure is only meaningful from this script, never from unit tests.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DECK = REPO / "decks" / "demo-solo.deck"

if str(REPO) not in sys.path:  # run as a plain script from a checkout
    sys.path.insert(0, str(REPO))

from deckkit.analysis.runner import GameFactory, run_games  # noqa: E402

FactoryBuilder = Callable[[Path, str, int], GameFactory]  # deck path, policy, turn cap


def real_factory(deck_path: Path, policy: str, turn_cap: int) -> GameFactory:
    """The engine the `simulate` command uses, on the deck's own edition and variant."""
    from deckkit.animayhem import runs as engine
    from deckkit.animayhem.construction.carddb import load_card_db
    from deckkit.animayhem.construction.deck import read_deck
    from deckkit.animayhem.construction.editions import DEFAULT_EDITION, load_edition

    deck = read_deck(deck_path, load_card_db())
    edition = load_edition(deck.edition or DEFAULT_EDITION)
    layout = "straight-line" if deck.variant == "straight-line" else "compact"
    engine.check_policy(policy)
    return engine.EngineGames(deck, edition, engine.game_options(layout, turn_cap), policy)


def _maxrss_mib(who: int) -> float:
    # Linux reports kilobytes, macOS bytes.
    scale = 1 if platform.system() == "Darwin" else 1024
    return resource.getrusage(who).ru_maxrss * scale / 2**20


def measure_speed(factory: GameFactory, games: int, workers: int, seed: int) -> dict[str, Any]:
    cpu = time.process_time()
    result = run_games(factory, games=games, seed=seed, workers=workers)
    cpu = time.process_time() - cpu  # this process only: meaningful for the in-process run
    return {
        "games": result.tally.games,
        "workers": workers,
        "seconds": result.seconds,
        "games_per_second": result.games_per_second,
        "games_per_cpu_second": result.tally.games / cpu if cpu > 0 else 0.0,
        "tally": result.tally,
    }


def memory_probe(args: argparse.Namespace, build: FactoryBuilder) -> None:
    """Child mode: one run in this fresh process, then its high-water marks as JSON."""
    factory = build(args.deck, args.policy, args.turn_cap)
    baseline = _maxrss_mib(resource.RUSAGE_SELF)
    started = time.perf_counter()
    result = run_games(factory, games=args.memory_probe, seed=args.seed, workers=args.workers)
    seconds = time.perf_counter() - started
    print(
        json.dumps(
            {
                "games": result.tally.games,
                "workers": args.workers,
                "seconds": seconds,
                "baseline_mib": baseline,
                "parent_peak_mib": _maxrss_mib(resource.RUSAGE_SELF),
                "worker_peak_mib": _maxrss_mib(resource.RUSAGE_CHILDREN),
            }
        )
    )


def measure_memory(args: argparse.Namespace, games: int, workers: int) -> dict[str, Any]:
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--memory-probe",
        str(games),
        "--workers",
        str(workers),
        "--deck",
        str(args.deck),
        "--policy",
        args.policy,
        "--seed",
        str(args.seed),
        "--turn-cap",
        str(args.turn_cap),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"memory probe failed:\n{done.stderr}")
    data: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return data


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=5000, help="games per speed run (default 5000)")
    p.add_argument("--deck", type=Path, default=DEFAULT_DECK)
    p.add_argument("--policy", default="heuristic")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--turn-cap", type=int, default=150)
    p.add_argument(
        "--memory-games",
        type=int,
        nargs="+",
        default=[1000, 100_000],
        help="game counts of the memory runs (default 1000 100000)",
    )
    p.add_argument("--skip-memory", action="store_true", help="only the speed runs")
    p.add_argument("--workers", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--memory-probe", type=int, default=None, help=argparse.SUPPRESS)
    return p.parse_args(argv)


def main(argv: list[str] | None = None, build: FactoryBuilder = real_factory) -> None:
    args = parse(argv)
    if args.memory_probe is not None:
        memory_probe(args, build)
        return
    cores = os.cpu_count() or 1
    factory = build(args.deck, args.policy, args.turn_cap)
    print(
        f"deckkit simulate benchmark: {args.deck.name}, policy {args.policy}, seed {args.seed}, "
        f"turn cap {args.turn_cap}; {cores} cores, Python {platform.python_version()}"
    )
    from deckkit.animayhem.engine import COMPILED

    print(
        "engine: "
        + ("compiled with mypyc (build/fast)" if COMPILED else "pure Python (run `make fast`)")
    )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"1-minute load before the runs: {load:.2f}")
    print()
    print(f"{'run':<28}{'games':>10}{'seconds':>10}{'games/s':>10}{'games/CPU s':>13}")
    speeds = []
    for workers in sorted({1, cores}):
        row = measure_speed(factory, args.games, workers, args.seed)
        speeds.append(row)
        label = "1 process (in-process)" if workers == 1 else f"{workers} processes"
        per_cpu = f"{row['games_per_cpu_second']:>13,.0f}" if workers == 1 else f"{'':>13}"
        print(
            f"{label:<28}{row['games']:>10,}{row['seconds']:>10.2f}"
            f"{row['games_per_second']:>10,.0f}{per_cpu}"
        )
    if any(s["tally"] != speeds[0]["tally"] for s in speeds):
        raise SystemExit("different results for different worker counts: determinism broken")
    if args.skip_memory:
        return
    print()
    print(
        f"{'memory (no --out)':<28}{'games':>10}{'seconds':>10}"
        f"{'parent MiB':>12}{'worker MiB':>12}{'baseline MiB':>14}"
    )
    for games in args.memory_games:
        m = measure_memory(args, games, cores)
        print(
            f"{f'{cores} processes':<28}{m['games']:>10,}{m['seconds']:>10.2f}"
            f"{m['parent_peak_mib']:>12.1f}{m['worker_peak_mib']:>12.1f}"
            f"{m['baseline_mib']:>14.1f}"
        )
    print()
    print("MiB = peak resident set size (ru_maxrss); baseline = the parent before the run.")
    print("games/CPU s: games per second of processor time the one process used: on a busy")
    print("machine, where wall-clock games/s drops, it still tells what one core can do.")


if __name__ == "__main__":
    from deckkit.errors import DeckkitError

    try:
        main()
    except DeckkitError as err:
        print(f"error: {err.render()}", file=sys.stderr)
        sys.exit(err.exit_code)
