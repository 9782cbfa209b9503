"""Whom an effect reaches: the ``Context`` it fires in and the resolvers of its target.

A disaster's effect never reaches a character immune to it (IMMUNE, :mod:`.standing`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

from deckkit.animayhem.engine.codes import (
    ACT_IMMUNE,
    ACT_SEND,
    TARGET_CARDS_IN_PLAY,
    TARGET_CARRIED_HERE,
    TARGET_FIELD,
    TARGET_HERE,
    TARGET_NEAREST,
    TARGET_NEAREST_ONE,
    TARGET_ONE_HERE,
    TARGET_OPPONENT,
    TARGET_PLAY,
    TARGET_SELF,
    TARGET_STRONGEST,
    TARGET_STRONGEST_HERE,
    TARGET_WITHIN,
)
from deckkit.animayhem.engine.interpreter.common import Source
from deckkit.animayhem.engine.interpreter.standing import immune
from deckkit.animayhem.engine.queries import fits
from deckkit.animayhem.engine.state import Char, Copy, Dis, Game

if TYPE_CHECKING:
    from deckkit.animayhem.engine.cardrules import GameEffect

# --- targets ------------------------------------------------------------------------------


# The opponents of a context given none: one shared empty list, never added to (only read, by
# ``_characters``), not a new one for each effect fired.
NO_OPPONENTS: Final[list[Char]] = []


# A context lives while its effects run and is held by nothing else (nothing it holds leads back
# to it): it stays outside the cycle collector (``acyclic``), and one freed is kept for the next
# (``free_list_len``), no allocation then.
@mypyc_attr(acyclic=True, free_list_len=1)
class Context:
    """Where and against whom an effect fires."""

    __slots__ = ("fought", "holder", "opponents", "slot", "source")

    def __init__(
        self,
        source: Source,
        slot: int,
        holder: Char | None = None,
        opponents: list[Char] | None = None,
        fought: Dis | None = None,
    ) -> None:
        self.source = source
        self.slot = slot  # the location it acts from (-1: off the field)
        self.holder = holder  # the character a power card or item is on
        self.opponents = NO_OPPONENTS if opponents is None else opponents
        self.fought = fought  # the disaster a character-side effect is fighting


def _from_slot(game: Game, ctx: Context) -> int:
    """Distances are measured from the card's location; a card off the field measures from
    where disasters enter the field."""
    return ctx.slot if ctx.slot >= 0 else game.field.path[0]


def characters(game: Game, e: GameEffect, ctx: Context) -> list[Char]:
    """The characters an effect reaches; a disaster's never reach those immune to it."""
    who = _characters(game, e, ctx)
    src = ctx.source
    if who and isinstance(src, Dis) and ACT_IMMUNE in game.acts:
        return [c for c in who if not immune(game, src, c)]
    return who


def _characters(game: Game, e: GameEffect, ctx: Context) -> list[Char]:
    t = e.target
    if t is TARGET_SELF:
        who = [ctx.source] if isinstance(ctx.source, Char) else []
        if ctx.holder is not None:
            who = [ctx.holder]
        return [c for c in who if c.zone in ("field", "haven") and fits(e, c)]
    if t is TARGET_OPPONENT:
        # In play, or just bonked by it (an effect on whom it knocks out).
        return [c for c in ctx.opponents if c.zone in ("field", "bonked") and fits(e, c)]
    if t is TARGET_HERE or t is TARGET_ONE_HERE or t is TARGET_STRONGEST_HERE:
        # Those on the field at the card's location that meet its filter, in one pass: the
        # list the general case below would build of the whole field, narrowed to the slot.
        if e.do is ACT_SEND and e.to == "here" and isinstance(ctx.source, Copy):
            return []  # brought from elsewhere: none of those here
        slot = ctx.slot
        here = [c for c in game.chars if c.slot == slot and c.zone == "field" and fits(e, c)]
        if not here:
            return []
        if t is TARGET_ONE_HERE:
            return [game.chance.pick(here)]
        if t is TARGET_STRONGEST_HERE:
            return [_strongest(here)]
        return here
    # Those in play (or on the field) that meet its filter, in one pass.
    if t is TARGET_PLAY:
        pool = [c for c in game.chars if c.zone in ("field", "haven") and fits(e, c)]
    else:
        pool = [c for c in game.chars if c.zone == "field" and fits(e, c)]
    if e.do is ACT_SEND and e.to == "here" and isinstance(ctx.source, Copy):
        # A player's card brings characters from elsewhere to its holder (Transmitter Bra).
        pool = [c for c in pool if c.slot != ctx.slot] if ctx.slot >= 0 else []
    if not pool:
        return []
    if t is TARGET_FIELD or t is TARGET_PLAY:
        return pool
    if t is TARGET_STRONGEST:
        return [_strongest(pool)]
    start = _from_slot(game, ctx)
    dist = game.dist[start]
    if t is TARGET_WITHIN:
        return [c for c in pool if dist[c.slot] <= e.n]
    if t in (TARGET_NEAREST, TARGET_NEAREST_ONE):
        near = min(dist[c.slot] for c in pool)
        slot = min(c.slot for c in pool if dist[c.slot] == near)
        group = [c for c in pool if c.slot == slot]
        return group if t is TARGET_NEAREST else [game.chance.pick(group)]
    return [c for c in pool if c.slot == ctx.slot]  # any other target: those here


def _strongest(pool: list[Char]) -> Char:
    """The strongest of ``pool`` (not empty): the most damage plus defense, then the lowest
    uid; ``max(pool, key=lambda c: (c.cur[0] + c.cur[1], -c.uid))`` in one pass, with no key
    tuples made or compared."""
    best = pool[0]
    top = best.cur[0] + best.cur[1]
    for i in range(1, len(pool)):
        c = pool[i]
        s = c.cur[0] + c.cur[1]
        if s > top or (s == top and c.uid < best.uid):
            best, top = c, s
    return best


def _holders(game: Game, e: GameEffect, ctx: Context) -> list[Char]:
    """Whose carried cards an effect reaches; a disaster's never those immune to it."""
    who = _holders_of(game, e, ctx)
    src = ctx.source
    if who and isinstance(src, Dis) and ACT_IMMUNE in game.acts:
        return [c for c in who if not immune(game, src, c)]
    return who


def _holders_of(game: Game, e: GameEffect, ctx: Context) -> list[Char]:
    if e.target is TARGET_CARRIED_HERE:
        return [c for c in game.at(ctx.slot) if fits(e, c)] if ctx.slot >= 0 else []
    if e.target is TARGET_CARDS_IN_PLAY:
        return [c for c in game.chars if c.zone in ("field", "haven") and fits(e, c)]
    return [c for c in game.on_field() if fits(e, c)]  # NEAREST_CARD


def _source_dis(ctx: Context) -> Dis | None:
    return ctx.source if isinstance(ctx.source, Dis) else None
