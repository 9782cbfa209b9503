"""The band check's error rates where they are tightest: a deck exactly on an edge of the band
(which should pass) and one exactly the margin outside it (which should fail), measured by
simulating the sequential test on a synthetic Bernoulli source, not the card engine.

reports/balance.toml and deckkit/balance/config.py promise: ``beta`` is "the chance of failing
a deck that should pass", ``alpha`` "the chance of passing a deck that should fail". A band
check runs two one-sided SPRTs (deckkit/analysis/sprt.py, ``BandTest``) and fails as soon as
either side fails, so a deck inside the band has two chances to be failed: each side must run
at ``beta / 2``. A deck margin outside the band is passed only if the side it violates passes,
so ``alpha`` needs no split. With a band narrower than the margin, a deck on one edge is near
the passing hypothesis of *both* sides, where each side errs most: there the split matters
most (at full ``beta`` per side the band below fails such a deck about 7% of the time).

The streams come from one fixed seed, so the test is deterministic. Each rate is held to its
promise plus three binomial standard errors (as in tests/test_sprt.py); with 20,000 runs that
is 5.46% for beta = 5%, so a true rate of 5.9% would show (it clears 5.46% with probability
above 99%).
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pytest

from deckkit.analysis.sprt import BandTest, Decision, first_exits, wald_bounds

ALPHA = BETA = 0.05
# Narrower than its margin: a deck on either edge sits near both sides' passing hypotheses.
BAND = BandTest(lo=0.40, hi=0.41, margin=0.10, alpha=ALPHA, beta=BETA)
BUDGET = 3_000  # reports/balance.toml's budget
FIRST = 600  # games simulated at once; the few runs still undecided go on to BUDGET
RUNS = 10_000  # per edge: 20,000 in all
CHUNK = 5_000


def _tolerance(rate: float, runs: int) -> float:
    return 3 * math.sqrt(rate * (1 - rate) / runs)


def _verdicts(
    band: BandTest, p: float, runs: int, rng: np.random.Generator
) -> npt.NDArray[np.int8]:
    """The band's verdict (+1 pass, -1 fail, 0 undecided within the budget) on ``runs``
    streams of games each won with probability ``p``. Each side's course is the test's own
    (``BandTest.sides``, ``BernoulliSPRT.path``, ``first_exits`` with its Wald bounds), many
    streams at once; the band fails when a side fails and passes when every side passes. A
    run still undecided after FIRST games is played on to the budget and judged by
    ``BandTest.run``, which also judges the first streams of every chunk, to hold the
    vectorised verdicts to it."""
    out: list[npt.NDArray[np.int8]] = []
    for start in range(0, runs, CHUNK):
        n = min(CHUNK, runs - start)
        wins = rng.random((n, FIRST)) < p
        failed = np.zeros(n, dtype=np.bool_)
        passed = np.ones(n, dtype=np.bool_)
        for side in band.sides():
            _, decision = first_exits(side.path(wins), *wald_bounds(side.alpha, side.beta))
            failed |= decision == -1
            passed &= decision == 1
        verdict = np.where(failed, -1, np.where(passed, 1, 0)).astype(np.int8)
        for i in range(100):
            if verdict[i] != 0:
                stop = band.run(wins[i])
                assert verdict[i] == (1 if stop.decision is Decision.PASS else -1)
        for i in np.flatnonzero(verdict == 0):
            more = np.concatenate([wins[i], rng.random(BUDGET - FIRST) < p])
            stop = band.run(more)
            verdict[i] = {Decision.PASS: 1, Decision.FAIL: -1}.get(stop.decision, 0)
        out.append(verdict)
    return np.concatenate(out)


@pytest.mark.slow  # a heavy end-to-end run of a command; in make test-slow (CI runs it)
def test_a_deck_on_an_edge_of_the_band_fails_at_most_beta_of_the_time() -> None:
    """A deck whose win rate is exactly the band's lower edge, or exactly its upper edge, should
    pass: the band fails it at most ``beta`` of the time (each side at ``beta / 2``). Measured:
    about 3.5%; each side run at the full ``beta`` gives about 7.3%."""
    assert [s.beta for s in BAND.sides()] == [BETA / 2, BETA / 2]
    rng = np.random.default_rng(20261127)
    verdicts = np.concatenate([_verdicts(BAND, p, RUNS, rng) for p in (BAND.lo, BAND.hi)])
    failed = float((verdicts == -1).mean())
    assert (verdicts == 0).mean() < 0.001  # virtually every run decides within the budget
    assert failed <= BETA + _tolerance(BETA, verdicts.size), f"failed {failed:.2%} on an edge"
    assert failed > BETA / 4  # the simulation does reach the failing bound


def test_a_deck_the_margin_outside_the_band_passes_at_most_alpha_of_the_time() -> None:
    """A deck exactly ``margin`` below the band or above it should fail: it passes only if the
    side it violates passes (the other side must pass too), at most ``alpha`` of the time."""
    rng = np.random.default_rng(1127)
    outside = (BAND.lo - BAND.margin, BAND.hi + BAND.margin)
    verdicts = np.concatenate([_verdicts(BAND, p, RUNS // 2, rng) for p in outside])
    passed = float((verdicts == 1).mean())
    assert (verdicts == 0).mean() < 0.001
    assert passed <= ALPHA + _tolerance(ALPHA, verdicts.size), f"passed {passed:.2%} outside"
