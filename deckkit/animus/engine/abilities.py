"""The ability interpreter: damage and kills, and the effects of ability lines
(animus-rules-v3.5.txt, "Card Ability Definitions"; the vocabulary is docs/animus-cards.md).

"Timing of abilities: Sometimes certain character abilities will trigger at the same time. The
player who's turn it is, decides what order the abilities resolve." The active player's
triggers resolve first, in the order they arose.
"""

from __future__ import annotations

from deckkit.animus.construction.cards import Ability, Card, Effect, Keyword
from deckkit.animus.engine import endgame, positions
from deckkit.animus.engine.record import Stat
from deckkit.animus.engine.state import Battle, Side, Slot, Unit

# A pending trigger: (side, the card whose ability it is, its unit if in play or just killed,
# the ability).
Trigger = tuple[int, Card, Unit | None, Ability]


def deal(battle: Battle, hits: list[tuple[Unit, int, Unit | None]]) -> None:
    """Damage tokens on characters at once (a tie damages both), then the kills: "all
    characters are Killed and discarded if they receive 3 Damage tokens"."""
    dead: list[tuple[Unit, Unit | None]] = []
    hurt: list[Unit] = []
    for unit, n, source in hits:
        unit.damage += n
        if unit.damage >= battle.kill_threshold(unit):
            dead.append((unit, source))
        else:
            hurt.append(unit)
    if dead:
        kill(battle, dead)
    if battle.over:
        return
    triggers: list[Trigger] = []
    for unit in hurt:
        if unit in battle.sides[unit.side].units():
            triggers.extend(_reactions(unit.side, [unit], "damaged"))
    resolve(battle, triggers)


def kill(battle: Battle, dead: list[tuple[Unit, Unit | None]]) -> None:
    """Discard the killed, shift up behind them at once, then Kill, Death and Reaction
    triggers ("If a character is Killed, the player must immediately shift up any characters
    that are behind")."""
    vacated: dict[int, list[Slot]] = {0: [], 1: []}
    triggers: list[Trigger] = []
    rec = battle.record
    for unit, killer in dead:
        side = battle.sides[unit.side]
        vacated[unit.side].append(positions.remove(side, unit))
        side.discard.append(unit.card)
        side.levels_lost += unit.card.level
        rec.levels_lost[unit.side] = side.levels_lost
        rec.bump(unit.side, unit.index, Stat.KILLED)
        battle.log(f"killed: {unit.card.name} (side {unit.side}, {side.levels_lost} levels lost)")
        if killer is not None and killer.side != unit.side:
            rec.bump(killer.side, killer.index, Stat.KILLS)
            triggers.extend(
                (killer.side, killer.card, killer, a)
                for a in killer.card.by_keyword.get(Keyword.KILL, ())
            )
        triggers.extend(
            (unit.side, unit.card, unit, a) for a in unit.card.by_keyword.get(Keyword.DEATH, ())
        )
    for index in (battle.active, 1 - battle.active):
        if vacated[index]:
            positions.shift_up(battle, battle.sides[index], vacated[index])
    if endgame.out_of_characters(battle):
        return
    for unit, _ in dead:
        triggers.extend(_reactions(unit.side, battle.sides[unit.side].units(), "ally_killed"))
        entity = battle.sides[unit.side].entity
        if entity is not None:
            triggers.extend(
                (unit.side, entity, None, a)
                for a in entity.by_keyword.get(Keyword.REACTION, ())
                if a.condition == "ally_killed"
            )
    resolve(battle, triggers)


def _reactions(side: int, units: list[Unit], condition: str) -> list[Trigger]:
    return [
        (side, u.card, u, a)
        for u in units
        for a in u.card.by_keyword.get(Keyword.REACTION, ())
        if a.condition == condition
    ]


def resolve(battle: Battle, triggers: list[Trigger]) -> None:
    """The active player's triggers first; a Reaction does not set off further Reactions
    (one level deep, so two cards cannot trade Reactions forever)."""
    ordered = sorted(triggers, key=lambda t: t[0] != battle.active)
    for side, card, unit, ability in ordered:
        if battle.over:
            return
        if ability.keyword is Keyword.REACTION:
            if battle.resolving_reaction:
                continue
            battle.resolving_reaction = True
            try:
                apply(battle, battle.sides[side], card, unit, ability)
            finally:
                battle.resolving_reaction = False
        else:
            apply(battle, battle.sides[side], card, unit, ability)


def apply(battle: Battle, side: Side, card: Card, unit: Unit | None, ability: Ability) -> None:
    """One ability's effect. Standing effects (boost, edge, tough, hand) are read where they
    matter (Battle.value, kill_threshold, hand_size) and never applied here."""
    policy = battle.policies[side.index]
    if card in side.team:
        battle.record.bump(side.index, side.team.index(card), Stat.ABILITIES)
    battle.log(f"ability: {card.name} {ability.text()}")
    if ability.effect is Effect.DAMAGE:
        enemy = battle.sides[1 - side.index]
        target = policy.damage_target(battle, side, enemy.units(), ability.n)
        if target is not None:
            deal(battle, [(target, ability.n, unit)])
    elif ability.effect is Effect.HEAL:
        hurt = [u for u in side.units() if u.damage > 0]
        target = policy.heal_target(battle, side, hurt) if hurt else None
        if target is not None:
            target.damage = max(0, target.damage - ability.n)
    elif ability.effect is Effect.DRAW:
        draw(side, ability.n)


def draw(side: Side, n: int) -> int:
    """Draw up to ``n`` cards from the top of the deck; returns how many were drawn. A deck
    whose top card is face up ("The top card of your deck is also face up", "Entity Cards")
    shows each card to both players before it is drawn, so both know it is in this hand."""
    drawn = 0
    while drawn < n and side.deck:
        card = side.deck.pop()
        if side.shows_deck_top():
            side.seen[card] = BOTH
        side.hand.append(card)
        drawn += 1
    return drawn


BOTH = 0b11  # Side.seen: both players know where the card is
