"""A party game's options are kept (deckkit/animatactics/engine/abilities.py::options_kept):
for every character of the roster and every state a grid of arguments reaches, the kept tuple
is what :func:`options` gives for the same arguments, and asking again gives the same tuple."""

from __future__ import annotations

import itertools
from pathlib import Path

from deckkit.animatactics.engine.abilities import kits, options, options_kept

ABILITIES = Path(__file__).resolve().parent.parent / "card_db" / "animatactics" / "abilities.csv"


def test_the_kept_options_are_the_options_of_the_same_arguments() -> None:
    roster = kits(ABILITIES)
    assert len(roster) > 50
    grid = itertools.product(
        (0, 1, 2, 3, 5, 8),  # actions
        (False, True),  # engaged
        (False, True),  # moved
        (0, 1, 3),  # specials used (bits)
        (False, True),  # the target engaged
        (1, 4, 12),  # Life Points
        (frozenset(), frozenset({"charge"}), frozenset({"hit"})),  # the chain left
        (False, True),  # the target Paralyzed
    )
    cases = list(grid)
    checked = 0
    for kit in roster.values():
        for ap, engaged, moved, used, target_engaged, life, chain, paralyzed in cases[::7]:
            kept = options_kept(kit, ap, engaged, moved, used, target_engaged, life, chain,
                                paralyzed)  # fmt: skip
            fresh = options(kit, ap, 0, engaged, moved, used, target_engaged, life, chain=chain,
                            effects=True, at_paralyzed=paralyzed)  # fmt: skip
            assert list(kept) == fresh
            again = options_kept(kit, ap, engaged, moved, used, target_engaged, life, chain,
                                 paralyzed)  # fmt: skip
            assert again is kept
            checked += 1
    assert checked > 10_000
