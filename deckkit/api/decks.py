"""Decks changed in memory: the same deck with one card's printed numbers changed, for a sweep
over a card's values without touching the card database files."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from deckkit.animayhem.construction.cards import ABILITIES, AnyCard, CharacterCard
from deckkit.animayhem.construction.deck import Deck
from deckkit.errors import UsageError


def with_card(deck: Deck, name: str, **changes: Any) -> Deck:
    """``deck`` with every copy of the card ``name`` (its name, id or "Name #33") changed:
    ``changes`` are fields of the card (``deckkit.with_card(deck, "Krillin", damage=5)``);
    the five abilities (damage, defense, movement, charm, energy) may be given directly. The
    card keeps its id, so a run's per-card statistics stay under its name."""
    held = [
        e.card for e in deck.entries if name in (e.card.name, e.card.id) or _numbered(e.card, name)
    ]
    if not held:
        raise UsageError(f"{name!r} is not in the deck", path=deck.path)
    if len({c.id for c in held}) > 1:
        raise UsageError(
            f"{name!r} names several cards of the deck", hint="use its id or 'Name #33'"
        )
    card = held[0]
    abilities = {k: changes.pop(k) for k in list(changes) if k in ABILITIES}
    if abilities:
        if not isinstance(card, CharacterCard):
            raise UsageError(f"{card.name!r} is a {card.type}, which prints no abilities")
        changes["abilities"] = replace(card.abilities, **abilities)
    changed = replace(card, **changes)
    entries = tuple(replace(e, card=changed) if e.card.id == card.id else e for e in deck.entries)
    return replace(deck, entries=entries)


def _numbered(card: AnyCard, name: str) -> bool:
    """ "Goku #33": the name with the card's global number (ids are ``am`` + the number)."""
    base, _, number = name.rpartition(" #")
    return bool(base) and card.name == base and card.id == f"am{number}"
