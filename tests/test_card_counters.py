"""The engine's per-card counters (state.bump): a row of integers per card id, and the record's
``counters`` dictionary they fill, keyed and ordered as counting straight into it would."""

from __future__ import annotations

from deckkit.animayhem.engine.chance import SeededChance
from deckkit.animayhem.engine.codes import (
    CARD_STATS,
    STAT_DEFEATED,
    STAT_EFFECTS,
    STAT_MET,
    STAT_WAS_BONKED,
)
from deckkit.animayhem.engine.record import GameRecord
from deckkit.animayhem.engine.state import Game, bump, count


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
