"""What every game of a run is set up from: the options (layout, turn cap) and the deck split
into its piles with its edition, prepared once per worker by :func:`.play.prepare_game` and dealt
into each game by :func:`.setup.set_up`. Both are picklable, so worker processes receive them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from deckkit.animayhem.construction.cards import AnyCard, CharTemplate
from deckkit.animayhem.construction.editions import Edition
from deckkit.animayhem.engine.field import LAYOUTS, Layout
from deckkit.animayhem.engine.state import Triggers

DEFAULT_TURN_CAP = 150


@dataclass(frozen=True, slots=True)
class GameOptions:
    """How games are set up; picklable so worker processes can receive it."""

    layout: Layout = "compact"
    turn_cap: int = DEFAULT_TURN_CAP

    def __post_init__(self) -> None:
        if self.layout not in LAYOUTS:
            raise ValueError(f"unknown layout {self.layout!r}; choose one of {', '.join(LAYOUTS)}")
        if self.turn_cap < 1:
            raise ValueError("the turn cap must be at least 1")


@dataclass(frozen=True, slots=True)
class GameSetup:
    """A deck split into its piles, with the edition and options: prepared once per worker."""

    edition: Edition
    options: GameOptions
    characters: tuple[AnyCard, ...]
    locations: tuple[AnyCard, ...]
    items: tuple[AnyCard, ...]
    havens: tuple[AnyCard, ...]
    power: tuple[AnyCard, ...]
    disasters: tuple[AnyCard, ...]
    combat: tuple[AnyCard, ...]
    not_simulated: tuple[str, ...] = field(default=())
    templates: tuple[CharTemplate, ...] = field(default=())  # aligned with ``characters``
    fx: dict[str, Triggers] = field(default_factory=dict)  # card id -> effects by trigger

    def __post_init__(self) -> None:
        if len(self.templates) != len(self.characters):
            raise ValueError("GameSetup: build it with prepare_game (templates are derived)")
