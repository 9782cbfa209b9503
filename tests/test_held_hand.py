"""The held hand (policy.HOLD_HAND): what the player counts of the draw pile, and when it holds.

Reload draws until the hand holds 7 cards or a disaster is drawn (set0 rulebook, "Reload
Phase"), and playing or discarding a card is the player's choice ("Equip Phase", "Discard
Phase": "You may"), so a player who keeps a full hand draws no disaster from the pile.
"""

from __future__ import annotations

import pytest

from deckkit.animayhem.engine import policy as policy_module
from deckkit.animayhem.engine.codes import KIND_EQUIPMENT, TYPE_EQUIPMENT
from deckkit.animayhem.engine.play import finish, start_game
from deckkit.animayhem.engine.policy import (
    HeuristicPolicy,
    RandomPolicy,
    holds_hand,
    waits_for_bonked,
)
from deckkit.animayhem.engine.queries import draw_may_bring_disaster, draw_pile_disasters
from deckkit.animayhem.engine.state import Dis, Game
from tests.engine_helpers import sample_setup


def _true_count(game: Game) -> int:
    return sum(isinstance(x, Dis) for x in game.draw_pile)


@pytest.mark.parametrize(
    ("deck", "player", "games"),
    [
        ("tough-solo.deck", HeuristicPolicy, 12),
        ("tricky-solo.deck", HeuristicPolicy, 12),
        # The random player plays and discards freely: its piles run out and are reshuffled.
        ("hard-solo.deck", RandomPolicy, 12),
        ("medium-solo.deck", RandomPolicy, 12),
    ],
)
def test_the_player_s_count_of_the_pile_s_disasters_is_the_pile_s(
    deck: str, player: type[HeuristicPolicy] | type[RandomPolicy], games: int
) -> None:
    """After every phase of real games, the disasters the player counts in the draw pile (the
    deck's, less those seen out of it and those face down under the locations) are the pile's."""
    setup = sample_setup(deck)
    checked = 0
    grew = 0  # phases after which the pile held more cards: a reshuffle or a card put back
    size = 0

    def check(game: Game) -> None:
        nonlocal checked, grew, size
        assert draw_pile_disasters(game) == _true_count(game), (game.turn, game.phase)
        checked += 1
        grew += len(game.draw_pile) > size
        size = len(game.draw_pile)

    policy = player()
    for i in range(games):
        game = start_game(setup, policy, 5, i)
        size = len(game.draw_pile)
        check(game)
        finish(game, setup, policy, after_phase=check)
    assert checked > 100
    if player is RandomPolicy:
        assert grew > 0


def test_the_count_leaves_out_the_face_down_disasters() -> None:
    """A disaster moved from the pile to lie face down under a location is no longer counted in
    the pile: the count is the deck's disasters less what lies face down in view."""
    setup = sample_setup("tough-solo.deck")
    game = start_game(setup, HeuristicPolicy(), 1, 0)
    before = draw_pile_disasters(game)
    assert before == _true_count(game) > 0
    d = next(x for x in game.draw_pile if isinstance(x, Dis))
    game.draw_pile.remove(d)
    d.zone = "location"
    game.locs[0].hidden_disasters.append(d)
    assert draw_pile_disasters(game) == before - 1 == _true_count(game)


def test_a_draw_may_bring_a_disaster_from_the_pile_or_from_a_reshuffle() -> None:
    setup = sample_setup("tough-solo.deck")
    game = start_game(setup, HeuristicPolicy(), 1, 0)
    assert draw_may_bring_disaster(game)
    dis = [x for x in game.draw_pile if isinstance(x, Dis)]
    for d in dis:  # every disaster out of the pile, face up in the discard pile
        game.draw_pile.remove(d)
        d.zone = "discard"
        game.discard.append(d)
    assert draw_pile_disasters(game) == 0
    assert game.hand_limit == 7  # the edition's (guidelines1998: hand_limit)
    while len(game.draw_pile) < game.hand_limit:  # (tough's pile is mostly disasters: fill it)
        game.draw_pile.append(game.hand.pop())
    assert not draw_may_bring_disaster(game)  # the pile cannot run out in one Reload
    del game.draw_pile[3:]
    assert draw_may_bring_disaster(game)  # it can, and the reshuffled discard holds disasters
    game.discard = [x for x in game.discard if not isinstance(x, Dis)]
    assert not draw_may_bring_disaster(game)


def test_the_player_holds_its_hand_then_plays_once_the_game_stands_still() -> None:
    """While a draw could bring a disaster the heuristic player plays no equipment and discards
    nothing; after IDLE_TURNS turns with nothing changed under the locations or in the items it
    holds, it plays as before. With the pile's disasters gone it plays at once."""
    setup = sample_setup("tough-solo.deck")
    player = HeuristicPolicy()
    for i in range(40):
        game = start_game(setup, player, 1, i)
        if any(x.g.kind == KIND_EQUIPMENT for x in game.hand):
            break
    else:
        pytest.fail("no opening hand with equipment")
    game.turn = 1
    assert holds_hand(game)
    assert player.power_card(game, TYPE_EQUIPMENT, False) is None
    assert player.discards(game) == []
    game.turn = 1 + policy_module.IDLE_TURNS - 1
    assert player.power_card(game, TYPE_EQUIPMENT, False) is None  # still within the bound
    game.turn = 1 + policy_module.IDLE_TURNS
    assert not holds_hand(game)
    played = player.power_card(game, TYPE_EQUIPMENT, False)
    assert played is not None and played[0].g.kind == KIND_EQUIPMENT
    # Something changes under the locations: the count starts again.
    game.locs[0].hidden_cards.pop()
    assert holds_hand(game)
    # No disaster left to draw: nothing to hold the hand for.
    for x in [x for x in game.draw_pile if isinstance(x, Dis)]:
        game.draw_pile.remove(x)
        x.zone = "discard"
    game.discard = []
    assert not holds_hand(game)
    assert player.power_card(game, TYPE_EQUIPMENT, False) is not None


def test_a_party_waits_for_a_bonked_character_before_it_scavenges_above_a_disaster() -> None:
    """While the hand is held and no disaster is face up, a party does not scavenge above a
    face-down disaster while one of the player's characters is bonked (WAIT_FOR_BONKED: the
    character is back within a turn and nothing on the field moves meanwhile); with no one
    bonked, or with a disaster face up, it scavenges as before."""
    setup = sample_setup("medium-solo.deck")
    player = HeuristicPolicy()
    game = start_game(setup, player, 1, 0)
    game.turn = 1
    slot = next(s for s, loc in enumerate(game.locs) if loc.hidden_disasters)
    party = [c for c in game.chars if c.zone == "haven"][:3]
    assert len(party) == 3 and not game.disasters and holds_hand(game)
    for c in party:
        c.zone, c.slot = "field", slot
    assert not waits_for_bonked(game, slot)
    assert player.scavenge(game, party, slot)
    out = next(c for c in game.chars if c not in party and c.zone in ("haven", "hand"))
    out.zone = "bonked"
    assert waits_for_bonked(game, slot)
    assert not player.scavenge(game, party, slot)
    game.hold_mark = (game.hold_mark[0], game.turn - 3)  # the game has stood still: no hold
    assert not holds_hand(game) and player.scavenge(game, party, slot)
