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
    CardStat: "STAT",
    Target: "TARGET",
    Scope: "SCOPE",
    Gender: "GENDER",
}


def test_every_member_has_its_constant() -> None:
    """A member added to one of these enums needs its constant (the compiled engine imports it
    from codes.py), and each constant is the very member, so results cannot differ."""
    names = {n for n in vars(codes) if n.isupper()}
    expected = {f"{prefix}_{m.name}" for enum, prefix in PREFIXES.items() for m in enum}
    assert names == expected
    for enum, prefix in PREFIXES.items():
        for m in enum:
            assert getattr(codes, f"{prefix}_{m.name}") is m
