"""Fights: targets, which value each fighter uses, dice with advantage, damage and kills
(animus-rules-v3.5.txt, "Combat and Combat Positions" and "Card types and Combat Advantage")."""

from __future__ import annotations

from deckkit.animus.engine import abilities
from deckkit.animus.engine.queries import has_advantage, value_kind
from deckkit.animus.engine.record import ATTACKER_WON, DEFENDER_WON, TIED, Stat
from deckkit.animus.engine.state import Battle, Unit


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
