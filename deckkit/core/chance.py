"""Chance as an object: every random choice of a game flows through one of these.

Rules never draw their own random numbers; they ask the game's chance object, which is a seeded
generator in simulations and a script of given outcomes in golden tests. Game ``i`` of a run with
seed ``s`` gets its own stream derived from ``(s, i)`` alone, so results do not depend on how
games are spread over worker processes.
"""

from __future__ import annotations

import _random
import hashlib
from collections.abc import Callable, MutableSequence, Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run seeded with ``seed``: a 128-bit BLAKE2b digest of the
    pair, so neighbouring games get unrelated streams (numpy's SeedSequence does the same job but
    costs ~100 µs a game, a tenth of a whole game's budget)."""
    digest = hashlib.blake2b(f"deckkit:{seed}:{index}".encode(), digest_size=16).digest()
    return int.from_bytes(digest, "little")


class Chance(Protocol):
    """The random choices the rules call for: shuffling piles and picking at random."""

    def shuffle(self, cards: MutableSequence[T]) -> None: ...
    def pick(self, options: Sequence[T]) -> T: ...
    def below(self, n: int) -> int: ...


class SeededChance:
    """A seeded Mersenne Twister, used through its C-level ``random()``: the library's
    ``shuffle``/``randrange`` go through a Python-level rejection loop that costs a tenth of a
    game's budget. Index = floor(u x n) has a bias below 2**-40 for any pile in this game."""

    __slots__ = ("_gen", "_random")

    def __init__(self, seed: int) -> None:
        # The C generator under ``random.Random``, seeded the same way (an integer seed goes
        # straight to it), without that class's Python-level ``__init__`` and ``seed``.
        self._gen = _random.Random(seed)
        self._random = self._gen.random

    @classmethod
    def for_game(cls, seed: int, index: int) -> SeededChance:
        return cls(game_seed(seed, index))

    def shuffle(self, cards: MutableSequence[T]) -> None:
        """Fisher-Yates."""
        if type(cards) is list:
            _shuffle_list(self._random, cards)
            return
        rnd = self._random
        for i in range(len(cards) - 1, 0, -1):
            j = int(rnd() * (i + 1))
            cards[i], cards[j] = cards[j], cards[i]

    def pick(self, options: Sequence[T]) -> T:
        n = len(options)
        return options[int(self._random() * n)] if n > 1 else options[0]

    def below(self, n: int) -> int:
        return int(self._random() * n) if n > 1 else 0


def _shuffle_list(rnd: Callable[[], float], cards: list[T]) -> None:
    """:meth:`SeededChance.shuffle` of a list, the same draws and swaps (the compiled engine
    indexes a list directly, where a mutable sequence goes through the generic protocol)."""
    for i in range(len(cards) - 1, 0, -1):
        j = int(rnd() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def sampling_seed(chance: Chance, salt: int) -> int:
    """A seed for a player's own sampling (the search player's), drawn from the game's chance
    without advancing it: a hash of its generator's state and ``salt``. The game's stream, and
    so the game, is the same whether or not a player asks; and the seed follows from the run's
    seed and the game's index alone, whatever the number of workers. A scripted chance gives
    ``salt``."""
    if isinstance(chance, SeededChance):
        # The generator's state as ``random.Random.getstate()[1]`` gives it.
        return hash((salt, chance._gen.getstate())) & (2**64 - 1)
    return salt


class ScriptedChance:
    """Given outcomes, for rulebook examples: ``picks`` are indices into the options offered
    (the die roll of the sample combat); shuffles keep the order the test laid out."""

    def __init__(self, picks: Sequence[int] = ()) -> None:
        self._picks = list(picks)

    def shuffle(self, cards: MutableSequence[T]) -> None:
        return None

    def pick(self, options: Sequence[T]) -> T:
        return options[self.below(len(options))]

    def below(self, n: int) -> int:
        i = self._picks.pop(0) if self._picks else 0
        if not 0 <= i < max(n, 1):
            raise ValueError(f"scripted pick {i} is outside 0..{n - 1}")
        return i
