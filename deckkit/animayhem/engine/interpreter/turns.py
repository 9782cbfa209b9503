"""Turn bookkeeping: what expires as a turn starts, how long a non-combat disaster stays in play,
and a non-combat disaster taking effect (AFFECT)."""

from __future__ import annotations

from deckkit.animayhem.engine.abilities import enter_haven, refresh
from deckkit.animayhem.engine.codes import (
    TRIGGER_AFFECT,
    TRIGGER_ALWAYS,
    TRIGGER_TURN,
)
from deckkit.animayhem.engine.interpreter.common import _say
from deckkit.animayhem.engine.interpreter.dispatcher import fire, guarded
from deckkit.animayhem.engine.interpreter.on_characters import _heal_on_release
from deckkit.animayhem.engine.interpreter.on_disasters_and_locations import gone
from deckkit.animayhem.engine.interpreter.vehicles_and_forms import restore_forms
from deckkit.animayhem.engine.state import Dis, Game

# --- turn bookkeeping ----------------------------------------------------------------------


def start_turn(game: Game) -> None:
    """Expire what lasted through the last turn: off-field disasters, disasters' timed
    changes; heal direct damage; release captives whose time is up or whose captor is gone
    (they return to the haven); refresh who carries timed modifiers."""
    turn = game.turn
    if game.forms:
        restore_forms(game)  # a form lasting through the last turn ends (REPLACE)
    if game.lasting:
        keep = []
        for d, last in game.lasting:
            if last < turn:
                d.zone = "discard"
                game.discard.append(d)
                _say(game, d, "ends and is discarded")
            else:
                keep.append((d, last))
        game.lasting = keep
    if game.dis_timers:
        keep_t = []
        # Newest first, so stacked changes ending together restore the oldest values.
        for last, d, old in reversed(game.dis_timers):
            if last < turn and d.zone == "field":
                d.damage, d.defense, d.movement, d.charm = old
                d.health = d.health_max
            elif last >= turn:
                keep_t.append((last, d, old))
        game.dis_timers = keep_t[::-1]
    for c in game.chars:
        if c.wounded_turn >= 0 and c.wounded_turn < turn:
            c.wounded_turn = -1
            c.health = c.health_max
        if c.zone == "captured":
            gone = c.captor >= 0 and not any(d.uid == c.captor for d in game.disasters)
            if gone or c.return_turn <= turn:
                c.captor = -1
                _heal_on_release(c)
                enter_haven(game, c)
                _say(game, c, "is released to the haven")
        elif (c.timed or c.grants) and c.zone in ("field", "haven"):
            refresh(game, c)


def lasting_turns(d: Dis) -> int:
    """How long a non-combat disaster stays in play after taking effect: the longest
    ``turns`` of its effects that keep acting (standing rules or its own turn effects)."""
    if d.fx is None:
        return 0
    n = 0
    # The two triggers one after the other: no tuple of them walked per call.
    for _, e in d.fx.get(TRIGGER_ALWAYS, ()):
        n = max(n, e.turns)
    for _, e in d.fx.get(TRIGGER_TURN, ()):
        n = max(n, e.turns)
    return n


def affect(game: Game, d: Dis, slot: int) -> bool:
    """A non-combat disaster takes effect at ``slot`` (-1: drawn, off the field). It is then
    discarded, or stays off the field while a standing effect of it lasts. Returns whether
    it found anything to act on (a targeted card with no target fizzles: set0 rulebook,
    "Reload Phase")."""
    if guarded(game, d, slot):
        return True  # an item the party carries stopped it
    did = fire(game, d, TRIGGER_AFFECT, slot)
    if gone(d):
        return True
    turns = lasting_turns(d)
    if d.carrying:  # what it took stays where it leaves the field
        here = game.slot_of(d) if d.pos >= 0 else slot
        if here >= 0:
            game.locs[here].hidden_cards.extend(d.carrying)
        else:
            game.carried_off.extend(d.carrying)
        d.carrying = []
    if d in game.disasters:
        game.disasters.remove(d)
        d.pos = -1
    if turns > 0:
        d.zone = "lasting"
        game.lasting.append((d, game.turn + turns - 1))
        return True
    d.zone = "discard"
    game.discard.append(d)
    return did
