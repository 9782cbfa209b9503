"""The sequential tests: hand-checked LLRs and operating characteristics by simulation.

The simulations draw synthetic outcome streams from one fixed seed, so they are deterministic;
the tolerance on an observed error rate is three binomial standard errors over Wald's bound.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize, stats

from deckkit.analysis.sprt import (
    BandTest,
    BernoulliSPRT,
    Decision,
    DriftTest,
    bernoulli_llr,
    first_exit,
    first_exits,
    mle_expected,
    trinomial_llr,
    wald_bounds,
)

ALPHA = BETA = 0.05


def test_wald_bounds_are_log_beta_over_one_minus_alpha_and_log_one_minus_beta_over_alpha() -> None:
    """A = log(beta/(1-alpha)), B = log((1-beta)/alpha): +-2.944 at 5% each."""
    lower, upper = wald_bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944438979, abs=1e-9)
    assert upper == pytest.approx(2.944438979, abs=1e-9)
    assert wald_bounds(0.05, 0.10) == pytest.approx((math.log(0.10 / 0.95), math.log(0.90 / 0.05)))


def test_wald_bounds_reject_error_rates_outside_zero_to_half() -> None:
    """Error rates must lie strictly between 0 and 1/2."""
    with pytest.raises(ValueError):
        wald_bounds(0.0, 0.05)
    with pytest.raises(ValueError):
        wald_bounds(0.05, 0.6)


def test_bernoulli_llr_matches_hand_computed_values() -> None:
    """10 wins in 20 games, 0.4 against 0.5: 10 ln(5/4) + 10 ln(5/6) = 0.408220."""
    assert float(bernoulli_llr(10, 20, 0.4, 0.5)) == pytest.approx(0.4082199, abs=1e-6)
    # 3 wins of 10, fail at 0.45, pass at 0.35: 3 ln(35/45) + 7 ln(65/55) = 0.415435
    assert float(bernoulli_llr(3, 10, 0.45, 0.35)) == pytest.approx(0.4154353, abs=1e-6)


def _mle_by_optimizer(counts: tuple[float, float, float], s: float) -> np.ndarray:
    """The constrained MLE found independently: maximise sum n_i log p_i over the simplex with
    mean score s, by a general optimiser (no secular equation)."""
    n = np.maximum(np.asarray(counts, dtype=float), 1e-3)
    scores = np.array([0.0, 0.5, 1.0])
    res = optimize.minimize(
        lambda p: -(n * np.log(p)).sum(),
        x0=np.array([1 / 3, 1 / 3, 1 / 3]),
        method="SLSQP",
        bounds=[(1e-12, 1)] * 3,
        constraints=[
            {"type": "eq", "fun": lambda p: p.sum() - 1},
            {"type": "eq", "fun": lambda p: p @ scores - s},
        ],
        options={"ftol": 1e-14, "maxiter": 500},
    )
    assert res.success
    return np.asarray(res.x)


@pytest.mark.parametrize(
    ("counts", "s"),
    [((20, 50, 30), 0.45), ((30, 40, 30), 0.5), ((12, 80, 8), 0.485), ((0, 100, 0), 0.49)],
)
def test_mle_expected_agrees_with_a_general_optimiser(
    counts: tuple[float, float, float], s: float
) -> None:
    """fishtest's MLE_expected (secular equation) equals the constrained maximum found directly,
    and has the requested mean score."""
    ours = mle_expected(counts, s)
    assert ours.sum() == pytest.approx(1.0, abs=1e-12)
    assert float(ours @ np.array([0.0, 0.5, 1.0])) == pytest.approx(s, abs=1e-12)
    assert ours == pytest.approx(_mle_by_optimizer(counts, s), abs=1e-5)


def test_trinomial_llr_matches_hand_checked_values() -> None:
    """Hand check of fishtest's GSPRT formula for L, D, W = 20, 50, 30 between s0 = 0.45 and
    s1 = 0.5. At s1 the scores less s are (-1/2, 0, 1/2) and the secular equation reads
    -0.1 / (1 - x/2) + 0.15 / (1 + x/2) = 0, so x = 0.4 and p1 = (0.2/0.8, 0.5, 0.3/1.2) =
    (1/4, 1/2, 1/4). At s0 the equation, cleared of denominators, is a quadratic in x solved
    here with its formula; the LLR is sum n_i ln(p1_i / p0_i)."""
    p1 = mle_expected((20, 50, 30), 0.5)
    assert p1 == pytest.approx([0.25, 0.5, 0.25], abs=1e-12)
    phat = np.array([0.2, 0.5, 0.3])
    a = np.array([0.0, 0.5, 1.0]) - 0.45
    # sum_i phat_i a_i prod_{j != i} (1 + x a_j) = c0 + c1 x + c2 x^2
    c0 = float(phat @ a)
    c1 = sum(phat[i] * a[i] * (a.sum() - a[i]) for i in range(3))
    c2 = float(phat.sum() * a.prod())
    roots = [(-c1 + sign * math.sqrt(c1 * c1 - 4 * c2 * c0)) / (2 * c2) for sign in (1, -1)]
    x = next(r for r in roots if -1 / a.max() < r < -1 / a.min())
    p0 = phat / (1 + x * a)
    by_hand = float(np.dot([20, 50, 30], np.log(np.array([0.25, 0.5, 0.25]) / p0)))
    assert float(trinomial_llr((20, 50, 30), 0.45, 0.5)) == pytest.approx(by_hand, abs=1e-4)
    # The value itself, to catch a change of convention (sign, order of outcomes).
    assert float(trinomial_llr((20, 50, 30), 0.45, 0.5)) == pytest.approx(2.9692, abs=1e-3)


def test_trinomial_llr_is_close_to_fishtests_llr_alt_for_small_differences() -> None:
    """fishtest's LLR_alt, N/2 ln(r0/r1) with r_k = sum phat_i (a_i - s_k)^2, approximates the
    exact GSPRT LLR to third order in s1 - s0."""
    counts = np.array([310.0, 402.0, 288.0])
    phat = counts / counts.sum()
    scores = np.array([0.0, 0.5, 1.0])
    s0, s1 = 0.49, 0.5
    r0, r1 = ((phat * (scores - s) ** 2).sum() for s in (s0, s1))
    alt = counts.sum() / 2 * math.log(r0 / r1)
    exact = float(trinomial_llr(counts, s0, s1))
    assert exact == pytest.approx(alt, rel=0.01)


def test_identical_cards_give_all_ties_and_pass_the_drift_test() -> None:
    """Pairs that always tie (the same cards) pass: the LLR grows by ~ -ln(1 - drop) a pair."""
    test = DriftTest(max_drop=0.05, alpha=ALPHA, beta=BETA)
    wins = np.array([1, 0, 0, 1] * 100)
    stop = test.run(wins, wins)
    assert stop.decision is Decision.PASS
    assert stop.games < 100


def test_first_exit_reports_the_first_bound_reached() -> None:
    """The first crossing decides; no crossing continues with the last LLR."""
    assert first_exit([0.1, -1.0, 3.0, -5.0], -2.0, 2.0).games == 3
    assert first_exit([0.1, -2.5, 3.0], -2.0, 2.0).decision is Decision.FAIL
    stop = first_exit([0.1, 0.2], -2.0, 2.0)
    assert (stop.decision, stop.games, stop.llr) == (Decision.CONTINUE, 2, 0.2)


def _fixed_sample_size(mean0: float, mean1: float, sd0: float, sd1: float) -> float:
    """Games a one-sided fixed-sample z-test needs for the same alpha and beta."""
    z_a = stats.norm.ppf(1 - ALPHA)
    z_b = stats.norm.ppf(1 - BETA)
    return float(((z_a * sd0 + z_b * sd1) / abs(mean1 - mean0)) ** 2)


def _tolerance(rate: float, runs: int) -> float:
    return 3 * math.sqrt(rate * (1 - rate) / runs)


RUNS = 2000


# The operating characteristics simulate thousands of runs: `make test-slow`. The fast suite keeps
# the statistics they rest on (the bounds, the LLRs against hand-computed values, the first exit)
# and the band test's error rates (test_band_passes_inside_and_fails_outside).
@pytest.mark.slow
def test_bernoulli_sprt_operating_characteristics() -> None:
    """At p_fail the test passes at most alpha/(1-beta) of the time, at p_pass it fails at most
    beta/(1-alpha) (plus 3 standard errors), and on average it needs well under the games of a
    fixed-sample test with the same power."""
    p_fail, p_pass = 0.40, 0.45
    sprt = BernoulliSPRT(p_fail, p_pass, ALPHA, BETA)
    lower, upper = wald_bounds(ALPHA, BETA)
    fixed = _fixed_sample_size(
        p_fail, p_pass, math.sqrt(p_fail * (1 - p_fail)), math.sqrt(p_pass * (1 - p_pass))
    )
    rng = np.random.default_rng(20261123)
    budget = int(5 * fixed)
    for truth, wrong, bound in (
        (p_fail, 1.0, ALPHA / (1 - BETA)),
        (p_pass, -1.0, BETA / (1 - ALPHA)),
    ):
        wins = rng.random((RUNS, budget)) < truth
        games, decision = first_exits(sprt.path(wins), lower, upper)
        assert (decision != 0).mean() > 0.995  # nearly all decide within 5x the fixed size
        wrong_rate = float((decision == wrong).mean())
        assert wrong_rate <= bound + _tolerance(bound, RUNS)
        decided = games[np.isfinite(games)]
        assert decided.mean() < 0.75 * fixed


@pytest.mark.slow
def test_drift_gsprt_operating_characteristics() -> None:
    """Paired streams with 40% of pairs decisive: no change passes, a drop of max_drop fails,
    each wrong at most at Wald's bound (plus 3 standard errors), in well under the pairs of a
    fixed-sample test of the same power."""
    drop = 0.10
    test = DriftTest(max_drop=drop, alpha=ALPHA, beta=BETA)
    lower, upper = wald_bounds(ALPHA, BETA)
    runs = 1500
    # Trinomial of the pair difference new - old: (-1, 0, +1)
    cases = (
        ((0.20, 0.60, 0.20), -1.0, BETA / (1 - ALPHA)),  # no drift: failing is the error
        ((0.25, 0.60, 0.15), 1.0, ALPHA / (1 - BETA)),  # drop of 0.10: passing is the error
    )
    var = 0.4  # variance of the difference, about equal under both hypotheses
    fixed = _fixed_sample_size(0.0, -drop, math.sqrt(var), math.sqrt(var - drop**2))
    budget = int(4 * fixed)
    rng = np.random.default_rng(8)
    for probs, wrong, bound in cases:
        diff = rng.choice(np.array([-1, 0, 1]), size=(runs, budget), p=probs)
        old = (diff == -1).astype(np.int64)
        new = (diff == 1).astype(np.int64)
        games, decision = first_exits(test.path(old, new), lower, upper)
        assert (decision != 0).mean() > 0.99
        assert float((decision == wrong).mean()) <= bound + _tolerance(bound, runs)
        assert games[np.isfinite(games)].mean() < 0.75 * fixed


def test_band_passes_inside_and_fails_outside() -> None:
    """A deck well inside the band passes, one below or above it by the margin fails, each wrong
    at most alpha (outside) or beta (inside) of the time, up to 3 standard errors."""
    band = BandTest(lo=0.35, hi=0.55, margin=0.05, alpha=ALPHA, beta=BETA)
    rng = np.random.default_rng(3)
    runs = 400
    outcomes = {
        0.45: Decision.PASS,
        0.30: Decision.FAIL,
        0.60: Decision.FAIL,
    }
    for truth, expected in outcomes.items():
        stops = [band.run(rng.random(6000) < truth) for _ in range(runs)]
        wrong = sum(s.decision is not expected for s in stops) / runs
        limit = ALPHA if expected is Decision.FAIL else BETA
        assert wrong <= limit + _tolerance(limit, runs)


def test_band_edges_at_zero_and_one_need_no_side() -> None:
    """A band from 0 tests only its upper edge; the full band [0, 1] passes at once."""
    assert len(BandTest(0.0, 0.5, 0.05, ALPHA, BETA).sides()) == 1
    assert BandTest(0.0, 1.0, 0.05, ALPHA, BETA).run(np.array([1, 0])).decision is Decision.PASS
