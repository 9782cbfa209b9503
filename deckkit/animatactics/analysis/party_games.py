"""Party against party: many sampled games, split across processes, the same for any split.

Game ``i`` draws its dice from ``(seed, i)`` alone (:func:`.skirmish.play_game`), and the games
are cut into contiguous blocks, so one process or eight give the very same games.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from deckkit.analysis.summary import proportion
from deckkit.animatactics.engine.skirmish import GameResult, Side, play_game


def _block(args: tuple[tuple[Side, Side], int, int, int]) -> list[GameResult]:
    sides, seed, start, stop = args
    return [play_game(sides, seed, i) for i in range(start, stop)]


def play_games(
    sides: tuple[Side, Side], games: int, seed: int, workers: int = 1
) -> list[GameResult]:
    if workers <= 1 or games < 2 * workers:
        return _block((sides, seed, 0, games))
    step = -(-games // workers)
    blocks = [(sides, seed, s, min(s + step, games)) for s in range(0, games, step)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return [g for part in pool.map(_block, blocks) for g in part]


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


def summarize(results: list[GameResult]) -> VersusSummary:
    n = len(results)
    return VersusSummary(
        games=n,
        wins=sum(1 for g in results if g.winner == 0),
        losses=sum(1 for g in results if g.winner == 1),
        draws=sum(1 for g in results if g.winner is None),
        wins_by_ko=sum(1 for g in results if g.winner == 0 and g.by_ko),
        losses_by_ko=sum(1 for g in results if g.winner == 1 and g.by_ko),
        mean_turns=sum(g.turns for g in results) / n if n else 0.0,
    )
