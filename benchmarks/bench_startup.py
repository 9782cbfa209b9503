"""The fixed start-up cost of short commands: `--version`, `validate DECK` and
`simulate DECK --games 1`.

Each command runs N times in a fresh process; the median wall-clock time and the median CPU
time of the process (user + system, which a busy machine disturbs much less) are reported, with
the time Python itself needs to start (`python -c pass`) for reference. `validate` runs twice:
with the per-user cache of the parsed card database (deckkit.core.diskcache; the first run fills
it, the median is a warm one) and without it (`DECKKIT_NO_CACHE=1`). Run on a quiet machine:

    .venv/bin/python benchmarks/bench_startup.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DECK = REPO / "decks" / "demo-solo.deck"

COMMANDS: dict[str, list[str]] = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "deckkit --version": [sys.executable, "-m", "deckkit", "--version"],
    "deckkit validate DECK": [sys.executable, "-m", "deckkit", "validate", str(DECK)],
    "deckkit validate DECK (no cache)": [sys.executable, "-m", "deckkit", "validate", str(DECK)],
    "deckkit simulate DECK --games 1": [
        sys.executable,
        "-m",
        "deckkit",
        "simulate",
        str(DECK),
        "--games",
        "1",
        "--workers",
        "1",
    ],
}
# Commands run with these variables added to the environment.
ENVIRONMENT: dict[str, dict[str, str]] = {
    "deckkit validate DECK (no cache)": {"DECKKIT_NO_CACHE": "1"}
}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def installed_commands() -> dict[str, list[str]]:
    """:data:`COMMANDS` through the console script installed beside this interpreter."""
    script = str(Path(sys.executable).parent / "deckkit")
    return {
        name: argv if argv[1] != "-m" else [script, *argv[3:]] for name, argv in COMMANDS.items()
    }


def median_seconds(
    argv: list[str], runs: int, cwd: Path = REPO, env: dict[str, str] | None = None
) -> tuple[float, float]:
    """The median wall-clock and CPU seconds of ``runs`` runs of ``argv`` (``env``: variables
    added to this process's environment)."""
    walls, cpus = [], []
    environment = {**os.environ, **(env or {})}
    for _ in range(runs):
        started, cpu = time.perf_counter(), _children_cpu()
        subprocess.run(argv, cwd=cwd, capture_output=True, check=True, env=environment)
        walls.append(time.perf_counter() - started)
        cpus.append(_children_cpu() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument(
        "--installed", action="store_true", help="time the console script beside the interpreter"
    )
    args = parser.parse_args()
    commands = installed_commands() if args.installed else COMMANDS
    with tempfile.TemporaryDirectory() as scratch:
        cwd = Path(scratch) if args.installed else REPO
        for name, argv in commands.items():
            wall, cpu = median_seconds(argv, args.runs, cwd, ENVIRONMENT.get(name))
            print(f"{name:34s} {wall:6.3f} s wall {cpu:6.3f} s CPU (medians of {args.runs})")


if __name__ == "__main__":
    main()
