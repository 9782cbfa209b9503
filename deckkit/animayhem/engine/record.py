"""What one played game returns: the outcome and per-card counters.

The engine counts events per card id as they happen (``CardStat`` names the counter), and the
analysis layer sums them across games, so memory stays flat in the number of games.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

# "undecided": the game ended with neither side holding a majority (rule option
# majority_trigger=combined), an outcome no document scores; counted apart, as a stall is.
Outcome = Literal["win", "loss", "stall", "undecided"]


class CardStat(StrEnum):
    """Per-card counters (issue: per-card statistics of `deckkit simulate`)."""

    # disasters
    MET = "met"  # entered combat or took effect on the party
    DEFEATED = "defeated"
    ITEMS_CARRIED_OFF = "items_carried_off"
    BONKED = "bonked"  # characters this disaster bonked
    KILLED = "killed"  # characters this disaster killed
    # characters
    COMBATS = "combats"
    WAS_BONKED = "was_bonked"
    WAS_KILLED = "was_killed"
    ITEMS_RETRIEVED = "items_retrieved"
    # any card
    EFFECTS = "effects"  # times one of its encoded effects acted
    # locations
    SCAVENGE_ATTEMPTS = "scavenge_attempts"
    SCAVENGE_SUCCESSES = "scavenge_successes"


@dataclass(slots=True)
class GameRecord:
    """One finished game. ``counters`` maps (card id, stat) to a count for this game."""

    index: int
    outcome: Outcome
    turns: int
    items_in_play: int
    items_retrieved: int
    items_lost: int  # carried off, destroyed, or held by disasters at the end
    end_reason: str
    counters: dict[tuple[str, CardStat], int] = field(default_factory=dict)

    def bump(self, card_id: str, stat: CardStat, n: int = 1) -> None:
        key = (card_id, stat)
        self.counters[key] = self.counters.get(key, 0) + n
