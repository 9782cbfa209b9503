"""Party against party: many sampled games, split across processes, the same for any split.

Game ``i`` draws its dice from ``(seed, i)`` alone (:func:`.skirmish.play_game`), and the games
are cut into contiguous blocks, so one process or eight give the very same games.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from deckkit.analysis.runner import capped_workers
from deckkit.analysis.summary import proportion
from deckkit.animatactics.engine.skirmish import GameResult, Side, play_game


@dataclass(frozen=True)
class Counts:
    """What a block of games adds up to: counters summed game by game, so a run of any length
    costs the memory of one game (a list of every game's result grew without bound)."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    wins_by_ko: int = 0
    losses_by_ko: int = 0
    turns: int = 0

    @classmethod
    def of(cls, g: GameResult) -> Counts:
        return cls(
            games=1,
            wins=int(g.winner == 0),
            losses=int(g.winner == 1),
            draws=int(g.winner is None),
            wins_by_ko=int(g.winner == 0 and g.by_ko),
            losses_by_ko=int(g.winner == 1 and g.by_ko),
            turns=g.turns,
        )

    def __add__(self, other: Counts) -> Counts:
        return Counts(
            self.games + other.games,
            self.wins + other.wins,
            self.losses + other.losses,
            self.draws + other.draws,
            self.wins_by_ko + other.wins_by_ko,
            self.losses_by_ko + other.losses_by_ko,
            self.turns + other.turns,
        )


def _block(args: tuple[tuple[Side, Side], int, int, int]) -> Counts:
    sides, seed, start, stop = args
    total = Counts()
    for i in range(start, stop):
        total += Counts.of(play_game(sides, seed, i))
    return total


def play_games(sides: tuple[Side, Side], games: int, seed: int, workers: int = 1) -> Counts:
    """Games ``0..games-1`` of the run seeded ``seed``, counted. ``workers`` is capped at the
    cores this process may use, as for Ani-Mayhem (0: all of them); results never depend on it."""
    workers = capped_workers(workers)
    if workers <= 1 or games < 2 * workers:
        return _block((sides, seed, 0, games))
    step = -(-games // workers)
    blocks = [(sides, seed, s, min(s + step, games)) for s in range(0, games, step)]
    total = Counts()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for part in pool.map(_block, blocks):
            total += part
    return total


@dataclass(frozen=True)
class VersusSummary:
    games: int
    wins: int
    losses: int
    draws: int
    wins_by_ko: int
    losses_by_ko: int
    mean_turns: float

    def as_dict(self) -> dict[str, Any]:
        def rate(k: int) -> dict[str, Any]:
            r = proportion(k, self.games)
            return {"count": k, "rate": r.rate, "ci95": list(r.ci) if r.ci else None}

        return {
            "games": self.games,
            "win": rate(self.wins),
            "loss": rate(self.losses),
            "draw": rate(self.draws),
            "win_by_ko": rate(self.wins_by_ko),
            "loss_by_ko": rate(self.losses_by_ko),
            "mean_turns": self.mean_turns,
            "ci_method": "Wilson score interval, 95%",
        }


def summarize(counts: Counts) -> VersusSummary:
    n = counts.games
    return VersusSummary(
        games=n,
        wins=counts.wins,
        losses=counts.losses,
        draws=counts.draws,
        wins_by_ko=counts.wins_by_ko,
        losses_by_ko=counts.losses_by_ko,
        mean_turns=counts.turns / n if n else 0.0,
    )
