"""How a battle ends (animus-rules-v3.5.txt, "Turn Order: End Phase" and "Winning The Game").

- "End Phase ... If a player has 10 levels or more of cards in their discard pile, they lose."
- "At the end of a player's turn, that player wins the game if there are 10 Character Levels
  worth of cards in the opposing player's discard pile. If the total character levels are tied,
  play continues until one player ends their turn with less eliminated character levels."
  Read together: at an End Phase where either discard pile holds 10 levels or more, the player
  with fewer eliminated levels wins; equal totals play on.
- "If both players have their last character in play and both are Killed simultaneously, the
  player whose turn it is will be declared the winner." When a player has no character left is
  the rule option ``last_character``.
"""

from __future__ import annotations

from deckkit.animus.engine.state import Battle


def end_phase(battle: Battle) -> None:
    """The End Phase check on levels, then the turn cap (a draw: not a rule, a safety stop)."""
    me = battle.active
    mine = battle.sides[me].levels_lost
    theirs = battle.sides[1 - me].levels_lost
    goal = battle.numbers.levels_to_win
    if max(mine, theirs) >= goal and mine != theirs:
        battle.finish(me if mine < theirs else 1 - me, "levels")
    elif battle.turn >= battle.options.turn_cap:
        battle.finish(None, "turn_cap")


def out_of_characters(battle: Battle) -> bool:
    """After kills: a side left with no character loses at once; both at once, the player
    whose turn it is wins. ``last_character``: "team" (nothing in play, hand or deck) or
    "in_play" (nothing in play)."""
    whole_team = battle.options.last_character == "team"
    gone = [not side.has_characters() if whole_team else not side.units() for side in battle.sides]
    if gone[0] and gone[1]:
        battle.finish(battle.active, "simultaneous_last")
    elif gone[0] or gone[1]:
        battle.finish(1 if gone[0] else 0, "no_characters")
    return battle.over
