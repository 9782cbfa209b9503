"""The engine's per-card counters (state.bump): one list of integers a game, a card id's counters
at its slot (state.CardSlots, its deck's made once per setup), and the record's ``counters``
dictionary they fill, keyed and ordered as counting straight into it would."""

from __future__ import annotations

import pickle
from pathlib import Path

from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.deck import read_deck
from deckkit.animayhem.construction.editions import DEFAULT_EDITION, load_edition
from deckkit.animayhem.engine.chance import SeededChance
from deckkit.animayhem.engine.codes import (
    CARD_STATS,
    STAT_DEFEATED,
    STAT_EFFECTS,
    STAT_MET,
    STAT_WAS_BONKED,
)
from deckkit.animayhem.engine.play import GameOptions, finish, prepare_game, start_game
from deckkit.animayhem.engine.policy import make_policy
from deckkit.animayhem.engine.record import GameRecord
from deckkit.animayhem.engine.state import Game, bump, bump_card, count, counted_keys

REPO = Path(__file__).resolve().parent.parent


def _record() -> GameRecord:
    return GameRecord(0, "stall", 0, 0, 0, 0, "")


def _game(record: GameRecord | None = None) -> Game:
    return Game(SeededChance.for_game(1, 0), record or _record(), None)


# (card id, stat index, n) in the order a game counts them
COUNTS = [
    ("am010", STAT_MET, 1),
    ("am002", STAT_EFFECTS, 1),
    ("am010", STAT_MET, 1),
    ("am010", STAT_DEFEATED, 2),
    ("am002", STAT_EFFECTS, 1),
    ("am777", STAT_WAS_BONKED, 1),
]


def test_the_record_lists_the_counters_as_counted() -> None:
    """Same keys, values and order as GameRecord.bump straight into the dictionary: the order
    first counted (a report or a row keeps whatever order the dictionary has)."""
    game = _game()
    expected = _record()
    for card_id, stat, n in COUNTS:
        bump(game, card_id, stat, n)
        expected.bump(card_id, CARD_STATS[stat], n)
    assert list(game.record.counters.items()) == list(expected.counters.items())
    assert all(type(stat) is type(CARD_STATS[0]) for _, stat in game.record.counters)


def test_count_reads_one_counter() -> None:
    game = _game()
    for card_id, stat, n in COUNTS:
        bump(game, card_id, stat, n)
    assert count(game, "am010", STAT_MET) == 2
    assert count(game, "am010", STAT_DEFEATED) == 2
    assert count(game, "am002", STAT_EFFECTS) == 2
    assert count(game, "am002", STAT_MET) == 0
    assert count(game, "am999", STAT_MET) == 0  # a card never counted


def test_the_record_stays_up_to_date_while_the_game_goes_on() -> None:
    """Reading the record mid-game (tests, the search player) and counting on: the record's
    dictionary is the same object, brought up to date at each read."""
    game = _game()
    bump(game, "am010", STAT_MET)
    counters = game.record.counters
    assert counters == {("am010", CARD_STATS[STAT_MET]): 1}
    bump(game, "am010", STAT_MET)
    bump(game, "am003", STAT_EFFECTS)
    assert game.record.counters is counters
    assert list(counters.values()) == [2, 1]


def test_a_game_goes_on_from_its_records_counters() -> None:
    """A game given a record that already counted goes on from it; a record set later (the search
    player's fresh one) starts the counters again from that record's."""
    first = _game()
    for card_id, stat, n in COUNTS:
        bump(first, card_id, stat, n)
    carried = first.record
    second = _game(carried)
    assert count(second, "am010", STAT_MET) == 2
    bump(second, "am010", STAT_MET)
    assert second.record.counters[("am010", CARD_STATS[STAT_MET])] == 3
    second.record = _record()
    assert count(second, "am010", STAT_MET) == 0
    bump(second, "am002", STAT_EFFECTS)
    assert second.record.counters == {("am002", CARD_STATS[STAT_EFFECTS]): 1}


def test_games_of_a_setup_share_its_slots_and_a_card_outside_them_gets_a_copy() -> None:
    """The games of a setup count by its deck's slots, one object made once; a card id the deck
    does not hold is counted in a copy of the slots the game makes its own, the shared ones
    left as they were (another game of the setup counts as before)."""
    deck = read_deck(REPO / "decks" / "demo-solo.deck", load_card_db())
    setup = prepare_game(deck, load_edition(deck.edition or DEFAULT_EDITION), GameOptions())
    policy = make_policy("heuristic")
    first, second = (start_game(setup, policy, 0, i) for i in range(2))
    shared = first.slots
    assert second.slots is shared and not first.slots_own
    assert set(shared.ids) == {card.id for card in deck.cards()}
    ids = list(shared.ids)
    before = counted_keys(first)  # (setting up may count effects)
    counts = [count(first, card_id, STAT_EFFECTS) for card_id in ids]
    bump(first, "not in the deck", STAT_MET, 2)
    assert first.slots is not shared and first.slots_own and shared.ids == ids
    assert counted_keys(first) == [*before, ("not in the deck", STAT_MET)]
    assert count(first, "not in the deck", STAT_MET) == 2
    assert [count(first, card_id, STAT_EFFECTS) for card_id in ids] == counts
    assert count(second, "not in the deck", STAT_MET) == 0
    record = finish(second, setup, policy)
    assert record.counters  # the game counted by the shared slots
    assert all(key[0] in shared.index for key in record.counters)


def test_a_card_counts_at_the_slot_it_keeps_and_a_wrong_one_is_looked_up_again() -> None:
    """bump_card counts a card at the slot it keeps (``cslot``), looked up once by its id; a
    kept slot the game's slots give another id (or none) is looked up again: the counter is
    always the card id's, another card's left alone."""
    deck = read_deck(REPO / "decks" / "demo-solo.deck", load_card_db())
    setup = prepare_game(deck, load_edition(deck.edition or DEFAULT_EDITION), GameOptions())
    game = start_game(setup, make_policy("heuristic"), 0, 0)
    d = game.disasters_dealt[0]
    before = count(game, d.cid, STAT_MET)
    bump_card(game, d, STAT_MET)
    slot = game.slots.index[d.cid]
    assert d.cslot == slot
    assert count(game, d.cid, STAT_MET) == before + 1
    ids = game.slots.ids
    other = next(i for i, card_id in enumerate(ids) if card_id != d.cid)
    theirs = count(game, ids[other], STAT_MET)
    for wrong in (other, len(ids) + 5, -1):
        d.cslot = wrong
        bump_card(game, d, STAT_MET)
        assert d.cslot == slot
    assert count(game, d.cid, STAT_MET) == before + 4
    assert count(game, ids[other], STAT_MET) == theirs


def test_a_record_makes_its_counters_when_read_and_pickles_them() -> None:
    """A game's record makes its dictionary from the game's counts when read; it compares,
    prints and pickles as a record given the same dictionary."""
    game = _game()
    for card_id, stat, n in COUNTS:
        bump(game, card_id, stat, n)
    record = game.record
    assert record.counts_any()
    given = GameRecord(0, "stall", 0, 0, 0, 0, "", counters=dict(record.counters))
    assert record == given and repr(record) == repr(given)
    copied = pickle.loads(pickle.dumps(game.record))
    assert copied == record
    assert list(copied.counters.items()) == list(record.counters.items())
    fresh = _record()
    assert not fresh.counts_any() and fresh.counters == {} and fresh != record
