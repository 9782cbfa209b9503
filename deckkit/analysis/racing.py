"""Racing: which of many configurations wins most, for a budget of games, on common random
numbers.

Every arm plays the same games (game ``i`` of each draws from the same random stream, see
:mod:`deckkit.analysis.paired`), so two arms are compared game by game. The race is successive
halving (Karnin, Koren & Somekh 2013, "Almost optimal exploration in multi-armed bandits",
ICML): every arm alive plays the same first games; then

1. an arm whose paired 95% interval against the leader (the arm with the most wins so far) lies
   wholly below zero is dropped: the leader beats it on these games;
2. of the rest, the better half by wins goes on (never fewer than ``keep``), and plays as many
   games again, so each round costs about as much as the first;

until one arm (or ``keep``) is left or the budget cannot pay for another round. The leader is
never dropped, so an arm that beats every other by more than the paired interval's half-width
on the games played stays in the race to the end.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from deckkit.analysis.paired import PairedDifference, paired_difference

A = TypeVar("A", bound=Hashable)
MIN_FIRST_ROUND = 50  # games every arm plays before any is dropped
MIN_INCREMENT = 10  # a round adding fewer games per arm than this is not played

# outcomes(arm, n): whether each of the first n games of ``arm`` was won (the same n games for
# every arm; a caller caches what was played, so asking for more plays only the new games).
Outcomes = Callable[[A, int], Sequence[bool]]


@dataclass
class Standing(Generic[A]):
    """One arm after the race: the games it played, won, and when it was dropped (round number,
    or None if it lasted to the end)."""

    arm: A
    won: list[bool]
    dropped_in: int | None = None
    dropped_by: str | None = None  # "bound" or "halving"

    @property
    def games(self) -> int:
        return len(self.won)

    @property
    def wins(self) -> int:
        return sum(self.won)

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.won else 0.0


@dataclass
class RaceResult(Generic[A]):
    """Every arm's standing, those still in the race first (by wins), then the dropped ones."""

    standings: list[Standing[A]]
    spent: int  # games played by the arms in this race
    rounds: int
    finalists: list[A] = field(default_factory=list)

    @property
    def best(self) -> Standing[A]:
        return self.standings[0]

    def versus(self, reference: Sequence[bool], arm: Standing[A]) -> PairedDifference:
        """The arm's paired difference from a reference run on the same games."""
        n = min(len(reference), arm.games)
        return paired_difference(list(reference[:n]), arm.won[:n])


def first_round_games(arms: int, budget: int, minimum: int = MIN_FIRST_ROUND) -> int:
    """Games per arm in the first round: the budget spread over the rounds of halving (each
    costs about the same), but at least ``minimum`` when the budget pays for that many of every
    arm, and otherwise the budget shared out (at least one game each)."""
    if arms <= 0:
        return 0
    rounds = max(1, math.ceil(math.log2(arms)) + 1)
    return max(1, min(minimum, budget // arms), budget // (rounds * arms))


def _by_wins(standings: list[Standing[A]]) -> list[Standing[A]]:
    # Stable: among equal win counts the arm given first stays first.
    return sorted(standings, key=lambda s: -s.wins)


def _beaten(leader: Standing[A], other: Standing[A]) -> bool:
    """Whether the leader beats ``other`` on their games: the paired 95% interval of
    ``other`` minus the leader lies wholly below zero."""
    ci = paired_difference(leader.won, other.won).ci
    return ci is not None and ci[1] < 0


def race(
    arms: Sequence[A],
    outcomes: Outcomes[A],
    *,
    budget: int,
    keep: int = 1,
    first_round: int | None = None,
    stop: Callable[[], bool] | None = None,
) -> RaceResult[A]:
    """Race ``arms`` within ``budget`` games (all arms together); see the module's rules. The
    first round is always played in full (``first_round`` games each, by default from
    :func:`first_round_games`), even if that takes more than the budget. ``stop`` is asked
    between rounds (e.g. a time limit)."""
    if keep < 1:
        raise ValueError("keep must be at least 1")
    if len(set(arms)) != len(arms):
        raise ValueError("arms must be distinct")
    if not arms:
        return RaceResult([], 0, 0)
    n = first_round if first_round is not None else first_round_games(len(arms), budget)
    standings = [Standing(arm, []) for arm in arms]
    alive = list(standings)
    spent = 0
    rounds = 0
    while True:
        rounds += 1
        for s in alive:
            before = s.games
            s.won = list(outcomes(s.arm, n))
            if len(s.won) != n:
                raise ValueError(f"outcomes gave {len(s.won)} games, not {n}")
            spent += n - before
        alive = _by_wins(alive)
        leader = alive[0]
        beaten = [s for s in alive[1:] if _beaten(leader, s)]
        for s in beaten[len(beaten) - max(0, min(len(beaten), len(alive) - keep)) :]:
            s.dropped_in, s.dropped_by = rounds, "bound"
        alive = [s for s in alive if s.dropped_in is None]
        if len(alive) <= keep:
            break
        survivors = max(keep, math.ceil(len(alive) / 2))
        for s in alive[survivors:]:
            s.dropped_in, s.dropped_by = rounds, "halving"
        alive = alive[:survivors]
        increment = min(n, (budget - spent) // len(alive)) if budget > spent else 0
        if increment < MIN_INCREMENT or (stop is not None and stop()):
            break
        n += increment
    dropped = [s for s in standings if s.dropped_in is not None]
    dropped.sort(key=lambda s: (-(s.dropped_in or 0), -s.wins / max(1, s.games)))
    ordered = _by_wins(alive) + dropped
    return RaceResult(ordered, spent, rounds, [s.arm for s in _by_wins(alive)])
