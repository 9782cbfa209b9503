"""The Student-t quantile, kept below the games in :mod:`deckkit.core.student_t`."""

from __future__ import annotations

from deckkit.core.student_t import LARGE_DF, t_central, t_quantile, t_tail

__all__ = ["LARGE_DF", "t_central", "t_quantile", "t_tail"]
