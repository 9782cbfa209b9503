"""Benchmark of `deckkit report --from`: time to draw a 20,000-game report from saved results,
and the page's weight; and what pairing buys `deckkit compare` and `deckkit impact`.

Run: ``.venv/bin/python benchmarks/bench_report.py [--games 20000] [--results FILE.parquet]``

It plays the games once (``deckkit simulate --out``, or reuses ``--results``), then prints JSON:

* ``cold_cli_seconds``: wall time of ``deckkit report --from RESULTS`` as a fresh process
  (interpreter start, imports, card database, chart renderer start-up included), median of
  ``--repeat`` runs, against ``target_seconds`` (2 s); ``cold_cli_cpu_seconds``: the CPU time
  of one such run, its chart-drawing helper process included (median), which other work on the
  machine sways less than wall time;
* ``warm_render_seconds``: the same work in a process that has already drawn reports
  (imports done, vl-convert started in it), median of ``--repeat``;
* ``page_bytes`` and ``sidecar_bytes``;
* ``pairing``: the 95% interval width of one card swap's win-rate change (Goten replaced by the
  most neutral character in the medium deck) from paired games, against two independent runs
  of the same size (the what-if deck on another seed);
* ``load_average_before`` and ``load_average``: the machine's 1-minute load when the timings
  began and ended, since other work on a shared machine slows every figure.

A timing is only meaningful from this script, never from unit tests. On a shared machine, a
figure close to an idle machine's comes from running it ahead of the other work there, e.g.
``setsid sh -c 'echo -19 > /proc/self/autogroup && .venv/bin/python benchmarks/bench_report.py'``
as root (Linux groups a session's processes for scheduling; this raises that group's share).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DECK = REPO / "decks" / "medium-solo.deck"
BIN = Path(sys.executable).parent
TARGET_SECONDS = 2.0  # what a fresh `deckkit report --from` should take on an unloaded machine

if str(REPO) not in sys.path:  # run as a plain script from a checkout
    sys.path.insert(0, str(REPO))


def _deckkit(*args: str) -> None:
    subprocess.run([str(BIN / "deckkit"), *args], check=True, stdout=subprocess.DEVNULL)


def cold_cli(results: Path, out: Path, repeat: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of each fresh `deckkit report --from` process (the CPU time of the
    processes it waited for, its chart helper, included)."""
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        _deckkit("report", "--from", str(results), "-o", str(out), "--force")
        walls.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return walls, cpus


def warm_render(results: Path, out: Path, repeat: int) -> list[float]:
    from deckkit.api.pages import write_report_from_saved

    # Imports, then the chart renderer's start-up: a process's first report draws its charts
    # in a helper process, later ones in the process itself, which starts vl-convert once.
    for _ in range(2):
        write_report_from_saved(results, out, force=True)
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        write_report_from_saved(results, out, force=True)
        times.append(time.perf_counter() - started)
    return times


def pairing(games: int, seed: int) -> dict[str, float | int | str]:
    from deckkit.analysis import impact as im
    from deckkit.analysis.paired import independent_difference, paired_difference
    from deckkit.animayhem.construction import standins as si
    from deckkit.animayhem.construction.carddb import load_card_db
    from deckkit.animayhem.construction.deck import Deck, read_deck
    from deckkit.animayhem.construction.editions import load_edition
    from deckkit.animayhem.construction.legality import check_deck
    from deckkit.animayhem.runs import EngineGames, game_options

    deck = read_deck(DECK, load_card_db())
    edition = load_edition(deck.edition or "guidelines1998")
    card = next(e.card for e in deck.entries if e.card.name == "Goten")

    def legal(d: Deck) -> bool:
        return check_deck(d, edition, "standard", 1).legal

    swap = si.neutral_replacement(deck, card, load_card_db().cards, legal)
    assert swap is not None
    what_if = si.with_one_copy_changed(deck, card, swap)

    def wins(d: Deck, s: int) -> list[bool]:
        factory = EngineGames(d, edition, game_options("compact", 150), "heuristic")
        return im.wins_by_index(factory, seed=s, workers=2).first(games)

    base = wins(deck, seed)
    paired = paired_difference(base, wins(what_if, seed))
    other = wins(what_if, seed + 1)
    diff, (lo, hi) = independent_difference(sum(base), games, sum(other), games)
    assert paired.ci is not None
    return {
        "swap": f"{card.name} -> {swap.name}",
        "games": games,
        "paired_difference": paired.difference or 0.0,
        "paired_width": paired.ci[1] - paired.ci[0],
        "independent_difference": diff,
        "independent_width": hi - lo,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--results", type=Path, help="reuse saved results (simulate --out)")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--pairing-games", type=int, default=2_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        results = args.results or Path(tmp) / "games.parquet"
        if args.results is None:
            _deckkit("simulate", str(DECK), "-n", str(args.games), "--seed", str(args.seed),
                     "-w", "2", "-q", "--out", str(results))  # fmt: skip
        page = Path(tmp) / "report.html"
        load_before = os.getloadavg()[0]
        cold, cpu = cold_cli(results, page, args.repeat)
        warm = warm_render(results, page, args.repeat)
        figures = {
            "deck": str(DECK.relative_to(REPO)),
            "games": json.loads(page.with_suffix(".json").read_text())["games"],
            "cold_cli_seconds": round(statistics.median(cold), 3),
            "target_seconds": TARGET_SECONDS,
            "cold_cli_runs": [round(t, 3) for t in cold],
            "cold_cli_cpu_seconds": round(statistics.median(cpu), 3),
            "warm_render_seconds": round(statistics.median(warm), 3),
            "warm_render_runs": [round(t, 3) for t in warm],
            "page_bytes": page.stat().st_size,
            "sidecar_bytes": page.with_suffix(".json").stat().st_size,
            "load_average_before": round(load_before, 2),
            "load_average": round(os.getloadavg()[0], 2),
        }
    if args.pairing_games:
        figures["pairing"] = pairing(args.pairing_games, args.seed)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
