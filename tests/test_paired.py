"""Paired win-rate differences: the arithmetic of the interval and McNemar's test."""

from __future__ import annotations

import math

import pytest
from scipy import stats

from deckkit.analysis.paired import independent_difference, paired_difference


def test_counts_and_difference() -> None:
    a = [True, True, False, False, True, False]
    b = [True, False, True, True, True, False]
    d = paired_difference(a, b)
    assert (d.n, d.wins_a, d.wins_b, d.only_a, d.only_b) == (6, 3, 4, 1, 2)
    assert d.difference == pytest.approx(1 / 6)
    assert d.p_value == pytest.approx(stats.binomtest(2, 3, 0.5).pvalue)


def test_agresti_min_interval_by_hand() -> None:
    n, only_a, only_b = 1000, 40, 100
    a = [True] * only_a + [False] * only_b + [True] * 500 + [False] * (n - 640)
    b = [False] * only_a + [True] * only_b + [True] * 500 + [False] * (n - 640)
    d = paired_difference(a, b)
    nn, bb, cc = n + 2, only_b + 0.5, only_a + 0.5
    centre = (bb - cc) / nn
    se = math.sqrt(((bb + cc) / nn - centre**2) / nn)
    z = stats.norm.ppf(0.975)
    assert d.ci == pytest.approx((centre - z * se, centre + z * se))
    assert d.difference == pytest.approx(0.06)
    assert d.ci is not None and d.ci[0] > 0


def test_identical_runs_give_a_small_interval_around_zero() -> None:
    same = [True, False] * 500
    d = paired_difference(same, same)
    assert d.difference == 0 and d.p_value == 1.0
    assert d.ci is not None and d.ci[0] < 0 < d.ci[1] and d.ci[1] < 0.002


def test_pairing_pays_when_outcomes_agree() -> None:
    """Highly correlated outcomes: the paired interval is far narrower than the independent
    one for the very same counts."""
    a = [i % 10 < 5 for i in range(2000)]
    b = [i % 10 < 6 for i in range(2000)]  # wins every game a wins, and 200 more
    d = paired_difference(a, b)
    _, (lo, hi) = independent_difference(d.wins_a, d.n, d.wins_b, d.n)
    assert d.ci is not None and (d.ci[1] - d.ci[0]) < (hi - lo) / 2


def test_lengths_must_match() -> None:
    with pytest.raises(ValueError):
        paired_difference([True], [True, False])
