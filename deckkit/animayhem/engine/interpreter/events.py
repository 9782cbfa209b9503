"""RECYCLE and FIRST_STRIKE as one-off events, and a carried card given up to act
(pay = ["self"])."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from deckkit.animayhem.engine.codes import (
    ACT_FIRST_STRIKE,
    ACT_RECYCLE,
    TARGET_DISASTERS,
)
from deckkit.animayhem.engine.interpreter.common import Sides, _say
from deckkit.animayhem.engine.interpreter.on_disasters_and_locations import _spend
from deckkit.animayhem.engine.interpreter.targets import Context
from deckkit.animayhem.engine.state import Char, Copy, Game

if TYPE_CHECKING:
    from deckkit.animayhem.engine.cardrules import GameEffect

# --- character-side additions played as events (RECYCLE, FIRST_STRIKE) ------------------------
# The others: IMMUNE in standing.py, STAY in on_characters.py, WAIVE in piles.py, the HURT
# trigger and items acting on AFFECT in dispatcher.py.

_ADDED_EVENTS: Final = frozenset({ACT_RECYCLE, ACT_FIRST_STRIKE})


def _added_event(game: Game, e: GameEffect, ctx: Context, sides: Sides | None) -> bool:
    """RECYCLE and FIRST_STRIKE as one-off events (their standing forms are read by combat)."""
    if e.do is ACT_RECYCLE:
        if e.target is not TARGET_DISASTERS:
            return False  # on itself it is a standing rule (recycled)
        game.recycle_next += max(1, e.n)
        _say(game, ctx.source, f"sends the next {max(1, e.n)} defeated disasters back to the deck")
        return True
    # FIRST_STRIKE for this combat (an item given up: Sleepy Grass).
    if sides is None or sides.first:
        return False
    if e.pay and not _give_up(game, ctx, [c for c in game.at(ctx.slot)]):
        return False
    sides.first = True
    _say(game, ctx.source, "lets the party strike first this combat")
    return True


def _give_up(game: Game, ctx: Context, who: list[Char]) -> bool:
    """A carried card is given up to act on ``who`` (pay = ["self"]) when the player judges it
    worth it; a discarded item counts for the disasters (1998 guidelines 4.3)."""
    src = ctx.source
    if not isinstance(src, Copy) or not game.hooks.worth_using(game, src, who, ctx.fought):
        return False
    return _spend(game, ctx)
