"""What a run plays and how: one frozen object every function of :mod:`deckkit.api` takes, so
that a notebook, a script and the command line describe a run the same way.

Fields left ``None`` fall back to the deck file's header (edition, variant, players), as the
command line's flags do. :meth:`RunOptions.runner_kwargs` is the one place that turns the
options into the keywords of the game runner (:func:`deckkit.analysis.runner.run_games` and the
paired estimates built on it), so an option about *where* games run reaches every run at once.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from deckkit.core.workers import capped_workers
from deckkit.errors import UsageError

# Ani-Mayhem's default turn cap (animayhem.engine.prepared.DEFAULT_TURN_CAP), spelled here so
# that the options import no game (tests/test_cli_conventions.py keeps the two equal).
DEFAULT_TURN_CAP = 150

DEFAULT_GAMES = 10_000
T = TypeVar("T")


@dataclass(frozen=True)
class RunOptions:
    """A run's settings; the same options and seed give the same results, whatever
    ``workers``."""

    games: int = DEFAULT_GAMES
    seed: int = 0
    workers: int = 1  # processes; 0 = all cores (capped at the cores available)
    policy: str = "heuristic"  # heuristic, random, search or search:N (N rollouts)
    edition: str | None = None  # None: the deck's header, else the default edition
    variant: str | None = None
    layout: str | None = None  # None: straight-line for that variant, else compact
    players: int | None = None
    turn_cap: int = DEFAULT_TURN_CAP
    rules: tuple[str, ...] = ()  # rule options as NAME=VALUE, over the deck's `rule:` lines

    def but(self, **changes: Any) -> RunOptions:
        """A copy with some fields changed (``options.but(games=500)``)."""
        return replace(self, **changes)

    def runner_kwargs(self) -> dict[str, Any]:
        """The keywords every run passes to the game runner: where and on how many processes
        the games are played (never what they are, so never the results). Every function of
        the API that plays games passes these, and only these, to
        :func:`~deckkit.analysis.runner.run_games` and the paired estimates built on it, so an
        option of where games run is a field here and one entry of this dictionary."""
        return {"workers": capped_workers(self.workers)}

    def check_numbers(self) -> None:
        """Numbers in range, before anything is read or played."""
        if self.games < 1:
            raise UsageError(f"--games must be at least 1, not {self.games}")
        if self.workers < 0:
            raise UsageError(
                f"--workers must be at least 1 (or 0 for all cores), not {self.workers}"
            )
        if self.seed < 0:
            raise UsageError(f"--seed must be 0 or more, not {self.seed}")
        if self.turn_cap < 1:
            raise UsageError(f"--turn-cap must be at least 1, not {self.turn_cap}")


def renamed(keywords: dict[str, Any], old: str, new: str, value: T, unset: T) -> T:
    """The value of the keyword ``new`` (named as the command's flag), or of its old name
    ``old``, taken out of ``keywords`` with a DeprecationWarning; both at once is an error."""
    if old not in keywords:
        return value
    given: T = keywords.pop(old)
    if value != unset:
        raise TypeError(f"give {new}= or its old name {old}=, not both")
    warnings.warn(
        f"{old}= is deprecated: use {new}=, the name of the command's --{new} flag",
        DeprecationWarning,
        stacklevel=3,  # the caller of the API function
    )
    return given


def no_other_keywords(keywords: dict[str, Any], function: str) -> None:
    """What is left after :func:`renamed` took the old names is a mistake."""
    if keywords:
        raise TypeError(f"{function}() got an unexpected keyword argument {next(iter(keywords))!r}")


def options_of(options: RunOptions | None, changes: dict[str, Any]) -> RunOptions:
    """``options`` (or the defaults) with ``changes`` applied: every API function takes both
    an options object and its fields as keywords."""
    return replace(options or RunOptions(), **changes)
