"""The game-time form of the cards: what the game loop reads of a card, as plain records.

The construction layer's cards (cards.py) and requirements (requirements.py) are frozen
dataclasses that stay interpreted and readable; read from the compiled engine, each attribute is
a lookup through the interpreter, and the game loop makes millions of them. A :class:`GameCard`
holds the same facts, computed once per card object and process (:func:`game_card`), in a class
the engine compiles: the card's id and name, its type and traits as integer codes (codes.py),
what a power card's uses and flags are, the words a card matches (:func:`matches`) and its
requirement as a :class:`GameRequirement` that compiled code checks without calling back into
the construction layer (cardrules.py). ``GameCard.card`` keeps the construction card for the
rare and the readable paths.

Nothing here changes a result: each field is the construction card's, copied or coded.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from deckkit.animayhem.construction.cards import (
    AnyCard,
    CharacterCard,
    CharmHalf,
    CombatCard,
    DisasterCard,
    ItemCard,
    LocationCard,
    Modifier,
    PowerCard,
)
from deckkit.animayhem.construction.requirements import (
    GENDER_SKILLS,
    AnySkillTerm,
    CardTerm,
    CategoryTerm,
    GenderTerm,
    NameTerm,
    Requirement,
    SkillTerm,
    StatTerm,
    Term,
)
from deckkit.animayhem.engine.codes import (
    KIND_OF_TYPE,
    TERM_ANY_SKILL,
    TERM_CARD,
    TERM_CATEGORY,
    TERM_GENDER,
    TERM_NAME,
    TERM_SKILL,
    TERM_SPECIAL,
    TERM_STAT,
    TRAIT_BIT,
)

# An ability's index in a character's ``cur`` tuple (state.py: DMG, DEF, MOV, CHA, ENE).
_ABILITY_SLOT: Final = {"damage": 0, "defense": 1, "movement": 2, "charm": 3, "energy": 4}


# Skills as small integers: each skill name its id, given the first time the process meets
# the name (a requirement's term, a character's skills), so that a character's skill counts are
# read by index (``skill_vector``; state.Char.printed_vec) instead of looked up by name. An id
# only places a count: no result depends on which id a skill has. Final: a C static.
SKILL_IDS: Final[dict[str, int]] = {}


def skill_id(name: str) -> int:
    """The id of the skill ``name`` (given now if the process has not met it)."""
    i = SKILL_IDS.get(name)
    if i is None:
        i = len(SKILL_IDS)
        SKILL_IDS[name] = i
    return i


def skill_vector(counts: dict[str, int]) -> list[int]:
    """Skill counts by skill id (``skill_id``), as long as the highest id held: a skill of a
    higher id is not held (0)."""
    top = -1
    for name in counts:
        i = SKILL_IDS.get(name)
        if i is None:
            i = skill_id(name)
        if i > top:
            top = i
    v = [0] * (top + 1)
    for name, n in counts.items():
        v[SKILL_IDS[name]] = n
    return v


class GameTerm:
    """One term of a requirement (requirements.py's term classes), coded by ``op``
    (codes.TERM_*): ``text`` is the skill, family, category or name it names; ``count`` the
    count or minimum; ``slot`` the ability of a stat term; ``gender`` and ``gender_skill`` its
    gender ("" for none) and the skill that counts as it; ``sid`` and ``gender_sid`` the ids
    of the skill and of the gender's skill (``skill_id``; -1 for none)."""

    __slots__ = (
        "count",
        "gender",
        "gender_sid",
        "gender_skill",
        "op",
        "pattern",
        "sid",
        "slot",
        "term",
        "text",
    )

    def __init__(self, term: Term) -> None:
        self.term = term
        self.op = TERM_SPECIAL
        self.text = ""
        self.count = 0
        self.slot = 0
        self.gender = ""
        self.gender_skill = ""
        self.sid = -1
        self.gender_sid = -1
        self.pattern: re.Pattern[str] | None = None
        if isinstance(term, SkillTerm):
            self.op, self.text, self.count = TERM_SKILL, term.skill, term.count
            self.sid = skill_id(term.skill)
        elif isinstance(term, AnySkillTerm):
            self.op, self.text = TERM_ANY_SKILL, term.family
        elif isinstance(term, StatTerm):
            self.op, self.count = TERM_STAT, term.minimum
            self.slot = _ABILITY_SLOT[term.ability]
            if term.gender is not None:
                self.gender, self.gender_skill = term.gender, GENDER_SKILLS[term.gender]
                self.gender_sid = skill_id(self.gender_skill)
        elif isinstance(term, GenderTerm):
            self.op, self.count = TERM_GENDER, term.count
            self.gender, self.gender_skill = term.gender, GENDER_SKILLS[term.gender]
            self.gender_sid = skill_id(self.gender_skill)
        elif isinstance(term, CategoryTerm):
            self.op, self.text = TERM_CATEGORY, term.category
        elif isinstance(term, NameTerm):
            # requirements._name_matches: the name as whole words, any case.
            self.op, self.text = TERM_NAME, term.name
            self.pattern = re.compile(rf"(?<![\w-]){re.escape(term.name)}(?![\w-])", re.IGNORECASE)
        elif isinstance(term, CardTerm):
            self.op, self.text = TERM_CARD, term.name

    def __reduce__(self) -> tuple[type[GameTerm], tuple[Term]]:
        """Pickled as its term and made again from it where unpickled: skill ids are the
        process's own (``skill_id``)."""
        return (GameTerm, (self.term,))


class GameRequirement:
    """A requirement's alternatives (any one suffices) of terms (all must hold)."""

    __slots__ = ("alternatives", "requirement")

    def __init__(self, requirement: Requirement) -> None:
        self.requirement = requirement
        self.alternatives: tuple[tuple[GameTerm, ...], ...] = tuple(
            tuple(GameTerm(t) for t in alt) for alt in requirement.alternatives
        )

    def __reduce__(self) -> tuple[type[GameRequirement], tuple[Requirement]]:
        """Pickled as its requirement, its terms made again where unpickled (``GameTerm``)."""
        return (GameRequirement, (self.requirement,))


# A modifier's operation (cards.Modifier.op) as a small integer: NO_MOD where a combat card's
# half prints none (combat._apply is cardrules.apply_mod on these codes).
NO_MOD: Final = 0
ADD: Final = 1
MUL: Final = 2
DIV: Final = 3
SET: Final = 4


def mod_op(mod: Modifier | None) -> int:
    """The code of a modifier's operation (NO_MOD for none)."""
    if mod is None:
        return NO_MOD
    op = mod.op
    if op == "+":
        return ADD
    if op == "x":
        return MUL
    if op == "/":
        return DIV
    return SET


def apply_op(op: int, value: int, current: int) -> int:
    """:meth:`Modifier.apply` on a coded operation (``mod_op``): a sign modifies, a bare number
    replaces."""
    if op == ADD:
        return current + value
    if op == MUL:
        return current * value
    if op == DIV:
        return current // value
    return value


class GameMod:
    """A power card's printed modifier as the game loop reads it: its operation coded
    (``mod_op``) and its value, fields compiled code reads directly (cardrules.apply_mod),
    where each of a :class:`Modifier`'s is a lookup through the interpreter. ``mod`` is the
    printed one."""

    __slots__ = ("mod", "op", "value")

    def __init__(self, mod: Modifier) -> None:
        self.mod = mod
        self.op = mod_op(mod)
        self.value = mod.value


class CombatHalf:
    """A combat card's physical half in integers, read from the card once per card object and
    process (``GameCard.half``): a combat round reads it from compiled slots, not from the
    construction layer's dataclasses."""

    __slots__ = (
        "card",
        "dfn",
        "dfn_op",
        "dmg",
        "dmg_op",
        "extra_draw",
        "id",
        "name",
        "opp_dfn",
        "opp_dfn_op",
        "opp_dmg",
        "opp_dmg_op",
    )

    def __init__(self, card: CombatCard) -> None:
        half = card.physical
        self.card = card
        self.id = card.id
        self.name = half.name
        self.dmg_op = mod_op(half.damage)
        self.dmg = 0 if half.damage is None else half.damage.value
        self.dfn_op = mod_op(half.defense)
        self.dfn = 0 if half.defense is None else half.defense.value
        self.opp_dmg_op = mod_op(half.opp_damage)
        self.opp_dmg = 0 if half.opp_damage is None else half.opp_damage.value
        self.opp_dfn_op = mod_op(half.opp_defense)
        self.opp_dfn = 0 if half.opp_defense is None else half.opp_defense.value
        self.extra_draw = half.extra_draw


class GameCard:
    """What the game loop reads of one card. ``kind`` is its type (codes.KIND_*), ``traits``
    a disaster's traits as bits (codes.TRAIT_BIT_*), ``kinds`` the casefolded words it matches
    (:func:`matches`); fields a card type does not print are None, 0, False or empty."""

    __slots__ = (
        "card",
        "categories",
        "charm",
        "charm_half",
        "cid",
        "columns_off",
        "combat",
        "damage",
        "damage_bonus",
        "defense",
        "defense_bonus",
        "energy_cost",
        "half",
        "health",
        "horde",
        "kind",
        "kinds",
        "major",
        "mod_names",
        "mod_slots",
        "modifiers",
        "movement",
        "moves_times",
        "name",
        "plus_sum",
        "power",
        "requirement",
        "symbols",
        "tally",
        "traits",
        "uses",
        "vehicle",
        "weapon",
    )

    def __init__(self, card: AnyCard) -> None:
        self.card = card
        self.cid = card.id
        self.name = card.name
        self.kind = KIND_OF_TYPE[card.type]
        self.categories = card.categories
        self.symbols = card.symbols
        self.power = False
        self.uses: int | None = None
        self.vehicle = False
        self.weapon = False
        self.requirement: GameRequirement | None = None
        self.tally = 0
        self.traits = 0
        self.moves_times: int | None = None
        self.major = False
        self.combat = False
        self.horde = False
        # A disaster's printed abilities (0 where none is printed) and the bonus of an ability
        # that counts the characters at its location (DisasterCard.plus_characters), or None.
        self.damage = 0
        self.defense = 0
        self.movement = 0
        self.charm = 0
        self.damage_bonus: int | None = None
        self.defense_bonus: int | None = None
        self.health: int | None = None  # a printed health (characters, disasters)
        # A combat card's charm half (queries.charm_halves reads it for every copy of a game
        # the search player plays out, where the card's own attribute is a generic lookup).
        self.charm_half: CharmHalf | None = card.charm if isinstance(card, CombatCard) else None
        # And its physical half, coded (combat._play_card).
        self.half: CombatHalf | None = CombatHalf(card) if isinstance(card, CombatCard) else None
        # A power card's ability modifiers: as printed, by ability index (``Char.cur``), the
        # abilities they modify, and the sum of the additive ones (abilities.refresh).
        self.modifiers: tuple[tuple[str, Modifier], ...] = ()
        self.mod_slots: tuple[tuple[int, GameMod], ...] = ()
        self.mod_names: frozenset[str] = frozenset()
        self.plus_sum = 0
        self.energy_cost: int | None = None
        # Its printed modifiers act only through its effects (``CardEffects.columns`` False).
        self.columns_off = card.effects is not None and not card.effects.columns
        # card_matches (queries.py): its type, kind words, name, categories and symbols.
        kinds = {card.type.value}
        if isinstance(card, PowerCard):
            self.power = True
            self.uses = card.uses
            self.vehicle = card.vehicle
            self.weapon = card.weapon
            self.modifiers = card.modifiers
            self.mod_slots = tuple((_ABILITY_SLOT[a], GameMod(m)) for a, m in card.modifiers)
            self.mod_names = frozenset(a for a, _ in card.modifiers)
            self.plus_sum = sum(m.value for _, m in card.modifiers if m.op == "+")
            self.energy_cost = card.energy_cost
            if card.requirement is not None:
                self.requirement = game_requirement(card.requirement)
            kinds.add("power")
            if card.vehicle:
                kinds.add("vehicle")
            if card.weapon:
                kinds.add("weapon")
        elif isinstance(card, LocationCard):
            self.requirement = game_requirement(card.requirement)
            if card.dimensional:
                kinds.add("dimensional")
        elif isinstance(card, ItemCard):
            self.tally = card.tally
        elif isinstance(card, CharacterCard):
            self.health = card.health
        elif isinstance(card, DisasterCard):
            self.major = card.major
            self.combat = card.combat
            self.moves_times = card.moves_times
            self.horde = card.horde
            self.health = card.health
            a = card.abilities
            self.damage = a.damage or 0
            self.defense = a.defense or 0
            self.movement = a.movement or 0
            self.charm = a.charm or 0
            if card.plus_characters:
                self.damage_bonus = card.plus_characters_bonus("damage")
                self.defense_bonus = card.plus_characters_bonus("defense")
            for t in card.traits:
                self.traits |= TRAIT_BIT[t]
            kinds.add("major" if card.major else "minor")
            kinds.add("combat" if card.combat else "non-combat")
        kinds.add(card.name.casefold())
        kinds |= {c.casefold() for c in card.categories}
        kinds |= {s.casefold() for s in card.symbols}
        self.kinds: frozenset[str] = frozenset(kinds)

    def __repr__(self) -> str:
        return f"<GameCard {self.cid} {self.name}>"


# One record per card object and process: a record holds its card, so an id here is never
# reused by another object while the record lives.
# Final: the compiled module keeps them in C statics, not its globals dictionary.
_CARDS: Final[dict[int, GameCard]] = {}
_REQUIREMENTS: Final[dict[int, GameRequirement]] = {}


def game_card(card: AnyCard) -> GameCard:
    """The game-time record of a card, built on first use."""
    g = _CARDS.get(id(card))
    if g is None:
        g = GameCard(card)
        _CARDS[id(card)] = g
    return g


def game_requirement(requirement: Requirement) -> GameRequirement:
    """The game-time form of a requirement (a card's, or an effect's condition), built once."""
    r = _REQUIREMENTS.get(id(requirement))
    if r is None:
        r = GameRequirement(requirement)
        _REQUIREMENTS[id(requirement)] = r
    return r


def matches(g: GameCard, words: Sequence[str]) -> bool:
    """:func:`queries.card_matches` on a record: a word names the card's kind, a category, a
    symbol or its name ("<name> vehicle" names a vehicle of that name or category)."""
    if not words:
        return True
    kinds = g.kinds
    for w in words:
        low = w.casefold()
        if low in kinds:
            return True
        if low.endswith("vehicle") and "vehicle" in kinds and low.split()[0] in kinds:
            return True
    return False
