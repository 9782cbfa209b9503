"""Information and the cards under locations: REVEAL, CLEAR, UNEARTH, BURY and SUPPLY.

REMATCH, which fires the effects of the disaster it brings back, is played in :mod:`.dispatcher`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from deckkit.animayhem.construction.cards import ItemCard, LocationCard
from deckkit.animayhem.engine.abilities import refresh
from deckkit.animayhem.engine.codes import (
    ACT_BURY,
    ACT_CLEAR,
    ACT_REMATCH,
    ACT_SUPPLY,
    ACT_UNEARTH,
    KIND_ITEM,
    STAT_ITEMS_RETRIEVED,
    TARGET_DRAW_PILE,
    TARGET_LOCATION,
)
from deckkit.animayhem.engine.gamecards import matches
from deckkit.animayhem.engine.interpreter.common import _knock, _name, _say
from deckkit.animayhem.engine.interpreter.targets import Context
from deckkit.animayhem.engine.state import Char, Copy, Dis, Game, bump_card

if TYPE_CHECKING:
    from deckkit.animayhem.engine.cardrules import GameEffect

# --- information and the cards under locations (REVEAL, CLEAR, UNEARTH, BURY, SUPPLY) ---------
# REMATCH, which fires the disaster it brings back, is played in dispatcher.py.


def _names_skill(loc: LocationCard, skill: str) -> bool:
    low = skill.casefold()
    return any(low in str(t).casefold() for alt in loc.requirement.alternatives for t in alt)


def _unknown_under(game: Game, slot: int, words: Sequence[str]) -> list[Copy | Dis]:
    """The face-down cards under a location, disasters above items, matching ``words``, that
    the player has not seen yet."""
    loc = game.locs[slot]
    under: list[Copy | Dis] = [*loc.hidden_disasters, *loc.hidden_cards]
    return [x for x in under if x.uid not in game.known and matches(x.g, words)]


def _reveal_slots(game: Game, e: GameEffect, ctx: Context) -> list[int]:
    """Where a REVEAL looks: its own location; every location whose requirement names
    ``skill`` (Jacking In); else the one the player picks within ``n`` locations (0: any) of
    the holder (or the card), the nearest with something unseen, the lowest slot on a tie."""
    if e.target is TARGET_LOCATION:
        return [ctx.slot] if ctx.slot >= 0 else []
    live = [loc.slot for loc in game.locs if not loc.destroyed]
    if e.skill:
        return [s for s in live if _names_skill(game.locs[s].card, e.skill)]
    holder = ctx.holder
    start = ctx.slot
    if holder is not None:
        start = holder.slot if holder.zone == "field" else game.field.haven_slot
    elif start < 0:
        start = game.field.haven_slot
    near = game.dist[start]
    options = [
        s for s in live if (e.n <= 0 or 0 < near[s] <= e.n) and _unknown_under(game, s, e.cards)
    ]
    return [min(options, key=lambda s: (near[s], s))] if options else []


def _reveal(game: Game, e: GameEffect, ctx: Context) -> bool:
    """Face-down cards become known to the player (Security Camera, Surveillance, Survey): the
    top ``n`` of the draw pile, or the cards under locations (``n`` from the top of its own);
    True when it showed something not seen before."""
    seen: list[Copy | Char | Dis] = []
    if e.target is TARGET_DRAW_PILE:
        pile = game.draw_pile
        seen = [x for x in pile[len(pile) - max(1, e.n) :] if x.uid not in game.known]
    else:
        for slot in _reveal_slots(game, e, ctx):
            loc = game.locs[slot]
            under: list[Copy | Dis] = [*loc.hidden_disasters, *loc.hidden_cards]
            under = [x for x in under if matches(x.g, e.cards)]
            if e.target is TARGET_LOCATION and e.n > 0:
                under = under[: e.n]
            seen += [x for x in under if x.uid not in game.known]
    for x in seen:
        game.known.add(x.uid)
    if seen:
        _say(game, ctx.source, f"looks at {', '.join(_name(x) for x in seen)}")
    return bool(seen)


_UNDER_ACTIONS: Final = frozenset({ACT_CLEAR, ACT_UNEARTH, ACT_BURY, ACT_SUPPLY, ACT_REMATCH})


def _nearest_slot(game: Game, ctx: Context, slots: list[int]) -> int:
    """The location the player picks: the nearest to the holder (or the card, else the
    haven), the lowest slot on a tie."""
    holder = ctx.holder
    start = ctx.slot
    if holder is not None:
        start = holder.slot if holder.zone == "field" else game.field.haven_slot
    elif start < 0:
        start = game.field.haven_slot
    near = game.dist[start]
    return min(slots, key=lambda s: (near[s], s))


def _clear(game: Game, e: GameEffect, ctx: Context) -> bool:
    """Random face-down disasters under the card's location are discarded, unrevealed (Julian's
    Gravesite); a character named in ``pay`` standing there is discarded to do it, which the
    player does whenever a disaster lies beneath."""
    if ctx.slot < 0:
        return False
    loc = game.locs[ctx.slot]
    if not loc.hidden_disasters:
        return False
    if e.pay:
        wanted = {p.casefold() for p in e.pay}
        payer = next((c for c in game.at(ctx.slot) if c.name.casefold() in wanted), None)
        if payer is None:
            return False
        _say(game, ctx.source, f"takes {payer.name} from play")
        _knock(game, payer, "killed", None)
    for _ in range(max(1, e.n)):
        if not loc.hidden_disasters:
            break
        d = loc.hidden_disasters.pop(game.chance.below(len(loc.hidden_disasters)))
        d.zone = "discard"
        game.discard.append(d)
        _say(game, ctx.source, "discards a face-down disaster from beneath")
    return True


def _unearth(game: Game, e: GameEffect, ctx: Context) -> bool:
    """Cards matching ``cards`` lying under a location go to the holder without scavenging
    (Capsule Army Knife: equipment); the location is the nearest with one."""
    holder = ctx.holder
    if holder is None or holder.zone not in ("field", "haven"):
        return False
    slots = [
        loc.slot
        for loc in game.locs
        if not loc.destroyed and any(matches(x.g, e.cards) for x in loc.hidden_cards)
    ]
    if not slots:
        return False
    loc = game.locs[_nearest_slot(game, ctx, slots)]
    for x in [x for x in loc.hidden_cards if matches(x.g, e.cards)][: max(1, e.n)]:
        loc.hidden_cards.remove(x)
        if x.g.kind == KIND_ITEM:
            holder.items.append(x)
            bump_card(game, holder, STAT_ITEMS_RETRIEVED)
        else:
            holder.equipment.append(x)
        _say(game, ctx.source, f"gives {holder.name} {x.g.name} from under {loc.g.name}")
    refresh(game, holder)
    return True


def _bury(game: Game, e: GameEffect, ctx: Context) -> bool:
    """Items the disasters hold as discarded (1998 guidelines 4.3: discarded items count for
    them) go back under a location that still hides a disaster (Presents): the nearest."""
    pool = [x for x in game.carried_off if matches(x.g, e.cards)]
    slots = [loc.slot for loc in game.locs if not loc.destroyed and loc.hidden_disasters]
    if not pool or not slots:
        return False
    loc = game.locs[_nearest_slot(game, ctx, slots)]
    for x in pool[: max(1, e.n)]:
        game.carried_off.remove(x)
        loc.hidden_cards.append(x)
        _say(game, ctx.source, f"puts {x.g.name} back under {loc.g.name}")
    return True


def _supply(game: Game, e: GameEffect, ctx: Context) -> bool:
    """The deck's items left out of play (beyond one per location) matching ``cards`` go into
    the player's haven, as items in play (Planet Namek: a Dragon Ball)."""
    pool = [x for x in game.unused if matches(x.g, e.cards)]
    for x in pool[: max(1, e.n)]:
        game.unused.remove(x)
        game.haven_cards.append(x)
        game.items_in_play += 1
        card = x.card
        if isinstance(card, ItemCard):
            game.tally_extra += card.tally - 1
        _say(game, ctx.source, f"adds {card.name} to the haven")
    return bool(pool)
