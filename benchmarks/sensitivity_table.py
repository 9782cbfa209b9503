"""The README's sensitivity table: how far each alternative rule reading moves each sample deck.

Run: ``.venv/bin/python benchmarks/sensitivity_table.py [DECK ...] [--games N] [--seed S]
[--workers W]``

Runs ``deckkit sensitivity decks/DECK.deck --format json`` for each deck (default: the solitaire
sample decks of ``deck_winrates.DECKS`` but demo, which the heuristic always wins) and prints a
Markdown table: a row for the rates as played under the defaults, then a row per alternative
reading with its paired difference in points and 95% interval on each deck.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a plain script from a checkout
    sys.path.insert(0, str(REPO))

from benchmarks.deck_winrates import DECKS  # noqa: E402


def sensitivity(deck: str, args: argparse.Namespace) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "deckkit", "sensitivity", str(REPO / "decks" / f"{deck}.deck"),
           "--games", str(args.games), "--seed", str(args.seed), "--workers", str(args.workers),
           "--format", "json"]  # fmt: skip
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=dict(os.environ))
    doc: dict[str, Any] = json.loads(out.stdout)
    return doc


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("decks", nargs="*", default=[d for d in DECKS if d != "demo-solo"])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    docs = [sensitivity(deck, args) for deck in args.decks]
    names = [f"`{d.removesuffix('-solo')}`" for d in args.decks]
    print("| reading | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    print("| as played (defaults) | "
          + " | ".join(f"{doc['win_rate'] * 100:.1f}%" for doc in docs) + " |")  # fmt: skip
    settings: list[str] = []
    for doc in docs:
        for r in doc["readings"]:
            if r["setting"] not in settings:
                settings.append(r["setting"])
    for setting in settings:
        cells = []
        for doc in docs:
            row = next((r for r in doc["readings"] if r["setting"] == setting), None)
            if row is None:
                cells.append("–")
                continue
            lo, hi = row["ci"]
            cells.append(f"{row['difference'] * 100:+.1f} ({lo * 100:+.1f} to {hi * 100:+.1f})")
        print(f"| `{setting}` | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
