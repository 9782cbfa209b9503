"""The sibling games' player ladders as data: the search player against the heuristic in each
seat of the sample match-up, which `deckkit simulate A --vs B` reads to say how far a result
between two default players may move with a stronger player.

Run: ``.venv/bin/python benchmarks/sibling_ladders.py [--only anima-tactics|animus]``

It runs each game's own ladder (``python -m deckkit.animatactics.analysis.ladder --games 200
--seed 0 --policies search:8``; ``python -m deckkit.animus.ladder --games 250 --seed 0
--policies search``, the commands of the README's ladder tables) in parallel, one process a
game, and writes each game's JSON lines whole, with a first line naming the command and the
commit: ``deckkit/animatactics/analysis/player_ladder.jsonl`` and
``deckkit/animus/player_ladder.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a plain script from a checkout
    sys.path.insert(0, str(REPO))

from deckkit.balance.atomic import write_text_atomic  # noqa: E402

LADDERS = {
    "anima-tactics": (
        ["deckkit.animatactics.analysis.ladder", "--games", "200", "--seed", "0",
         "--policies", "search:8"],
        REPO / "deckkit" / "animatactics" / "analysis" / "player_ladder.jsonl",
    ),
    "animus": (
        ["deckkit.animus.ladder", "--games", "250", "--seed", "0", "--policies", "search"],
        REPO / "deckkit" / "animus" / "player_ladder.jsonl",
    ),
}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--only", choices=sorted(LADDERS))
    args = parser.parse_args()
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True
    ).stdout.strip()
    games = [args.only] if args.only else list(LADDERS)
    running = {
        game: subprocess.Popen(
            [sys.executable, "-m", *LADDERS[game][0]], cwd=REPO, stdout=subprocess.PIPE, text=True
        )
        for game in games
    }
    for game, proc in running.items():
        out, _ = proc.communicate()
        if proc.returncode:
            print(f"{game}: the ladder failed (exit {proc.returncode})", file=sys.stderr)
            return 1
        module, path = LADDERS[game]
        head = {"command": "python -m " + " ".join(module), "commit": commit}
        lines = [json.dumps(head), *(line for line in out.splitlines() if line.strip())]
        write_text_atomic(path, "\n".join(lines) + "\n")
        print(f"{game}: {path.relative_to(REPO)}")
        print(out, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
