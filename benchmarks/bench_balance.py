"""Benchmark of `deckkit balance check`: how long a drift check with a 2-point limit takes to
decide, on this machine's cores.

Run: ``.venv/bin/python benchmarks/bench_balance.py [--workers 2] [--max-drop 0.02]``

In a scratch copy of the card database it records a baseline of one drift check
(``max_drop``, default 0.02 = 2 points) on a sample deck, then times ``deckkit balance check``
end to end (process start, pool start-ups, every batch) in two cases:

* the cards unchanged: every pair of games ties, the easy case;
* one disaster of the deck made harsher by ``--bump`` damage (default +1), a real change whose
  size the run itself measures (the estimate, with its interval, is printed).

The GSPRT's expected length is largest when the true drift lies between 0 and ``max_drop``, so
the second case's time depends on how big the edit's effect happens to be; the printed estimate
says where it fell. A speed figure is only meaningful from this script, never from unit tests.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a plain script from a checkout
    sys.path.insert(0, str(REPO))

from deckkit.animayhem.construction.carddb import card_db_dir, load_card_db  # noqa: E402
from deckkit.animayhem.construction.cards import CardType  # noqa: E402
from deckkit.animayhem.construction.deck import read_deck  # noqa: E402
from deckkit.animayhem.engine import COMPILED  # noqa: E402

DECKKIT = [sys.executable, "-m", "deckkit"]


def deckkit(*args: str) -> tuple[int, str, float]:
    started = time.perf_counter()
    done = subprocess.run([*DECKKIT, *args], capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1, 3):
        sys.exit(f"deckkit {' '.join(args)} failed ({done.returncode}):\n{done.stderr}")
    return done.returncode, done.stdout, time.perf_counter() - started


def bump_damage(db: Path, deck: Path, card: str | None, bump: int) -> str:
    """Add ``bump`` to the damage of one disaster of the deck in the copy; returns its name."""
    disasters = [
        e.card for e in read_deck(deck, load_card_db()).entries if e.card.type is CardType.DISASTER
    ]
    path = db / "animayhem" / "cards.csv"
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        header, rows = list(reader.fieldnames or []), list(reader)
    by_id = {row["id"]: row for row in rows}
    wanted = [c for c in disasters if card in (None, c.id, c.name)]
    target = next((c for c in wanted if by_id[c.id]["damage"].strip()), None)
    if target is None:
        sys.exit(f"no disaster with printed damage matches {card!r} in {deck}")
    row = by_id[target.id]
    row["damage"] = str(int(row["damage"]) + bump)
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=header)
        writer.writeheader()
        writer.writerows(rows)
    return f"{target.name} ({target.id}) damage {int(row['damage']) - bump} -> {row['damage']}"


def report(label: str, code: int, out: str, seconds: float) -> None:
    check: dict[str, Any] = json.loads(out)["checks"][0]
    ci = check["ci"]
    est = f"{100 * check['estimate']:+.2f} pts" if check["estimate"] is not None else "-"
    if ci:
        est += f" (95% CI {100 * ci[0]:+.2f} to {100 * ci[1]:+.2f})"
    print(
        f"{label}: {check['verdict']} (exit {code}) after {check['games']:,} pairs "
        f"({check['games_played']:,} played per side), estimate {est}, "
        f"LLR {check['llr']:+.2f}, {seconds:.1f} s wall"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", type=Path, default=REPO / "decks" / "medium-solo.deck")
    parser.add_argument("--card", help="disaster to edit (name or id) [default: the first]")
    parser.add_argument("--bump", type=int, default=1)
    parser.add_argument("--max-drop", type=float, default=0.02)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=int, default=100_000)
    args = parser.parse_args()

    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores visible, "
        f"--workers {args.workers}, {'compiled' if COMPILED else 'pure-Python'} engine"
    )
    with tempfile.TemporaryDirectory(prefix="deckkit-bench-balance-") as tmp:
        root = Path(tmp)
        db = root / "db"
        shutil.copytree(card_db_dir(), db)
        file = root / "balance.toml"
        file.write_text(
            f"seed = {args.seed}\nbaseline_games = 200\nbudget = {args.budget}\n"
            f'[[check]]\nname = "drift"\ndeck = "{args.deck.resolve()}"\n'
            f"max_drop = {args.max_drop}\n",
            encoding="utf-8",
        )
        common = ["--card-db", str(db), "--workers", str(args.workers), "--quiet"]
        deckkit("balance", "baseline", str(file), *common)
        print(f"{args.deck.name}, drift check with max_drop {args.max_drop} (alpha = beta = 0.05)")
        report("cards unchanged", *deckkit("balance", "check", str(file), *common, "-f", "json"))
        edit = bump_damage(db, args.deck, args.card, args.bump)
        report(edit, *deckkit("balance", "check", str(file), *common, "-f", "json"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
