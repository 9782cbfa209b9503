"""A finished game's characters, disasters and locations set up again for the next game dealt
from the same setup (setup.take_back, setup._Dealt.spare): each may save work, none may change
a game."""

from __future__ import annotations

import pytest

from deckkit.animayhem.engine.play import finish, play_game, release, start_game
from deckkit.animayhem.engine.policy import HeuristicPolicy
from deckkit.animayhem.engine.setup import _dealt, take_back
from tests.engine_helpers import sample_setup


@pytest.mark.parametrize("deck", ["demo-solo.deck", "medium-solo.deck", "tricky-solo.deck"])
def test_a_game_dealt_from_the_last_game_s_objects_plays_as_one_dealt_new(deck: str) -> None:
    """Each game is played twice: dealt from the objects the last game handed back (they are
    those objects), and dealt from new ones (none of them); the two records are equal."""
    setup = sample_setup(deck)
    reused, fresh = HeuristicPolicy(), HeuristicPolicy()
    dealt = _dealt(setup, setup.edition)
    dealt.spare = None
    for i in range(25):
        kept = dealt.spare
        game = start_game(setup, reused, 5, i)
        assert dealt.spare is None  # taken
        if i:
            assert kept is not None
            assert [id(c) for c in game.chars] == [id(c) for c in kept[0]]
            assert [id(d) for d in game.disasters_dealt] == [id(d) for d in kept[1]]
            assert {id(loc) for loc in game.locs} == {id(loc) for loc in kept[2]}
        a = finish(game, setup, reused)
        release(game)
        take_back(game, setup)
        spare = dealt.spare
        assert spare is not None and spare[0] is game.chars
        dealt.spare = None
        new = start_game(setup, fresh, 5, i)
        held = {id(x) for pile in spare for x in pile}
        objects = [*new.chars, *new.disasters_dealt, *new.locs]
        assert not any(id(x) in held for x in objects)
        b = finish(new, setup, fresh)
        release(new)
        dealt.spare = spare
        assert a == b


def test_play_game_hands_its_objects_back_and_a_started_game_keeps_them() -> None:
    """play_game hands back the game it played (the next game takes them); a game started for
    a caller (start_game) is never handed back."""
    setup = sample_setup("demo-solo.deck")
    policy = HeuristicPolicy()
    dealt = _dealt(setup, setup.edition)
    play_game(setup, policy, 1, 0)
    spare = dealt.spare
    assert spare is not None
    game = start_game(setup, policy, 1, 1)
    assert dealt.spare is None and game.chars[0] is spare[0][0]
    play_game(setup, policy, 1, 2)  # dealt new objects, handed back
    assert dealt.spare is not None and not any(c is game.chars[0] for c in dealt.spare[0])


def test_a_record_read_after_later_games_holds_its_own_game_s_counters() -> None:
    """A record builds its counters' dictionary when first read, from the game's count lists;
    read only after later games of the same setup were played on the same objects, it still
    holds its own game's counts (as read at once, game by game, from another setup's)."""
    at_once = sample_setup("medium-solo.deck")
    expected = [dict(play_game(at_once, HeuristicPolicy(), 5, i).counters) for i in range(12)]
    setup = sample_setup("medium-solo.deck")
    policy = HeuristicPolicy()
    unread = [play_game(setup, policy, 5, i) for i in range(12)]
    for record, counters in zip(unread, expected, strict=True):
        assert record.counters == counters and counters
        assert list(record.counters) == list(counters)
