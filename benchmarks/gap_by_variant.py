"""How the search player's lead over the heuristic moves when one disaster of a deck is swapped.

Run: ``.venv/bin/python benchmarks/gap_by_variant.py DECK [--stand-in NAME] [--games N] [--seed S]
[--workers W]``

For the deck itself and for each disaster it lists, a variant with every copy of that disaster
replaced by the stand-in (default Goons, a plain minor combat disaster; the variant may break a
copy limit or a quota, so it is played with ``--allow-illegal``): ``deckkit compare VARIANT
--policy heuristic --policy-b search`` on games ``0..N-1`` of the seed, and one row each of both
win rates, the paired difference (search - heuristic) with its 95% interval and the mean turns.
Whether the lead belongs to one card or to any contested deck: a lead that stays wherever the
heuristic's rate lies near the middle is the player's, not the card's. The variants are written
to a temporary folder and removed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
_COUNT_LINE = re.compile(r"^(\d+)\s+(.+?)\s*(#.*)?$")


def _lines(deck: Path) -> Iterator[tuple[str, re.Match[str] | None]]:
    """Each line of ``deck`` with, in its ``[disasters]`` section, its count line's match."""
    section = ""
    for line in deck.read_text().splitlines():
        text = line.strip()
        if text.startswith("[") and text.endswith("]"):
            section = text[1:-1]
        m = _COUNT_LINE.match(text) if section == "disasters" else None
        yield line, m


def disasters(deck: Path) -> list[str]:
    """The disaster names of ``deck``'s ``[disasters]`` section, in file order."""
    return [m.group(2) for _, m in _lines(deck) if m]


def variant(deck: Path, name: str, stand_in: str) -> str:
    """``deck``'s text with every copy of the disaster ``name`` replaced by ``stand_in``."""
    out = [
        f"{m.group(1)} {stand_in}" if m and m.group(2) == name else line for line, m in _lines(deck)
    ]
    return "\n".join(out) + "\n"


def compare(deck: Path, args: argparse.Namespace) -> dict[str, object]:
    """``deckkit compare`` of the heuristic and the search player on ``deck``, as JSON."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO)
    cmd = [sys.executable, "-m", "deckkit", "compare", str(deck), "--policy", "heuristic",
           "--policy-b", "search", "--games", str(args.games), "--seed", str(args.seed),
           "--workers", str(args.workers), "--allow-illegal", "--format", "json",
           "--quiet"]  # fmt: skip
    done = subprocess.run(cmd, cwd=REPO, env=env, check=True, capture_output=True, text=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deck", type=Path)
    parser.add_argument("--stand-in", default="Goons")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    print(f"{args.deck.stem}: {args.games} games, seed {args.seed}; search - heuristic")
    print(f"{'swapped out':24s} heuristic  search  difference (95% CI)       turns")
    with tempfile.TemporaryDirectory() as tmp:
        rows: list[tuple[str, Path]] = [("(none)", args.deck)]
        for name in disasters(args.deck):
            if name == args.stand_in:
                continue
            path = Path(tmp) / f"variant-{len(rows)}.deck"
            path.write_text(variant(args.deck, name, args.stand_in))
            rows.append((name, path))
        for name, path in rows:
            doc = compare(path, args)
            arms, diff = doc["arms"], doc["differences"][0]  # type: ignore[index]
            rates = [a["outcomes"]["win"]["rate"] for a in arms]  # type: ignore[union-attr]
            turns = [a["mean_turns"] for a in arms]  # type: ignore[union-attr]
            low, high = (100 * x for x in diff["ci"])
            print(
                f"{name[:24]:24s} {rates[0]:9.1%} {rates[1]:7.1%}  {100 * diff['difference']:+5.1f}"
                f" ({low:+.1f} to {high:+.1f})  {turns[0]:5.1f} / {turns[1]:.1f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
