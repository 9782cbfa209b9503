"""Read-only questions about a battle, asked by the rules and by the automatic players alike:
where a card may go, which switches are legal, whom a character may fight and with which value,
who has advantage, which abilities and actions are open now. Nothing here changes the battle, so
a player weighing a move can never play a rule (the players import only this and the state).
"""

from __future__ import annotations

from deckkit.animus.construction.cards import Ability, Card, Keyword
from deckkit.animus.engine.state import MELEE, RANGE, SUPPORT, Battle, Side, Slot, Unit

# A combat-phase action: ("attack", attacker, target) or ("ability", unit, ability).
Action = tuple[str, Unit, "Unit | Ability"]
# A tactical option: the card whose ability it is, its unit (None for the Entity), the ability.
TacticalOption = tuple[Card, "Unit | None", Ability]


def open_slots(battle: Battle, side: Side) -> list[Slot]:
    """Where a card from hand may go now."""
    if side.melee is None:
        return [(MELEE, 0)]
    slots: list[Slot] = [(RANGE, k) for k, u in enumerate(side.range) if u is None]
    if any(u is not None for u in side.range) and len(side.support) < (
        battle.options.support_capacity
    ):
        slots.append((SUPPORT, len(side.support)))
    return slots


def switches(side: Side) -> list[tuple[Slot, Slot]]:
    """Every legal switch of two characters: one position forward or back, or lateral."""
    out: list[tuple[Slot, Slot]] = []
    ranges = [(RANGE, k) for k, u in enumerate(side.range) if u is not None]
    supports = [(SUPPORT, i) for i in range(len(side.support))]
    if side.melee is not None:
        out.extend(((MELEE, 0), r) for r in ranges)
    out.extend((r, s) for r in ranges for s in supports)
    if len(ranges) == 2:
        out.append((ranges[0], ranges[1]))
    out.extend((a, b) for i, a in enumerate(supports) for b in supports[i + 1 :])
    return out


def targets(battle: Battle, unit: Unit) -> list[Unit]:
    """Whom a character may fight from where it stands.

    "Characters in Melee Position ... may fight the character opposite them in Melee Position.
    They may also use their Range Value to fight the Range Position character on the left or
    right opposite to them. Characters in Range Position ... can Fight the character opposite
    them also in Range Position or the opposing character in Melee Position. Characters in
    Support position can not Fight at all."
    """
    side = battle.sides[unit.side]
    enemy = battle.sides[1 - unit.side]
    pos, k = side.slot_of(unit)
    out: list[Unit] = []
    if pos == MELEE:
        if enemy.melee is not None:
            out.append(enemy.melee)
        out.extend(u for u in enemy.range if u is not None)
    elif pos == RANGE:
        opposite = enemy.range[1 - k]
        if opposite is not None:
            out.append(opposite)
        if enemy.melee is not None:
            out.append(enemy.melee)
    return out


def value_kind(battle: Battle, attacker: Unit, defender: Unit) -> str:
    """Both fighters use the Melee Value only when Melee fights Melee; otherwise both use the
    Range Value ("A Melee Position character attacking a Range Position character will use his
    Range value"; "the attacker uses their Range value and the defender also uses their Range
    value even though he is in Melee Position"). A defender outside Melee and Range (Support,
    attacked by some effect) fights back "with the same type of combat range as their attacker"."""
    a_pos = battle.sides[attacker.side].slot_of(attacker)[0]
    d_pos = battle.sides[defender.side].slot_of(defender)[0]
    return MELEE if a_pos == MELEE and d_pos == MELEE else RANGE


def has_advantage(battle: Battle, unit: Unit, other: Unit) -> bool:
    """Advantage, when the other's type is on this card's small gem: "The smaller, lower gem
    symbol identifies which type of card it has advantage against." (``edge()`` cards: always.)"""
    return unit.card.advantage == other.card.type or battle.has_edge(unit)


def tactical_options(battle: Battle, side: Side) -> list[TacticalOption]:
    """ "Tactical: While this card is in play and during one of your Tactical Phases, you may
    apply this effect. You can only do this once per turn." Rule option ``tactical_uses``:
    once per card (each_card) or one for the player (one_per_turn)."""
    if battle.options.tactical_uses == "one_per_turn" and side.tactical_used:
        return []
    out: list[TacticalOption] = []
    for unit in side.units():
        if not unit.tactical_used:
            out.extend((unit.card, unit, a) for a in unit.card.by_keyword.get(Keyword.TACTICAL, ()))
    entity = side.entity
    if entity is not None and not side.entity_tactical_used:
        out.extend((entity, None, a) for a in entity.by_keyword.get(Keyword.TACTICAL, ()))
    return out


def combat_options(battle: Battle, side: Side) -> list[Action]:
    """ "Your characters in play may each attack once per turn"; "Combat: ... you may apply this
    effect instead of attacking with this card. This can be done even in Support Position."
    A character moved up from Support during the phase "can now attack"."""
    out: list[Action] = []
    for unit in side.units():
        if unit.acted:
            continue
        out.extend(("attack", unit, t) for t in targets(battle, unit))
        out.extend(("ability", unit, a) for a in unit.card.by_keyword.get(Keyword.COMBAT, ()))
    return out


def known_hand(battle: Battle, viewer: int, index: int) -> list[Card | None]:
    """Side ``index``'s hand as side ``viewer`` knows it: each card, or None where the viewer
    cannot tell which card it is. A player knows its own hand; a reveal(what=opponent_hand) of
    the viewer ("Your opponent plays with their hand face up", "Entity Cards") shows the other
    hand; a card seen face up on top of the deck as it was drawn stays known."""
    side = battle.sides[index]
    if index == viewer or battle.sides[viewer].shows_opponent_hand():
        return list(side.hand)
    return [c if side.seen.get(c, 0) >> viewer & 1 else None for c in side.hand]


def known_deck(battle: Battle, viewer: int, index: int) -> list[Card | None]:
    """Side ``index``'s deck (bottom first) as side ``viewer`` knows it: the top card when it is
    face up ("The top card of your deck is also face up"), the cards the viewer saw put on the
    bottom (the owner always; the opponent when revealed: "Reset: ... reveal this card to your
    opponent and place it on the bottom of your deck"); None elsewhere."""
    side = battle.sides[index]
    out: list[Card | None] = [c if side.seen.get(c, 0) >> viewer & 1 else None for c in side.deck]
    if out and side.shows_deck_top():
        out[-1] = side.deck[-1]
    return out
