"""Many seeded battles, checked after every turn: cards are conserved, positions fill front to
back, nobody stays in play with 3 tokens, discarded levels add up, every battle ends; and the
automatic players never look at hidden cards."""

from __future__ import annotations

import pytest

from deckkit.animayhem.engine.chance import SeededChance
from deckkit.animus.construction.carddb import load_cards
from deckkit.animus.construction.options import RuleOptions
from deckkit.animus.engine.draft import DRAFT_POLICIES, draft
from deckkit.animus.engine.phases import take_turn
from deckkit.animus.engine.play import Lineup, setup
from deckkit.animus.engine.policy import HeuristicPolicy, RandomPolicy
from deckkit.animus.engine.state import Battle


def _check(b: Battle) -> None:
    for side in b.sides:
        held = [u.card for u in side.units()] + side.hand + side.deck + side.discard
        assert sorted(c.name for c in held) == sorted(c.name for c in side.team)
        if any(side.range):
            assert side.melee is not None
        if side.support:
            assert any(side.range)
        assert len(side.support) <= b.options.support_capacity
        assert all(u.damage < b.kill_threshold(u) for u in side.units())
        assert side.levels_lost == sum(c.level for c in side.discard)


@pytest.mark.parametrize(
    "options",
    [
        RuleOptions(),
        RuleOptions(
            support_slots="1",
            tactical_uses="one_per_turn",
            last_character="in_play",
            mutual_advantage="cancel",
        ),
    ],
)
def test_invariants_hold_in_drafted_battles(options: RuleOptions) -> None:
    cards = load_cards()
    policies = [HeuristicPolicy, RandomPolicy]
    for i in range(60):
        chance = SeededChance.for_game(99, i)
        names = sorted(DRAFT_POLICIES)
        result = draft(
            cards,
            (
                DRAFT_POLICIES[names[i % len(names)]](),
                DRAFT_POLICIES[names[(i // 2) % len(names)]](),
            ),
            chance,
        )
        lineups = (
            Lineup(result.team(0), cards.entities[i % len(cards.entities)]),
            Lineup(result.team(1), cards.entities[(i + 1) % len(cards.entities)]),
        )
        b = setup(lineups, options, chance, (policies[i % 2](), policies[(i // 2) % 2]()))
        while not b.over:
            take_turn(b)
            _check(b)
            if not b.over:
                b.active = 1 - b.active
        assert b.record.turns <= options.turn_cap
        assert b.record.reason


def test_the_heuristic_player_does_not_look_at_hidden_cards() -> None:
    """Reordering the decks and the opponent's hand changes no decision of side 0."""
    cards = load_cards()
    chars = cards.characters
    lineups = (Lineup(chars[0:9]), Lineup(chars[9:18]))
    decisions = []
    for seed in range(4):
        b = setup(lineups, RuleOptions(), SeededChance(0), first=0)
        # same hand for side 0, different hidden orders
        for side in b.sides:
            side.deck = list(side.team)
            side.hand = []
        b.sides[0].hand = [side_card for side_card in chars[0:3]]
        for c in b.sides[0].hand:
            b.sides[0].deck.remove(c)
        SeededChance(seed).shuffle(b.sides[0].deck)
        SeededChance(seed + 50).shuffle(b.sides[1].deck)
        b.sides[1].hand = [b.sides[1].deck.pop() for _ in range(3)]
        policy = HeuristicPolicy()
        play = policy.choose_play(b, b.sides[0], mandatory=True)
        assert play is not None
        decisions.append((play[0].name, play[1], policy.choose_reset(b, b.sides[0])))
    assert len(set(decisions)) == 1
