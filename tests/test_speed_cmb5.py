"""Combat's record of what a game's effects hold (the actions a fight asks about each round,
read once per deck): worked out again whenever the game's effects are other ones, so that no
fight reads another deck's answer (the triggers it asks about: abilities.answered,
tests/test_speed_fx6.py)."""

from __future__ import annotations

from deckkit.animayhem.construction.vocabulary import Action
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


def test_no_combat_is_being_fought_between_fights() -> None:
    assert combat.COMBATS == []
