"""What a reader of Animus results must be told beside them: made-up cards, and two teams that
field the same cards. Every command that shows results prints these where the numbers are."""

from __future__ import annotations

from collections.abc import Sequence

from deckkit.animus.construction.carddb import TYPES_NAME, CardSet
from deckkit.animus.construction.cards import Card
from deckkit.animus.construction.team import Team


def made_up_notice(cards: Sequence[Card]) -> str | None:
    """A sentence when any of ``cards`` is made up (the shipped sample's rows all are but the
    one real Entity: no published list of the game's characters exists), else None."""
    made_up = sum(1 for c in cards if c.made_up)
    if not made_up:
        return None
    if len(cards) == 1:
        return (
            "this card is made up (deckkit's sample set; no published Animus card list "
            "exists): it describes the sample, not the real game"
        )
    return (
        f"{made_up} of the {len(cards)} cards {'is' if made_up == 1 else 'are'} made up "
        "(deckkit's sample set; no published Animus card list exists): these figures describe "
        "the sample, not the real game"
    )


def shared_cards_notice(a: Team, b: Team) -> str | None:
    """A sentence when the two teams field the same characters or Entity. One game's setup
    never gives both players one card (animus-rules-v3.5.txt, Setup: the 18 drafted characters
    are each taken once, "until all of the cards have been taken"; each player picks an Entity
    from the two dealt to them), so such a match-up is not one a game can produce."""
    names_b = {c.name.casefold() for c in b.cards}
    shared = [c.name for c in a.cards if c.name.casefold() in names_b]
    if a.entity is not None and b.entity is not None and a.entity.name == b.entity.name:
        shared.append(f"the Entity {a.entity.name}")
    if not shared:
        return None
    return (
        f"{a.name} and {b.name} share {', '.join(shared)}: one game's setup never gives both "
        "players the same card, so this match-up is not one a game can produce"
    )


def type_order_notice(card_set: CardSet) -> str | None:
    """A sentence when a card file has no ``types.toml`` beside it: the rules name the three
    types but never write down which beats which (animus-rules-v3.5.txt, "Card types and
    Combat Advantage"), so its cards then take deckkit's guessed cycle, a reading that moves
    match-ups as much as any rule option."""
    if (card_set.path.parent / TYPES_NAME).is_file():
        return None
    cycle = " > ".join([*card_set.types.types, card_set.types.types[0]])
    return (
        f"{card_set.path.name} has no {TYPES_NAME} beside it: cards without a printed advantage "
        f"take deckkit's guessed type cycle ({cycle}); write your cards' order in "
        f"{TYPES_NAME} next to the card file"
    )
