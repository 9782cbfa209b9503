"""The bridge from the runner to the game engine (``deckkit.animayhem.play`` and ``.policy``).

:class:`EngineGames` is the picklable factory the runner sends to each worker: it carries the deck,
edition, options and policy *name*, and in the worker prepares the game and builds the policy
once, then plays ``play_game(setup, policy, seed, index)`` for every index it is handed.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import partial
from types import ModuleType
from typing import Any

from deckkit.analysis.runner import PlayFn
from deckkit.animayhem.deck import Deck
from deckkit.animayhem.editions import Edition
from deckkit.errors import UsageError

LAYOUTS: tuple[str, ...] = ("compact", "random", "straight-line")


def _module(name: str) -> ModuleType:
    """The engine modules, imported on first use."""
    try:
        return importlib.import_module(f"deckkit.animayhem.{name}")
    except ModuleNotFoundError as err:  # pragma: no cover - until the engine lands
        if err.name != f"deckkit.animayhem.{name}":
            raise
        raise UsageError("the game engine is not available in this build of deckkit") from err


def policies() -> tuple[str, ...]:
    """The policy names ``make_policy`` accepts."""
    names: tuple[str, ...] = tuple(_module("policy").POLICIES)
    return names


def check_policy(name: str) -> str:
    """A known policy name, or a usage error listing the choices (exit 2)."""
    known = policies()
    if name not in known:
        raise UsageError(f"unknown policy {name!r}", hint=f"choose one of: {', '.join(known)}")
    return name


def check_layout(name: str) -> str:
    """A known field layout, or a usage error listing the choices (exit 2)."""
    if name not in LAYOUTS:
        raise UsageError(f"unknown layout {name!r}", hint=f"choose one of: {', '.join(LAYOUTS)}")
    return name


def game_options(layout: str, turn_cap: int) -> Any:
    """The engine's ``GameOptions``."""
    return _module("play").GameOptions(layout=layout, turn_cap=turn_cap)


def not_simulated(deck: Deck) -> list[str]:
    """Names of the deck's cards whose text the engine ignores (to print with every estimate)."""
    names: list[str] = list(_module("play").not_simulated(deck))
    return names


@dataclass(frozen=True)
class EngineGames:
    """Factory of the real engine for :func:`deckkit.analysis.runner.run_games`: picklable, so
    it can be sent to spawned workers; calling it does the once-per-process preparation."""

    deck: Deck
    edition: Edition
    options: Any  # deckkit.animayhem.play.GameOptions
    policy: str

    def __call__(self) -> PlayFn:
        play = _module("play")
        setup = play.prepare_game(self.deck, self.edition, self.options)
        policy = _module("policy").make_policy(self.policy)
        fn: PlayFn = partial(play.play_game, setup, policy)
        return fn
