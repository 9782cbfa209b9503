"""Sequential probability ratio tests for balance checks: stop as soon as the evidence is clear.

Pure arithmetic on outcome streams; it knows nothing of decks or the engine. Two tests, both in
the form chess-engine testing made standard (fishtest: ``server/fishtest/stats/LLRcalc.py`` and
``stat_util.py``; OpenBench ports the same formulas in ``OpenBench/stats.py``):

* **Wald's SPRT on a Bernoulli win rate** (band checks). Each game is a win (1) or not (0; a loss
  or a stall). Two simple hypotheses, ``p_fail`` and ``p_pass``; after ``n`` games with ``w`` wins
  the log-likelihood ratio is

      LLR = w log(p_pass / p_fail) + (n - w) log((1 - p_pass) / (1 - p_fail)).

* **The GSPRT on the paired trinomial** (drift checks). Game ``i`` is played twice with the same
  seed, once with the baseline's cards ("old") and once with today's ("new"). The pair scores
  1 when only the new side wins, 0 when only the old side wins, and 1/2 when both win or both do
  not: exactly fishtest's win/draw/loss trinomial with the old cards as the opponent. The mean
  pair score is ``s = 1/2 + (p_new - p_old) / 2``, so a drift of ``d`` points is ``s = 1/2 + d/2``.
  The hypotheses fix only the mean, not the three probabilities, so this is a *generalised*
  SPRT: each hypothesis' likelihood is maximised over the trinomials with that mean
  (fishtest's ``MLE_expected``), and with counts ``n_i`` and MLE probabilities ``p0_i``, ``p1_i``

      LLR = sum_i n_i log(p1_i / p0_i).

  The constrained MLE is ``p_i = phat_i / (1 + x (a_i - s))`` with ``x`` the root of the secular
  equation ``sum_i phat_i (a_i - s) / (1 + x (a_i - s)) = 0`` (``a_i`` = 0, 1/2, 1), solved
  here in closed form, vectorised over many streams. Counts are floored at 1e-3 first, as fishtest's
  ``regularize`` does, so a stream of nothing but ties (identical cards) has a finite LLR.
  We chose the trinomial over fishtest's pentanomial because a pair here is one game per side,
  not two games with colours reversed; the trinomial is the pentanomial's one-game analogue.

**Bounds.** The hypothesis ``H0`` is the failing one, ``H1`` the passing one, and LLR is
``log L(H1) / L(H0)``. ``alpha`` is the chance of passing when ``H0`` holds (a false pass) and
``beta`` the chance of failing when ``H1`` holds (a false fail). Wald's argument: on stopping at
the upper bound ``B``, the likelihood ratio is at least ``e^B``, so ``P(pass | H0) <=
e^-B P(pass | H1) <= e^-B``; requiring ``(1 - beta) e^-B = alpha`` gives
``B = log((1 - beta) / alpha)`` and symmetrically ``A = log(beta / (1 - alpha))``. Overshoot (the
LLR jumps past a bound) only lowers the error rates; Wald's inequality bounds them by
``alpha / (1 - beta)`` and ``beta / (1 - alpha)``. The GSPRT uses the same bounds; its error rates
hold asymptotically, which fishtest's long record and the simulations in
``tests/test_sprt.py`` confirm for the sizes used here.

**Sampling granularity.** Games are played in batches, but the test is evaluated after every
game in index order, so where it stops depends only on the outcomes, not on batch sizes or the
number of worker processes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
REGULARIZE = 1e-3  # fishtest's LLRcalc.regularize floor for empty outcome classes
TRINOMIAL_SCORES = (0.0, 0.5, 1.0)  # old side only wins, tie, new side only wins


class Decision(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    CONTINUE = "continue"


def wald_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """``(A, B)`` = ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``; see the module."""
    if not (0 < alpha < 0.5 and 0 < beta < 0.5):
        raise ValueError(f"alpha and beta must lie in (0, 0.5), not {alpha}, {beta}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def bernoulli_llr(
    wins: npt.ArrayLike, games: npt.ArrayLike, p_fail: float, p_pass: float
) -> FloatArray:
    """Wald's LLR of ``p_pass`` against ``p_fail`` after ``wins`` of ``games`` (vectorised)."""
    w = np.asarray(wins, dtype=np.float64)
    n = np.asarray(games, dtype=np.float64)
    return np.asarray(
        w * math.log(p_pass / p_fail) + (n - w) * math.log((1 - p_pass) / (1 - p_fail)),
        dtype=np.float64,
    )


def _secular_root(phat: FloatArray, a: FloatArray) -> FloatArray:
    """The root ``x`` of ``sum_i phat_i a_i / (1 + x a_i) = 0`` per row of ``phat`` (fishtest's
    ``secular``, which finds it with Brent's method). With three outcomes, clearing the
    denominators leaves the quadratic ``c2 x^2 + c1 x + c0 = 0``; the left side decreases in
    ``x`` on ``(-1/max a, -1/min a)``, where every ``1 + x a_i`` is positive, from +inf to -inf,
    so exactly one of its roots lies there. Solved in closed form, vectorised, with the
    cancellation-free form of the quadratic formula (``c2`` is 0 when ``s`` is a score)."""
    p0, p1, p2 = phat[..., 0], phat[..., 1], phat[..., 2]
    a0, a1, a2 = float(a[0]), float(a[1]), float(a[2])
    c0 = p0 * a0 + p1 * a1 + p2 * a2
    c1 = p0 * a0 * (a1 + a2) + p1 * a1 * (a0 + a2) + p2 * a2 * (a0 + a1)
    c2 = (p0 + p1 + p2) * (a0 * a1 * a2)
    root = np.sqrt(np.maximum(c1 * c1 - 4 * c2 * c0, 0.0))
    q = -(c1 + np.where(c1 >= 0, root, -root)) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        near = np.where(q != 0, c0 / q, 0.0)
        far = np.where(c2 != 0, q / c2, np.inf)
    lo, hi = -1.0 / max(a0, a1, a2), -1.0 / min(a0, a1, a2)
    return np.asarray(np.where((near > lo) & (near < hi), near, far), dtype=np.float64)


def mle_expected(counts: npt.ArrayLike, s: float) -> FloatArray:
    """The trinomial closest in likelihood to the observed ``counts`` (losses, ties, wins) whose
    mean score is ``s`` (fishtest's ``MLE_expected``), one row per stream."""
    n = np.maximum(np.asarray(counts, dtype=np.float64), REGULARIZE)
    phat = n / n.sum(axis=-1, keepdims=True)
    a = np.asarray(TRINOMIAL_SCORES) - s
    x = _secular_root(phat, a)
    return np.asarray(phat / (1 + x[..., None] * a), dtype=np.float64)


def trinomial_llr(counts: npt.ArrayLike, s_fail: float, s_pass: float) -> FloatArray:
    """The GSPRT's LLR of mean score ``s_pass`` against ``s_fail`` for trinomial ``counts``
    (last axis: old side only wins, ties, new side only wins)."""
    n = np.maximum(np.asarray(counts, dtype=np.float64), REGULARIZE)
    p0 = mle_expected(n, s_fail)
    p1 = mle_expected(n, s_pass)
    return np.asarray((n * np.log(p1 / p0)).sum(axis=-1), dtype=np.float64)


@dataclass(frozen=True, slots=True)
class Stop:
    """Where a test stands: its decision, after how many games (the stopping game, or all games
    seen when it continues), the LLR there and the bounds it was held to."""

    decision: Decision
    games: int
    llr: float
    bounds: tuple[float, float] = (0.0, 0.0)


def first_exit(llr: npt.ArrayLike, lower: float, upper: float) -> Stop:
    """Scan an LLR path (value after game 1, 2, ...) for the first bound it reaches."""
    path = np.asarray(llr, dtype=np.float64)
    crossed = np.flatnonzero((path >= upper) | (path <= lower))
    if crossed.size == 0:
        last = float(path[-1]) if path.size else 0.0
        return Stop(Decision.CONTINUE, int(path.size), last, (lower, upper))
    i = int(crossed[0])
    value = float(path[i])
    decision = Decision.PASS if value >= upper else Decision.FAIL
    return Stop(decision, i + 1, value, (lower, upper))


def first_exits(llr: npt.ArrayLike, lower: float, upper: float) -> tuple[FloatArray, FloatArray]:
    """For many LLR paths (rows), the 1-based stopping game (``inf`` if none) and the decision
    (+1 pass, -1 fail, 0 continue): :func:`first_exit` vectorised for simulations."""
    path = np.asarray(llr, dtype=np.float64)
    hit = (path >= upper) | (path <= lower)
    any_hit = hit.any(axis=-1)
    idx = hit.argmax(axis=-1)
    at = np.take_along_axis(path, idx[..., None], axis=-1)[..., 0]
    decision = np.where(any_hit, np.where(at >= upper, 1.0, -1.0), 0.0)
    games = np.where(any_hit, idx + 1.0, np.inf)
    return games, decision


@dataclass(frozen=True, slots=True)
class BernoulliSPRT:
    """One-sided Wald SPRT: fail at ``p_fail``, pass at ``p_pass`` (either order)."""

    p_fail: float
    p_pass: float
    alpha: float
    beta: float

    def __post_init__(self) -> None:
        if not (0 < self.p_fail < 1 and 0 < self.p_pass < 1) or self.p_fail == self.p_pass:
            raise ValueError(f"need two distinct rates in (0, 1): {self.p_fail}, {self.p_pass}")
        wald_bounds(self.alpha, self.beta)

    def path(self, wins: npt.ArrayLike) -> FloatArray:
        """The LLR after each game of a win (1) / no-win (0) stream (last axis)."""
        w = np.cumsum(np.asarray(wins, dtype=np.int64), axis=-1)
        n = np.arange(1, w.shape[-1] + 1)
        return bernoulli_llr(w, n, self.p_fail, self.p_pass)

    def run(self, wins: npt.ArrayLike) -> Stop:
        lower, upper = wald_bounds(self.alpha, self.beta)
        return first_exit(self.path(wins), lower, upper)


@dataclass(frozen=True, slots=True)
class BandTest:
    """Is the win rate within ``[lo, hi]``? Two one-sided SPRTs, one per edge that is not 0 or 1.

    At each edge the passing hypothesis is the edge itself and the failing one lies ``margin``
    outside it (lower edge: pass at ``lo``, fail at ``lo - margin``; upper edge: pass at ``hi``,
    fail at ``hi + margin``). A side that decides stops; the band fails as soon as a side fails
    and passes once every side has passed. Errors: a deck ``margin`` or more outside the band
    passes only if the side it violates passes, so with probability at most ``alpha``; a deck
    inside the band can fail on either side, so each side runs at ``beta / 2`` (Bonferroni) and
    the band fails it with probability at most ``beta``.
    """

    lo: float
    hi: float
    margin: float
    alpha: float
    beta: float

    def __post_init__(self) -> None:
        if not 0 <= self.lo < self.hi <= 1:
            raise ValueError(f"need 0 <= lo < hi <= 1, not {self.lo}, {self.hi}")
        if self.margin <= 0:
            raise ValueError(f"the margin must be positive, not {self.margin}")
        if self.lo > 0 and self.lo - self.margin <= 0:
            raise ValueError(f"lo - margin must stay above 0 ({self.lo} - {self.margin})")
        if self.hi < 1 and self.hi + self.margin >= 1:
            raise ValueError(f"hi + margin must stay below 1 ({self.hi} + {self.margin})")
        wald_bounds(self.alpha, self.beta)

    def sides(self) -> tuple[BernoulliSPRT, ...]:
        beta = self.beta / 2 if self.lo > 0 and self.hi < 1 else self.beta
        out: list[BernoulliSPRT] = []
        if self.lo > 0:
            out.append(BernoulliSPRT(self.lo - self.margin, self.lo, self.alpha, beta))
        if self.hi < 1:
            out.append(BernoulliSPRT(self.hi + self.margin, self.hi, self.alpha, beta))
        return tuple(out)

    def run(self, wins: npt.ArrayLike) -> Stop:
        """The band's decision on a win/no-win stream (game 0 first)."""
        stream = np.asarray(wins)
        stops = [side.run(stream) for side in self.sides()]
        if not stops:  # [0, 1]: every deck passes, no game needed
            return Stop(Decision.PASS, 0, 0.0, wald_bounds(self.alpha, self.beta))
        fails = [s for s in stops if s.decision is Decision.FAIL]
        if fails:
            return min(fails, key=lambda s: s.games)
        if all(s.decision is Decision.PASS for s in stops):
            return max(stops, key=lambda s: s.games)
        # Still running: report the undecided side nearest its failing bound.
        return min((s for s in stops if s.decision is Decision.CONTINUE), key=lambda s: s.llr)


@dataclass(frozen=True, slots=True)
class DriftTest:
    """Is today no more than ``max_drop`` worse (as a win-rate difference) than the baseline?
    The GSPRT on paired games: pass at no change (``s = 1/2``), fail at a drop of ``max_drop``
    (``s = 1/2 - max_drop / 2``); errors ``alpha`` (false pass) and ``beta`` (false fail)."""

    max_drop: float
    alpha: float
    beta: float

    def __post_init__(self) -> None:
        if not 0 < self.max_drop < 1:
            raise ValueError(f"max_drop must lie in (0, 1), not {self.max_drop}")
        wald_bounds(self.alpha, self.beta)

    @property
    def s_fail(self) -> float:
        return 0.5 - self.max_drop / 2

    @property
    def s_pass(self) -> float:
        return 0.5

    def path(self, old_wins: npt.ArrayLike, new_wins: npt.ArrayLike) -> FloatArray:
        """The LLR after each pair (last axis) of two aligned win/no-win streams."""
        diff = np.asarray(new_wins, dtype=np.int64) - np.asarray(old_wins, dtype=np.int64)
        counts = np.stack(
            [np.cumsum(diff == v, axis=-1) for v in (-1, 0, 1)], axis=-1
        )  # (..., n, 3): old only, tie, new only
        return trinomial_llr(counts, self.s_fail, self.s_pass)

    def run(self, old_wins: npt.ArrayLike, new_wins: npt.ArrayLike) -> Stop:
        lower, upper = wald_bounds(self.alpha, self.beta)
        return first_exit(self.path(old_wins, new_wins), lower, upper)
