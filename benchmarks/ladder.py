"""The README's player ladder: the search player against the heuristic on the same games.

Run: ``.venv/bin/python benchmarks/ladder.py [--games N] [--seed S] [--workers W]
[--rates FILE] [DECK ...]``

For each solitaire sample deck (``deck_winrates.DECKS`` unless decks are named) it runs
``deckkit compare DECK --policy heuristic --policy-b search --format json`` (the search player at
its default budget) and prints a Markdown table: the deck's random and heuristic rates from
``deck_winrates.py``'s table when ``--rates FILE`` gives it, the heuristic's and the search's
rates on the same ``N`` games, the paired difference with its 95% interval and McNemar's p, and
the CPU seconds of the run (the command and its workers). ``search_budget.py`` measures the
search player at other budgets.

``--csv FILE`` also writes the measured rows as the data file that ``deckkit simulate`` and
``deckkit report`` read to say how far the default player may lie below the search player
(``deckkit/animayhem/player_ladder.csv``, read by ``deckkit.animayhem.player_gap``); the file is
written whole once every deck has been measured.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a plain script from a checkout
    sys.path.insert(0, str(REPO))

from benchmarks.deck_winrates import DECKS  # noqa: E402
from deckkit.balance.atomic import write_text_atomic  # noqa: E402

RATES = re.compile(r"^\| `decks/([\w-]+)\.deck` \| ([\d.]+)% .*\| ([\d.]+)% ")


def points(x: float) -> str:
    return f"{x * 100:+.1f}".replace("-", "\u2212")


def p_text(p: float) -> str:
    return f"{p:.2g}" if p >= 1e-3 else f"{p:.1e}".replace("e-0", "e-")


def compare(deck: str, games: int, seed: int, workers: int) -> tuple[dict[str, Any], float]:
    """One paired run; its difference record and the CPU seconds it and its workers took."""
    cmd = [sys.executable, "-m", "deckkit", "compare", str(REPO / "decks" / f"{deck}.deck"),
           "--policy", "heuristic", "--policy-b", "search", "--games", str(games),
           "--seed", str(seed), "--workers", str(workers), "--format", "json"]  # fmt: skip
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=dict(os.environ))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    diff: dict[str, Any] = json.loads(out.stdout)["differences"][0]
    return diff, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("decks", nargs="*", default=list(DECKS))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rates", type=Path, help="deck_winrates.py's table, for its columns")
    parser.add_argument("--csv", type=Path, help="also write the rows as the ladder data file")
    args = parser.parse_args()
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True
    ).stdout.strip()
    data: list[str] = []
    rates: dict[str, tuple[str, str]] = {}
    if args.rates:
        for line in args.rates.read_text(encoding="utf-8").splitlines():
            m = RATES.match(line)
            if m:
                rates[m[1]] = (m[2], m[3])
    n = f"{args.games:,}"
    print(
        f"| deck | random (10,000) | heuristic (10,000) | heuristic ({n}) | search ({n}) "
        "| search − heuristic (95% CI) | McNemar p | CPU s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for deck in args.decks:
        h, r = rates.get(deck, ("–", "–"))
        d, cpu = compare(deck, args.games, args.seed, args.workers)
        lo, hi = d["ci"]
        cells = [f"`decks/{deck}.deck`", f"{r}%", f"{h}%", f"{d['win_rate_a'] * 100:.1f}%",
                 f"{d['win_rate_b'] * 100:.1f}%",
                 f"{points(d['difference'])} points ({points(lo)} to {points(hi)})",
                 p_text(d["p_value"]), f"{cpu:.0f}"]  # fmt: skip
        print("| " + " | ".join(cells) + " |", flush=True)
        data.append(
            f"{deck},{args.games},{args.seed},{d['win_rate_a']:.6f},{d['win_rate_b']:.6f},"
            f"{d['difference']:.6f},{lo:.6f},{hi:.6f},{commit}"
        )
    if args.csv:
        write_csv(args.csv, data, commit)
    return 0


def write_csv(path: Path, rows: list[str], commit: str) -> None:
    """The ladder's rows as the data file, replaced whole or not at all."""
    head = [
        "# The player ladder: the search player (default budget) against the heuristic player on",
        "# the same games of each solitaire sample deck, under the deck's own edition and default",
        f"# rules. Written by benchmarks/ladder.py --csv on commit {commit}; do not edit by hand.",
        "deck,games,seed,heuristic,search,gap,gap_low,gap_high,commit",
    ]
    write_text_atomic(path, "\n".join(head + rows) + "\n")


if __name__ == "__main__":
    raise SystemExit(main())
