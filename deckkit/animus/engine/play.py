"""One battle between two drafted teams, from shuffling to the End Phase that decides it.

Setup (animus-rules-v3.5.txt, "Setup"): "each player shuffles their 9 cards to form a deck and
draws 3 cards. Both players roll their die, high roller plays first."
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from deckkit.animus.construction.cards import Card
from deckkit.animus.construction.options import RuleOptions
from deckkit.animus.construction.rules import RuleNumbers, rule_numbers
from deckkit.animus.engine import abilities
from deckkit.animus.engine.phases import take_turn
from deckkit.animus.engine.policy import BattlePolicy, HeuristicPolicy
from deckkit.animus.engine.record import BattleRecord
from deckkit.animus.engine.state import Battle, Side
from deckkit.core.chance import Chance


@dataclass(frozen=True, slots=True)
class Lineup:
    """A team as it enters a battle: its characters and its Entity."""

    cards: tuple[Card, ...]
    entity: Card | None = None


def high_roller(chance: Chance, sides: int) -> int:
    """Both roll a die; the higher plays (or drafts) first; a tie rolls again."""
    while True:
        a, b = chance.below(sides), chance.below(sides)
        if a != b:
            return 0 if a > b else 1


def setup(
    lineups: tuple[Lineup, Lineup],
    options: RuleOptions,
    chance: Chance,
    policies: tuple[BattlePolicy, BattlePolicy] | None = None,
    numbers: RuleNumbers | None = None,
    trace: Callable[[str], None] | None = None,
    first: int | None = None,
) -> Battle:
    numbers = numbers or rule_numbers()
    sides = (
        Side(0, lineups[0].cards, lineups[0].entity),
        Side(1, lineups[1].cards, lineups[1].entity),
    )
    for side in sides:
        side.deck = list(side.team)
        chance.shuffle(side.deck)
    for side in sides:
        abilities.draw(side, numbers.opening_hand)
    record = BattleRecord.for_teams((len(sides[0].team), len(sides[1].team)))
    battle = Battle(
        sides,
        options,
        numbers,
        chance,
        policies or (HeuristicPolicy(), HeuristicPolicy()),
        record,
        trace=trace,
    )
    battle.active = high_roller(chance, numbers.die_sides) if first is None else first
    record.first = battle.active
    return battle


def run(battle: Battle) -> BattleRecord:
    """Turns until one ends the battle (levels, no characters left, empty deck, turn cap)."""
    while not battle.over:
        take_turn(battle)
        if not battle.over:
            battle.active = 1 - battle.active
    return battle.record


def play_battle(
    lineups: tuple[Lineup, Lineup],
    options: RuleOptions,
    chance: Chance,
    policies: tuple[BattlePolicy, BattlePolicy] | None = None,
    trace: Callable[[str], None] | None = None,
) -> BattleRecord:
    return run(setup(lineups, options, chance, policies, trace=trace))
