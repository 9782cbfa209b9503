"""A turn (animus-rules-v3.5.txt, "Turn Order"): Start of Turn, Tactical Phase 1, Combat Phase,
Tactical Phase 2, Reset Phase, End Phase."""

from __future__ import annotations

from deckkit.animus.construction.cards import Card, Keyword
from deckkit.animus.engine import abilities, combat, endgame, positions, queries
from deckkit.animus.engine.queries import combat_options, tactical_options
from deckkit.animus.engine.record import Stat
from deckkit.animus.engine.state import Battle, Side, Slot, Unit


def take_turn(battle: Battle) -> None:
    side = battle.sides[battle.active]
    battle.turn += 1
    battle.record.turns = battle.turn
    side.played = side.switched = side.tactical_used = side.entity_tactical_used = False
    for unit in side.units():  # Start of Turn: each character may attack / use abilities again
        unit.acted = unit.tactical_used = False
    battle.log(f"turn {battle.turn}: side {side.index}")
    for phase in (tactical_phase, combat_phase, tactical_phase, reset_phase):
        phase(battle, side)
        if battle.over:
            return
    endgame.end_phase(battle)


def play_card(battle: Battle, side: Side, card: Card, slot: Slot) -> Unit:
    """Put a card from hand into play; its Play abilities apply ("Play: When you Play this card
    from your hand, apply this effect")."""
    unit = Unit(card, side.index, side.team.index(card))
    positions.place(battle, side, unit, slot)
    side.hand.remove(card)
    side.played = True
    battle.record.bump(side.index, unit.index, Stat.PLAYED)
    battle.log(f"side {side.index} plays {card.name} to {slot[0]}")
    abilities.resolve(
        battle, [(side.index, card, unit, a) for a in card.by_keyword.get(Keyword.PLAY, ())]
    )
    return unit


def tactical_phase(battle: Battle, side: Side) -> None:
    """ "You may play one card from your hand. You may also use your characters' Tactical
    abilities ... You may also switch the combat positions of your characters. This can only be
    done once per turn." Phase 2: the same, "only if you have not already done so". "It is only
    mandatory to play a card if you have no cards in play.\""""
    policy = battle.policies[side.index]
    if not side.played and side.hand:
        mandatory = not side.units()
        choice = policy.choose_play(battle, side, mandatory)
        if choice is None and mandatory:
            choice = (side.hand[0], queries.open_slots(battle, side)[0])
        if choice is not None:
            play_card(battle, side, *choice)
            if battle.over:
                return
    if not side.switched:
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
        side.hand.remove(card)
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
