"""Skill listings: parse the printed requirement into alternatives of conjuncts, and test a party.

Grammar (set0 rulebook, Part I "Skill Listings"): "&" binds tighter than "or", so
"Streetwise & Celebrity or Music & Cooking" reads "(Streetwise & Celebrity) or (Music & Cooking)".
Term forms handled:

- ``Skill`` and ``Skill x N``: the party holds N instances; anti-skills ("Cooking -1") held by a
  party member cancel instances on others ("Character > Skills").
- ``Skill N+``: someone has the skill and someone has damage of at least N ("Locations with Skill
  Listings in the Form of 'Skill N+'"); the 1998 errata's "Strength & Attack 4+" reads the same.
- ``Attack N+``, ``Movement N+``, ``Energy > N``, ``Male with Charm > N``: one character meets it.
- ``Female x3``, ``3 females``, ``Male``: gender counts.
- a category (Alien, Vehicle, Money...) held by a member or by a card a member carries;
- a character's name ("Ranma", "Kami");
- an item's or equipment card's name ("Keys"): a member carries that card;
- anything else (e.g. "remain on Location for 2 turns") is a special term the engine never meets.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True, slots=True)
class SkillTerm:
    skill: str
    count: int = 1

    def __str__(self) -> str:
        return self.skill if self.count == 1 else f"{self.skill} x{self.count}"


@dataclass(frozen=True, slots=True)
class AnySkillTerm:
    """ "Any Element": any skill whose name ends with the family word."""

    family: str

    def __str__(self) -> str:
        return f"Any {self.family}"


@dataclass(frozen=True, slots=True)
class StatTerm:
    """One character whose current ability is at least ``minimum`` (and of ``gender`` if set)."""

    ability: str
    minimum: int
    gender: str | None = None

    def __str__(self) -> str:
        who = {"M": "Male with ", "F": "Female with "}.get(self.gender or "", "")
        return f"{who}{self.ability.capitalize()} {self.minimum}+"


@dataclass(frozen=True, slots=True)
class GenderTerm:
    gender: str  # "M" or "F"
    count: int = 1

    def __str__(self) -> str:
        word = "Female" if self.gender == "F" else "Male"
        return word if self.count == 1 else f"{word} x{self.count}"


@dataclass(frozen=True, slots=True)
class CategoryTerm:
    category: str

    def __str__(self) -> str:
        return self.category


@dataclass(frozen=True, slots=True)
class NameTerm:
    """A named character (matched as whole words: "Ranma" matches "Ranma Saotome (boy type)")."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class CardTerm:
    """A named item or equipment card a member carries (Ryoko's Prison Cave: "Keys")."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class SpecialTerm:
    """A condition in card text the engine does not simulate; it is never met."""

    text: str

    def __str__(self) -> str:
        return self.text


Term = (
    SkillTerm
    | AnySkillTerm
    | StatTerm
    | GenderTerm
    | CategoryTerm
    | NameTerm
    | CardTerm
    | SpecialTerm
)


@dataclass(frozen=True, slots=True)
class Requirement:
    """Alternatives (any one suffices) of conjuncts (all must hold)."""

    text: str
    alternatives: tuple[tuple[Term, ...], ...]

    @property
    def simulable(self) -> bool:
        """True when at least one alternative has no special term."""
        return any(not any(isinstance(t, SpecialTerm) for t in alt) for alt in self.alternatives)

    def __str__(self) -> str:
        return " or ".join(" & ".join(str(t) for t in alt) for alt in self.alternatives)


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """What bare words can mean, taken from the card database itself."""

    skills: frozenset[str] = field(default_factory=frozenset)
    categories: frozenset[str] = field(default_factory=frozenset)
    character_names: frozenset[str] = field(default_factory=frozenset)
    carried_names: frozenset[str] = field(default_factory=frozenset)  # items and equipment


_ABILITY_WORDS = {
    "attack": "damage",
    "damage": "damage",
    "defense": "defense",
    "movement": "movement",
    "move": "movement",
    "charm": "charm",
    "energy": "energy",
}
_GENDER_WORDS = {"female": "F", "females": "F", "male": "M", "males": "M"}
# The skill a card grants to let a character count as a gender in requirements.
GENDER_SKILLS = {"M": "Male", "F": "Female"}

_RE_PLUS = re.compile(r"^(?P<name>.+?)\s+(?P<n>\d+)\s*\+$")
_RE_COMPARE = re.compile(r"^(?P<name>[A-Za-z]+)\s*(?P<op>>=|>)\s*(?P<n>\d+)$")
_RE_TIMES = re.compile(r"^(?P<name>.+?)\s*[x×]\s*(?P<n>\d+)$", re.IGNORECASE)
_RE_COUNT_FIRST = re.compile(r"^(?P<n>\d+)\s+(?P<name>.+)$")
_RE_GENDER_WITH = re.compile(
    r"^(?P<g>male|female)s?\s+with\s+(?P<ab>[A-Za-z]+)\s*(?P<op>>=|>)\s*(?P<n>\d+)$", re.IGNORECASE
)
_RE_OR = re.compile(r"\s+or\s+", re.IGNORECASE)


def _ability_term(word: str, op: str, n: int, gender: str | None = None) -> StatTerm | None:
    ability = _ABILITY_WORDS.get(word.lower())
    if ability is None:
        return None
    return StatTerm(ability, n + 1 if op == ">" else n, gender)


def _bare(name: str, count: int, vocab: Vocabulary) -> Term:
    """Classify a bare word: skill, then category, then character name, then the name of a card
    a character carries, else special."""
    gender = _GENDER_WORDS.get(name.lower())
    if gender is not None:
        return GenderTerm(gender, count)
    if name.lower().startswith("any ") and count == 1:
        family = name[4:].strip()
        if any(s.endswith(family) for s in vocab.skills):
            return AnySkillTerm(family)
    skill = _match(name, vocab.skills)
    if skill is not None:
        return SkillTerm(skill, count)
    if count == 1:
        cat = _match(name, vocab.categories)
        if cat is not None:
            return CategoryTerm(cat)
        named = _name_pattern(name)  # compiled once for all the names it is tried on
        if any(named.search(n) for n in vocab.character_names):
            return NameTerm(name)
        carried = _match(name, vocab.carried_names)
        if carried is not None:
            return CardTerm(carried)
    return SpecialTerm(name if count == 1 else f"{name} x{count}")


def _match(word: str, known: Iterable[str]) -> str | None:
    low = word.lower()
    for k in known:
        if k.lower() == low:
            return k
    return None


def _name_pattern(term: str) -> re.Pattern[str]:
    """``term`` as a whole word (or words) of a character's name, in any case."""
    return re.compile(rf"(?<![\w-]){re.escape(term)}(?![\w-])", re.IGNORECASE)


def _name_matches(term: str, character_name: str) -> bool:
    return _name_pattern(term).search(character_name) is not None


def _parse_conjunct(text: str, vocab: Vocabulary) -> list[Term]:
    t = text.strip().strip("()").strip()
    m = _RE_GENDER_WITH.match(t)
    if m:
        term = _ability_term(m["ab"], m["op"], int(m["n"]), _GENDER_WORDS[m["g"].lower()])
        if term is not None:
            return [term]
    m = _RE_PLUS.match(t)
    if m:
        name, n = m["name"].strip(), int(m["n"])
        ability = _ability_term(name, ">=", n)
        if ability is not None:
            return [ability]
        # "Skill N+": the skill plus someone with damage N or more.
        return [_bare(name, 1, vocab), StatTerm("damage", n)]
    m = _RE_COMPARE.match(t)
    if m:
        ability = _ability_term(m["name"], m["op"], int(m["n"]))
        if ability is not None:
            return [ability]
    m = _RE_TIMES.match(t)
    if m:
        return [_bare(m["name"].strip(), int(m["n"]), vocab)]
    m = _RE_COUNT_FIRST.match(t)
    if m and m["name"].lower() in _GENDER_WORDS:
        return [GenderTerm(_GENDER_WORDS[m["name"].lower()], int(m["n"]))]
    return [_bare(t, 1, vocab)]


def parse_requirement(text: str, vocab: Vocabulary) -> Requirement:
    """Parse a printed skill listing; "&" groups before "or" (set0 rulebook, "Skill Listings")."""
    alternatives: list[tuple[Term, ...]] = []
    for alt in _RE_OR.split(text.strip()):
        alt = alt.strip().strip("()").strip()
        if not alt:
            continue
        terms: list[Term] = []
        for conj in alt.split("&"):
            if conj.strip():
                terms.extend(_parse_conjunct(conj, vocab))
        if terms:
            alternatives.append(tuple(terms))
    return Requirement(text.strip(), tuple(alternatives))


class PartyMember(Protocol):
    """What the skill test needs to know about a character standing at the location."""

    @property
    def name(self) -> str: ...
    @property
    def gender(self) -> str: ...
    @property
    def skill_counts(self) -> Mapping[str, int]: ...
    @property
    def categories(self) -> frozenset[str]: ...
    def current(self, ability: str) -> int: ...
    def has_category(self, category: str) -> bool:
        """Its own category or one on a card it carries (equipment, vehicle, item)."""
        ...

    def carries(self, card_name: str) -> bool:
        """It carries an item or equipment card of that name."""
        ...


def skill_total(party: Sequence[PartyMember], skill: str) -> int:
    """Instances of a skill in the party; anti-skills cancel instances held by others."""
    return max(0, sum(m.skill_counts.get(skill, 0) for m in party))


def term_met(term: Term, party: Sequence[PartyMember]) -> bool:
    if isinstance(term, SkillTerm):
        return skill_total(party, term.skill) >= term.count
    if isinstance(term, StatTerm):
        return any(
            m.current(term.ability) >= term.minimum
            and (
                term.gender is None
                or m.gender == term.gender
                or m.skill_counts.get(GENDER_SKILLS[term.gender], 0) > 0
            )
            for m in party
        )
    if isinstance(term, GenderTerm):
        # A member whose card lets it count as that gender holds it as a granted skill
        # ("Male": Leona Ozaki's card).
        word = GENDER_SKILLS[term.gender]
        return (
            sum(1 for m in party if m.gender == term.gender or m.skill_counts.get(word, 0) > 0)
            >= term.count
        )
    if isinstance(term, CategoryTerm):
        return any(m.has_category(term.category) for m in party)
    if isinstance(term, NameTerm):
        return any(_name_matches(term.name, m.name) for m in party)
    if isinstance(term, CardTerm):
        return any(m.carries(term.name) for m in party)
    if isinstance(term, AnySkillTerm):
        skills = {s for m in party for s in m.skill_counts if s.endswith(term.family)}
        return any(skill_total(party, s) >= 1 for s in skills)
    return False


def skill_totals(party: Sequence[PartyMember]) -> dict[str, int]:
    """Instances of every skill the party holds, anti-skills subtracted."""
    totals: dict[str, int] = {}
    for m in party:
        for name, n in m.skill_counts.items():
            totals[name] = totals.get(name, 0) + n
    return totals


def requirement_met(
    req: Requirement, party: Sequence[PartyMember], totals: dict[str, int] | None = None
) -> bool:
    """The skill test of the Scavenge phase: any alternative whose every term the party meets.

    Pass ``totals`` (from :func:`skill_totals`) when testing one party against many locations.
    """
    for alt in req.alternatives:
        for t in alt:
            if type(t) is SkillTerm:
                if totals is None:
                    totals = skill_totals(party)
                if totals.get(t.skill, 0) < t.count:
                    break
            elif not term_met(t, party):
                break
        else:
            return True
    return False
