"""What a reader of Animus results must be told beside them: made-up cards, and two teams that
field the same cards. Every command that shows results prints these where the numbers are."""

from __future__ import annotations

from collections.abc import Sequence

from deckkit.animus.construction.cards import Card
from deckkit.animus.construction.team import Team


def made_up_notice(cards: Sequence[Card]) -> str | None:
    """A sentence when any of ``cards`` is made up (the shipped sample's rows all are: no
    published list of the game's characters exists), else None."""
    made_up = sum(1 for c in cards if c.made_up)
    if not made_up:
        return None
    return (
        f"{made_up} of the {len(cards)} cards are made up (deckkit's sample set; no published "
        "Animus card list exists): these figures describe the sample, not the real game"
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
