"""Combat's records of what a game's effects hold (the actions and triggers a fight asks about
each round, read once per deck): worked out again whenever the game's effects are other ones,
so that no fight reads another deck's answer."""

from __future__ import annotations

from deckkit.animayhem.construction.vocabulary import Action, Trigger
from deckkit.animayhem.engine import combat
from tests.engine_helpers import NINE, bare_game


def test_combat_actions_follow_the_games_set() -> None:
    game = bare_game(NINE)
    game.acts = frozenset({Action.WEAR, Action.STRIKES})
    acts = combat._acts_of(game)
    assert acts.wear and acts.strikes and not acts.immune and not acts.recycle
    other = bare_game(NINE)
    other.acts = frozenset({Action.IMMUNE})
    acts = combat._acts_of(other)
    assert acts.immune and not acts.wear and not acts.strikes
    game.acts = frozenset()
    assert not combat._acts_of(game).immune


def test_combat_triggers_follow_the_games_effects() -> None:
    game = bare_game(NINE)
    game.fx = {"a": {Trigger.TURN: ()}}
    found = combat._triggers_of(game)
    assert not found.combat and not found.round and not found.hurt
    # An entry added to the same dictionary (a haven built, or a card's effects put in).
    game.fx["b"] = {Trigger.ROUND: (), Trigger.HURT: ()}
    found = combat._triggers_of(game)
    assert found.round and found.hurt and not found.combat
    other = bare_game(NINE)
    other.fx = {"c": {Trigger.COMBAT: ()}}
    found = combat._triggers_of(other)
    assert found.combat and not found.round and not found.hurt


def test_no_combat_is_being_fought_between_fights() -> None:
    assert combat.COMBATS == []
