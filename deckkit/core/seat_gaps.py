"""How far a match-up between two default players may move with a stronger player, for the
two-sided games (Anima Tactics, Animus).

Each game's ladder (``deckkit.animatactics.analysis.ladder``, ``deckkit.animus.ladder``) plays
the search player in one seat of the sample match-up against the heuristic, paired with the
heuristic in its place; ``benchmarks/sibling_ladders.py`` keeps its JSON lines as the game's
data file. A run whose every side is played by the heuristic reports those seat gaps beside its
rates (``player_gap``), and the command that measures its own first seat's.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

# A lead of the search player whose whole interval lies at or below this reads as "near a
# stronger player's", in every game (the README's bar for Ani-Mayhem's heuristic: within 3
# points of the search player).
NEAR_POINTS = 0.03
BOTH = "both seatings"  # the ladder's pooled row, not a seat


@dataclass(frozen=True)
class SeatGap:
    """The search player's lead over the heuristic in one seat of the sample match-up (score
    points: a win 1, a draw 1/2), with its 95% interval."""

    side: str
    games: int
    gap: float
    gap_low: float
    gap_high: float

    def as_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "games": self.games,
            "gap": self.gap,
            "gap_ci": [self.gap_low, self.gap_high],
        }


@dataclass(frozen=True)
class Ladder:
    """A ladder's data file: the search player's seat rows and the ladder's notice, if it gave
    one (the sample's cards are made up)."""

    seats: tuple[SeatGap, ...]
    notice: str | None


@cache
def load_seat_gaps(path: Path) -> Ladder:
    """The search player's seat rows of a ladder's data file (its first line names the command
    and the commit; the pooled row is not a seat) and its notice."""
    rows: list[SeatGap] = []
    notice: str | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line) if line.strip() else {}
        notice = row.get("notice", notice)
        side = row.get("party") or row.get("team")
        if not str(row.get("policy", "")).startswith("search") or side in (None, BOTH):
            continue
        low, high = row["ci95"]
        rows.append(SeatGap(str(side), int(row["games"]), float(row["gap"]), low, high))
    return Ladder(tuple(rows), notice)


def match_gap(
    policies: Sequence[str], ladder: Ladder, files: Sequence[str]
) -> dict[str, Any] | None:
    """What a run played by ``policies`` is read with: the seat gaps, whether all are near, the
    sample's notice, and the command that measures the first file's own (``files``: the file
    and its opponent's). None unless every side is the heuristic player and the game has
    measured seats."""
    seats = ladder.seats
    if not seats or any(p != "heuristic" for p in policies):
        return None
    games = max(s.games for s in seats)
    first, vs = (shlex.quote(f) for f in files)
    return {
        "reference": [s.as_dict() for s in seats],
        "near": all(s.gap_high <= NEAR_POINTS for s in seats),
        "sample_made_up": ladder.notice is not None,
        "command": f"deckkit compare {first} --vs {vs} --policy-b search --games {games}",
    }
