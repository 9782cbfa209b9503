"""What every Anima Tactics result must say beside its numbers: the engine plays characters' stat
lines and their attacks (card_db/animatactics/abilities.csv; in party games a few effects and
states too), but not their powers, most effect specials and states, or advantage cards, which
most fielded characters of the card data print (`deckkit cards coverage --game anima-tactics`
lists what is played)."""

from __future__ import annotations

NOT_PLAYED = (
    "played from the printed stat lines and attacks only: Attack, Ranged Attack and Charge "
    "special abilities and the innate Critical Mastery, Initiative, Damage Resistance and Ranged "
    "Attack are played (in party games also follow-on, reactive and hidden Attack specials, "
    "Effects against Resistance with Paralyze, Infiltration and Intangible), but not powers, "
    "most effect special abilities, other states or advantage cards "
    "(`deckkit cards coverage --game anima-tactics`), so these figures favour characters whose "
    "strength is in their stats and attacks"
)


def caveat() -> str:
    """The sentence, for text, JSON (``caveat``) and the page's headline alike."""
    return NOT_PLAYED
