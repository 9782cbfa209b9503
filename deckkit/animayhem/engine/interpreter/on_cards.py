"""Actions on cards: DESTROY a carried or played card, and TAKE one (SAFEGUARD and PRESERVE
stop them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckkit.animayhem.engine.abilities import refresh
from deckkit.animayhem.engine.codes import (
    ACT_PRESERVE,
    ACT_RECYCLE,
    ACT_SAFEGUARD,
    KIND_ITEM,
    STAT_ITEMS_CARRIED_OFF,
    TARGET_CARRIED_HERE,
    TARGET_HAND,
    TARGET_ITEMS_HERE,
    TARGET_NEAREST_CARD,
)
from deckkit.animayhem.engine.gamecards import matches
from deckkit.animayhem.engine.interpreter.common import FOREVER, _say
from deckkit.animayhem.engine.interpreter.standing import kept_in_deck, preserved, safeguarded
from deckkit.animayhem.engine.interpreter.targets import Context, _from_slot, _holders, _source_dis
from deckkit.animayhem.engine.queries import _carried, fits, reachable_item, under_reach
from deckkit.animayhem.engine.state import Char, Copy, Game, bump_card

if TYPE_CHECKING:
    from deckkit.animayhem.engine.cardrules import GameEffect

# --- actions on cards --------------------------------------------------------------------


def _destroy_card(
    game: Game,
    ctx: Context,
    holder: Char | None,
    pile: list[Copy],
    x: Copy,
    to_draw: bool = False,
) -> None:
    """``x`` leaves play: an item counts for the disasters (1998 guidelines 4.3); another card
    is discarded, or with ``to_draw`` shuffled into the draw pile (Have a Nice Trip)."""
    pile.remove(x)
    if x.g.kind == KIND_ITEM:
        game.carried_off.append(x)  # destroyed items count for the disasters (4.3)
        d = _source_dis(ctx)
        if d is not None:
            bump_card(game, d, STAT_ITEMS_CARRIED_OFF)
    else:
        x.uses_left = x.g.uses if x.g.power else None
        if to_draw or (holder is not None and ACT_RECYCLE in game.acts and kept_in_deck(game, x)):
            game.draw_pile.append(x)  # Raven's Garage: back into the draw pile, shuffled
            game.chance.shuffle(game.draw_pile)
        else:
            game.discard.append(x)
    if holder is not None:
        refresh(game, holder)
    if game.trace is not None:  # the message is built only for a trace
        _say(game, ctx.source, f"destroys {x.g.name}")


def _destroy(game: Game, e: GameEffect, ctx: Context) -> bool:
    n = e.n if e.n > 0 else FOREVER
    if e.target is TARGET_ITEMS_HERE:
        if ctx.slot < 0:
            return False
        if not under_reach(game, ctx.slot):
            # The same reach as a disaster's pickup (rule option item_pickup): under
            # ``beneath`` the cards lie below the face-down disasters (set0 "Field Layouts";
            # "Scavenge Phase": "all disaster cards underneath the location must be cleared").
            return False
        loc = game.locs[ctx.slot]
        want = e.cards or ("item",)
        found = [x for x in loc.hidden_cards if matches(x.g, want)]
        for x in found[:n]:
            _destroy_card(game, ctx, None, loc.hidden_cards, x)
        return bool(found)
    if e.target is TARGET_HAND:
        found = [x for x in game.hand if isinstance(x, Copy) and matches(x.g, e.cards)]
        for x in found[:n]:
            game.hand.remove(x)
            game.discard.append(x)
        return bool(found)
    holders = _holders(game, e, ctx)
    if e.target is TARGET_NEAREST_CARD:
        # The nearest holders' matching cards, listed only for them: the cards of all
        # holders narrowed to the nearest distance, in the same order.
        dist = game.dist[_from_slot(game, ctx)]
        near = FOREVER
        for c in holders:
            if dist[c.slot] < near and _carries_any(c, e.cards):
                near = dist[c.slot]
        owned = [t for c in holders if dist[c.slot] == near for t in _carried(c, e.cards)]
        if not owned:
            return False
        owned = [game.chance.pick(owned)]
    else:
        owned = [t for c in holders for t in _carried(c, e.cards)]
        if not owned:
            return False
        if n < len(owned):
            game.chance.shuffle(owned)
    for holder, pile, x in owned[:n]:
        if ACT_PRESERVE in game.acts and preserved(game, x):
            continue
        _destroy_card(game, ctx, holder, pile, x, to_draw=e.to == "draw")
    return True


def _carries_any(c: Char, words: tuple[str, ...]) -> bool:
    """``c`` carries a card :func:`queries._carried` would list for ``words``."""
    want = words or ("item",)
    for pile in (c.items, c.equipment, c.enhancements):
        for x in pile:
            if matches(x.g, want):
                return True
    return False


def _take(game: Game, e: GameEffect, ctx: Context) -> bool:
    d = _source_dis(ctx)
    if d is None or d.zone != "field":
        return False
    slot = game.slot_of(d)
    took = False
    for _ in range(max(1, e.n)):
        held = [t for c in game.at(slot) if fits(e, c) for t in _carried(c, e.cards)]
        if held and ACT_SAFEGUARD in game.acts:
            # Items a card keeps from theft stay (Classy Crooks); equipment is not covered.
            held = [t for t in held if t[1] is not t[0].items or not safeguarded(game, t[0], t[2])]
        if e.target is TARGET_CARRIED_HERE and held:
            victim, pile, item = game.chance.pick(held)
            pile.remove(item)
            if pile is not victim.items:
                refresh(game, victim)  # equipment taken
        else:
            loc = game.locs[slot]
            found = reachable_item(game, slot)  # the one pickup reading (rule item_pickup)
            if found is None:
                break
            item = found
            loc.hidden_cards.remove(item)
        game.locs[slot].hidden_cards.extend(d.carrying)  # it holds one item at most
        d.carrying = [item]
        took = True
        _say(game, d, f"takes {item.g.name}")
    return took
