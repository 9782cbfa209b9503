"""The check the Anima Tactics duel tests share: the exact duel's outcome against sampled party
games of the same two characters."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from deckkit.core.estimates import wilson_interval


def assert_exact_within_sampled(exact: Sequence[Any], games: Sequence[Any], *label: object) -> None:
    """Each exact win chance (``exact``: the duel's outcomes with the first side acting first,
    then second) lies inside the 99.9% Wilson interval of the sampled games with the same first
    mover that side won by knock-out; ``label`` names the case in a failure."""
    for first, outcome in zip((True, False), exact, strict=True):
        mine = [g for g in games if g.a_first is first]
        for side, p in ((0, outcome.a_wins), (1, outcome.b_wins)):
            k = sum(1 for g in mine if g.by_ko and g.winner == side)
            low, high = wilson_interval(k, len(mine), 0.999)
            assert low <= p <= high, (*label, first, side, p, low, high)
