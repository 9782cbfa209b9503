"""Decks changed in memory: the same deck with one card's printed numbers changed, for a sweep
over a card's values without touching the card database files. The change is the game's
(:meth:`deckkit.core.game.DeckSwaps.with_card`; Ani-Mayhem's in
:mod:`deckkit.animayhem.deckswaps`)."""

from __future__ import annotations

from typing import Any

from deckkit.games import deck_swaps


def with_card(deck: Any, name: str, **changes: Any) -> Any:
    """``deck`` (an Ani-Mayhem deck) with every copy of the card ``name`` (its name, id or
    "Name #33") changed: ``changes`` are fields of the card (``deckkit.with_card(deck,
    "Krillin", damage=5)``); the five abilities (damage, defense, movement, charm, energy) may
    be given directly. The card keeps its id, so a run's per-card statistics stay under its
    name."""
    return deck_swaps().with_card(deck, name, **changes)
