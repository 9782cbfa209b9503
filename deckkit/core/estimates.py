"""Rates and means with honest intervals, for every game's summaries: a count of ``n`` games
with its Wilson score interval, a per-game mean with its Student-t interval from exact integer
sums (see :mod:`deckkit.analysis.summary` for why these intervals)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

CI_METHOD = "wilson"
CI_METHOD_LABEL = "Wilson score interval"
CONFIDENCE = 0.95


def t_quantile(df: int, p: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom: scipy's
    (``scipy.special.stdtrit``, what ``scipy.stats.t.ppf`` calls), imported when the first
    interval of a mean is computed, so commands that print none never load scipy."""
    from scipy.special import stdtrit

    return float(stdtrit(df, p))


@dataclass(frozen=True, slots=True)
class Rate:
    """``count`` of ``n`` games, with its confidence interval (``None`` when ``n`` is 0)."""

    count: int
    n: int
    rate: float | None
    ci: tuple[float, float] | None


def rate_json(rate: Rate) -> dict[str, object]:
    """A rate in the one JSON shape every command of every game writes (issue 28): ``count`` of
    ``n`` games, the ``rate`` and its ``ci`` ``[low, high]`` (both null when ``n`` is 0). The
    document around it says once how the intervals are made: ``ci_method`` (:data:`CI_METHOD`)
    and ``confidence`` (docs/schemas/common.schema.json's ``rate``)."""
    return {
        "count": rate.count,
        "n": rate.n,
        "rate": rate.rate,
        "ci": list(rate.ci) if rate.ci is not None else None,
    }


def wilson_interval(count: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The two-sided Wilson score interval, in the very arithmetic of scipy's
    ``binomtest(count, n).proportion_ci(method="wilson")`` (Newcombe 1998), with the normal
    quantile from the standard library: importing ``scipy.stats`` costs a short command a
    second, and even ``scipy.special`` a few tenths."""
    if not 0 <= count <= n or n < 1:
        raise ValueError(f"need 0 <= count <= n and n >= 1, not count={count}, n={n}")
    z = NormalDist().inv_cdf(0.5 + 0.5 * confidence)
    p = count / n
    q = 1 - p
    denom = 2 * (n + z**2)
    center = (2 * n * p + z**2) / denom
    delta = z / denom * math.sqrt(4 * n * p * q + z**2)
    low = 0.0 if count == 0 else center - delta
    high = 1.0 if count == n else center + delta
    return low, high


def proportion(count: int, n: int, confidence: float = CONFIDENCE) -> Rate:
    """The rate ``count / n`` and its Wilson score interval (Wilson 1927; the formula of
    ``scipy.stats.binomtest(...).proportion_ci(method="wilson")``)."""
    if n == 0:
        return Rate(count, n, None, None)
    return Rate(count, n, count / n, wilson_interval(count, n, confidence))


@dataclass(frozen=True, slots=True)
class MeanEstimate:
    """A per-game mean with its sample standard deviation and Student-t confidence interval."""

    mean: float | None
    std: float | None
    ci: tuple[float, float] | None
    min: int | None
    max: int | None


def mean_estimate(
    n: int,
    total: int,
    sq_total: int,
    lo: int | None = None,
    hi: int | None = None,
    confidence: float = CONFIDENCE,
) -> MeanEstimate:
    """Mean, std and t-interval from exact integer sums (no float drift across merge orders)."""
    if n == 0:
        return MeanEstimate(None, None, None, lo, hi)
    mean = total / n
    if n == 1:
        return MeanEstimate(mean, None, None, lo, hi)
    # n*sum(x^2) - (sum x)^2 is exact in integers; divide once at the end.
    var = (n * sq_total - total * total) / (n * (n - 1))
    std = math.sqrt(max(var, 0.0))
    half = t_quantile(n - 1, 0.5 + confidence / 2) * std / math.sqrt(n)
    return MeanEstimate(mean, std, (mean - half, mean + half), lo, hi)
