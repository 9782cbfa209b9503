"""The player's one-pass shortcuts against the definitions they replace: the damage of a party's
``cap`` hardest hitters (sort, then sum the first ``cap``) and the ranking of fighters (a stable
sort by damage, plus defense when asked), on parties of any damage, negative included."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckkit.animayhem.engine.policy import _rank, _top_damage
from deckkit.animayhem.engine.state import DEF, DMG, Char
from tests.engine_helpers import NINE, add_char, bare_game

NAMES = ["Krillin", "Goten", "A-ko Magami", "Ross Sylibus", "Priss Asagiri"]
GAME = bare_game(NINE)
PARTY = [add_char(GAME, name, 4) for name in NAMES]
ability = st.integers(min_value=-3, max_value=9)
stats = st.lists(st.tuples(ability, ability), min_size=0, max_size=len(NAMES))


def _party(values: list[tuple[int, int]]) -> list[Char]:
    party = PARTY[: len(values)]
    for c, (dmg, dfn) in zip(party, values, strict=True):
        cur = list(c.cur)
        cur[DMG], cur[DEF] = dmg, dfn
        c.cur = (cur[0], cur[1], cur[2], cur[3], cur[4])
    return list(party)


# make test draws FAST_EXAMPLES parties for each property; its twin in make test-slow (which CI
# runs) draws SLOW_EXAMPLES others.
FAST_EXAMPLES, SLOW_EXAMPLES = 100, 400


def check_top_damage(values: list[tuple[int, int]], cap: int) -> None:
    party = _party(values)
    hits = sorted((c.cur[DMG] for c in party), reverse=True)
    assert _top_damage(party, cap) == sum(hits[:cap])


@settings(max_examples=FAST_EXAMPLES, deadline=None)
@given(values=stats, cap=st.integers(min_value=1, max_value=5))
def test_top_damage_is_the_sum_of_the_cap_highest_hits(values: list[tuple[int, int]],
                                                       cap: int) -> None:  # fmt: skip
    check_top_damage(values, cap)


@pytest.mark.slow
@settings(max_examples=SLOW_EXAMPLES, deadline=None)
@given(values=stats, cap=st.integers(min_value=1, max_value=5))
def test_top_damage_is_the_sum_of_the_cap_highest_hits_on_more_parties(
    values: list[tuple[int, int]], cap: int
) -> None:
    check_top_damage(values, cap)


@settings(max_examples=FAST_EXAMPLES, deadline=None)
@given(values=stats, start=st.integers(min_value=0, max_value=2), with_defense=st.booleans())
def test_rank_is_a_stable_sort_by_score_after_start(values: list[tuple[int, int]], start: int,
                                                    with_defense: bool) -> None:  # fmt: skip
    check_rank(values, start, with_defense)


@pytest.mark.slow
@settings(max_examples=SLOW_EXAMPLES, deadline=None)
@given(values=stats, start=st.integers(min_value=0, max_value=2), with_defense=st.booleans())
def test_rank_is_a_stable_sort_by_score_after_start_on_more_parties(
    values: list[tuple[int, int]], start: int, with_defense: bool
) -> None:
    check_rank(values, start, with_defense)


def check_rank(values: list[tuple[int, int]], start: int, with_defense: bool) -> None:
    party = _party(values)
    start = min(start, len(party))

    def score(c: Char) -> int:
        return c.cur[DMG] + c.cur[DEF] if with_defense else c.cur[DMG]

    expected = party[:start] + sorted(party[start:], key=score, reverse=True)
    _rank(party, start, with_defense)
    assert [c.uid for c in party] == [c.uid for c in expected]
