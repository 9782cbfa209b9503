"""The name index's closest names are difflib's, name for name and in difflib's order."""

from __future__ import annotations

import difflib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckkit.animayhem.construction.carddb import _normalise, load_card_db
from deckkit.core.nearest import NameIndex

NAMES = sorted({name.casefold() for name in load_card_db()._names})
INDEX = NameIndex(NAMES)
LETTERS = st.text(alphabet="abcdeghikmnorstu '-#", max_size=24)


@pytest.mark.parametrize(
    "word",
    ["gokku", "sailor moom", "armitages gun", "akane", "3 armitage's gun", "x", "", "zzqx fooo",
     "ranma 1/2", "goku", "ryoga hibiki", "é"],
)  # fmt: skip
def test_the_card_names_closest_to_a_word_are_difflib_s(word: str) -> None:
    for n, cutoff in ((3, 0.5), (10, 0.6)):
        assert INDEX.close_matches(word, n, cutoff) == difflib.get_close_matches(
            word, NAMES, n, cutoff
        )


@pytest.mark.parametrize("cutoff", [0.0, 1.0])
def test_the_edges_of_the_cutoff_are_difflib_s(cutoff: float) -> None:
    for word in ("goku", "", "sailor moom"):
        assert INDEX.close_matches(word, 3, cutoff) == difflib.get_close_matches(
            word, NAMES, 3, cutoff
        )


@settings(max_examples=150, deadline=None)
@given(word=LETTERS, names=st.lists(LETTERS, max_size=12), cutoff=st.sampled_from([0.0, 0.5, 0.8]))
def test_any_names_any_word(word: str, names: list[str], cutoff: float) -> None:
    """Empty names and words, repeated names and ties in score included."""
    assert NameIndex(names).close_matches(word, 3, cutoff) == difflib.get_close_matches(
        word, names, 3, cutoff
    )


def test_a_misspelt_card_gets_the_suggestions_it_always_got() -> None:
    db = load_card_db()
    assert db.suggest("Gokku") == db.suggest("gokku")
    lowered = {k.casefold(): k for k in db._names}
    expected = difflib.get_close_matches(_normalise("Sailor Moom"), list(lowered), n=3, cutoff=0.5)
    assert db.suggest("Sailor Moom") == [lowered[h] for h in expected]


def test_bad_arguments_are_refused_as_difflib_refuses_them() -> None:
    with pytest.raises(ValueError, match="n must be"):
        INDEX.close_matches("goku", 0)
    with pytest.raises(ValueError, match="cutoff must be"):
        INDEX.close_matches("goku", 3, 1.5)
