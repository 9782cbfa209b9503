"""Ani-Mayhem's decks as deck tuning changes them (:class:`deckkit.core.game.DeckSwaps`,
reached through :func:`deckkit.games.deck_swaps`): which pile a card belongs to, a deck's cards
with their copies, one copy swapped for another card in its place, and the most neutral card
that may take a card's place (:mod:`deckkit.animayhem.construction.standins`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from deckkit.animayhem.construction.cards import POWER_TYPES, AnyCard, CardType
from deckkit.animayhem.construction.deck import Deck, DeckEntry
from deckkit.animayhem.construction.standins import neutral_replacement, with_one_copy_changed

# The deck file's section of each card type that is not a power card.
_PILES: dict[CardType, str] = {
    CardType.CHARACTER: "characters",
    CardType.LOCATION: "locations",
    CardType.ITEM: "items",
    CardType.HAVEN: "havens",
    CardType.DISASTER: "disasters",
    CardType.COMBAT: "combat",
}


def pile_of(card: AnyCard) -> str:
    """The deck file section a card belongs to (its pile)."""
    if card.type in POWER_TYPES:
        return "power"
    return _PILES.get(card.type, str(card.type))


def merged(deck: Deck) -> Deck:
    """The deck with repeated entries of one card added up (in the first one's place)."""
    order: list[str] = []
    by_id: dict[str, DeckEntry] = {}
    for e in deck.entries:
        if e.card.id in by_id:
            first = by_id[e.card.id]
            by_id[e.card.id] = replace(first, count=first.count + e.count)
        else:
            order.append(e.card.id)
            by_id[e.card.id] = e
    return replace(deck, entries=tuple(by_id[i] for i in order))


class AniMayhemDeckSwaps:
    """:class:`deckkit.core.game.DeckSwaps` for Ani-Mayhem's decks."""

    def pile_of(self, card: AnyCard) -> str:
        return pile_of(card)

    def entries(self, deck: Deck) -> tuple[tuple[AnyCard, int], ...]:
        return tuple((e.card, e.count) for e in deck.entries)

    def swapped(self, deck: Deck, out: AnyCard, into: AnyCard) -> Deck:
        """One copy of ``out`` replaced by ``into`` in its place, entries of a card merged."""
        return merged(with_one_copy_changed(deck, out, into))

    def neutral_replacement(
        self,
        deck: Deck,
        card: AnyCard,
        pool: Sequence[AnyCard],
        fits: Callable[[Deck], bool],
    ) -> AnyCard | None:
        return neutral_replacement(deck, card, pool, fits)


DECK_SWAPS = AniMayhemDeckSwaps()
