"""The course of a balance check's sequential test: the log-likelihood ratio after each game
(band: one line per edge of the band; drift: one line for the paired games), thinned to a few
hundred points, with the Wald bounds it is tested against. The summary page draws it."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from deckkit.analysis.sprt import BandTest, DriftTest, wald_bounds

POINTS = 200  # points kept per line: enough for the chart, small in the sidecar


def _thin(path: npt.NDArray[np.float64]) -> list[list[float]]:
    """[games, llr] at up to POINTS games, always the last."""
    n = len(path)
    if n == 0:
        return []
    marks = np.unique(np.linspace(1, n, num=min(n, POINTS)).round().astype(np.int64))
    return [[int(m), round(float(path[m - 1]), 4)] for m in marks]


def band_course(test: BandTest, wins: npt.ArrayLike) -> list[dict[str, Any]]:
    """One line per edge of the band: its LLR after each game, and its bounds."""
    stream = np.asarray(wins)
    out: list[dict[str, Any]] = []
    for side in test.sides():
        name = "lower edge" if side.p_pass == test.lo else "upper edge"
        lower, upper = wald_bounds(side.alpha, side.beta)
        out.append({"line": name, "bounds": [lower, upper], "points": _thin(side.path(stream))})
    return out


def drift_course(test: DriftTest, old: npt.ArrayLike, new: npt.ArrayLike) -> list[dict[str, Any]]:
    """The drift test's LLR after each pair of games, and its bounds."""
    lower, upper = wald_bounds(test.alpha, test.beta)
    path = test.path(old, new)
    return [{"line": "drift", "bounds": [lower, upper], "points": _thin(path)}]
