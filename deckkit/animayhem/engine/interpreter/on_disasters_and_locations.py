"""Actions on disasters and locations: MOVE and PULL disasters, BLOCK and destroy locations, a
disaster leaving play without being defeated, and a carried card spent or paid (``pay``) to act."""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckkit.animayhem.construction.cards import ItemCard
from deckkit.animayhem.engine.codes import (
    KIND_ITEM,
    TARGET_LOCATION,
)
from deckkit.animayhem.engine.gamecards import matches
from deckkit.animayhem.engine.interpreter.common import FOREVER, _knock, _say, _until
from deckkit.animayhem.engine.interpreter.on_cards import _destroy_card
from deckkit.animayhem.engine.interpreter.targets import Context
from deckkit.animayhem.engine.queries import _carried, _party, fits
from deckkit.animayhem.engine.state import Copy, Dis, Game

if TYPE_CHECKING:
    from deckkit.animayhem.engine.cardrules import GameEffect

# --- actions on disasters and locations --------------------------------------------------


def _move_to(game: Game, e: GameEffect, d: Dis) -> bool:
    if d.zone != "field":
        return False
    here = game.slot_of(d)
    # The nearest by (distance, slot) and by (steps apart, arrival): the first minimum, as
    # ``min`` with those keys finds it, without a key tuple per candidate.
    if e.to == "nearest_character":
        dist = game.dist[here]
        slot = -1
        for c in game.chars:
            if c.zone != "field" or not fits(e, c):
                continue
            s = c.slot
            if slot < 0 or dist[s] < dist[slot] or (dist[s] == dist[slot] and s < slot):
                slot = s
        if slot < 0:
            return False
    else:
        near: Dis | None = None
        gap = 0
        for o in game.disasters:
            if o is d or not o.combat:
                continue
            o_gap = abs(o.pos - d.pos)
            if near is None or o_gap < gap or (o_gap == gap and o.entered < near.entered):
                near, gap = o, o_gap
        if near is None:
            return False
        slot = game.slot_of(near)
    d.pos = game.field.path_index[slot]
    _say(game, d, f"moves to {game.locs[slot].g.name}")
    return True


def _pull(game: Game, e: GameEffect, ctx: Context) -> bool:
    if ctx.slot < 0:
        return False
    pos = game.field.path_index[ctx.slot]
    pulled = 0
    for o in game.disasters:
        movable = o is not ctx.source and o.movement > 0 and not o.stationary
        if movable and matches(o.g, e.cards):
            o.pos = pos
            pulled += 1
    if pulled:
        _say(game, ctx.source, f"pulls {pulled} disasters to {game.locs[ctx.slot].g.name}")
    return pulled > 0


def _block(game: Game, e: GameEffect, ctx: Context) -> bool:
    if e.target is TARGET_LOCATION:
        slots = [ctx.slot] if ctx.slot >= 0 else []
    elif e.cards:  # locations named by kind (Lady Tokimi: dimensional ones)
        slots = [loc.slot for loc in game.locs if matches(loc.g, e.cards)]
    else:
        slots = [
            loc.slot
            for loc in game.locs
            if any(
                e.skill.casefold() in str(t).casefold()
                for alt in loc.card.requirement.alternatives
                for t in alt
            )
        ]
    src = ctx.source
    uid = src.uid if isinstance(src, Dis) and e.turns <= 0 else -1
    last = FOREVER if uid >= 0 else _until(game, e)
    for s in slots:
        game.blocked[s] = (last, uid)
    if slots:
        _say(game, src, "blocks " + ", ".join(game.locs[s].g.name for s in slots))
    return bool(slots)


def _destroy_location(game: Game, ctx: Context) -> bool:
    if ctx.slot < 0:
        return False
    loc = game.locs[ctx.slot]
    if loc.destroyed:
        return False
    loc.destroyed = True
    for x in loc.hidden_cards:
        if x.g.kind == KIND_ITEM:
            game.carried_off.append(x)
        else:
            game.discard.append(x)
    loc.hidden_cards = []
    for d in loc.hidden_disasters:
        d.zone = "discard"
        game.discard.append(d)
    loc.hidden_disasters = []
    game.scavenged.add(ctx.slot)
    _say(game, ctx.source, f"destroys {loc.g.name}")
    return True


def gone(d: Dis) -> bool:
    """The disaster has left play: discarded, or shuffled back into the draw pile (RECYCLE)."""
    return d.zone == "discard" or d.recycled


def leave_play(game: Game, d: Dis) -> None:
    """A disaster leaves play without being defeated."""
    if d in game.disasters:
        game.disasters.remove(d)
    game.lasting = [(x, t) for x, t in game.lasting if x is not d]
    if d.carrying and d.pos >= 0:
        game.locs[game.slot_of(d)].hidden_cards.extend(d.carrying)
        d.carrying = []
    d.zone = "discard"
    d.pos = -1
    game.discard.append(d)


def _spend(game: Game, ctx: Context) -> bool:
    """A carried card gives itself up (an item "discarded to defeat" a disaster); a discarded
    item counts for the disasters (1998 guidelines 4.3)."""
    holder = ctx.holder
    src = ctx.source
    if holder is None or not isinstance(src, Copy):
        return False
    for pile in (holder.items, holder.equipment, holder.enhancements):
        if src in pile:
            _destroy_card(game, ctx, holder, pile, src)
            return True
    return False


def _pay(game: Game, e: GameEffect, ctx: Context) -> bool:
    """Discard one carried card matching ``pay`` from the party concerned: equipment before
    items, since a discarded item counts for the disasters (1998 guidelines 4.3); ``self`` is
    the carried card whose effect this is, given up only when the player judges it worth it."""
    if "holder" in e.pay:
        # The character the card is played on is killed to do it (Ultimate Sacrifice).
        holder = ctx.holder
        if holder is None or holder.zone != "field":
            return False
        _say(game, ctx.source, f"costs {holder.name}'s life")
        _knock(game, holder, "killed", None)
        return True
    if "self" in e.pay and isinstance(ctx.source, Copy):
        if ctx.source.g.kind == KIND_ITEM and not game.hooks.worth_an_item(
            game, ctx.fought or ctx.source
        ):
            return False
        return _spend(game, ctx)
    options = [t for c in _party(game, ctx.slot) for t in _carried(c, e.pay)]
    if not options:
        return False
    options.sort(key=lambda t: (isinstance(t[2].card, ItemCard), t[2].uid))
    holder, pile, x = options[0]
    if x.g.kind == KIND_ITEM and not game.hooks.worth_an_item(game, ctx.source):
        return False
    _destroy_card(game, ctx, holder, pile, x)
    return True
