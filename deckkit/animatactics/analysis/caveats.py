"""What every Anima Tactics result must say beside its numbers: the engine plays characters' stat
lines and their attacks (card_db/animatactics/abilities.csv; the powers that change every attack;
in party games a few effects and states too), but not most of their powers, effect specials and
states, or advantage cards (but unconditional Equipment bonuses), which most fielded characters of
the card data print (`deckkit cards coverage --game anima-tactics` lists what is played)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from deckkit.core.seat_gaps import load_seat_gaps, match_gap

# The search player's lead in each seat of the sample match-up (benchmarks/sibling_ladders.py).
LADDER_DATA = Path(__file__).with_name("player_ladder.jsonl")

NOT_PLAYED = (
    "played from the printed stat lines and attacks only: Attack, Ranged Attack and Charge "
    "special abilities, the innate Critical Mastery, Initiative, Damage Resistance and Ranged "
    "Attack, the powers that change every attack and unconditional Equipment bonuses are played "
    "(in party games also follow-on, reactive and hidden Attack specials, Effects against "
    "Resistance with Paralyze, Infiltration, Intangible and leaving the table), but not other "
    "powers, most effect special abilities, other states or other advantage cards "
    "(`deckkit cards coverage --game anima-tactics`), so these figures favour characters whose "
    "strength is in their stats and attacks"
)


def caveat() -> str:
    """The sentence, for text, JSON (``caveat``) and the page's headline alike."""
    return NOT_PLAYED


def player_gap(policies: Sequence[str], files: Sequence[str]) -> dict[str, Any] | None:
    """How far a result between default players may move with a stronger one: the sample
    match-up's seat gaps (None unless both sides are the heuristic player)."""
    return match_gap(policies, load_seat_gaps(LADDER_DATA), files)
