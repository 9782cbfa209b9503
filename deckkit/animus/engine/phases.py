"""A turn (animus-rules-v3.5.txt, "Turn Order"): Start of Turn, Tactical Phase 1, Combat Phase,
Tactical Phase 2, Reset Phase, End Phase."""

from __future__ import annotations

from deckkit.animus.construction.cards import Card, Keyword
from deckkit.animus.engine import abilities, combat, endgame, positions, queries
from deckkit.animus.engine.queries import combat_options, tactical_options
from deckkit.animus.engine.record import Stat
from deckkit.animus.engine.state import Battle, Side, Slot, Unit


def take_turn(battle: Battle) -> None:
    start_turn(battle)
    finish_turn(battle, 0, PLAY)


def start_turn(battle: Battle) -> None:
    """Start of Turn: the active player's characters may attack and use abilities again."""
    side = battle.sides[battle.active]
    battle.turn += 1
    battle.record.turns = battle.turn
    side.played = side.switched = side.tactical_used = side.entity_tactical_used = False
    for unit in side.units():  # Start of Turn: each character may attack / use abilities again
        unit.acted = unit.tactical_used = False
    battle.log(f"turn {battle.turn}: side {side.index}")
    log_face_up(battle)
    battle.phase = 0


# Where a turn may be taken up again (a search player's copy resumes at the decision it
# weighs): the phase, and the step within it.
PLAY, SWITCH, TACTICAL, COMBAT, RESET = "play", "switch", "tactical", "combat", "reset"
PHASE_STEPS = (PLAY, COMBAT, PLAY, RESET)  # each phase's first step


def finish_turn(battle: Battle, phase: int, step: str) -> None:
    """The active player's turn from ``phase`` (0 Tactical Phase 1, 1 Combat Phase, 2 Tactical
    Phase 2, 3 Reset Phase) at ``step``, through the End Phase."""
    side = battle.sides[battle.active]
    for index in range(phase, len(PHASE_STEPS)):
        battle.phase = index
        at = step if index == phase else PHASE_STEPS[index]
        if index == 1:
            combat_phase(battle, side)
        elif index == 3:
            reset_phase(battle, side)
        else:
            tactical_phase(battle, side, at)
        if battle.over:
            return
    endgame.end_phase(battle)


def log_face_up(battle: Battle) -> None:
    """What the reveal() abilities show at the Start of Turn ("Your opponent plays with their
    hand face up. The top card of your deck is also face up.", "Entity Cards")."""
    if battle.trace is None:
        return
    for side in battle.sides:
        other = battle.sides[1 - side.index]
        if side.shows_opponent_hand():
            names = ", ".join(c.name for c in other.hand) or "empty"
            battle.log(f"face up: side {other.index}'s hand: {names}")
        if side.shows_deck_top() and side.deck:
            battle.log(f"face up: side {side.index}'s deck top: {side.deck[-1].name}")


def play_card(battle: Battle, side: Side, card: Card, slot: Slot) -> Unit:
    """Put a card from hand into play; its Play abilities apply ("Play: When you Play this card
    from your hand, apply this effect")."""
    unit = Unit(card, side.index, side.team.index(card))
    positions.place(battle, side, unit, slot)
    side.hand.remove(card)
    side.seen.pop(card, None)
    side.played = True
    battle.record.bump(side.index, unit.index, Stat.PLAYED)
    battle.log(f"side {side.index} plays {card.name} to {slot[0]}")
    abilities.resolve(
        battle, [(side.index, card, unit, a) for a in card.by_keyword.get(Keyword.PLAY, ())]
    )
    return unit


def tactical_phase(battle: Battle, side: Side, step: str = PLAY) -> None:
    """ "You may play one card from your hand. You may also use your characters' Tactical
    abilities ... You may also switch the combat positions of your characters. This can only be
    done once per turn." Phase 2: the same, "only if you have not already done so". "It is only
    mandatory to play a card if you have no cards in play.\""""
    policy = battle.policies[side.index]
    if step == PLAY and not side.played and side.hand:
        mandatory = not side.units()
        choice = policy.choose_play(battle, side, mandatory)
        if choice is None and mandatory:
            choice = (side.hand[0], queries.open_slots(battle, side)[0])
        if choice is not None:
            play_card(battle, side, *choice)
            if battle.over:
                return
    if step in (PLAY, SWITCH) and not side.switched:
        pair = policy.choose_switch(battle, side)
        if pair is not None:
            positions.switch(side, *pair)
            battle.log(f"side {side.index} switches {pair[0]} and {pair[1]}")
    while not battle.over:
        options = tactical_options(battle, side)
        if not options:
            return
        pick = policy.choose_tactical(battle, side, options)
        if pick is None:
            return
        card, unit, ability = options[pick]
        if unit is not None:
            unit.tactical_used = True
        side.tactical_used = True
        if unit is None:
            side.entity_tactical_used = True
        abilities.resolve(battle, [(side.index, card, unit, ability)])


def combat_phase(battle: Battle, side: Side) -> None:
    policy = battle.policies[side.index]
    while not battle.over:
        options = combat_options(battle, side)
        if not options:
            return
        pick = policy.choose_combat(battle, side, options)
        if pick is None:
            return
        kind, unit, what = options[pick]
        unit.acted = True
        if kind == "attack":
            assert isinstance(what, Unit)
            combat.fight(battle, unit, what)
        else:
            assert not isinstance(what, Unit)
            abilities.resolve(battle, [(side.index, unit.card, unit, what)])


def reset_phase(battle: Battle, side: Side) -> None:
    """ "You may choose a single card in your hand and place it on the bottom of your deck. Then
    you must draw up to your hand size of 3." A card with a Reset ability so placed is revealed
    and its effect applies. Too few cards in the deck: rule option ``empty_deck``."""
    card = battle.policies[side.index].choose_reset(battle, side)
    if card is not None:
        other = 1 - side.index
        # Who knows where it went: its owner; the opponent when it is revealed (a Reset
        # ability) or when the opponent sees this hand face up. A card put there face down
        # also hides which of the hand's cards the opponent knew stayed in hand.
        opponent_knows = card.has(Keyword.RESET) or battle.sides[other].shows_opponent_hand()
        side.hand.remove(card)
        if opponent_knows:
            side.seen[card] = 1 << side.index | 1 << other
        else:
            side.seen[card] = 1 << side.index
            for c in side.hand:
                if c in side.seen:
                    side.seen[c] &= ~(1 << other)
        side.deck.insert(0, card)
        battle.log(f"side {side.index} resets {card.name}")
        abilities.resolve(
            battle, [(side.index, card, None, a) for a in card.by_keyword.get(Keyword.RESET, ())]
        )
        if battle.over:
            return
    need = battle.hand_size(side) - len(side.hand)
    if need > 0:
        drawn = abilities.draw(side, need)
        if drawn < need and battle.options.empty_deck == "lose":
            battle.finish(1 - side.index, "empty_deck")
