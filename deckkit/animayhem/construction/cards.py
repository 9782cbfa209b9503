"""The Ani-Mayhem card model: one frozen record per printed card.

Numbers live in ``card_db/animayhem/cards.csv``; this module only says what a card *is*, so the
legality checker, the engine and the reports share one vocabulary. What a card's text does beyond
its numbers and the keyword traits below is an effect entry (``card_db/animayhem/effects``,
attached as ``Card.effects``); ``Card.coverage`` says how faithfully the engine plays it, so every
estimate can name the cards it plays approximately or not at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

# The printed abilities and their modifiers, and how fully the engine plays a card's text, are
# part of the card model's vocabulary: re-exported here for its readers.
from deckkit.animayhem.construction.modifiers import ABILITIES as ABILITIES
from deckkit.animayhem.construction.modifiers import STATS as STATS
from deckkit.animayhem.construction.modifiers import Ability as Ability
from deckkit.animayhem.construction.modifiers import Modifier as Modifier
from deckkit.animayhem.construction.modifiers import Stat as Stat
from deckkit.animayhem.construction.requirements import Requirement
from deckkit.animayhem.construction.vocabulary import CardEffects
from deckkit.animayhem.construction.vocabulary import Coverage as Coverage


class CardType(StrEnum):
    """The card types of "Part I: Identifying the Cards" (set0 rulebook)."""

    CHARACTER = "character"
    LOCATION = "location"
    ITEM = "item"
    HAVEN = "haven"
    EQUIPMENT = "equipment"
    ENHANCEMENT = "enhancement"
    FLASH_EFFECT = "flash_effect"
    GLOBAL_EFFECT = "global_effect"
    COMBAT = "combat"
    DISASTER = "disaster"


POWER_TYPES: frozenset[CardType] = frozenset(
    {CardType.EQUIPMENT, CardType.ENHANCEMENT, CardType.FLASH_EFFECT, CardType.GLOBAL_EFFECT}
)


class Gender(StrEnum):
    """Mars, Venus, or no symbol (set0 rulebook, "Character > Gender")."""

    MALE = "M"
    FEMALE = "F"
    NONE = "none"


class Trait(StrEnum):
    """Keyword mechanics the engine simulates (set0 rulebook, "Advanced Character and Disaster
    Traits"); anything else a card's text does is an effect entry (card_db/animayhem/effects)."""

    HORDE = "horde"  # << Horde >>: +1 damage/defense to every other disaster of a shared category
    ALLY = "ally"  # joins the nearest combat disaster and lends it its bonuses
    FRENZY = "frenzy"  # "attack affects all characters at location"
    STEALS_ITEM = "steals_item"  # takes a random item and gets one full movement
    STEALS_EQUIPMENT = "steals_equipment"
    MAGNET = "magnet"  # pulls every disaster to its location
    OFF_FIELD = "off_field"  # played off the field


@dataclass(frozen=True, slots=True)
class Abilities:
    """The five abilities as printed; ``None`` where the card prints no value."""

    damage: int | None = None
    defense: int | None = None
    movement: int | None = None
    charm: int | None = None
    energy: int | None = None


@dataclass(frozen=True, slots=True)
class Skill:
    """One skill listing: ``Strength x3`` is count 3, the anti-skill ``Cooking -1`` is count -1."""

    name: str
    count: int = 1

    def __str__(self) -> str:
        if self.count < 0:
            return f"{self.name} {self.count}"
        return self.name if self.count == 1 else f"{self.name} x{self.count}"


@dataclass(frozen=True, slots=True)
class Card:
    """What every card has. ``id`` is stable (``am`` + the global card number) and unambiguous
    where names are shared (two different "Goku" cards)."""

    id: str
    name: str
    type: CardType
    set: str
    rarity: str
    categories: tuple[str, ...]
    symbols: frozenset[str]  # Planetary, Dimensional, Science, Haven
    deck_limit: int | None  # a per-card limit printed on the card ("Limit 1 per deck")
    errata: str  # the June 1998 errata applied to this row, if any
    source: str
    effects: CardEffects | None  # what its text does (card_db/animayhem/effects), if encoded

    @property
    def coverage(self) -> Coverage:
        """How faithfully the engine plays the card: the one source is its effect entry, with
        what the engine can tell by itself applied at load (construction/coverage.py,
        :func:`derive`); a card without an entry has no text beyond its columns: full."""
        if self.effects is not None:
            return self.effects.coverage
        return Coverage.FULL

    @property
    def coverage_note(self) -> str:
        return self.effects.note if self.effects is not None else ""

    @property
    def unique(self) -> bool:
        """<< Unique >>: only one copy in the draw pile (set0 rulebook, Lexicon "Unique")."""
        return "Unique" in self.categories

    @property
    def planetary(self) -> bool:
        return "Planetary" in self.symbols

    @property
    def dimensional(self) -> bool:
        return "Dimensional" in self.symbols


@dataclass(frozen=True, slots=True)
class CharacterCard(Card):
    """A character; ``alt`` holds the right-hand side of a "3/4" transforming stat line and
    ``alternate_form`` the id of the card printed for the other form, when one exists."""

    abilities: Abilities
    alt: Abilities | None
    skills: tuple[Skill, ...]
    gender: Gender
    alternate_form: str | None
    health: int | None  # a printed health override ("Health 6"); None means health = defense

    def skill_count(self, name: str) -> int:
        return sum(s.count for s in self.skills if s.name == name)


@dataclass(frozen=True, slots=True)
class LocationCard(Card):
    """A location: the skill listing as printed and parsed, plus printed damage/defense
    (set0 rulebook, "Locations with Defense", "Locations with Damage")."""

    requirement_text: str
    requirement: Requirement
    damage: int | None
    defense: int | None


@dataclass(frozen=True, slots=True)
class ItemCard(Card):
    """An item; ``tally`` is how many items it counts as at the end (C-ko Kotobuki counts 2)."""

    tally: int = 1


@dataclass(frozen=True, slots=True)
class HavenCard(Card):
    """A haven: where characters start and rest; not a location."""


@dataclass(frozen=True, slots=True)
class PowerCard(Card):
    """Equipment, enhancement, flash effect or global effect: ability modifiers, energy cost,
    uses, and (equipment) vehicle and weapon flags."""

    modifiers: tuple[tuple[Ability, Modifier], ...]
    energy_cost: int | None
    uses: int | None
    requirement_text: str
    requirement: Requirement | None
    vehicle: bool
    weapon: bool

    def modifier(self, ability: Ability) -> Modifier | None:
        for name, mod in self.modifiers:
            if name == ability:
                return mod
        return None


@dataclass(frozen=True, slots=True)
class PhysicalHalf:
    """The combat half of a combat card: modifiers on the recipient and on its opponent."""

    name: str
    damage: Modifier | None
    defense: Modifier | None
    opp_damage: Modifier | None
    opp_defense: Modifier | None
    extra_draw: bool  # "draw another combat card"


@dataclass(frozen=True, slots=True)
class CharmHalf:
    """The charm half of a combat card, used in charm battle."""

    name: str
    modifier: Modifier | None
    target: Literal["self", "opponent", "special"]


@dataclass(frozen=True, slots=True)
class CombatCard(Card):
    """A combat card: a deck may name it "Physical / Charm" or by either half."""

    physical: PhysicalHalf
    charm: CharmHalf


@dataclass(frozen=True, slots=True)
class DisasterCard(Card):
    """A major or minor disaster. ``combat`` follows the card data: damage, defense and
    movement all printed (the Fifth Edition definition, which the 1996 rules' "damage and
    defense" agrees with on every movable disaster)."""

    major: bool
    combat: bool
    abilities: Abilities
    alt: Abilities | None
    traits: frozenset[Trait]
    moves_times: int | None  # "Moves once" = 1, "Moves 3 times" = 3; None moves every turn
    health: int | None = None  # a printed health ("Health = 14": Recoom); None means defense
    # Abilities the card text sets to the number of characters at the disaster's location plus
    # the printed "+N" bonus (Bugrom Horde: damage +2, defense +3); empty for most disasters.
    plus_characters: tuple[tuple[Ability, int], ...] = ()

    def plus_characters_bonus(self, ability: Ability) -> int | None:
        """The printed bonus when ``ability`` counts the characters at the location, else None."""
        for name, bonus in self.plus_characters:
            if name == ability:
                return bonus
        return None

    @property
    def horde(self) -> bool:
        return Trait.HORDE in self.traits or "Horde" in self.categories


@dataclass(frozen=True, slots=True)
class CharTemplate:
    """What a character card contributes before play, computed once per deck, not per game."""

    gender: str
    base: tuple[int, int, int, int, int]
    health_max: int
    skill_counts: dict[str, int]
    categories: frozenset[str]

    @classmethod
    def of(cls, card: CharacterCard) -> CharTemplate:
        a = card.abilities
        base = (a.damage or 0, a.defense or 0, a.movement or 0, a.charm or 0, a.energy or 0)
        counts: dict[str, int] = {}
        for s in card.skills:
            counts[s.name] = counts.get(s.name, 0) + s.count
        # Health equals base defense ("Lexicon: Health"); a printed override wins (card text).
        health = card.health if card.health is not None else base[1]
        return cls(
            card.gender.value, base, health, counts, frozenset(card.categories) | card.symbols
        )


AnyCard = (
    CharacterCard | LocationCard | ItemCard | HavenCard | PowerCard | CombatCard | DisasterCard
)
