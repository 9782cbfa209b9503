"""Benchmark of memory in long runs that keep their per-game rows: `deckkit simulate --out` and
`deckkit report`, whose rows go to disk as the games finish.

Run: ``.venv/bin/python benchmarks/bench_memory.py --games 25000 200000 [--workers 2]
[--commands simulate report] [--deck decks/demo-solo.deck] [--results]``

For each command and each number of games it runs the command as a fresh process and prints a
JSON line with:

* ``parent_peak_mb``: the peak resident memory of the deckkit process itself (``VmHWM`` read from
  /proc just before it exits is not possible, so: the highest ``VmRSS`` sampled every 0.2 s,
  and the process's own peak as its parent sees it, ``ru_maxrss`` from ``wait4``, which also
  covers the worker processes it reaped, whichever is larger);
* ``tree_peak_mb``: the highest sum of the resident memory of the process and its workers
  sampled at the same moments (what the run costs the machine);
* ``seconds`` and ``games_per_second``; ``load_average`` before and after (a shared machine).

Memory that stays flat as ``--games`` grows is the point: the parent's peak for 200,000 games
should be that for 25,000 within some megabytes, and far under 500 MB for a million.

Two more commands (issue 31):

* ``--commands animus animatactics``: ``simulate TEAM --vs TEAM`` (Animus) and ``simulate PARTY
  --vs PARTY`` (Anima Tactics) asked for 10^12 games, stopped with Ctrl-C (SIGINT) after
  ``--stop-after`` seconds; the tree's peak must stay under 300 MB (a schedule made as it is
  used, counters summed per chunk), and the exit is 130 with the games played so far.
* ``--commands report-from --from-games 10000000``: ``report --from`` a saved run of that many
  games, made by repeating the rows of a short ``simulate --out`` run (the game numbers
  renumbered, the metadata's games raised to match). A run whose report columns exceed
  ``deckkit.errors.MAX_REPORT_ROW_BYTES`` is refused at once with exit 8: its line then shows
  the cost of the refusal, and ``--from-games 4000000`` measures a run within the bound.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def measure(
    command: list[str], *, stop_after: float | None = None, exits: tuple[int, ...] = (0,)
) -> dict[str, float]:
    """Run ``command``, sampling the memory of it and its children until it exits; with
    ``stop_after``, Ctrl-C (SIGINT) it after that many seconds."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )
    if stop_after is not None:  # Ctrl-C reaches the terminal's whole process group
        timer = threading.Timer(stop_after, lambda: proc.poll() is None and os.killpg(proc.pid, 2))
        timer.daemon = True
        timer.start()
    peaks = {"parent": 0, "tree": 0}
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            parent = _rss_kb(proc.pid)
            tree = parent + sum(_rss_kb(c) for c in _children(proc.pid))
            peaks["parent"] = max(peaks["parent"], parent)
            peaks["tree"] = max(peaks["tree"], tree)
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(proc.pid, 0)
    done.set()
    sampler.join()
    seconds = time.perf_counter() - started
    err = proc.stderr.read().decode() if proc.stderr else ""
    code = os.waitstatus_to_exitcode(status)
    if code not in exits:
        raise SystemExit(f"{' '.join(command)} exited {code}: {err}")
    return {
        "exit": code,
        "parent_peak_mb": round(max(peaks["parent"], 0) / 1024, 1),
        "parent_or_reaped_child_ru_maxrss_mb": round(usage.ru_maxrss / 1024, 1),
        "tree_peak_mb": round(peaks["tree"] / 1024, 1),
        "seconds": round(seconds, 1),
    }


def saved_run_of(games: int, deck: str, folder: Path) -> Path:
    """A saved run of ``games`` games: a short run's rows repeated (``simulate --out``)."""
    import polars as pl

    from deckkit.analysis.results import METADATA_KEY

    short = folder / "short.parquet"
    subprocess.run(
        [sys.executable, "-m", "deckkit", "simulate", deck, "-n", "2000", "-q", "--out",
         str(short)],
        cwd=REPO, check=True, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    meta = json.loads(pl.read_parquet_metadata(short)[METADATA_KEY])
    meta["games_requested"] = games
    rows = pl.read_parquet(short).drop("index")
    big = folder / f"saved-{games}.parquet"
    (
        pl.concat([rows.lazy()] * -(-games // rows.height))
        .head(games)
        .with_row_index("index")
        .with_columns(pl.col("index").cast(pl.Int64))
        .select(["index", *rows.columns])
        .sink_parquet(big, metadata={METADATA_KEY: json.dumps(meta)}, row_group_size=50_000)
    )
    return big


def huge(args: argparse.Namespace, deckkit: list[str], tmp: Path) -> None:
    """The issue 31 figures: 10^12-game sibling-game runs stopped with Ctrl-C, and report --from
    a saved run of ``--from-games`` games."""
    runs = {
        "animus": ["decks/animus-vanguard.team", "--vs", "decks/animus-counterpoint.team"],
        "animatactics": ["decks/at-unaligned.party", "--vs", "decks/at-samael-darkness.party"],
    }
    for name in args.commands:
        load_before = os.getloadavg()[0]
        if name in runs:
            command = [*deckkit, "simulate", *runs[name], "-n", str(10**12), "-w",
                       str(args.workers)]  # fmt: skip
            figures = measure(command, stop_after=args.stop_after, exits=(130,))
            line = {"games_requested": 10**12, "stopped_after_seconds": args.stop_after}
        elif name == "report-from":
            saved = saved_run_of(args.from_games, args.deck, tmp)
            out = tmp / "from.html"
            command = [*deckkit, "report", "--from", str(saved), "-o", str(out), "-q", "--force"]
            figures = measure(command, exits=(0, 8))
            line = {"games": args.from_games, "saved_mb": round(saved.stat().st_size / 2**20, 1)}
        else:
            continue
        line = {"command": " ".join(["deckkit", *command[3:]]), **line, **figures}
        line["load_average_before"] = round(load_before, 1)
        line["load_average"] = round(os.getloadavg()[0], 1)
        print(json.dumps(line), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[25_000, 200_000])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--commands", nargs="+", default=["simulate", "report"])
    parser.add_argument("--deck", default="decks/demo-solo.deck")
    parser.add_argument(
        "--results", action="store_true", help="report also saves its rows (--results)"
    )
    parser.add_argument("--stop-after", type=float, default=30.0, help="seconds before Ctrl-C")
    parser.add_argument("--from-games", type=int, default=10_000_000)
    args = parser.parse_args()
    deckkit = [sys.executable, "-m", "deckkit"]
    (REPO / "build").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="deckkit-bench-memory-", dir=REPO / "build") as tmp:
        huge(args, deckkit, Path(tmp))
        for name in args.commands:
            if name not in ("simulate", "report"):
                continue
            for games in args.games:
                common = [args.deck, "-n", str(games), "-w", str(args.workers), "-q", "--force"]
                if name == "simulate":
                    out = Path(tmp) / f"games-{games}.parquet"
                    command = [*deckkit, "simulate", *common, "--out", str(out)]
                else:
                    out = Path(tmp) / f"report-{games}.html"
                    command = [*deckkit, "report", *common, "-o", str(out)]
                    if args.results:  # the rows saved too: both paths of the rows in one run
                        rows = Path(tmp) / f"report-{games}.parquet"
                        command += ["--results", str(rows)]
                load_before = os.getloadavg()[0]
                figures = measure(command)
                line = {
                    "command": " ".join(["deckkit", *command[3:]]),
                    "games": games,
                    **figures,
                    "games_per_second": round(games / figures["seconds"]),
                    "output_mb": round(out.stat().st_size / 2**20, 1),
                    "load_average_before": round(load_before, 1),
                    "load_average": round(os.getloadavg()[0], 1),
                }
                print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
