"""Win-rate differences from paired games: two configurations playing the same game indices of
one seed, so game ``i`` of each draws from the same random stream (common random numbers).

Where the two configurations consume that stream alike (same deck size and order, say, with one
card swapped), their games are strongly correlated, and the difference of their win rates is
known far more precisely than from two independent runs of the same size: only the *discordant*
games, won by one and not the other, carry information about the difference.

The interval is the Wald interval for a difference of matched proportions with Agresti and Min's
adjustment (add 1/2 to each of the four cells; Agresti & Min 2005, "Simple improved confidence
intervals for comparing matched proportions", Statistics in Medicine 24:729-740), which keeps
its nominal coverage with few discordant games and never collapses to a zero-width interval.
The p-value is McNemar's exact test: the discordant games split as a fair coin under "no
difference" (``scipy.stats.binomtest``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

CONFIDENCE = 0.95
METHOD = (
    "paired games on common random numbers; Wald interval for matched proportions with "
    "Agresti-Min adjustment; McNemar exact p-value (scipy.stats.binomtest)"
)


def _z(confidence: float) -> float:
    from scipy.special import ndtri

    return float(ndtri(0.5 + confidence / 2))


@dataclass(frozen=True, slots=True)
class PairedDifference:
    """``rate_b - rate_a`` over ``n`` paired games, with its interval and McNemar's p-value."""

    n: int
    wins_a: int
    wins_b: int
    only_a: int  # games A won and B did not
    only_b: int  # games B won and A did not
    difference: float | None
    ci: tuple[float, float] | None
    p_value: float | None
    confidence: float = CONFIDENCE

    @property
    def half_width(self) -> float | None:
        return None if self.ci is None else (self.ci[1] - self.ci[0]) / 2

    def as_dict(self) -> dict[str, Any]:
        return {
            "games": self.n,
            "wins_a": self.wins_a,
            "wins_b": self.wins_b,
            "win_rate_a": self.wins_a / self.n if self.n else None,
            "win_rate_b": self.wins_b / self.n if self.n else None,
            "only_a_won": self.only_a,
            "only_b_won": self.only_b,
            "difference": self.difference,
            "ci": list(self.ci) if self.ci is not None else None,
            "p_value": self.p_value,
            "confidence": self.confidence,
        }


def paired_difference(
    won_a: Sequence[bool], won_b: Sequence[bool], confidence: float = CONFIDENCE
) -> PairedDifference:
    """The difference in win rate (B minus A) of games paired by index."""
    if len(won_a) != len(won_b):
        raise ValueError(f"paired runs differ in length: {len(won_a)} and {len(won_b)}")
    n = len(won_a)
    wins_a = sum(map(bool, won_a))
    wins_b = sum(map(bool, won_b))
    only_a = sum(1 for a, b in zip(won_a, won_b, strict=True) if a and not b)
    only_b = sum(1 for a, b in zip(won_a, won_b, strict=True) if b and not a)
    if n == 0:
        return PairedDifference(0, 0, 0, 0, 0, None, None, None, confidence)
    from scipy import stats

    difference = (only_b - only_a) / n
    # Agresti-Min: half a game added to each cell of the 2x2 table (n grows by 2).
    nn, b, c = n + 2, only_b + 0.5, only_a + 0.5
    centre = (b - c) / nn
    se = math.sqrt(max((b + c) / nn - centre * centre, 0.0) / nn)
    z = _z(confidence)
    ci = (max(-1.0, centre - z * se), min(1.0, centre + z * se))
    discordant = only_a + only_b
    p = float(stats.binomtest(only_b, discordant, 0.5).pvalue) if discordant else 1.0
    return PairedDifference(n, wins_a, wins_b, only_a, only_b, difference, ci, p, confidence)


def independent_difference(
    wins_a: int, n_a: int, wins_b: int, n_b: int, confidence: float = CONFIDENCE
) -> tuple[float, tuple[float, float]]:
    """B minus A from two independent runs, with the Wald interval (Agresti-Caffo: one win
    and one loss added to each run), for comparison with the paired estimate."""
    pa = (wins_a + 1) / (n_a + 2)
    pb = (wins_b + 1) / (n_b + 2)
    se = math.sqrt(pa * (1 - pa) / (n_a + 2) + pb * (1 - pb) / (n_b + 2))
    z = _z(confidence)
    centre = pb - pa
    return wins_b / n_b - wins_a / n_a, (centre - z * se, centre + z * se)
