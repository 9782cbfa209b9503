"""engine/codes.py names every member of the enums the engine reads, as the member itself."""

from __future__ import annotations

from enum import Enum

from deckkit.animayhem.construction.cards import CardType, Coverage, Gender, Trait
from deckkit.animayhem.construction.vocabulary import Action, Scope, Target, Trigger
from deckkit.animayhem.engine import codes
from deckkit.animayhem.engine.record import CardStat

PREFIXES: dict[type[Enum], str] = {
    Trigger: "TRIGGER",
    Action: "ACT",
    CardType: "TYPE",
    Trait: "TRAIT",
    Coverage: "COVERAGE",
    Target: "TARGET",
    Scope: "SCOPE",
    Gender: "GENDER",
}


def test_every_member_has_its_constant() -> None:
    """A member added to one of these enums needs its constant (the compiled engine imports it
    from codes.py), and each constant is the very member, so results cannot differ."""
    names = {
        n for n, v in vars(codes).items() if n.isupper() and not isinstance(v, int | dict | tuple)
    }
    expected = {f"{prefix}_{m.name}" for enum, prefix in PREFIXES.items() for m in enum}
    assert names == expected
    for enum, prefix in PREFIXES.items():
        for m in enum:
            assert getattr(codes, f"{prefix}_{m.name}") is m


def test_the_integer_codes_cover_every_type_and_trait_once() -> None:
    """The game-time cards (gamecards.py) code a card's type and traits as integers: every
    member has its own code (a type one number, a trait one bit), under the member's name."""
    assert set(codes.KIND_OF_TYPE) == set(CardType)
    assert len(set(codes.KIND_OF_TYPE.values())) == len(CardType)
    for member, code in codes.KIND_OF_TYPE.items():
        assert getattr(codes, f"KIND_{member.name}") == code
    assert set(codes.TRAIT_BIT) == set(Trait)
    bits = list(codes.TRAIT_BIT.values())
    assert all(b > 0 and b & (b - 1) == 0 for b in bits) and len(set(bits)) == len(bits)
    for member, bit in codes.TRAIT_BIT.items():
        assert getattr(codes, f"TRAIT_BIT_{member.name}") == bit


def test_every_card_stat_has_its_counter_index() -> None:
    """The per-card counters (state.bump) are a row per card indexed by codes.STAT_*: every
    CardStat has its own index under its name, and CARD_STATS maps the index back to it."""
    assert sorted(codes.CARD_STATS) == sorted(CardStat) and len(codes.CARD_STATS) == len(CardStat)
    for m in CardStat:
        assert codes.CARD_STATS[getattr(codes, f"STAT_{m.name}")] is m
