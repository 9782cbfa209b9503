"""Build ``card_db/animatactics/cards.csv`` from the shared Anima Tactics card data.

Usage: ``python tools/build_animatactics_db.py [SOURCE_CSV] [--out PATH]`` (SOURCE_CSV defaults to
``../shared/card-data/anima_tactics.csv`` relative to the repository root).

Every fact is kept as the source gives it (printed values such as ``5/2`` stay as printed; the
loader reads the first as the base value), every row keeps its ``source_url``, and rows the source
marks incomplete (``stats_complete`` = ``no`` / ``partial``) stay marked. The only additions are a
stable ``id`` per row (``at`` + its row number in the source) and ``duel_note``, empty unless the
row needs a word on how the duel engine reads it. Nothing is invented: a value the source lacks
stays empty.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = REPO.parent / "shared" / "card-data" / "anima_tactics.csv"
DEFAULT_OUT = REPO / "card_db" / "animatactics" / "cards.csv"

# What the duel engine needs to be told about particular rows (the loader checks these names).
DUEL_NOTES = {
    "recovery:varies": "recovery set by the Gear's pilot (a gear_pilot row)",
}


def build(source: Path, out: Path) -> int:
    with source.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        columns = list(reader.fieldnames or [])
        rows = list(reader)
    if "source_url" not in columns:
        sys.exit(f"{source}: no source_url column")
    missing = [i for i, r in enumerate(rows, start=2) if not r["source_url"].strip()]
    if missing:
        sys.exit(f"{source}: rows without a source: lines {missing}")
    out_columns = ["id", *columns, "duel_note"]
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    with tmp.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=out_columns, lineterminator="\n")
        writer.writeheader()
        for number, row in enumerate(rows, start=1):
            note = ""
            if row["card_type"] == "character" and row["recovery"] == "varies":
                note = DUEL_NOTES["recovery:varies"]
            writer.writerow({"id": f"at{number:03d}", **row, "duel_note": note})
    tmp.replace(out)
    return len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", nargs="?", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    n = build(args.source, args.out)
    print(f"wrote {n} rows to {args.out}")


if __name__ == "__main__":
    main()
