"""The game engine as the API reaches it: a small set of hooks, so that tests (and a caller
with another engine) can run every function of :mod:`deckkit.api` against a fake one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from deckkit.analysis.runner import GameFactory
from deckkit.animayhem import runs as real_engine
from deckkit.animayhem.construction.deck import Deck
from deckkit.animayhem.construction.editions import Edition


@dataclass(frozen=True)
class EngineHooks:
    """What a run needs from the game engine."""

    policies: Callable[[], tuple[str, ...]]
    layouts: tuple[str, ...]
    factory: Callable[[Deck, Edition, str, int, str], GameFactory]  # deck, edition, layout,
    # turn cap, policy -> a picklable factory for run_games
    not_simulated: Callable[[Deck], list[str]]


def _real_factory(
    deck: Deck, edition: Edition, layout: str, turn_cap: int, policy: str
) -> GameFactory:
    return real_engine.EngineGames(
        deck, edition, real_engine.game_options(layout, turn_cap), policy
    )


ENGINE = EngineHooks(
    policies=real_engine.policies,
    layouts=real_engine.LAYOUTS,
    factory=_real_factory,
    not_simulated=real_engine.not_simulated,
)
