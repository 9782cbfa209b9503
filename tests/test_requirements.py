"""Skill listings against real cards: the set0 rulebook's "Skill Listings" examples."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pytest

from deckkit.animayhem.construction.carddb import CardDB, load_card_db
from deckkit.animayhem.construction.cards import CharacterCard, LocationCard
from deckkit.animayhem.construction.requirements import (
    GenderTerm,
    Requirement,
    SkillTerm,
    StatTerm,
    parse_requirement,
    requirement_met,
)


@dataclass(frozen=True)
class Member:
    """A character standing at a location, in its printed (left-hand) form."""

    card: CharacterCard

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def gender(self) -> str:
        return self.card.gender.value

    @property
    def skill_counts(self) -> Mapping[str, int]:
        counts: dict[str, int] = {}
        for s in self.card.skills:
            counts[s.name] = counts.get(s.name, 0) + s.count
        return counts

    @property
    def categories(self) -> frozenset[str]:
        return frozenset(self.card.categories)

    def has_category(self, category: str) -> bool:
        return category in self.categories

    def carries(self, card_name: str) -> bool:
        return False

    def current(self, ability: str) -> int:
        value = getattr(self.card.abilities, ability)
        return 0 if value is None else int(value)


@pytest.fixture(scope="module")
def db() -> CardDB:
    return load_card_db()


def party(db: CardDB, *names: str) -> list[Member]:
    out = []
    for name in names:
        (card,) = db.lookup(name)
        assert isinstance(card, CharacterCard)
        out.append(Member(card))
    return out


def listing(db: CardDB, name: str) -> Requirement:
    (card,) = db.lookup(name)
    assert isinstance(card, LocationCard)
    return card.requirement


def test_and_one_character_with_both(db: CardDB) -> None:
    """set0 rulebook, "Skill Listings": Island Restaurant's Cooking & Acrobatics, one character."""
    req = listing(db, "Island Restaurant")
    assert requirement_met(req, party(db, "Ranma Saotome (girl type)"))  # Cooking, Acrobatics


def test_and_two_characters_one_each(db: CardDB) -> None:
    """set0 rulebook, "Skill Listings": Cooking & Acrobatics met by two characters, one each."""
    req = listing(db, "Island Restaurant")
    assert requirement_met(req, party(db, "Princess Sasami", "A-ko Magami"))
    assert not requirement_met(req, party(db, "Princess Sasami"))  # Cooking alone
    assert not requirement_met(req, party(db, "A-ko Magami"))  # Acrobatics alone


def test_or_either_skill(db: CardDB) -> None:
    """set0 rulebook, "Skill Listings": Pioneer LDC-Mars' Music or Tech needs either one."""
    req = listing(db, "Pioneer LDC - Mars")
    assert req.text == "Music or Tech"
    assert requirement_met(req, party(db, "Little Washu"))  # Tech
    assert requirement_met(req, party(db, "Priss Asagiri"))  # Music
    assert not requirement_met(req, party(db, "Mr. Panda"))


def test_and_groups_before_or(db: CardDB) -> None:
    """set0 rulebook, "Skill Listings": "Streetwise & Celebrity or Music & Cooking" reads
    "(Streetwise & Celebrity) or (Music & Cooking)"."""
    req = parse_requirement("Streetwise & Celebrity or Music & Cooking", db.vocabulary)
    assert req.alternatives == (
        (SkillTerm("Streetwise"), SkillTerm("Celebrity")),
        (SkillTerm("Music"), SkillTerm("Cooking")),
    )
    # Cafe prints exactly this listing.
    assert listing(db, "Cafe").alternatives == req.alternatives
    assert requirement_met(req, party(db, "Oolong", "Yamcha (The Desert Bandit)"))
    assert requirement_met(req, party(db, "Priss Asagiri", "Princess Sasami"))
    # Streetwise and Music without either partner skill: neither group complete.
    assert not requirement_met(req, party(db, "Oolong", "Priss Asagiri"))


def test_desert_party_passes_by_water_element(db: CardDB) -> None:
    """set0 rulebook, "Skill Listings" example: Mr. Panda, P-Chan and Miz Mishtal pass Desert of
    Bleached White Bones through Water Element, not Survival & Flying."""
    req = listing(db, "Desert of Bleached White Bones")
    assert requirement_met(req, party(db, "Mr. Panda", "P-Chan", "Miz Mishtal"))
    assert not requirement_met(req, party(db, "Mr. Panda", "P-Chan"))


@pytest.mark.parametrize("text", ["Strength 4+", "Strength & Attack 4+"])
def test_skill_n_plus(db: CardDB, text: str) -> None:
    """set0 rulebook, "Locations with Skill Listings in the Form of 'Skill N+'" (and its 1998
    errata wording "Strength & Attack 4+"): Ryoga Hibiki with Mr. Panda, or Ryoko alone."""
    req = parse_requirement(text, db.vocabulary)
    assert req.alternatives == ((SkillTerm("Strength"), StatTerm("damage", 4)),)
    assert requirement_met(req, party(db, "Ryoga Hibiki", "Mr. Panda"))
    assert requirement_met(req, party(db, "Ryoko"))
    assert not requirement_met(req, party(db, "Ryoga Hibiki"))  # Strength, damage 3
    assert not requirement_met(req, party(db, "Mr. Panda"))  # damage 4, no Strength


def test_genom_tower_errata_in_database(db: CardDB) -> None:
    """June 1998 errata (card-data README, errata_1998): Genom Tower reads
    "Computer & Tech or Police & Strength & Attack 4+"; its second group still needs Police."""
    req = listing(db, "Genom Tower")
    assert req.text == "Computer & Tech or Police & Strength & Attack 4+"
    assert not requirement_met(req, party(db, "Ryoko"))
    assert requirement_met(req, party(db, "Ryoko", "Nene Romanova"))  # + Police


def test_hot_springs_three_females_or_peeping(db: CardDB) -> None:
    """set0 rulebook, sample combat: Hot Springs House lists "3 females or Peeping"."""
    req = listing(db, "Hot Springs House")
    assert req.alternatives[0] == (GenderTerm("F", 3),)
    assert requirement_met(req, party(db, "Ryoko", "Little Washu", "Nene Romanova"))
    assert not requirement_met(req, party(db, "Ryoko", "Little Washu"))
    assert requirement_met(req, party(db, "Oolong"))  # Peeping
    assert parse_requirement("3 females or Peeping", db.vocabulary).alternatives == (
        req.alternatives
    )


def test_anti_skill_cancels_another_characters_instance(db: CardDB) -> None:
    """set0 rulebook, "Character > Skills": "skill -N" negates N instances of that skill on
    another character at the same location (Akane Tendo's Cooking -1)."""
    req = parse_requirement("Cooking", db.vocabulary)
    assert requirement_met(req, party(db, "Princess Sasami"))
    assert not requirement_met(req, party(db, "Princess Sasami", "Akane Tendo"))
    # Two instances survive one anti-skill.
    assert requirement_met(req, party(db, "Princess Sasami", "Shampoo", "Akane Tendo"))


def test_names_and_categories_classified(db: CardDB) -> None:
    """set0 rulebook, "Skill Listings": a listing may name a character or a category."""
    req = listing(db, "Ukyo's Restaurant")  # Cooking x2 or Ranma or Savoir-Faire
    assert requirement_met(req, party(db, "Ranma Saotome (boy type)"))
    assert not requirement_met(req, party(db, "Princess Sasami"))  # one Cooking only
