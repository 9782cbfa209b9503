"""The one real Entity ability the rules print, in deckkit's vocabulary: reveal().

animus-rules-v3.5.txt, "Entity Cards", the example card (A: its name, B: its ability):
"A. OMNISCIENT ARTIFICIAL INTELLIGENCE ... B. Ongoing: Your opponent plays with their hand face
up. The top card of your deck is also face up." and "Ongoing: As long as this card is in Play,
this ability is in effect." ("Card Ability Definitions"). What is face up is what a player
knows: the queries ``known_hand`` / ``known_deck``, the search player's determinization and the
battle's log all read it.
"""

from __future__ import annotations

import pytest
from animus_helpers import card, filler

from deckkit.animus.construction.carddb import _abilities, load_cards
from deckkit.animus.construction.cards import DECK_TOP, OPPONENT_HAND, Effect, Keyword, Kind
from deckkit.animus.construction.options import RuleOptions
from deckkit.animus.engine import phases
from deckkit.animus.engine.determinize import copy_battle, deal
from deckkit.animus.engine.play import Lineup, setup
from deckkit.animus.engine.policy import HeuristicPolicy
from deckkit.animus.engine.queries import known_deck, known_hand
from deckkit.animus.engine.state import Battle
from deckkit.core.chance import ScriptedChance, SeededChance

AI = "Omniscient Artificial Intelligence"


def _bad(column: str, message: str, hint: str | None = None) -> Exception:
    return ValueError(f"{column}: {message}")


def the_entity() -> object:
    found = load_cards().find(AI)
    assert found is not None
    return found


def _battle(entity: bool, *, seed: int | None = None, log: list[str] | None = None) -> Battle:
    """Side 0 fields the real Entity (or none); side 1 none. Scripted chance: decks keep
    their order, so each opening hand is its team's last three cards."""
    mine, theirs = filler("m", 9), filler("t", 9)
    ent = load_cards().find(AI) if entity else None
    chance = SeededChance(seed) if seed is not None else ScriptedChance()
    return setup(
        (Lineup(tuple(mine), ent), Lineup(tuple(theirs))),
        RuleOptions(),
        chance,
        first=0,
        trace=log.append if log is not None else None,
    )


def test_the_real_entity_is_written_in_the_vocabulary() -> None:
    """Both sentences of its Ongoing ability are one reveal() each; the row is marked real."""
    ai = load_cards().find(AI)
    assert ai is not None and ai.kind is Kind.ENTITY and not ai.made_up
    assert [(a.keyword, a.effect, a.what) for a in ai.abilities] == [
        (Keyword.ONGOING, Effect.REVEAL, OPPONENT_HAND),
        (Keyword.ONGOING, Effect.REVEAL, DECK_TOP),
    ]
    assert "; ".join(a.text() for a in ai.abilities) == (
        "Ongoing: reveal(what=opponent_hand); Ongoing: reveal(what=deck_top)"
    )
    assert ai.shows_opponent_hand and ai.shows_deck_top


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Play: reveal(what=deck_top)", "standing effect"),
        ("Ongoing: reveal(what=everything)", "opponent_hand, deck_top"),
        ("Ongoing: reveal()", "needs what="),
        ("Ongoing: reveal(1)", "takes no argument"),
    ],
)
def test_a_malformed_reveal_is_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _abilities(text, Kind.ENTITY, _bad)


def test_your_opponent_plays_with_their_hand_face_up() -> None:
    """ "Your opponent plays with their hand face up": side 0 (the Entity) knows side 1's
    whole hand; without the Entity, no card of it."""
    b = _battle(True)
    assert len(b.sides[1].hand) == 3
    assert known_hand(b, 0, 1) == b.sides[1].hand
    plain = _battle(False)
    assert known_hand(plain, 0, 1) == [None, None, None]
    # A player always knows its own hand.
    assert known_hand(plain, 1, 1) == plain.sides[1].hand


def test_the_top_card_of_your_deck_is_also_face_up() -> None:
    """ "The top card of your deck is also face up": both players know side 0's top card and
    no other card of its deck; the other deck stays face down."""
    b = _battle(True)
    deck = b.sides[0].deck
    for viewer in (0, 1):
        assert known_deck(b, viewer, 0) == [None] * (len(deck) - 1) + [deck[-1]]
        assert known_deck(b, viewer, 1) == [None] * len(b.sides[1].deck)
    plain = _battle(False)
    assert known_deck(plain, 1, 0) == [None] * len(plain.sides[0].deck)


def test_a_card_seen_face_up_on_top_stays_known_in_the_hand() -> None:
    """Every card side 0 draws was face up on its deck first, so side 1 saw it go into the
    hand (the opening hand too: "Choose Entities" comes before "each player ... draws 3
    cards"). Without the Entity side 1 knows none of them."""
    b = _battle(True)
    assert known_hand(b, 1, 0) == b.sides[0].hand
    plain = _battle(False)
    assert known_hand(plain, 1, 0) == [None, None, None]


def test_a_revealed_reset_card_is_known_at_the_bottom_and_a_plain_one_only_to_its_owner() -> None:
    """ "Reset: ... you may reveal this card to your opponent and place it on the bottom of
    your deck"; the plain Reset Phase card ("place it on the bottom of your deck") is not
    shown."""
    shown = card("Shown", text="Reset: draw(1)")
    quiet = card("Quiet")
    mine = [*filler("m", 7), quiet, shown]
    b = setup(
        (Lineup(tuple(mine)), Lineup(tuple(filler("t", 9)))),
        RuleOptions(),
        ScriptedChance(),
        first=0,
    )

    class Resets(HeuristicPolicy):
        def __init__(self, which: object) -> None:
            super().__init__()
            self.which = which

        def choose_reset(self, battle: Battle, side: object) -> object:  # type: ignore[override]
            return self.which

    side = b.sides[0]
    assert shown in side.hand and quiet in side.hand
    b.policies = (Resets(shown), HeuristicPolicy())
    phases.reset_phase(b, side)
    assert side.deck[0] is shown
    assert known_deck(b, 1, 0)[0] is shown and known_deck(b, 0, 0)[0] is shown
    b.policies = (Resets(quiet), HeuristicPolicy())
    phases.reset_phase(b, side)
    assert side.deck[0] is quiet
    assert known_deck(b, 0, 0)[:2] == [quiet, shown]  # its owner put both there
    assert known_deck(b, 1, 0)[:2] == [None, shown]


def test_a_determinization_keeps_what_the_entity_shows_and_deals_the_rest() -> None:
    """The search player's imagined deal: with the Entity, side 1's hand and side 0's top
    card are the true ones in every sample; side 1's deck is dealt again. Without the Entity,
    side 1's hand is dealt again too."""
    hands, decks, plain_hands = set(), set(), set()
    for s in range(12):
        b = _battle(True, seed=5)
        copy = copy_battle(b, SeededChance(s), (HeuristicPolicy(), HeuristicPolicy()))
        deal(copy, 0, SeededChance(100 + s))
        assert copy.sides[1].hand == b.sides[1].hand
        assert copy.sides[0].deck[-1] is b.sides[0].deck[-1]
        assert copy.sides[0].hand == b.sides[0].hand
        assert sorted(c.name for c in copy.sides[1].deck) == sorted(c.name for c in b.sides[1].deck)
        hands.add(tuple(c.name for c in copy.sides[1].hand))
        decks.add(tuple(c.name for c in copy.sides[1].deck))
        plain = _battle(False, seed=5)
        pcopy = copy_battle(plain, SeededChance(s), (HeuristicPolicy(), HeuristicPolicy()))
        deal(pcopy, 0, SeededChance(100 + s))
        plain_hands.add(tuple(c.name for c in pcopy.sides[1].hand))
    assert len(hands) == 1 and len(decks) > 1 and len(plain_hands) > 1


def test_the_log_shows_what_is_face_up_at_the_start_of_turn() -> None:
    log: list[str] = []
    b = _battle(True, log=log)
    phases.take_turn(b)
    hand_line = next(line for line in log if line.startswith("face up: side 1's hand"))
    assert hand_line.endswith(": t8, t7, t6")
    assert any(line.startswith("face up: side 0's deck top: ") for line in log)
