"""Ani-Mayhem's decks as the tools above change them (:class:`deckkit.core.game.DeckSwaps`,
reached through :func:`deckkit.games.deck_swaps`): which pile a card belongs to, a deck's cards
with their copies, one copy swapped for another card in its place, the most neutral card that
may take a card's place (:mod:`deckkit.animayhem.construction.standins`), and the deck with one
card's printed numbers changed in memory (``deckkit.with_card``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.cards import (
    ABILITIES,
    POWER_TYPES,
    AnyCard,
    CardType,
    CharacterCard,
    Coverage,
)
from deckkit.animayhem.construction.deck import Deck, DeckEntry
from deckkit.animayhem.construction.deckwrite import deck_text
from deckkit.animayhem.construction.standins import (
    STAND_INS,
    neutral_replacement,
    stand_ins,
    with_one_copy_changed,
)
from deckkit.errors import UsageError

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


def find_in_deck(deck: Deck, name: str) -> AnyCard:
    """A card of the deck by name (or id, or "Name #33"), as a deck file would name it."""
    matches = {c.id: c for c in load_card_db().lookup(name)}
    held = [e.card for e in deck.entries if e.card.id in matches]
    if not held:
        raise UsageError(f"{name!r} is not in the deck", path=deck.path)
    return held[0]


def find_card(name: str) -> AnyCard:
    """One card of the database by name, id or "Name #33" (a replacement need not be in the
    deck)."""
    db = load_card_db()
    found = db.lookup(name)
    if not found:
        raise UsageError(
            f"no card named {name!r}", hint=f"did you mean: {', '.join(db.suggest(name))}"
        )
    if len(found) > 1:
        raise UsageError(
            f"{name!r} names several cards", hint="add the card number: 'Goku #33', or use its id"
        )
    return found[0]


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

    def with_card(self, deck: Deck, name: str, **changes: Any) -> Deck:
        return with_card(deck, name, **changes)

    def playable_cards(self, *, approximate: bool = False) -> tuple[AnyCard, ...]:
        """The database's cards by their coverage (construction.cards.Coverage)."""
        playable = (Coverage.FULL, Coverage.APPROXIMATE) if approximate else (Coverage.FULL,)
        return tuple(c for c in load_card_db().cards if c.coverage in playable)

    def deck_text(self, deck: Deck, comments: Sequence[str] = ()) -> str:
        return deck_text(deck, load_card_db(), tuple(comments))

    stand_ins_per_card: int = STAND_INS

    def changed(self, deck: Deck, card: AnyCard, replacement: AnyCard | None) -> Deck:
        return with_one_copy_changed(deck, card, replacement)

    def stand_in_cards(
        self, deck: Deck, card: AnyCard, fits: Callable[[Deck], bool]
    ) -> list[AnyCard]:
        """The stand-in rule (construction.standins) over the card database in use."""
        return stand_ins(deck, card, load_card_db().cards, fits)

    def find_in_deck(self, deck: Deck, name: str) -> AnyCard:
        return find_in_deck(deck, name)

    def find_card(self, name: str) -> AnyCard:
        return find_card(name)


DECK_SWAPS = AniMayhemDeckSwaps()
