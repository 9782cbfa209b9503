"""Fights: targets, which value each fighter uses, dice with advantage, damage and kills
(animus-rules-v3.5.txt, "Combat and Combat Positions" and "Card types and Combat Advantage")."""

from __future__ import annotations

from deckkit.animus.engine import abilities
from deckkit.animus.engine.record import ATTACKER_WON, DEFENDER_WON, TIED, Stat
from deckkit.animus.engine.state import MELEE, RANGE, Battle, Unit


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


def roll(battle: Battle, advantage: bool) -> int:
    """One die, or with advantage "2 dice instead of one and either will be chosen as the final
    result": the better one is kept."""
    sides = battle.numbers.die_sides
    first = battle.chance.below(sides) + 1
    if not advantage:
        return first
    best = first
    for _ in range(battle.numbers.advantage_dice - 1):
        best = max(best, battle.chance.below(sides) + 1)
    return best


def fight(battle: Battle, attacker: Unit, defender: Unit) -> None:
    """ "Roll a die and add the proper value number ... The defending character also rolls their
    die and adds the same value number ... The character that has the highest total wins the
    fight and the loser gets 1 Damage token. In the case of a tie, both characters take Damage."
    The attacker rolls first."""
    kind = value_kind(battle, attacker, defender)
    a_adv = has_advantage(battle, attacker, defender)
    d_adv = has_advantage(battle, defender, attacker)
    if a_adv and d_adv and battle.options.mutual_advantage == "cancel":
        a_adv = d_adv = False
    a_total = roll(battle, a_adv) + battle.value(attacker, kind)
    d_total = roll(battle, d_adv) + battle.value(defender, kind)
    rec = battle.record
    rec.bump(attacker.side, attacker.index, Stat.FIGHTS)
    rec.bump(defender.side, defender.index, Stat.FIGHTS)
    battle.log(
        f"fight: {attacker.card.name} {a_total}{'*' if a_adv else ''} vs "
        f"{defender.card.name} {d_total}{'*' if d_adv else ''} ({kind})"
    )
    if a_total > d_total:
        rec.fight(attacker.card.type, defender.card.type, ATTACKER_WON)
        rec.bump(attacker.side, attacker.index, Stat.FIGHTS_WON)
        abilities.deal(battle, [(defender, 1, attacker)])
    elif d_total > a_total:
        rec.fight(attacker.card.type, defender.card.type, DEFENDER_WON)
        rec.bump(defender.side, defender.index, Stat.FIGHTS_WON)
        abilities.deal(battle, [(attacker, 1, defender)])
    else:
        rec.fight(attacker.card.type, defender.card.type, TIED)
        abilities.deal(battle, [(attacker, 1, defender), (defender, 1, attacker)])
