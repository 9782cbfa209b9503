"""Combat's record of what a game's effects hold (the actions a fight asks about each round,
read once per deck): worked out again whenever the game's effects are other ones, so that no
fight reads another deck's answer (the triggers it asks about: abilities.answered,
tests/test_speed_fx6.py)."""

from __future__ import annotations

from deckkit.animayhem.construction.vocabulary import Action
from deckkit.animayhem.engine import combat
from deckkit.animayhem.engine.chance import SeededChance
from deckkit.animayhem.engine.determinize import copy_game
from deckkit.animayhem.engine.play import start_game
from deckkit.animayhem.engine.policy import HeuristicPolicy
from tests.engine_helpers import NINE, bare_game, sample_setup


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


def test_each_game_keeps_its_own_combats_and_a_copy_shares_its_game_s() -> None:
    """A Dask worker's threads play other games at once, so the fights being fought are a
    game's own; a search player's copy shares its game's, whose innermost fight a combat
    rollout carries over (rollout.py)."""
    setup = sample_setup("demo-solo.deck")
    game = start_game(setup, HeuristicPolicy(), 1, 0)
    other = start_game(setup, HeuristicPolicy(), 1, 1)
    assert game.fighting == [] and other.fighting == []
    assert game.fighting is not other.fighting
    copy = copy_game(game, SeededChance(1))
    assert copy.fighting is game.fighting
