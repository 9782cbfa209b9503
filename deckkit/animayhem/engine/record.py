"""What one played game returns: the outcome and per-card counters.

The engine counts events per card id as they happen (``CardStat`` names the counter), and the
analysis layer sums them across games, so memory stays flat in the number of games.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

# "undecided": the game ended with neither side holding a majority (rule option
# majority_trigger=combined), an outcome no document scores; counted apart, as a stall is.
Outcome = Literal["win", "loss", "stall", "undecided"]


class CardStat(StrEnum):
    """Per-card counters (issue: per-card statistics of `deckkit simulate`)."""

    # disasters
    MET = "met"  # entered combat or took effect on the party
    DEFEATED = "defeated"
    ITEMS_CARRIED_OFF = "items_carried_off"
    BONKED = "bonked"  # characters this disaster bonked
    KILLED = "killed"  # characters this disaster killed
    # characters
    COMBATS = "combats"
    WAS_BONKED = "was_bonked"
    WAS_KILLED = "was_killed"
    ITEMS_RETRIEVED = "items_retrieved"
    # any card
    EFFECTS = "effects"  # times one of its encoded effects acted
    # locations
    SCAVENGE_ATTEMPTS = "scavenge_attempts"
    SCAVENGE_SUCCESSES = "scavenge_successes"


class GameRecord:
    """One finished game. ``counters`` maps (card id, stat) to a count for this game.

    A game's record (state.Game.record) is handed its counters as the engine keeps them (one
    list of counts a game, the counted entries' places in it in the order first counted, and
    each place's key, made once per setup: state.CardSlots.keys) and makes the dictionary
    when ``counters`` is first read, so a game whose counters nobody reads builds none. A
    copy or a pickle holds the dictionary. Fields, order, equality and ``repr`` are those of
    the dataclass it was."""

    __slots__ = (
        "_counted",
        "_counters",
        "_counts",
        "_keys",
        "end_reason",
        "index",
        "items_in_play",
        "items_lost",
        "items_retrieved",
        "outcome",
        "turns",
    )
    __match_args__ = (
        "index",
        "outcome",
        "turns",
        "items_in_play",
        "items_retrieved",
        "items_lost",
        "end_reason",
        "counters",
    )

    def __init__(
        self,
        index: int,
        outcome: Outcome,
        turns: int,
        items_in_play: int,
        items_retrieved: int,
        items_lost: int,  # carried off, destroyed, or held by disasters at the end
        end_reason: str,
        counters: dict[tuple[str, CardStat], int] | None = None,
    ) -> None:
        self.index = index
        self.outcome = outcome
        self.turns = turns
        self.items_in_play = items_in_play
        self.items_retrieved = items_retrieved
        self.items_lost = items_lost
        self.end_reason = end_reason
        # None until read: then made from the engine's lists (``count_from``), empty if none
        self._counters: dict[tuple[str, CardStat], int] | None = counters
        self._keys: list[tuple[str, CardStat]] = _NO_KEYS
        self._counts: list[int] = _NO_COUNTS
        self._counted: list[int] = _NO_COUNTS

    @property
    def counters(self) -> dict[tuple[str, CardStat], int]:
        counters = self._counters
        if counters is None:  # made from the engine's counts (``count_from``) when first read
            keys = self._keys
            counts = self._counts
            counters = self._counters = {}
            for at in self._counted:  # a loop: faster than a comprehension or map (3.11)
                counters[keys[at]] = counts[at]
        return counters

    @counters.setter
    def counters(self, counters: dict[tuple[str, CardStat], int]) -> None:
        self._counters = counters

    def count_from(
        self, keys: list[tuple[str, CardStat]], counts: list[int], counted: list[int]
    ) -> None:
        """The counters are ``counts[at]`` keyed ``keys[at]`` for each ``at`` of ``counted``
        (state._sync_counters: the engine's lists, as they stand when ``counters`` is first
        read). A dictionary already made (read, or given) is written into, as before."""
        counters = self._counters
        if counters is None:
            self._keys = keys
            self._counts = counts
            self._counted = counted
        else:
            for at in counted:
                counters[keys[at]] = counts[at]

    def counts_any(self) -> bool:
        """Whether any counter is kept (``counters`` not empty), the dictionary not made."""
        counters = self._counters
        return bool(self._counted) if counters is None else bool(counters)

    def bump(self, card_id: str, stat: CardStat, n: int = 1) -> None:
        key = (card_id, stat)
        counters = self.counters
        counters[key] = counters.get(key, 0) + n

    def _fields(self) -> tuple[object, ...]:
        return (
            self.index,
            self.outcome,
            self.turns,
            self.items_in_play,
            self.items_retrieved,
            self.items_lost,
            self.end_reason,
            self.counters,
        )

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, GameRecord)
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # as the dataclass's: mutable, unhashable

    def __repr__(self) -> str:
        names = self.__match_args__
        inner = ", ".join(
            f"{name}={value!r}" for name, value in zip(names, self._fields(), strict=True)
        )
        return f"{self.__class__.__qualname__}({inner})"

    def __reduce__(self) -> tuple[type[GameRecord], tuple[object, ...]]:
        return (self.__class__, self._fields())


_NO_KEYS: list[tuple[str, CardStat]] = []
_NO_COUNTS: list[int] = []
