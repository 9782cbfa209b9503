"""Benchmark of the Anima Tactics duel matrix: every complete character against every other,
computed exactly, on one core.

Run: ``.venv/bin/python benchmarks/bench_animatactics_matrix.py [--repeat 3]``

Times :func:`deckkit.animatactics.analysis.matrix.compute_matrix` over the whole roster (one
process, one thread for the linear algebra), reporting CPU time (what one core spent) and wall
time, with the machine's load average, since a shared machine stretches the wall time. The
matrix's exact/Monte Carlo split is printed too. The goal: under a minute on one core.
"""

from __future__ import annotations

import argparse
import os

# One core: the linear algebra's thread pools would otherwise spread the work.
for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import platform  # noqa: E402
import time  # noqa: E402

from deckkit.animatactics.analysis.matrix import compute_matrix, roster  # noqa: E402
from deckkit.animatactics.construction.carddb import load_card_db  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description="Time the Anima Tactics duel matrix.")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    entrants = roster(load_card_db())
    n = len(entrants)
    print(f"{n} x {n} matrix, python {platform.python_version()}, {platform.machine()}")
    for run in range(args.repeat):
        load = os.getloadavg()[0]
        cpu, wall = time.process_time(), time.perf_counter()
        matrix = compute_matrix(entrants)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        print(
            f"run {run + 1}: {cpu:.1f} s CPU, {wall:.1f} s wall, load {load:.1f} before; "
            f"entries {matrix.methods()}"
        )


if __name__ == "__main__":
    main()
