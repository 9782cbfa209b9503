"""The standard-library Student-t quantile used for the t-intervals of per-game means agrees with
scipy's (`stdtrit`, the function it replaces) from 1 to ten million degrees of freedom."""

from __future__ import annotations

import math

import pytest
from scipy.special import stdtrit

from deckkit.analysis.student_t import LARGE_DF, t_central, t_quantile, t_tail

DFS = [*range(1, 60), 99, 100, 299, 1_000, 1_999, LARGE_DF - 1, LARGE_DF, 12_345, 19_999,
       100_000, 1_000_000, 10_000_000]  # fmt: skip
PS = [0.55, 0.6, 0.75, 0.8, 0.9, 0.95, 0.975, 0.99, 0.995, 0.9995, 0.999999]


@pytest.mark.parametrize("df", DFS)
def test_quantile_matches_scipy(df: int) -> None:
    for p in PS:
        ours, theirs = t_quantile(df, p), float(stdtrit(df, p))
        assert ours == pytest.approx(theirs, rel=2e-13, abs=0), (df, p)
        assert t_quantile(df, 1 - p) == pytest.approx(-theirs, rel=2e-13, abs=0), (df, p)


def test_known_values_and_the_centre() -> None:
    assert t_quantile(10, 0.975) == pytest.approx(2.2281388519862747, rel=1e-14)  # mpmath
    assert t_quantile(1, 0.975) == pytest.approx(math.tan(0.475 * math.pi), rel=1e-15)
    assert t_quantile(7, 0.5) == 0.0
    # near the centre the quantile is tiny: P(|T| < t) = 2p - 1, solved without cancellation
    t = t_quantile(4, 0.5000001)
    assert t_central(t, 4) == pytest.approx(2e-7, rel=1e-12)
    assert 0.5 - t_tail(t, 4) == pytest.approx(1e-7, rel=1e-7)


@pytest.mark.parametrize(("df", "p"), [(0, 0.9), (-3, 0.9), (5, 0.0), (5, 1.0)])
def test_bad_arguments(df: int, p: float) -> None:
    with pytest.raises(ValueError):
        t_quantile(df, p)
