"""The game's chance: seeded exactly as ``random.Random`` seeds, so every game stays the same."""

from __future__ import annotations

import platform
import random

import pytest

from deckkit.animayhem.engine.chance import SeededChance, game_seed, sampling_seed


@pytest.mark.parametrize("seed", [0, 1, -7, 2**64 - 1, game_seed(5, 1234), game_seed(0, 0)])
def test_the_generator_has_the_state_and_stream_of_random_random(seed: int) -> None:
    chance = SeededChance(seed)
    reference = random.Random(seed)
    assert chance._gen.getstate() == reference.getstate()[1]
    assert [chance.below(1000) for _ in range(50)] == [
        int(reference.random() * 1000) for _ in range(50)
    ]


def test_the_sampling_seed_hashes_the_state_as_random_random_gives_it() -> None:
    chance = SeededChance(game_seed(3, 9))
    state = random.Random(game_seed(3, 9)).getstate()[1]
    assert sampling_seed(chance, 11) == hash((11, state)) & (2**64 - 1)


@pytest.mark.parametrize("seed", [0, 1, 2**64 - 1, game_seed(5, 1234)])
def test_a_chance_made_like_a_fresh_one_has_the_state_seeding_gives(seed: int) -> None:
    """The search player's copies of one sample take their generator's state from the sample's
    (not drawn from yet) instead of seeding again: the same state and stream, its own object."""
    fresh = SeededChance(seed)
    copy = SeededChance(seed, fresh)
    assert copy._gen is not fresh._gen
    assert copy._gen.getstate() == random.Random(seed).getstate()[1]
    assert [copy.below(1000) for _ in range(50)] == [fresh.below(1000) for _ in range(50)]
    # The generators are apart: drawing from one leaves the other where it was.
    again = SeededChance(seed, SeededChance(seed))
    assert again._gen.getstate() == random.Random(seed).getstate()[1]


def test_on_cpython_the_state_is_copied_not_seeded_again() -> None:
    """CPython's generator is copied byte for byte (the check on first use passed): a copy of a
    generator drawn from mid-stream is in that very state, not the state its seed gives."""
    gen = random.Random(7)
    gen.random()
    source = SeededChance(7)
    source._gen.setstate(gen.getstate()[1])
    copied = SeededChance(0, source)  # (the seed is read only where nothing can be copied)
    if platform.python_implementation() != "CPython":
        pytest.skip("the byte copy is CPython's alone")
    assert copied._gen.getstate() == gen.getstate()[1]
    assert copied.below(10**9) == int(gen.random() * 10**9)


def test_a_game_s_seed_is_the_digest_of_its_run_s_seed_and_index_whatever_came_before() -> None:
    """``game_seed`` keeps the hasher of the last run's seed: seeds asked in turn, back and
    forth, each still get the digest of their own text (a kept hasher never answers for
    another seed)."""
    import hashlib

    for seed, index in [(0, 0), (1, 0), (0, 1), (-7, 5), (2**70, 3), (1, 12), (0, 0), (10, 1)]:
        text = f"deckkit:{seed}:{index}".encode()
        digest = hashlib.blake2b(text, digest_size=16).digest()
        assert game_seed(seed, index) == int.from_bytes(digest, "little")


def test_a_list_is_shuffled_with_the_draws_and_swaps_of_fisher_yates() -> None:
    """The list path (native integers and a float count in the compiled build) against the
    textbook loop on ``random.Random``'s stream, for every pile size a game deals and more."""
    seed = game_seed(3, 17)
    chance, reference = SeededChance(seed), random.Random(seed)
    for size in range(0, 70):
        cards = list(range(size))
        expected = list(cards)
        for i in range(size - 1, 0, -1):
            j = int(reference.random() * (i + 1))
            expected[i], expected[j] = expected[j], expected[i]
        chance.shuffle(cards)
        assert cards == expected, size
