"""The game's chance: seeded exactly as ``random.Random`` seeds, so every game stays the same."""

from __future__ import annotations

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
