"""The starting choice kept from the last game (policy._StartersSeen): a game of the same deck
finds it without making the key, and gets what a player with no choice kept picks."""

from __future__ import annotations

from deckkit.animayhem.engine import policy as policy_module
from deckkit.animayhem.engine.play import start_game
from deckkit.animayhem.engine.policy import HeuristicPolicy
from tests.engine_helpers import sample_setup


def _starters(deck: str, policy: HeuristicPolicy, index: int) -> list[int]:
    """The uids of the characters ``policy`` starts game ``index`` of ``deck`` with."""
    game = start_game(sample_setup(deck), policy, 1, index)
    return sorted(c.uid for c in game.chars if c.zone == "haven")


def test_each_game_of_a_deck_starts_as_a_player_with_nothing_kept_would() -> None:
    for deck in ("demo-solo.deck", "medium-solo.deck", "tough-solo.deck"):
        policy = HeuristicPolicy()
        for index in range(4):
            assert _starters(deck, policy, index) == _starters(deck, HeuristicPolicy(), index)
        assert len(policy._starters) == 1  # one key a deck, whatever the layout


def test_the_choice_kept_is_for_its_characters_in_their_order_and_its_table() -> None:
    """Characters in another order (another key) miss the choice kept and get what a player
    with nothing kept picks; another player's table misses it as well."""
    policy = HeuristicPolicy()
    game = start_game(sample_setup("demo-solo.deck"), policy, 1, 0)
    seen = policy_module._KEPT.starters
    assert seen is not None and seen.table is policy._starters
    chars = list(game.chars)
    for order in (chars[::-1], chars[1:] + chars[:1], chars):
        picks = policy.starting_characters(game, order, 4)
        fresh = HeuristicPolicy().starting_characters(game, order, 4)
        assert [c.uid for c in picks] == [c.uid for c in fresh]
    assert len(policy._starters) == 3
    other = HeuristicPolicy()
    assert other.starting_characters(game, chars, 4) == policy.starting_characters(game, chars, 4)
    assert len(other._starters) == 1
