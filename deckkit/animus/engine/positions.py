"""Placing characters, switching positions and shifting up (animus-rules-v3.5.txt, "Combat and
Combat Positions").

- "If your Melee Position slot is empty, you must place a character there as soon as possible.
  You must have a character in Melee Position in order to place one in Range Position. You must
  have a character in Range Position in order to place one in Support Position."
- "Once per turn you may switch the positions of two of your characters ... one position forward
  or backwards ... You may not skip positions ... switch positions laterally ... All switches
  require two characters to be switched."
- "If a character is Killed, the player must immediately shift up any characters that are
  behind ... This does not count against your one switch per turn."
"""

from __future__ import annotations

from deckkit.animus.engine.queries import open_slots, switches
from deckkit.animus.engine.state import MELEE, RANGE, Battle, Side, Slot, Unit


def place(battle: Battle, side: Side, unit: Unit, slot: Slot) -> None:
    if slot not in open_slots(battle, side):
        raise ValueError(f"{unit.card.name} cannot be placed in {slot} now")
    side.put(slot, unit)


def switch(side: Side, a: Slot, b: Slot) -> None:
    if (a, b) not in switches(side) and (b, a) not in switches(side):
        raise ValueError(f"cannot switch {a} and {b}")
    ua, ub = side.at(a), side.at(b)
    side.put(a, ub)
    side.put(b, ua)
    side.switched = True


def remove(side: Side, unit: Unit) -> Slot:
    """Take a killed character out of its slot (no shifting yet); returns the slot it left."""
    slot = side.slot_of(unit)
    pos, k = slot
    if pos == MELEE:
        side.melee = None
    elif pos == RANGE:
        side.range[k] = None
    else:
        del side.support[k]
    return slot


def shift_up(battle: Battle, side: Side, vacated: list[Slot]) -> None:
    """Fill the slots the killed left, from behind: a Range character into the Melee Position
    (the owner's choice of which), a Support character into a Range Position left empty; the
    slot a shifted character leaves is filled in turn."""
    policy = battle.policies[side.index]
    todo = sorted(vacated, key=lambda s: (s[0] != MELEE, s[0] != RANGE, s[1]))
    while todo:
        pos, k = todo.pop(0)
        if pos == MELEE and side.melee is None:
            candidates = [u for u in side.range if u is not None]
            if candidates:
                chosen = policy.shift_to_melee(battle, side, candidates)
                left = side.range.index(chosen)
                side.range[left] = None
                side.melee = chosen
                todo.append((RANGE, left))
                battle.log(f"side {side.index}: {chosen.card.name} shifts up to melee")
        elif pos == RANGE and side.range[k] is None and side.support:
            chosen = policy.shift_to_range(battle, side, list(side.support))
            side.support.remove(chosen)
            side.range[k] = chosen
            battle.log(f"side {side.index}: {chosen.card.name} shifts up to range")
    if side.melee is None and any(u is not None for u in side.range):
        shift_up(battle, side, [(MELEE, 0)])  # melee and range fell together: shift again
