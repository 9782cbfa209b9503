"""The one shape every game gives the tools above it (issue 28), as OpenSpiel and RLCard give
every game the same interface.

A game package provides a :class:`Game` (its ``game.py`` module's ``GAME``; the registry in
:mod:`deckkit.games` names it): reading its files, their legality, its rule options, its
automatic players, and playing one seeded game to a :class:`Record`: the outcome from the first
side's view, the end reason's stable code, per-card or per-character counters and, when asked,
a trace. Game ``index`` of a run seeded ``seed`` is the same game in any process, so a
prepared setup is a factory for :mod:`deckkit.core.workers` (picklable, built once per worker).

What a game reads (a deck, a party, a team) stays the game's own type: the tools above pass it
back to the same game and never look inside; what they read is in the shared records below.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from deckkit.core.workers import PlayFn


@dataclass(frozen=True, slots=True)
class Problem:
    """One broken construction rule: which, what is wrong, and what to change."""

    rule: str
    message: str
    fix: str = ""


@dataclass(frozen=True, slots=True)
class Legality:
    """The verdict on one file: legal or not, with every broken rule."""

    legal: bool
    problems: tuple[Problem, ...] = ()


EDITION_DEFAULT = "edition"


@dataclass(frozen=True, slots=True)
class RuleChoice:
    """A rule option where the game's texts leave a choice: its name, the values it takes (empty:
    a whole number of at least 1) and the value deckkit plays by default (``edition``: the one
    the file's edition reads)."""

    name: str
    default: str
    values: tuple[str, ...] = ()
    summary: str = ""


@dataclass(frozen=True, slots=True)
class StandIn:
    """What may take one card's or character's place in a file, as the game's rules allow: the
    changed file (a :meth:`Game.read` entry) and how it changed (``replaced by NAME`` or
    ``removed``)."""

    how: str
    entry: Any


@dataclass(frozen=True, slots=True)
class Record:
    """One seeded game, in the shape every game gives.

    ``outcome`` is one of the game's ``outcomes`` from the first side's view; ``end_reason`` a
    stable code (``turn_cap``, ``no_characters``...); ``counters`` maps (card or character,
    counter) to its count in this game, zero counts left out; ``trace`` the game's events in
    order when asked for and the game keeps one, else None."""

    index: int
    outcome: str
    end_reason: str
    turns: int
    counters: Mapping[tuple[str, str], int] = field(default_factory=dict)
    trace: tuple[str, ...] | None = None


@runtime_checkable
class Game(Protocol):
    """A game deckkit plays. ``name`` is what a file's ``game:`` header says."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def outcomes(self) -> tuple[str, ...]:
        """Every outcome a :class:`Record` may carry, the first side's win first."""
        ...

    @property
    def end_reasons(self) -> Mapping[str, str]:
        """Every end reason code a :class:`Record` may carry, with the words a reader sees
        beside it (the rule that ended the game)."""
        ...

    def read(self, path: Path) -> Any:
        """The game's file at ``path`` (a deck, party or team); unreadable input raises a
        :class:`deckkit.errors.DeckkitError` naming the file and line."""
        ...

    def entry_name(self, entry: Any) -> str:
        """The name a file :meth:`read` returned goes by (its ``name:`` header, else the file's)."""
        ...

    def members(self, entry: Any) -> tuple[str, ...]:
        """The cards or characters the file lists, by name, a copy per line (what two files'
        comparison says differs); empty where the file fixes none (an Animus draft seat)."""
        ...

    def stand_ins(self, entry: Any, member: str) -> tuple[StandIn, ...]:
        """What may take one copy of ``member`` (a name :meth:`members` gives) out of the file,
        as the game's rules allow, for measuring its worth: legal replacements of the same
        kind, most neutral first, or its removal where the rules let the file shrink. Empty
        when the rules allow neither; an unknown ``member`` raises a
        :class:`deckkit.errors.UsageError`."""
        ...

    def legality(self, entry: Any) -> Legality:
        """The construction rules' verdict on a file :meth:`read` returned."""
        ...

    def rule_options(self) -> tuple[RuleChoice, ...]:
        """The rule options a run may set (``--rule NAME=VALUE``)."""
        ...

    def parse_rule(self, text: str, where: str = "--rule") -> tuple[str, str]:
        """A ``NAME=VALUE`` rule option setting checked against :meth:`rule_options` (an unknown
        option or value raises a :class:`deckkit.errors.UsageError` naming ``where``)."""
        ...

    def players(self) -> tuple[str, ...]:
        """The automatic players' names, the default first."""
        ...

    def prepare(
        self,
        entries: Sequence[Any],
        *,
        player: str | Sequence[str] | None = None,
        rules: Mapping[str, str] | None = None,
    ) -> Any:
        """A run's setup for the files :meth:`read` returned (one side, or two that meet): a
        picklable factory of a :class:`PlayFn` for :mod:`deckkit.core.workers`. ``player`` is
        one of :meth:`players` for every side, or one per side in the order of ``entries`` (a
        comparison of players keeps the opponent's); None: the default."""
        ...

    def play(self, setup: Any, seed: int, index: int, *, trace: bool = False) -> Record:
        """Game ``index`` of the run seeded ``seed`` on a :meth:`prepare` setup."""
        ...


__all__ = [
    "EDITION_DEFAULT",
    "Game",
    "Legality",
    "PlayFn",
    "Problem",
    "Record",
    "RuleChoice",
    "StandIn",
]
