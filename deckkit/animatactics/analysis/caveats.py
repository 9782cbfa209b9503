"""What every Anima Tactics result must say beside its numbers: the engine plays characters from
their printed stat lines, and nearly every fielded character of the card data prints special
abilities, powers or innate abilities that it does not play."""

from __future__ import annotations

NOT_PLAYED = (
    "played from the printed stat lines only: special abilities, powers, innate abilities "
    "(Flight, Damage Resistance, ...) and advantage cards are not played, so these figures "
    "favour characters whose strength is in their stats"
)


def caveat() -> str:
    """The sentence, for text, JSON (``caveat``) and the page's headline alike."""
    return NOT_PLAYED
