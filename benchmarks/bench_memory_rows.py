"""Benchmark of the parent's memory for the rows of a long run, at a size the real engine cannot
reach on a shared machine in minutes: the same runner, row spool, Parquet writer and report
columns as `deckkit simulate --out` and `deckkit report`, with the test suite's stand-in engine
(tests/fakes.py, microseconds a game) playing in this process.

Run: ``.venv/bin/python benchmarks/bench_memory_rows.py --games 100000 1000000``

Prints one JSON line per size: peak resident memory (``VmHWM``) after the run, after writing the
Parquet file, and after building the report's columns and numbers (``model.build``), and the
file's size. The stand-in engine's games carry as many card counters as a real deck's (a few
dozen per game); the figures measure deckkit's handling of rows, not the engine.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))


def _hwm_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    args = parser.parse_args()

    from fakes import FakeEngine

    from deckkit.analysis.output import write_frame
    from deckkit.analysis.results import tally_of_frame
    from deckkit.analysis.rowspool import RowSpool
    from deckkit.analysis.runner import run_games
    from deckkit.api.pages import rows_for_report
    from deckkit.report import model

    started = time.perf_counter()
    figures: dict[str, float | int] = {"games": args.games, "start_mb": _hwm_mb()}
    with tempfile.TemporaryDirectory(prefix="deckkit-bench-rows-") as tmp:
        out = Path(tmp) / "games.parquet"
        with RowSpool(out) as spool:
            result = run_games(FakeEngine(), games=args.games, seed=1, workers=1, row_sink=spool)
            figures["after_run_mb"] = _hwm_mb()
            write_frame(spool.frame(), out)
            figures["after_parquet_mb"] = _hwm_mb()
            rows = rows_for_report(spool.frame())
            assert tally_of_frame(spool.frame()) == result.tally
            figures["after_report_rows_mb"] = _hwm_mb()
            figures["report_rows_mb"] = round(rows.estimated_size() / 2**20, 1)
            for name in ("turns", "items_retrieved", "items_lost"):
                model._histogram(rows[name])
            model._survival(rows)
            figures["after_report_numbers_mb"] = _hwm_mb()
        figures["parquet_mb"] = round(out.stat().st_size / 2**20, 1)
    figures["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
