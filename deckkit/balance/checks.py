"""Playing a balance check: batches of games through the runner, a sequential test after each.

Games are played by :func:`deckkit.analysis.runner.run_games`, in batches that grow while the
test is undecided, each made only when it is needed. After each batch the test is run
over the whole win/no-win stream in game order (:mod:`deckkit.analysis.sprt`), so the game at
which it stops, the verdict and every reported number depend only on the seed, never on the
batch sizes or the number of workers; games played past the stopping game are discarded.

A band check plays the deck as it is. A drift check plays game ``i`` twice with the same seed,
once with the baseline snapshot's deck and cards (``old``) and once with today's (``new``),
which pairs the games: the same shuffles and draws wherever the cards allow, so the difference
within a pair is the cards' doing far more than chance's.

The reported estimate is the plain win rate (or mean pair difference) of the games the test
used, with its usual 95% interval. A test that stops at the first bound it reaches biases that
estimate slightly toward the bound it crossed; the verdict, not the estimate, carries the
stated error rates.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from deckkit.analysis import matches
from deckkit.analysis.runner import GameFactory, Played, PlayFn, run_games
from deckkit.analysis.sprt import Decision, Stop, wald_bounds
from deckkit.analysis.summary import mean_estimate, proportion
from deckkit.balance.config import Check
from deckkit.balance.course import band_course, drift_course

BoolArray = npt.NDArray[np.bool_]
# Batch sizes are fixed numbers of games, not per worker: the games played past the stopping
# game (``games_played``) then depend only on the seed, like every other reported number.
FIRST_BATCH = 100
MAX_BATCH = 4_000
VERDICTS = ("pass", "fail", "inconclusive")


@dataclass(frozen=True)
class OffsetGames:
    """A factory playing games ``start``, ``start + 1``, ... as the runner's ``0, 1, ...``:
    the runner always plays from game 0, a batch starts where the last one stopped."""

    inner: GameFactory
    start: int

    def __call__(self) -> PlayFn:
        play = self.inner()
        start = self.start

        def shifted(seed: int, index: int) -> Played:
            record = play(seed, start + index)
            record.index = index  # the runner checks it got the game it asked for
            return record

        return shifted


def play_wins(factory: GameFactory, *, seed: int, start: int, stop: int, workers: int) -> BoolArray:
    """Whether each of games ``start..stop-1`` of the run seeded ``seed`` was won, in order. A
    party's or team's games (a factory of the game interface) play through it."""
    if isinstance(factory, matches.InterfacePlay):
        played = matches.run(
            factory.game,
            factory.setup,
            games=stop - start,
            seed=seed,
            workers=workers,
            keep_rows=True,
            first=start,
        )
        if played.interrupted:
            raise KeyboardInterrupt
        return np.asarray(played.won(), dtype=np.bool_)
    result = run_games(
        OffsetGames(factory, start), games=stop - start, seed=seed, workers=workers, keep_rows=True
    )
    if result.interrupted:
        raise KeyboardInterrupt
    assert result.rows is not None
    return np.asarray(result.rows["outcome"].to_numpy() == "win", dtype=np.bool_)


def batches(budget: int) -> Iterator[tuple[int, int]]:
    """``[start, stop)`` batches up to the budget, made one at a time as the test asks for more
    (a budget of 10^20 games costs nothing until they are played): a first batch of a hundred
    games (clear cases decide within it), each next one twice the last, up to a cap."""
    size, start = FIRST_BATCH, 0
    while start < budget:
        stop = min(budget, start + size)
        yield start, stop
        start, size = stop, min(2 * size, MAX_BATCH)


@dataclass(frozen=True)
class CheckResult:
    """A check's outcome, as the table, the JSON summary and the JUnit file report it."""

    check: Check
    verdict: str  # pass, fail or inconclusive
    games: int  # games (band) or game pairs (drift) the test used
    games_played: int  # including those played in the last batch past the stopping game
    estimate: float | None  # the win rate (band) or new minus old (drift)
    ci: tuple[float, float] | None
    llr: float
    bounds: tuple[float, float]  # the LLR bounds of the test (band: of the side reported)
    seconds: float
    detail: dict[str, Any] = field(default_factory=dict)
    changed_cards: tuple[str, ...] = ()

    @property
    def reason(self) -> str:
        """One sentence saying why: what the test concluded, or why it could not."""
        c = self.check
        if c.band is not None:
            what = f"win rate within [{c.band[0]:.3g}, {c.band[1]:.3g}] (margin {c.margin:.3g})"
        else:
            what = f"no more than {c.max_drop:.3g} below the baseline"
        if self.verdict == "pass":
            return f"{what}: accepted after {self.games:,} games"
        if self.verdict == "fail":
            return f"{what}: rejected after {self.games:,} games"
        return (
            f"{what}: undecided after the budget of {c.budget:,} games "
            f"(LLR {self.llr:.2f} within ({self.bounds[0]:.2f}, {self.bounds[1]:.2f})); "
            "raise budget, widen the band or the margin, or accept larger alpha/beta"
        )

    def as_dict(self) -> dict[str, Any]:
        c = self.check
        return {
            "name": c.name,
            "kind": c.kind,
            "deck": c.deck_as_written,
            "game": c.game,
            "vs": c.vs_as_written,
            "verdict": self.verdict,
            "games": self.games,
            "games_played": self.games_played,
            "budget": c.budget,
            "estimate": self.estimate,
            "ci": list(self.ci) if self.ci is not None else None,
            "llr": self.llr,
            "llr_bounds": list(self.bounds),
            "alpha": c.alpha,
            "beta": c.beta,
            "band": list(c.band) if c.band is not None else None,
            "margin": c.margin if c.band is not None else None,
            "max_drop": c.max_drop,
            "seed": c.seed,
            "policy": c.policy,
            "changed_cards": list(self.changed_cards),
            "reason": self.reason,
            **self.detail,
        }


def _verdict(stop: Stop) -> str:
    return {Decision.PASS: "pass", Decision.FAIL: "fail"}.get(stop.decision, "inconclusive")


ProgressFn = Callable[[int], None]


def run_band(
    check: Check, factory: GameFactory, workers: int, progress: ProgressFn | None = None
) -> CheckResult:
    """Play the deck until the band test decides or the budget is spent."""
    test = check.band_test()
    started = time.perf_counter()
    wins: BoolArray = np.zeros(0, dtype=np.bool_)
    stop = Stop(Decision.CONTINUE, 0, 0.0, wald_bounds(check.alpha, check.beta))
    for start, end in batches(check.budget):
        wins = np.concatenate(
            [wins, play_wins(factory, seed=check.seed, start=start, stop=end, workers=workers)]
        )
        if progress is not None:
            progress(len(wins))
        stop = test.run(wins)
        if stop.decision is not Decision.CONTINUE:
            break
    used = wins[: stop.games] if stop.decision is not Decision.CONTINUE else wins
    rate = proportion(int(used.sum()), len(used))
    return CheckResult(
        check,
        _verdict(stop),
        len(used),
        len(wins),
        rate.rate,
        rate.ci,
        stop.llr,
        stop.bounds,
        time.perf_counter() - started,
        {"wins": int(used.sum()), "llr_course": band_course(test, used)},
    )


def run_drift(
    check: Check,
    old: GameFactory,
    new: GameFactory,
    workers: int,
    progress: ProgressFn | None = None,
) -> CheckResult:
    """Play baseline and current decks on the same seeds until the drift test decides."""
    test = check.drift_test()
    started = time.perf_counter()
    old_wins: BoolArray = np.zeros(0, dtype=np.bool_)
    new_wins: BoolArray = np.zeros(0, dtype=np.bool_)
    stop = Stop(Decision.CONTINUE, 0, 0.0, wald_bounds(check.alpha, check.beta))
    for start, end in batches(check.budget):
        old_wins = np.concatenate(
            [old_wins, play_wins(old, seed=check.seed, start=start, stop=end, workers=workers)]
        )
        new_wins = np.concatenate(
            [new_wins, play_wins(new, seed=check.seed, start=start, stop=end, workers=workers)]
        )
        if progress is not None:
            progress(len(new_wins))
        stop = test.run(old_wins, new_wins)
        if stop.decision is not Decision.CONTINUE:
            break
    n = stop.games if stop.decision is not Decision.CONTINUE else len(new_wins)
    diff = new_wins[:n].astype(np.int64) - old_wins[:n].astype(np.int64)
    est = mean_estimate(n, int(diff.sum()), int((diff * diff).sum()))
    ci = est.ci if est.ci is not None and all(map(math.isfinite, est.ci)) else None
    old_rate, new_rate = (
        proportion(int(old_wins[:n].sum()), n),
        proportion(int(new_wins[:n].sum()), n),
    )
    return CheckResult(
        check,
        _verdict(stop),
        n,
        len(new_wins),
        est.mean,
        ci,
        stop.llr,
        stop.bounds,
        time.perf_counter() - started,
        {
            "baseline_cards_win_rate": old_rate.rate,
            "current_win_rate": new_rate.rate,
            "current_win_rate_ci": list(new_rate.ci) if new_rate.ci else None,
            "pairs": {
                "old_only_won": int((diff == -1).sum()),
                "tied": int((diff == 0).sum()),
                "new_only_won": int((diff == 1).sum()),
            },
            "llr_course": drift_course(test, old_wins[:n], new_wins[:n]),
        },
    )
