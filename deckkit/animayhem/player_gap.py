"""How far the default player's win rate may lie below a stronger player's, said where it is read.

The heuristic player (the default) plays within a few points of the search player on decks it
nearly always wins, but well below it on contested ones (README, "The players").
A designer reading a heuristic win rate should know which case the deck is in. The measured
ladder is data (``player_ladder.csv``, written by ``benchmarks/ladder.py --csv``): for a
solitaire run of the heuristic player, :func:`player_gap` names the sample decks whose heuristic
rates lie nearest the run's (the nearest below and the nearest above) with the search player's
paired lead on them, and the command that measures the deck's own.
"""

from __future__ import annotations

import csv
import shlex
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from deckkit.core.seat_gaps import NEAR_POINTS

LADDER_CSV = Path(__file__).with_name("player_ladder.csv")


@dataclass(frozen=True)
class LadderRow:
    """One sample deck of the ladder: both players' rates on the same games and the search
    player's paired lead with its 95% interval (fractions, not points)."""

    deck: str
    games: int
    seed: int
    heuristic: float
    search: float
    gap: float
    gap_low: float
    gap_high: float
    commit: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "deck": self.deck,
            "games": self.games,
            "seed": self.seed,
            "heuristic": self.heuristic,
            "search": self.search,
            "gap": self.gap,
            "gap_ci": [self.gap_low, self.gap_high],
            "commit": self.commit,
        }


@cache
def load_ladder(path: Path = LADDER_CSV) -> tuple[LadderRow, ...]:
    """The ladder's rows, by heuristic rate (lines starting with ``#`` are comments)."""
    with path.open(encoding="utf-8", newline="") as f:
        lines = [line for line in f if not line.startswith("#")]
    rows = [
        LadderRow(
            deck=r["deck"],
            games=int(r["games"]),
            seed=int(r["seed"]),
            heuristic=float(r["heuristic"]),
            search=float(r["search"]),
            gap=float(r["gap"]),
            gap_low=float(r["gap_low"]),
            gap_high=float(r["gap_high"]),
            commit=r["commit"],
        )
        for r in csv.DictReader(lines)
    ]
    return tuple(sorted(rows, key=lambda r: (r.heuristic, r.deck)))


def nearest(rows: tuple[LadderRow, ...], win_rate: float) -> list[LadderRow]:
    """The rows whose heuristic rates bracket ``win_rate``: the nearest at or below it and the
    nearest above it (one row at either end of the ladder, or on a tie)."""
    below = [r for r in rows if r.heuristic <= win_rate]
    above = [r for r in rows if r.heuristic > win_rate]
    picked = ([below[-1]] if below else []) + ([above[0]] if above else [])
    if len(picked) == 2 and picked[0].heuristic == win_rate:
        return picked[:1]
    return picked


def player_gap(
    policy: str, players: int, win_rate: float | None, deck_path: str | None = None
) -> dict[str, Any] | None:
    """What a run of ``policy`` at ``win_rate`` should be read with: the reference decks and
    their measured leads, whether the default player is near the stronger one there, and the
    command that measures this deck's own gap. None where the ladder says nothing: another
    player, a game of several players, or no games."""
    if policy != "heuristic" or players != 1 or win_rate is None:
        return None
    refs = nearest(load_ladder(), win_rate)
    if not refs:
        return None
    deck = shlex.quote(deck_path) if deck_path else "DECK"
    games = max(r.games for r in refs)  # the check plays as many games as the ladder did
    return {
        "reference": [r.as_dict() for r in refs],
        "near": all(r.gap_high <= NEAR_POINTS for r in refs),
        "command": f"deckkit compare {deck} --policy heuristic --policy-b search --games {games}",
    }
