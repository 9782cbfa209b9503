"""Anima Tactics characters and advantage cards as typed records.

A character's printed values follow the Saga I rulebook's "Character Card" section (Attack,
Damage, Defense, Armor, Life points, Resistance, Speed, Action and Recovery bar, Faction,
Affiliation, Level). Some cards print two values (``5/2``, ``9/11``): the second applies only
after a special ability the engine does not play, so the first is the base value used here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Faction(StrEnum):
    """Rulebook, "Game factions": Light and Darkness oppose each other; Unaligned is neutral."""

    LIGHT = "Light"
    DARKNESS = "Darkness"
    UNALIGNED = "Unaligned"
    UNKNOWN = ""  # the source gives none


@dataclass(frozen=True)
class Character:
    """One character card. ``complete`` is False for rows whose stats the source lacks; such a
    character can be named but not fielded or duelled."""

    id: str
    name: str
    level_cost: int | None
    attack: int
    damage: int
    defense: int
    armor: int
    life: int
    resistance: int
    actions_max: int
    recovery: int | None  # None: set by a Gear's pilot
    faction: Faction
    affiliations: tuple[str, ...]
    abilities: tuple[str, ...]  # innate abilities, as keywords (not played by the engine)
    printed: dict[str, str]  # the values as printed, for those that print two
    agent: bool
    complete: bool
    notes: str
    source: str
    leader: bool = False  # a Leader (not an "optional leader"): the later rules cap them

    @property
    def is_gear(self) -> bool:
        return self.recovery is None and self.complete


@dataclass(frozen=True)
class Advantage:
    """An advantage card (Equipment, Power, Plot, Team or an organization's advantage). Saga I
    prices advantages in levels; the data's costs are the later rules' advantage points."""

    id: str
    name: str
    subtype: str
    advantage_points: int | None
    level_cost: int | None
    restriction: str
    limit: str
    per_party_once: bool
    source: str


@dataclass(frozen=True)
class Pilot:
    """A Gear's pilot: its level cost is added to the Gear's, and it sets the Gear's recovery."""

    id: str
    name: str
    level_cost: int | None
    recovery: int
    complete: bool
    source: str
