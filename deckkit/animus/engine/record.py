"""What one battle leaves behind: outcome, length and integer counters per card and matchup."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum


class Stat(IntEnum):
    """Per-card counters, indexed by a card's place in its team (0-8)."""

    PLAYED = 0  # entered play from hand
    FIGHTS = 1  # fights it took part in, attacking or defending
    FIGHTS_WON = 2  # fights in which the other fighter took the damage
    KILLS = 3  # enemy characters it killed (combat or an ability)
    KILLED = 4  # times it was killed
    ABILITIES = 5  # abilities of it that applied
    DRAFTED = 6  # drafted by this side (battles after a fresh draft only)


STATS = tuple(s.name.lower() for s in Stat)
N_STATS = len(Stat)
# Matchup counters, per (attacker's type, defender's type).
FIGHTS, ATTACKER_WON, DEFENDER_WON, TIED = range(4)


@dataclass(slots=True)
class BattleRecord:
    winner: int | None = None  # side 0 or 1; None = a draw at the turn cap
    reason: str = ""
    turns: int = 0
    first: int = 0  # the side that played first
    levels_lost: list[int] = field(default_factory=lambda: [0, 0])
    cards: list[list[list[int]]] = field(default_factory=list)  # [side][card][stat]
    matchups: dict[tuple[str, str], list[int]] = field(default_factory=dict)

    @classmethod
    def for_teams(cls, sizes: tuple[int, int]) -> BattleRecord:
        return cls(cards=[[[0] * N_STATS for _ in range(n)] for n in sizes])

    def bump(self, side: int, card: int, stat: Stat, n: int = 1) -> None:
        self.cards[side][card][stat] += n

    def fight(self, att_type: str, def_type: str, outcome: int) -> None:
        counts = self.matchups.get((att_type, def_type))
        if counts is None:
            counts = self.matchups[(att_type, def_type)] = [0, 0, 0, 0]
        counts[FIGHTS] += 1
        counts[outcome] += 1
