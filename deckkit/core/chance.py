"""Chance as an object: every random choice of a game flows through one of these.

Rules never draw their own random numbers; they ask the game's chance object, which is a seeded
generator in simulations and a script of given outcomes in golden tests. Game ``i`` of a run with
seed ``s`` gets its own stream derived from ``(s, i)`` alone, so results do not depend on how
games are spread over worker processes.
"""

from __future__ import annotations

import _random
import hashlib
import sys
from collections.abc import Callable, MutableSequence, Sequence
from typing import Any, Protocol, TypeVar

from mypy_extensions import i64, mypyc_attr

T = TypeVar("T")


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run seeded with ``seed``: a 128-bit BLAKE2b digest of the
    pair, so neighbouring games get unrelated streams (numpy's SeedSequence does the same job but
    costs ~100 µs a game, a tenth of a whole game's budget). The hasher fed the run's part of the
    text is kept and copied for each game (the same digest, a third cheaper than hashing anew)."""
    global _PRIMED
    primed = _PRIMED  # (seed, hasher) in one object: threads of other runs replace it whole
    if primed is None or primed[0] != seed:
        primed = _PRIMED = (seed, hashlib.blake2b(f"deckkit:{seed}:".encode(), digest_size=16))
    hasher = primed[1].copy()
    hasher.update(str(index).encode())
    return int.from_bytes(hasher.digest(), "little")


# The last run's seed and its hasher, fed "deckkit:{seed}:" (``game_seed``).
_PRIMED: tuple[int, Any] | None = None


class Chance(Protocol):
    """The random choices the rules call for: shuffling piles and picking at random."""

    def shuffle(self, cards: MutableSequence[T]) -> None: ...
    def pick(self, options: Sequence[T]) -> T: ...
    def below(self, n: int) -> int: ...


@mypyc_attr(allow_interpreted_subclasses=True)
class SeededChance:
    """A seeded Mersenne Twister, used through its C-level ``random()``: the library's
    ``shuffle``/``randrange`` go through a Python-level rejection loop that costs a tenth of a
    game's budget. Index = floor(u x n) has a bias below 2**-40 for any pile in this game.

    The engine's games hold this class, not the :class:`Chance` protocol, so the compiled
    engine calls its methods natively (a protocol's are generic Python calls); other chances
    of a game (:class:`ScriptedChance`, a test's own) are subclasses of it."""

    __slots__ = ("_gen", "_random")

    _gen: _random.Random  # (declared here: the constructor reads another chance's first)

    def __init__(self, seed: int, like: SeededChance | None = None) -> None:
        """Seeded with ``seed``; given ``like``, a chance seeded with the same ``seed`` and not
        drawn from yet (the search player's copies of one sample: search.py), its generator's
        state is copied instead of worked out again (seeding costs about 4 µs, the copy well
        under 1), where this Python allows it (``_copy_generator``)."""
        # The C generator under ``random.Random``, seeded the same way (an integer seed goes
        # straight to it), without that class's Python-level ``__init__`` and ``seed``.
        gen = None if like is None else _copy_generator(like._gen)
        if gen is None:
            gen = _random.Random(seed)
        self._gen = gen
        self._random = gen.random

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


# A generator's state lies in the object past Python's object header: on CPython the C struct
# of ``_random.Random`` is that header, then the Mersenne Twister's 624 words and its index
# (Modules/_randommodule.c), nothing else; a copy of those bytes is a generator in the same
# state. Checked on first use (``_find_mover``); ``_MOVER`` is None until then, then the byte
# copier, or False where this Python's generator is not laid out so.
_HEAD = object.__basicsize__
_STATE_BYTES = _random.Random.__basicsize__ - _HEAD
_MOVER: Any = None


def _copy_generator(gen: _random.Random) -> _random.Random | None:
    """A new generator in ``gen``'s state (it must be a plain ``_random.Random``), or None
    where this Python offers no way cheaper than seeding."""
    global _MOVER
    move = _MOVER
    if move is None:
        move = _MOVER = _find_mover()
    if move is False or type(gen) is not _random.Random:
        return None
    new = _random.Random.__new__(_random.Random)  # allocated, not seeded
    move(id(new) + _HEAD, id(gen) + _HEAD, _STATE_BYTES)
    return new


def _find_mover() -> Any:
    """``ctypes.memmove`` where a generator's state can be copied byte for byte (CPython, the
    struct only the 625 words of the state and index, as its size and its not being tracked
    by the garbage collector say, and a copy seen to hold the same state and draw the same
    numbers), else False."""
    words = _random.Random.__basicsize__ - _HEAD - 4 * 625
    gc_tracked = bool(_random.Random.__flags__ & (1 << 14))  # Py_TPFLAGS_HAVE_GC
    if sys.implementation.name != "cpython" or words not in (0, 4) or gc_tracked:
        return False
    try:
        import ctypes
    except ImportError:  # a Python built without it
        return False
    move = ctypes.memmove
    source = _random.Random(0x9E3779B97F4A7C15)
    source.random()  # mid-stream, so the index is checked too
    copy = _random.Random.__new__(_random.Random)
    move(id(copy) + _HEAD, id(source) + _HEAD, _STATE_BYTES)
    if copy.getstate() != source.getstate() or copy.random() != source.random():
        return False
    return move


def _shuffle_list(rnd: Callable[[], float], cards: list[T]) -> None:
    """:meth:`SeededChance.shuffle` of a list, the same draws and swaps (the compiled engine
    indexes a list directly, where a mutable sequence goes through the generic protocol)."""
    # (Native numbers: the compiled loop keeps no tagged int. ``size`` is ``i + 1`` as a float,
    # exact for any pile; ``i64(x)`` truncates as ``int(x)`` does.)
    i: i64 = len(cards) - 1
    size = float(len(cards))
    while i > 0:
        j = i64(rnd() * size)
        cards[i], cards[j] = cards[j], cards[i]
        i -= 1
        size -= 1.0


def sampling_seed(chance: Chance, salt: int) -> int:
    """A seed for a player's own sampling (the search player's), drawn from the game's chance
    without advancing it: a hash of its generator's state and ``salt``. The game's stream, and
    so the game, is the same whether or not a player asks; and the seed follows from the run's
    seed and the game's index alone, whatever the number of workers. A scripted chance gives
    ``salt``."""
    if isinstance(chance, SeededChance) and not isinstance(chance, ScriptedChance):
        # The generator's state as ``random.Random.getstate()[1]`` gives it.
        return hash((salt, chance._gen.getstate())) & (2**64 - 1)
    return salt


@mypyc_attr(allow_interpreted_subclasses=True)
class ScriptedChance(SeededChance):
    """Given outcomes, for rulebook examples: ``picks`` are indices into the options offered
    (the die roll of the sample combat); shuffles keep the order the test laid out. A
    :class:`SeededChance` only so that a game can hold it; it has no generator, and a test's
    own chance may subclass it."""

    __slots__ = ("_picks",)

    def __init__(self, picks: Sequence[int] = ()) -> None:
        # (No generator: every draw is overridden below.)
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
