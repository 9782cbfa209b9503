"""The game engine as the API reaches it: a small set of hooks, so that tests (and a caller
with another engine) can run every function of :mod:`deckkit.api` against a fake one. The real
hooks are Ani-Mayhem's engine runs (:class:`deckkit.core.game.EngineRuns`), reached through its
interface."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from deckkit.analysis.runner import GameFactory
from deckkit.games import engine_runs


@dataclass(frozen=True)
class EngineHooks:
    """What a run needs from the game engine (the deck and edition are the game's own)."""

    policies: Callable[[], tuple[str, ...]]
    layouts: tuple[str, ...]
    factory: Callable[[Any, Any, str, int, str], GameFactory]  # deck, edition, layout,
    # turn cap, policy -> a picklable factory for run_games
    not_simulated: Callable[[Any], list[str]]


_REAL = engine_runs()
ENGINE = EngineHooks(
    policies=_REAL.policies,
    layouts=_REAL.layouts,
    factory=_REAL.factory,
    not_simulated=_REAL.not_simulated,
)
