"""Ani-Mayhem's stand-ins for a card: the legal cards of the same kind that take one copy's
place when the card's worth is measured (``deckkit impact``; :mod:`deckkit.analysis.impact` says
why a replacement, and why the median over several).

The stand-ins are chosen by a stated rule, not a judgement: among the database's cards of the
same type (for disasters, also the same combat and major flags) that the deck does not hold,
whose text the engine plays in full, prefer those with no encoded text effects, then those whose
printed numbers (abilities, modifiers, damage and defense) sum closest to the median of the
type, then the lowest id; the first :data:`STAND_INS` such cards that leave the deck legal are
used (the first alone is "the most neutral" card).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

from deckkit.animayhem.construction.cards import (
    AnyCard,
    CharacterCard,
    CombatCard,
    Coverage,
    DisasterCard,
    ItemCard,
    LocationCard,
    PowerCard,
)
from deckkit.animayhem.construction.deck import Deck, DeckEntry

MAX_CANDIDATES = 40  # legality checks per replacement search
STAND_INS = 5  # stand-ins of the median replacement level


def _modifier_sum(mods: Iterable[Any]) -> int:
    return sum(abs(m.value) for m in mods if m is not None and m.op == "+")


def printed_strength(card: AnyCard) -> float:
    """The sum of a card's printed numbers: the yardstick of "neutral"."""
    if isinstance(card, CharacterCard | DisasterCard):
        a = card.abilities
        return sum(v or 0 for v in (a.damage, a.defense, a.movement, a.charm, a.energy))
    if isinstance(card, LocationCard):
        return (card.damage or 0) + (card.defense or 0)
    if isinstance(card, PowerCard):
        return _modifier_sum(m for _, m in card.modifiers)
    if isinstance(card, CombatCard):
        p = card.physical
        return _modifier_sum((p.damage, p.defense, p.opp_damage, p.opp_defense))
    if isinstance(card, ItemCard):
        return card.tally
    return 0


def _same_kind(a: AnyCard, b: AnyCard) -> bool:
    if a.type != b.type:
        return False
    if isinstance(a, DisasterCard) and isinstance(b, DisasterCard):
        return (a.major, a.combat) == (b.major, b.combat)
    return True


def with_one_copy_changed(deck: Deck, card: AnyCard, replacement: AnyCard | None) -> Deck:
    """The deck with one copy of ``card`` replaced (in the same place) or removed."""
    entries: list[DeckEntry] = []
    done = False
    for entry in deck.entries:
        if not done and entry.card.id == card.id:
            done = True
            if entry.count > 1:
                entries.append(replace(entry, count=entry.count - 1))
            if replacement is not None:
                entries.append(DeckEntry(replacement, 1, entry.line, entry.section))
            continue
        entries.append(entry)
    if not done:
        raise ValueError(f"{card.name} is not in the deck")
    return replace(deck, entries=tuple(entries))


def stand_ins(
    deck: Deck,
    card: AnyCard,
    catalogue: Sequence[AnyCard],
    is_legal: Callable[[Deck], bool],
    count: int = STAND_INS,
) -> list[AnyCard]:
    """The ``count`` most neutral cards of ``card``'s kind that each keep ``deck`` legal in its
    place, most neutral first (rule above); fewer when fewer exist."""
    held = {e.card.id for e in deck.entries}
    kind = [c for c in catalogue if _same_kind(c, card)]
    if not kind:
        return []
    median = statistics.median(printed_strength(c) for c in kind)
    candidates = [c for c in kind if c.id not in held and c.coverage is Coverage.FULL]
    candidates.sort(key=lambda c: (c.effects is not None, abs(printed_strength(c) - median), c.id))
    found: list[AnyCard] = []
    for candidate in candidates[: MAX_CANDIDATES + count]:
        if is_legal(with_one_copy_changed(deck, card, candidate)):
            found.append(candidate)
            if len(found) == count:
                break
    return found


def neutral_replacement(
    deck: Deck,
    card: AnyCard,
    catalogue: Sequence[AnyCard],
    is_legal: Callable[[Deck], bool],
) -> AnyCard | None:
    """The most neutral card of ``card``'s kind that keeps ``deck`` legal (rule above)."""
    found = stand_ins(deck, card, catalogue, is_legal, count=1)
    return found[0] if found else None
