"""The Student-t quantile with the standard library only, for the t-intervals of per-game means.

Importing ``scipy.special`` (with numpy) costs a short command such as ``deckkit report --from``
about 0.4 s, more than the arithmetic it is imported for. The quantile here solves
``P(T > t) = 1 - p`` by safeguarded Newton steps, with the tail written through the regularized
incomplete beta function, ``P(T > t) = I_x(df/2, 1/2) / 2`` for ``x = df / (df + t^2)``
(Abramowitz & Stegun 26.7.1 and 26.5.27), evaluated by its continued fraction (A&S 26.5.8) with
the modified Lentz method; from 5,000 degrees of freedom on, by the Cornish-Fisher expansion.
It agrees with ``scipy.special.stdtrit`` to about 1e-13 relative (tests/test_student_t.py checks
it from 1 to ten million degrees of freedom).
"""

from __future__ import annotations

import math
from statistics import NormalDist

EPS = 1e-16
# From here on the Cornish-Fisher expansion is exact to double precision, while the continued
# fraction, slow to converge there, would stop a few digits short.
LARGE_DF = 5000
TINY = 1e-300


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of I_x(a, b) (A&S 26.5.8), by the modified Lentz method; it
    converges fast for x < (a + 1) / (a + b + 2)."""
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > TINY else TINY)
    h = d
    for m in range(1, 100_000):
        for num in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > TINY else TINY)
            c = 1.0 + num / c
            c = c if abs(c) > TINY else TINY
            h *= d * c
        if abs(d * c - 1.0) < EPS:
            return h
    raise ArithmeticError(f"the incomplete beta fraction did not converge (a={a}, b={b})")


def log_gamma_ratio(a: float) -> float:
    """ln(Gamma(a + 1/2) / Gamma(a)). For large ``a`` the two log-gammas are large and nearly
    equal, so their difference loses digits (1e-11 relative at a = 10^4); there its asymptotic
    series (from Stirling's, A&S 6.1.47) is exact to double precision."""
    if a < 50:
        return math.lgamma(a + 0.5) - math.lgamma(a)
    return (
        0.5 * math.log(a) - 1 / (8 * a) + 1 / (192 * a**3) - 1 / (640 * a**5)
        + 17 / (14336 * a**7)
    )  # fmt: skip


def _beta_pair(a: float, b: float, x: float, y: float) -> tuple[float, float]:
    """(I_x(a, b), I_y(b, a)) for y = 1 - x: the two halves of the regularized incomplete beta,
    one from its continued fraction, on the side where it converges, the other as 1 minus it."""
    log_beta = math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)
    if b == 0.5:  # ln B(a, 1/2), without the cancellation of two large log-gammas
        log_beta = 0.5 * math.log(math.pi) - log_gamma_ratio(a)
    elif a == 0.5:
        log_beta = 0.5 * math.log(math.pi) - log_gamma_ratio(b)
    front = math.exp(a * math.log(x) + b * math.log(y) - log_beta) if x > 0 and y > 0 else 0.0
    if x < (a + 1.0) / (a + b + 2.0):
        direct = front * _beta_fraction(a, b, x) / a if front else 0.0
        return direct, 1.0 - direct
    other = front * _beta_fraction(b, a, y) / b if front else 0.0
    return 1.0 - other, other


def t_tail(t: float, df: float) -> float:
    """P(T > t) for t >= 0 and Student's t with ``df`` degrees of freedom."""
    if t <= 0:
        return 0.5
    t2 = t * t  # x = df / (df + t^2) and y = 1 - x, each without cancellation
    return 0.5 * _beta_pair(df / 2, 0.5, df / (df + t2), t2 / (df + t2))[0]


def t_central(t: float, df: float) -> float:
    """P(|T| < t) for t >= 0: accurate where the tail is near 1/2 (t near 0)."""
    if t <= 0:
        return 0.0
    t2 = t * t
    return _beta_pair(df / 2, 0.5, df / (df + t2), t2 / (df + t2))[1]


def t_density(t: float, df: float) -> float:
    """The density of Student's t with ``df`` degrees of freedom."""
    log_c = log_gamma_ratio(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(log_c - (df + 1) / 2 * math.log1p(t * t / df))


def cornish_fisher(df: float, p: float) -> float:
    """The Cornish-Fisher expansion of the t quantile about the normal one, to 1/df^4
    (A&S 26.7.5): within 1e-15 relative from ``LARGE_DF`` degrees of freedom on."""
    z = NormalDist().inv_cdf(p)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def t_quantile(df: float, p: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (``stdtrit(df, p)``)."""
    if not (df > 0 and 0 < p < 1):
        raise ValueError(f"need df > 0 and 0 < p < 1, not df={df}, p={p}")
    if p < 0.5:
        return -t_quantile(df, 1 - p)
    if p == 0.5:
        return 0.0
    if df == 1:  # Cauchy: tan(pi (p - 1/2)), with an argument of at most pi/4 either way
        return math.tan(math.pi * (p - 0.5)) if p < 0.75 else 1 / math.tan(math.pi * (1 - p))
    if df == 2:  # closed form (A&S 26.7.4 inverted)
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    t = cornish_fisher(df, p)
    if df >= LARGE_DF:
        return t
    # Solve P(T > t) = 1 - p, or near the centre, where that tail is near 1/2 and would lose
    # digits, P(|T| < t) = 2p - 1 (both exact in floating point for p >= 1/2).
    central = p < 0.75
    target = 2 * p - 1 if central else 1 - p

    def shortfall(t: float) -> float:
        """How far t is below the quantile, in probability (> 0: t is too small)."""
        return target - t_central(t, df) if central else t_tail(t, df) - target

    lo, hi = 0.0, max(t, 1.0)
    while shortfall(hi) > 0:  # a bracket: shortfall(lo) > 0 >= shortfall(hi)
        lo, hi = hi, 2 * hi
    t = min(max(t, lo), hi)
    for _ in range(200):
        excess = shortfall(t)
        if excess > 0:
            lo = t
        else:
            hi = t
        nxt = t + excess / ((2 if central else 1) * t_density(t, df))
        if not lo < nxt < hi:  # Newton left the bracket: bisect instead
            nxt = (lo + hi) / 2
        if abs(nxt - t) <= 1e-15 * abs(nxt) or hi - lo <= 1e-15 * hi:
            return nxt
        t = nxt
    return t
