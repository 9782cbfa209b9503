"""Actions on characters: SEND (and STAY, which stops it), DROP, CAPTURE, TRANSFORM."""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckkit.animayhem.construction.cards import CharacterCard
from deckkit.animayhem.engine.abilities import enter_haven, refresh
from deckkit.animayhem.engine.codes import (
    ACT_STAY,
    TARGET_FIELD,
    TARGET_HERE,
    TARGET_PLAY,
    TRIGGER_ALWAYS,
)
from deckkit.animayhem.engine.interpreter.common import FOREVER, _credit, _say
from deckkit.animayhem.engine.interpreter.targets import Context, _from_slot, _source_dis
from deckkit.animayhem.engine.queries import _carried_standing, conditions_hold, fits
from deckkit.animayhem.engine.state import Char, Game

if TYPE_CHECKING:
    from deckkit.animayhem.engine.cardrules import GameEffect


def _send(game: Game, e: GameEffect, ctx: Context, who: list[Char]) -> bool:
    """Move the characters; True when someone was moved."""
    to = e.to
    if ACT_STAY in game.acts:
        who = [c for c in who if not stays(game, c)]
    if to == "haven":
        for c in who:
            if c.zone == "field" and not stays(game, c):
                enter_haven(game, c)
        return True
    on = [c for c in who if c.zone == "field" and not stays(game, c)]
    if not on:
        return False
    if to == "here":
        dest = ctx.slot if ctx.slot >= 0 else -1
    elif to == "goal":
        # Straight to the location the player picks (Shortcut): the policy's next target.
        dest = game.hooks.destination(game, on)
    elif to == "dimensional":
        start = _from_slot(game, ctx)
        dims = [loc.slot for loc in game.locs if loc.dimensional and not loc.destroyed]
        pool = dims or [loc.slot for loc in game.locs if not loc.destroyed]
        far = not dims
        dest = (max if far else min)(pool, key=lambda s: (game.dist[start][s], -s)) if pool else -1
    else:
        # Right and left follow the field's reading order (row by row, left to right).
        cells = game.field.cells
        order = sorted(range(len(cells)), key=lambda s: (cells[s][1], cells[s][0]))
        step = e.n if to == "right" else -e.n
        i = order.index(on[0].slot) + step
        dest = order[min(max(i, 0), len(order) - 1)]
    if dest < 0 or (to == "goal" and all(c.slot == dest for c in on)):
        return False
    for c in on:
        c.slot = dest
    _say(game, ctx.source, f"sends {', '.join(c.name for c in on)} to {game.locs[dest].g.name}")
    return True


def stays(game: Game, c: Char) -> bool:
    """Card effects cannot send this character elsewhere (STAY): a card it or its group
    carries (`self` covers its carrier, `here` the whole group), or a global effect in play
    covering the field."""
    if not game.fx:
        return False
    for other in game.at(c.slot):
        for card, e in _carried_standing(game, other):
            if (
                e.do is ACT_STAY
                and (e.target is TARGET_HERE or other is c)
                and fits(e, c)
                and conditions_hold(game, e, c.slot)
            ):
                _credit(game, card)
                return True
    for g, _ in game.globals_in_play:
        fx = game.fx.get(g.cid)
        if fx is not None and any(
            e.do is ACT_STAY and e.target in (TARGET_FIELD, TARGET_PLAY) and fits(e, c)
            for _, e in fx.get(TRIGGER_ALWAYS, ())
        ):
            _credit(game, g.card)
            return True
    return False


def _drop(game: Game, e: GameEffect, c: Char) -> None:
    if c.zone != "field":
        return
    loc = game.locs[c.slot]
    loc.hidden_cards.extend(c.items)
    c.items = []
    if e.cards and any(w.casefold() == "equipment" for w in e.cards):
        loc.hidden_cards.extend(c.equipment)
        c.equipment = []
        refresh(game, c)


def _heal_on_release(c: Char) -> None:
    """A captive comes back without the combat damage it was taken with: damage taken in a
    fight lasts only to the end of that fight (set0 rulebook, "Health": "After combat ends, any
    characters ... still in play are healed completely"); a card's direct damage
    heals at the next turn as everyone's does (``wounded_turn``)."""
    if c.wounded_turn < 0:
        c.health = c.health_max


def _capture(game: Game, e: GameEffect, ctx: Context, c: Char) -> None:
    if c.zone == "field":
        game.locs[c.slot].hidden_cards.extend(c.items)
        c.items = []
    elif c.zone == "haven":
        game.haven_cards.extend(c.items)
        c.items = []
    elif c.zone != "bonked":  # a bonked character has dropped what it carried
        return
    c.zone = "captured"
    c.slot = -1
    d = _source_dis(ctx)
    if e.turns <= 0 and d is not None:
        c.captor = d.uid
        c.return_turn = FOREVER
    else:
        c.captor = -1
        c.return_turn = game.turn + max(1, e.turns)


def _transform(game: Game, c: Char) -> None:
    card = c.card
    if card.alt is None:
        return
    a = card.alt if c.base == _base(card) else card.abilities
    c.base = (a.damage or 0, a.defense or 0, a.movement or 0, a.charm or 0, a.energy or 0)
    refresh(game, c)


def _base(card: CharacterCard) -> tuple[int, int, int, int, int]:
    a = card.abilities
    return (a.damage or 0, a.defense or 0, a.movement or 0, a.charm or 0, a.energy or 0)
