"""Actions on abilities: MODIFY on characters and disasters, and the disasters an effect reaches."""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckkit.animayhem.engine.abilities import refresh
from deckkit.animayhem.engine.cardrules import apply_mod
from deckkit.animayhem.engine.codes import (
    SCOPE_COMBAT,
    SCOPE_GAME,
    SCOPE_NEXT_COMBAT,
    SCOPE_RETREAT,
    SCOPE_ROUND,
    SCOPE_TURNS,
    TARGET_NEAREST_DISASTER,
    TARGET_SELF,
)
from deckkit.animayhem.engine.gamecards import matches
from deckkit.animayhem.engine.interpreter.common import FOREVER, Sides, _until
from deckkit.animayhem.engine.interpreter.targets import Context
from deckkit.animayhem.engine.queries import nearest_disaster
from deckkit.animayhem.engine.state import Char, Dis, Game

if TYPE_CHECKING:
    from deckkit.animayhem.engine.cardrules import GameEffect

# --- actions on abilities ----------------------------------------------------------------


def _modify_char(game: Game, e: GameEffect, ctx: Context, c: Char, sides: Sides | None) -> None:
    scope = e.scope
    if scope in (SCOPE_ROUND, SCOPE_COMBAT):
        if sides is not None and c.uid in sides.chars:
            sides.char_mod(c.uid, e.mods, scope is SCOPE_COMBAT)
        return
    if scope is SCOPE_NEXT_COMBAT:
        c.pending.append(e.mods)
        return
    last = FOREVER if scope is SCOPE_GAME else _until(game, e)
    c.timed.append((e.mods, last))
    refresh(game, c)


def _modify_dis(game: Game, e: GameEffect, d: Dis, sides: Sides | None) -> None:
    scope = e.scope
    if scope is SCOPE_RETREAT:
        return  # only the final attack on a retreat (retreat_attack)
    if scope in (SCOPE_ROUND, SCOPE_COMBAT):
        if sides is not None and sides.dis is d:
            sides.dis_mod(e.mods, scope is SCOPE_COMBAT)
        return
    if scope is SCOPE_NEXT_COMBAT:
        scope = SCOPE_TURNS  # a disaster's "next combat" is read as the rest of this turn
    old = (d.damage, d.defense, d.movement, d.charm)
    for ability, mod in e.mods:
        if ability == "damage":
            d.damage = max(0, apply_mod(mod, d.damage))
        elif ability == "defense":
            d.defense = max(0, apply_mod(mod, d.defense))
            d.health = max(d.health, 0) + (d.defense - old[1])
        elif ability == "movement":
            d.movement = max(0, apply_mod(mod, d.movement))
        elif ability == "charm":
            d.charm = max(0, apply_mod(mod, d.charm))
    if scope is SCOPE_TURNS:
        game.dis_timers.append((_until(game, e), d, old))


def disasters(game: Game, e: GameEffect, ctx: Context) -> list[Dis]:
    if e.target is TARGET_SELF:
        src = ctx.source
        if isinstance(src, Dis):
            return [src]
        return [ctx.fought] if ctx.fought is not None else []
    if e.target is TARGET_NEAREST_DISASTER:
        return nearest_disaster(game, ctx.slot, e.cards, ctx.source)
    if ctx.fought is not None:  # a character's effect reaches the disaster it fights
        return [ctx.fought] if matches(ctx.fought.g, e.cards) else []
    return [d for d in game.disasters if matches(d.g, e.cards)]
